#!/usr/bin/env bash
# compare.sh - `make compare`: boots Debian's Linux 6.1 (686) and tracekern one after the
# other under the same QEMU options, runs the same bench program on both
# (tools/compare/compare_bench.c), and prints one table (row, Linux, tracekern, ratio);
# JSON in build/compare.json. docs/compare.md says what each row measures.
#
# The Makefile has built everything this uses first: the bench, mkcpio, qemu_run,
# tracekern.elf and tracekern-test.elf, busybox, build/compare/linux/vmlinuz
# (tools/compare/fetch-linux-image.sh) and the Linux module of the kernel-side rows
# (tools/compare/build-module.sh). Those rows' tracekern twins are `make bench`'s own (the
# test kernel booted with bench=ring_buffer,mmiotrace, same QEMU options). Last, the
# boot-to-shell row: wall-clock time from starting QEMU to its exit after the first shell
# command, poweroff; median of 3, without -icount.
set -euo pipefail
cd "$(dirname "$0")/../.."
B=build
out=$B/compare
qemu_run=$B/tools/qemu_run
# The same machine for both: 1 CPU, 256 MiB, the devices `make run` has, -icount for the
# instruction rows (tools/qemu_run.c adds -icount shift=0,sleep=off).
common=(--smp 1 --memory 256 --devices "edu pci-testdev" --quiet --timeout 900)
linux_append="console=ttyS0 quiet"

sed "s|@BUILD@|$B|g" tools/compare/initramfs.list.in > $out/initramfs.list
$out/mkcpio $out/initramfs.list > $out/initramfs.cpio

echo "compare: Linux $(sed 's/_i386.deb$//' $out/linux/package) under -icount (a few minutes)"
if ! "$qemu_run" --kernel $out/linux/vmlinuz --initrd $out/initramfs.cpio --append "$linux_append" \
    "${common[@]}" --icount --expect-exit 0 --console $out/linux-console.log > /dev/null; then
    echo "compare: the Linux run failed; see $out/linux-console.log" >&2
    exit 1
fi
echo "compare: tracekern under -icount"
if ! "$qemu_run" --kernel $B/tracekern.elf --initrd "tools/compare/tracekern.script,$out/compare_bench" \
    "${common[@]}" --icount --console $out/tracekern-console.log > /dev/null; then
    echo "compare: the tracekern run failed; see $out/tracekern-console.log" >&2
    exit 1
fi
echo "compare: tracekern's kernel-side rows (bench=ring_buffer,mmiotrace) under -icount"
if ! "$qemu_run" --kernel $B/tracekern-test.elf --append bench=ring_buffer,mmiotrace \
    "${common[@]}" --icount --console $out/tracekern-bench.log > /dev/null; then
    echo "compare: the tracekern bench run failed; see $out/tracekern-bench.log" >&2
    exit 1
fi

# Boot to the first shell command and power off, three times each, in real time.
boot_ms() { # console-log qemu_run-args...
    local log=$1 start
    shift
    start=$(date +%s%N)
    "$qemu_run" "$@" "${common[@]}" --timeout 120 --console "$log" > /dev/null || return 1
    echo $(( ($(date +%s%N) - start) / 1000000 ))
}
linux_boots=() tracekern_boots=()
echo "compare: boot to shell, 3 times each, without -icount"
for _ in 1 2 3; do
    linux_boots+=("$(boot_ms $out/linux-boot.log --kernel $out/linux/vmlinuz --initrd $out/initramfs.cpio \
        --append "$linux_append compare=boot" --expect-exit 0)") ||
        { echo "compare: a Linux boot failed; see $out/linux-boot.log" >&2; exit 1; }
    tracekern_boots+=("$(boot_ms $out/tracekern-boot.log --kernel $B/tracekern.elf --send-on-prompt poweroff)") ||
        { echo "compare: a tracekern boot failed; see $out/tracekern-boot.log" >&2; exit 1; }
done
echo "BOOT-MS linux ${linux_boots[*]}" > $out/boot-times.txt
echo "BOOT-MS tracekern ${tracekern_boots[*]}" >> $out/boot-times.txt

python3 tools/compare/compare_table.py --linux $out/linux-console.log \
    --tracekern $out/tracekern-console.log --tracekern-bench $out/tracekern-bench.log --boot $out/boot-times.txt \
    --linux-name "$(sed 's/_i386.deb$//' $out/linux/package)" --linux-config $out/linux/config \
    --json $B/compare.json
