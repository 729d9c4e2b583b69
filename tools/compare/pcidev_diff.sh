#!/usr/bin/env bash
# pcidev_diff.sh - the PCIDEV lines of an mmiotrace log, from Debian's Linux 6.1 i686 and
# from tracekern on the same QEMU machine (-m 128, edu and pci-testdev), compared byte for
# byte: both kernels describe every PCI function with one resource view (Linux's
# pci_dev resources; tracekern's drivers/pci/pci_resource.c, docs/mmiotrace.md section 11),
# legacy IDE ports and the shadowed video ROM included. Prints the diff and exits 1 when
# they differ.
#
# Linux boots as tools/compare/abi_diff.sh boots it (Debian's image from the shared download
# cache, a busybox initramfs) with mmiotrace as its current tracer, and its trace_pipe's
# first lines are the log's header: VERSION and a PCIDEV line per function. tracekern's are
# the same lines of its COM2 stream. Not part of `make test`: it needs the Linux image.
set -euo pipefail
cd "$(dirname "$0")/../.."
B=build
out=$B/compare/pcidev
make -s --no-print-directory "$B/tools/qemu_run" "$B/tracekern.elf" "$B/busybox/busybox" \
    "$B/compare/mkcpio" "$B/compare/linux/vmlinuz"
mkdir -p "$out"
cat > "$out/init" <<'INIT'
#!/bin/busybox sh
bb=/bin/busybox
$bb mount -t proc proc /proc
$bb mount -t sysfs sysfs /sys
$bb mount -t tracefs tracefs /sys/kernel/tracing
echo mmiotrace > /sys/kernel/tracing/current_tracer
n=$($bb ls /sys/bus/pci/devices | $bb wc -l)
$bb head -n $((n + 1)) /sys/kernel/tracing/trace_pipe
$bb poweroff -f
INIT
cat > "$out/initramfs.list" <<LIST
dir dev 0755
nod dev/console 0600 c 5 1
dir proc 0755
dir sys 0755
dir bin 0755
file bin/busybox 0755 $B/busybox/busybox
file bin/sh 0755 $B/busybox/busybox
file init 0755 $out/init
LIST
"$B/compare/mkcpio" "$out/initramfs.list" > "$out/initramfs.cpio"
printf 'echo mmiotrace > current_tracer\necho nop > current_tracer\npoweroff\n' > "$out/tracekern.script"
common=(--smp 1 --memory 128 --devices "edu pci-testdev" --quiet --timeout 300)
"$B/tools/qemu_run" --kernel "$B/compare/linux/vmlinuz" --initrd "$out/initramfs.cpio" \
    --append "console=ttyS0 quiet" "${common[@]}" --console "$out/linux.log" > /dev/null 2>&1 || true
"$B/tools/qemu_run" --kernel "$B/tracekern.elf" --initrd "$out/tracekern.script" "${common[@]}" \
    --console "$out/tracekern.log" --com2 "$out/tracekern.com2" > /dev/null 2>&1 || true
tr -d '\r' < "$out/linux.log" | grep '^PCIDEV ' > "$out/linux.lines" || true
tr -d '\r' < "$out/tracekern.com2" | grep '^PCIDEV ' > "$out/tracekern.lines" || true
source tools/compare/same_lines.sh
same_lines pcidev_diff "the PCIDEV lines" "$out/linux.lines" "$out/tracekern.lines" "$out"
