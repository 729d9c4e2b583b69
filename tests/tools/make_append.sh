#!/usr/bin/env bash
# make_append.sh - APPEND="..." reaches the kernel's command line: `make trace APPEND=...`
# boots a script that prints /proc/cmdline, and `make run` and `make debug` hand the same
# value to QEMU (checked in the commands they would run: both are interactive).
# usage: make_append.sh LOGDIR
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
if [ ${#problems[@]} -eq 0 ]; then exit 0; fi
for p in "${problems[@]}"; do echo "#   $p"; done
exit 1
