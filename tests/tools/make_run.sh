#!/usr/bin/env bash
# make_run.sh - what `make run`, `make debug` and `make trace` hand QEMU: APPEND="..." is the
# kernel's command line (`make trace` boots a script that prints /proc/cmdline; run and
# debug, being interactive, are run with a qemu_run that records its arguments), and a
# second `make run` or `make debug` while one runs writes COM2 to a file of its own, never
# the first one's. usage: make_run.sh LOGDIR
set -u
cd "$(dirname "$0")/../.."
logs=$1
out=$logs/make_append
mkdir -p "$out"
script=$out/cmdline.script
printf 'cat /proc/cmdline\npoweroff\n' > "$script"
value='loglevel=7 tracekern.test="two words"'
problems=()
make --no-print-directory trace SCRIPT="$script" OUT="$out" APPEND="$value" > "$out/make.log" 2>&1 ||
    problems+=("make trace APPEND=... failed: $out/make.log")
tr -d '\r' < "$out/console.log" 2> /dev/null | grep -q -- " $value\$" ||
    problems+=("/proc/cmdline under make trace is not the APPEND value")
# make run and make debug are interactive: run them with a qemu_run that only records its
# arguments, one a line.
stub=$out/qemu_run_stub
printf '#!/bin/sh\nprintf "%%s\\n" "$@" > "%s/args.$MAKE_APPEND_TARGET"\n' "$out" > "$stub"
chmod +x "$stub"
for target in run debug; do
    rm -f "$out/args.$target"
    MAKE_APPEND_TARGET=$target make --no-print-directory $target-ready QEMU_RUN="$stub" \
        APPEND="$value" > "$out/make_$target.log" 2>&1 < /dev/null
    grep -qxF -- "$value" "$out/args.$target" 2> /dev/null ||
        problems+=("make $target does not pass APPEND to QEMU as typed: $out/make_$target.log")
done
grep -qx -- '--kernel' "$out/args.run" 2> /dev/null ||
    problems+=("make run APPEND=... does not boot the ELF (GRUB's command line is fixed)")
MAKE_APPEND_TARGET=plain make --no-print-directory run-ready QEMU_RUN="$stub" > /dev/null 2>&1 < /dev/null
grep -qx -- '--iso' "$out/args.plain" 2> /dev/null || problems+=("make run without APPEND no longer boots the ISO")
# Two runs at once, through the mechanism make run and make debug use (tools/com2_slot.sh)
# in a scratch directory: the first holds its COM2 file (writes a line, stays 3 s); the
# second, started meanwhile, must take the next free file, and the first's line must survive.
slots=$(mktemp -d)
tools/com2_slot.sh "$slots" sh -c 'echo first-run > "$0"; sleep 3' @COM2@ &
holder=$!
for _ in $(seq 50); do [ -s "$slots/com2.txt" ] && break; sleep 0.1; done
tools/com2_slot.sh "$slots" sh -c 'echo second-run > "$0"' @COM2@
wait "$holder"
[ "$(cat "$slots/com2.txt" 2> /dev/null)" = first-run ] ||
    problems+=("the first run's COM2 file was overwritten or never written")
[ "$(cat "$slots/com2-2.txt" 2> /dev/null)" = second-run ] ||
    problems+=("a second run did not get com2-2.txt")
rm -rf "$slots"
# ... and both say which file they write, and hand it to QEMU.
for target in run debug; do
    grep -q "COM2 -> build/com2" "$out/make_$target.log" ||
        problems+=("make $target did not say which COM2 file it writes")
    grep -qx 'build/com2\(-[0-9]*\)\?.txt' "$out/args.$target" 2> /dev/null ||
        problems+=("make $target does not send COM2 to a build/com2*.txt of its own")
done
if [ ${#problems[@]} -eq 0 ]; then exit 0; fi
for p in "${problems[@]}"; do echo "#   $p"; done
exit 1
