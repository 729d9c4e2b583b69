#!/usr/bin/env bash
# concurrent_make.sh - two builds at once in one tree are safe: after a source file changes,
# two `make all` started together must both succeed and leave a kernel and an ISO that are
# whole. (Before the build lock both rebuilt the same objects and ISO, and one failed in
# grub-mkrescue or linked a half-written object.) usage: concurrent_make.sh LOGDIR
set -u
cd "$(dirname "$0")/../.."
logs=$1
touch kernel/main.c
make --no-print-directory all > "$logs/concurrent_make_1.log" 2>&1 &
first=$!
make --no-print-directory all > "$logs/concurrent_make_2.log" 2>&1 &
second=$!
wait "$first"; rc1=$?
wait "$second"; rc2=$?

problems=()
[ "$rc1" -eq 0 ] || problems+=("the first make failed (status $rc1): $logs/concurrent_make_1.log")
[ "$rc2" -eq 0 ] || problems+=("the second make failed (status $rc2): $logs/concurrent_make_2.log")
# The kernel is linked once: main.c compiled by one of them, the other found it up to date.
compiles=$(cat "$logs"/concurrent_make_[12].log | grep -c -- '-c kernel/main.c')
[ "$compiles" -eq 1 ] || problems+=("kernel/main.c compiled $compiles times (want 1)")
grub-file --is-x86-multiboot build/tracekern.elf 2> /dev/null || ! command -v grub-file > /dev/null ||
    problems+=("build/tracekern.elf is not a whole multiboot kernel")
[ build/tracekern.iso -nt kernel/main.c ] || problems+=("build/tracekern.iso is older than the change")
xorriso -indev build/tracekern.iso -find /boot/tracekern.elf 2> /dev/null | grep -q tracekern.elf ||
    problems+=("build/tracekern.iso is not a readable ISO holding the kernel")
make --no-print-directory all > "$logs/concurrent_make_3.log" 2>&1 &&
    ! grep -Eq '^(gcc|cc|ld|nasm|grub-mkrescue) ' "$logs/concurrent_make_3.log" ||
    problems+=("a third make still rebuilt something: $logs/concurrent_make_3.log")

if [ ${#problems[@]} -eq 0 ]; then exit 0; fi
for p in "${problems[@]}"; do echo "#   $p"; done
exit 1
