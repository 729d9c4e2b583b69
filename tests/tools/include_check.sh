#!/usr/bin/env bash
# include_check.sh - holds the layers apart: portable code reaches arch/x86 only through
# kernel/arch.h, and the kernel core and the arch reach tracers only through hooks.
#
# Usage: tests/tools/include_check.sh [TREE]   (TREE: the source tree, default the repo)
# Prints the include edges between the top folders (kernel, trace, arch, drivers, uapi) as
# "from -> to: N", the same between their subsystem folders (kernel/mm, trace/core, ...),
# then one line per include that breaks a rule, and exits 1 if any does:
#   1. no file under kernel/ or trace/ includes an arch/x86/ header, except kernel/arch.h
#      (the one door to the machine) and the entries of ALLOW_ARCH below;
#   2. no file under kernel/ or arch/ includes a trace/ header, except the entries of
#      ALLOW_TRACE below: each says why it is still there and what removes it;
#   3. every allow-list entry names an include that still exists.
set -u
cd "${1:-$(dirname "$0")/../..}"

# file:header, why it may stay for now. Keep these short: each is work for the next session.
ALLOW_ARCH=(
)
ALLOW_TRACE=(
)

allowed() { # list-name file:header
    local -n list=$1
    local entry
    for entry in "${list[@]}"; do [ "$entry" = "$2" ] && return 0; done
    return 1
}

# Every project include as "file header", from the five top folders.
edges=$(grep -rHo --include='*.c' --include='*.h' '^#include "[a-z_0-9]*/[^"]*"' \
            kernel trace arch drivers uapi 2>/dev/null |
        sed 's/:#include "/ /; s/"$//')

echo "# include edges between top folders (includes: from -> to)"
echo "$edges" | awk '{ split($1, a, "/"); split($2, b, "/");
                       if (a[1] != b[1]) n[a[1] " -> " b[1]]++ }
                     END { for (e in n) printf "#   %s: %d\n", e, n[e] }' | sort

echo "# include edges between subsystem folders"
echo "$edges" | awk '{ a = $1; b = $2; sub(/\/[^\/]*$/, "", a); sub(/\/[^\/]*$/, "", b);
                       if (a != b) n[a " -> " b]++ }
                     END { for (e in n) printf "#   %s: %d\n", e, n[e] }' | sort

bad=0
while read -r file header; do
    [ -n "$file" ] || continue
    case "$file:$header" in
        kernel/arch.h:arch/x86/*) ;;
        kernel/*:arch/x86/* | trace/*:arch/x86/*)
            allowed ALLOW_ARCH "$file:$header" ||
                { echo "include_check: $file includes $header (portable code: use kernel/arch.h)"; bad=1; } ;;
        kernel/*:trace/* | arch/*:trace/*)
            allowed ALLOW_TRACE "$file:$header" ||
                { echo "include_check: $file includes $header (a lower layer: reach the tracer through a hook)"; bad=1; } ;;
    esac
done <<< "$edges"

# An allowed include that no longer exists is a stale entry: drop it, so the list stays the
# exact work left.
for entry in "${ALLOW_ARCH[@]}" "${ALLOW_TRACE[@]}"; do
    grep -qxF "${entry%%:*} ${entry#*:}" <<< "$edges" ||
        { echo "include_check: allow-list entry $entry matches no include: remove it"; bad=1; }
done
exit $bad
