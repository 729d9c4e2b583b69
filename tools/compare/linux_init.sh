#!/bin/busybox sh
# shellcheck shell=dash
# linux_init.sh - /init of the initramfs `make compare` boots Linux with (tools/compare/
# compare.sh builds it with mkcpio): mounts what the bench needs, runs
# /bin/compare_bench (the user-space rows), then loads /lib/compare_mod.ko twice (the
# kernel-side rows: untraced, then with mmiotrace the current tracer) and copies its
# COMPARE lines from the kernel log to the console; with compare=boot on the command line
# it only says it reached user space (the boot-time row). Then it powers off, which ends QEMU.
bb=/bin/busybox
$bb mount -t proc proc /proc
$bb mount -t sysfs sysfs /sys
$bb mount -t devtmpfs devtmpfs /dev
$bb mount -t tracefs tracefs /sys/kernel/tracing
if $bb grep -q 'compare=boot' /proc/cmdline; then
    echo "COMPARE-BOOTED"
    $bb poweroff -f
fi
echo "COMPARE-KERNEL $($bb uname -sr)"
/bin/compare_bench
tracing=/sys/kernel/tracing
# A module that does not load says so in its rows (insmod's own message is on the console).
load() { # row-of-that-load insmod-args...
    row=$1
    shift
    if $bb insmod /lib/compare_mod.ko "$@"; then
        $bb rmmod compare_mod
    else
        echo "COMPARE-SKIP $row: insmod compare_mod.ko $* failed"
    fi
}
load mmio_read_untraced
echo mmiotrace > $tracing/current_tracer
load mmio_read_traced traced=1
echo nop > $tracing/current_tracer
# The module's lines without dmesg's "[ seconds]" prefix.
$bb dmesg | $bb sed -n 's/^\[[^]]*\] \(COMPARE.*\)$/\1/p'
echo "COMPARE-MODULE-END"
$bb poweroff -f
