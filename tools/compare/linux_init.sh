#!/bin/busybox sh
# linux_init.sh - /init of the initramfs `make compare` boots Linux with (tools/compare/
# compare.sh builds it with mkcpio): mounts what the bench needs, runs
# /bin/compare_bench (the rows) or, with compare=boot on the command line, only says it
# reached user space (the boot-time row), then powers off, which ends QEMU.
bb=/bin/busybox
$bb mount -t proc proc /proc
$bb mount -t sysfs sysfs /sys
$bb mount -t devtmpfs devtmpfs /dev
$bb mount -t tracefs tracefs /sys/kernel/tracing
if $bb grep -q 'compare=boot' /proc/cmdline; then
    echo "COMPARE-BOOTED"
else
    echo "COMPARE-KERNEL $($bb uname -sr)"
    /bin/compare_bench
fi
$bb poweroff -f
