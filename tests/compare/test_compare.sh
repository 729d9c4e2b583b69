#!/usr/bin/env bash
# test_compare.sh - the host side of `make compare` (tools/compare/), fast and without a
# download: the bench and mkcpio build; mkcpio writes a newc archive the kernel's format
# describes (read back here by an independent reader); and compare_table.py reads the
# recorded consoles of a real run, next to this file, into the numbers they hold
# (expected-rows.txt), and refuses a console whose bench did not finish. The recording:
#   linux-console.log      Debian's 6.1.0-50-686 under -icount: the bench, then the module
#   tracekern-console.log  tracekern under -icount: the same bench
#   tracekern-bench.log    the test kernel with bench=ring_buffer,mmiotrace
#   boot-times.txt         the boot-to-shell times (ms)
#   linux-config-excerpt   the tracing lines of the image's config
#
# usage: tests/compare/test_compare.sh   (from anywhere; builds what it needs with make)
# Prints one "ok - ..." or "not ok - ..." line per check; exits non-zero if any failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
pass() { echo "ok - compare: $1"; }
fail() { failed=$((failed + 1)); echo "not ok - compare: $1"; }

# 1. Both programs build (the bench for the guest: an i386 ELF, never run here).
if make -s --no-print-directory build/compare/mkcpio build/compare/compare_bench > "$tmp/make.txt" 2>&1; then
    pass "mkcpio and compare_bench build"
else
    fail "mkcpio and compare_bench build"
    sed 's/^/#   /' "$tmp/make.txt"
    exit 1
fi
if readelf -h build/compare/compare_bench | grep -q 'Machine:.*80386' &&
    ! readelf -l build/compare/compare_bench | grep -q INTERP; then
    pass "compare_bench is a static i386 program"
else
    fail "compare_bench is a static i386 program"
fi

# 2. mkcpio: a directory, a file, a device node, the trailer; read back by Python.
printf 'hello, initramfs\n' > "$tmp/hello"
cat > "$tmp/list" <<LIST
# a comment
dir dev 0755
nod dev/console 0600 c 5 1

file bin/hello 0644 $tmp/hello
LIST
if build/compare/mkcpio "$tmp/list" > "$tmp/a.cpio" && python3 - "$tmp/a.cpio" > "$tmp/cpio.txt" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
pos = 0
while True:
    assert data[pos:pos + 6] == b"070701", f"magic at {pos}"
    f = [int(data[pos + 6 + 8 * i: pos + 14 + 8 * i], 16) for i in range(13)]
    namesize, filesize = f[11], f[6]
    name = data[pos + 110: pos + 110 + namesize - 1].decode()
    pos = (pos + 110 + namesize + 3) & ~3
    body = data[pos: pos + filesize]
    pos = (pos + filesize + 3) & ~3
    print(name, oct(f[1]), f[9], f[10], body.decode())
    if name == "TRAILER!!!":
        break
assert pos == len(data), "bytes after the trailer"
PY
then
    expected=$(printf '%s\n' "dev 0o40755 0 0 " "dev/console 0o20600 5 1 " \
        "bin/hello 0o100644 0 0 hello, initramfs" "" "TRAILER!!! 0o0 0 0 ")
    if [ "$(cat "$tmp/cpio.txt")" = "$expected" ]; then
        pass "mkcpio writes a newc archive: dir, device node, file, trailer"
    else
        fail "mkcpio writes a newc archive: dir, device node, file, trailer"
        diff <(echo "$expected") "$tmp/cpio.txt" | sed 's/^/#   /'
    fi
else
    fail "mkcpio writes a newc archive: dir, device node, file, trailer"
    sed 's/^/#   /' "$tmp/cpio.txt"
fi
printf 'file x 0644 /nonexistent/file\n' > "$tmp/bad"
if ! build/compare/mkcpio "$tmp/bad" > /dev/null 2> "$tmp/bad.txt" && grep -q 'line 1: cannot read' "$tmp/bad.txt"; then
    pass "mkcpio refuses an unreadable file, naming the line"
else
    fail "mkcpio refuses an unreadable file, naming the line"
fi

# 3. The parser on the recorded logs of a real run.
if python3 tools/compare/compare_table.py --linux "$here/linux-console.log" \
    --tracekern "$here/tracekern-console.log" --tracekern-bench "$here/tracekern-bench.log" \
    --boot "$here/boot-times.txt" \
    --linux-config "$here/linux-config-excerpt" --linux-name recorded \
    --json "$tmp/compare.json" > "$tmp/table.txt" 2>&1; then
    pass "compare_table.py reads the recorded logs"
else
    fail "compare_table.py reads the recorded logs"
    sed 's/^/#   /' "$tmp/table.txt"
fi
# Each expected row: key, Linux's value, tracekern's value (as the logs print them; a
# "not measured" cell by its start).
while read -r key linux tracekern; do
    [ -z "$key" ] || [ "${key#\#}" != "$key" ] && continue
    got=$(python3 -c '
import json, sys
rows = {r["row"]: r for r in json.load(open(sys.argv[1]))["rows"]}
r = rows[sys.argv[2]]
show = lambda v: f"{v:.2f}" if isinstance(v, float) else v.split(":")[0].replace(" ", "_")
print(show(r["linux"]), show(r["tracekern"]))' "$tmp/compare.json" "$key" 2>&1)
    if [ "$got" = "$linux $tracekern" ]; then
        pass "parsed row $key: Linux $linux, tracekern $tracekern"
    else
        fail "parsed row $key: Linux $linux, tracekern $tracekern (got: $got)"
    fi
done < "$here/expected-rows.txt"
if grep -q 'CONFIG_USER_EVENTS is not set' "$tmp/compare.json"; then
    pass "a user_events row Linux skipped says its config lacks CONFIG_USER_EVENTS"
else
    fail "a user_events row Linux skipped says its config lacks CONFIG_USER_EVENTS"
fi

# 4. A log cut before COMPARE-END is an error, not a table with rows missing.
sed '/COMPARE-END/,$d' "$here/linux-console.log" > "$tmp/cut.log"
if ! python3 tools/compare/compare_table.py --linux "$tmp/cut.log" --tracekern "$here/tracekern-console.log" \
    > /dev/null 2> "$tmp/cut.txt" && grep -q 'no COMPARE-END' "$tmp/cut.txt"; then
    pass "a log without COMPARE-END is refused"
else
    fail "a log without COMPARE-END is refused"
fi
exit $((failed > 0))
