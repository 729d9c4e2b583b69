#!/usr/bin/env bash
# abi_diff.sh PROGRAM - runs one of our guest test programs (user/programs/PROGRAM.c, whose
# check lines are tracekern/check.h's) on Debian's Linux 6.1 i686 and on tracekern, each
# time as root and then as uid 1000, and compares their check lines: a program written
# against Linux's interfaces must answer the same on both (issue 23's dma_ports_test does,
# docs/processes.md section 9). Prints the diff and exits 1 when they differ.
#
# Linux boots as `make compare` boots it (docs/compare.md): the same Debian image, from the
# shared download cache, with an initramfs of busybox and the program, whose /init runs it
# as root, then through busybox su as "user" (uid 1000), then powers off. tracekern boots
# build/tracekern.elf with a script that does the same with `run` and `run -u 1000`. Never
# runs an i386 program on the host. Not part of `make test`: it needs the Linux image.
set -euo pipefail
cd "$(dirname "$0")/../.."
name=${1:?usage: tools/compare/abi_diff.sh PROGRAM (a name in user/programs)}
[ -f "user/programs/$name.c" ] || { echo "abi_diff: no user/programs/$name.c" >&2; exit 2; }
B=build
out=$B/compare/abi_$name
make -s --no-print-directory "$B/user/$name" "$B/tools/qemu_run" "$B/tracekern.elf" \
    "$B/busybox/busybox" "$B/compare/mkcpio" "$B/compare/linux/vmlinuz"
mkdir -p "$out"
printf 'root:x:0:0:root:/:/bin/sh\nuser:x:1000:1000:user:/:/bin/sh\n' > "$out/passwd"
printf 'root:x:0:\nuser:x:1000:\n' > "$out/group"
cat > "$out/init" <<INIT
#!/bin/busybox sh
bb=/bin/busybox
\$bb mount -t proc proc /proc
\$bb mount -t sysfs sysfs /sys
\$bb mount -t devtmpfs devtmpfs /dev
\$bb insmod /lib/uio.ko && \$bb insmod /lib/uio_pci_generic.ko
/bin/$name
\$bb su -s /bin/sh user -c /bin/$name
\$bb poweroff -f
INIT
cat > "$out/initramfs.list" <<LIST
dir dev 0755
nod dev/console 0600 c 5 1
dir proc 0755
dir sys 0755
dir bin 0755
dir etc 0755
file etc/passwd 0644 $out/passwd
file etc/group 0644 $out/group
file bin/busybox 0755 $B/busybox/busybox
file bin/sh 0755 $B/busybox/busybox
file bin/$name 0755 $B/user/$name
dir lib 0755
file lib/uio.ko 0644 $B/compare/linux/modules/uio.ko
file lib/uio_pci_generic.ko 0644 $B/compare/linux/modules/uio_pci_generic.ko
file init 0755 $out/init
LIST
"$B/compare/mkcpio" "$out/initramfs.list" > "$out/initramfs.cpio"
printf 'run %s\nrun -u 1000 %s\npoweroff\n' "$name" "$name" > "$out/tracekern.script"
common=(--smp 1 --memory 256 --devices "edu pci-testdev" --quiet --timeout 300)
"$B/tools/qemu_run" --kernel "$B/compare/linux/vmlinuz" --initrd "$out/initramfs.cpio" \
    --append "console=ttyS0 quiet" "${common[@]}" --console "$out/linux.log" > /dev/null 2>&1 || true
"$B/tools/qemu_run" --kernel "$B/tracekern.elf" \
    --initrd "$out/tracekern.script,$(make -s --no-print-directory print-user-modules)" \
    "${common[@]}" --console "$out/tracekern.log" > /dev/null 2>&1 || true
lines() { tr -d '\r' < "$1" | grep -E "^(ok |not ok |# |$name: )" || true; }
lines "$out/linux.log" > "$out/linux.lines"
lines "$out/tracekern.log" > "$out/tracekern.lines"
source tools/compare/same_lines.sh
same_lines abi_diff "$name's lines" "$out/linux.lines" "$out/tracekern.lines" "$out"
