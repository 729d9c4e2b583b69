#!/usr/bin/env bash
# make_programs.sh - PROGRAMS="path/to/elf ..." of `make trace`, `make run` and `make debug`:
# each file is /bin/NAME in the guest, with -kernel (QEMU's -initrd list) and in the ISO
# (grub.cfg's module lines), and `run NAME ARGS` runs it with its arguments; a list the
# kernel could not take is refused on the host, with its own message, before QEMU starts;
# a kernel given more modules by hand than it keeps says how many it ignored.
# usage: make_programs.sh LOGDIR
set -u
cd "$(dirname "$0")/../.."
logs=$1
out=$logs/make_programs
rm -rf "$out"
mkdir -p "$out/a" "$out/b"
problems=()

# A program that is not a built-in one: the built-in hello, under another name (and a
# second file of that name in another folder).
cp build/user/hello "$out/a/greet"
cp build/user/hello "$out/b/greet"
cp build/user/hello "$out/a/hello"
echo 'not a program' > "$out/a/notes.txt"
cp build/user/hello "$out/a/x,y" # QEMU's -initrd list would split it
cp "$BASH" "$out/a/host_true" # the host's own shell: 64-bit on an x86-64 host
# 65 MiB that start as an i386 ELF executable would (a sparse file: no disk taken).
truncate -s 65M "$out/a/huge"
printf '\177ELF\001\001\001' | dd of="$out/a/huge" conv=notrunc status=none
printf '\002\000\003\000' | dd of="$out/a/huge" bs=1 seek=16 conv=notrunc status=none
many=()
for i in $(seq 66); do cp build/user/hello "$out/a/g$i"; many+=("$out/a/g$i"); done

printf 'ls /bin\nrun greet one "two words"\npoweroff\n' > "$out/greet.script"

# Each refusal: `make trace` fails, prints the reason, and boots nothing (no console.log).
refused() { # what-it-is expected-message programs...
    local what=$1 message=$2
    shift 2
    rm -rf "$out/trace"
    if make --no-print-directory trace SCRIPT="$out/greet.script" OUT="$out/trace" \
        PROGRAMS="$*" > "$out/refused.log" 2>&1; then
        problems+=("$what: make trace succeeded")
    elif ! grep -qF -- "$message" "$out/refused.log"; then
        problems+=("$what: no '$message' in: $(head -n 3 "$out/refused.log" | tr '\n' ' ')")
    elif [ -e "$out/trace/console.log" ]; then
        problems+=("$what: QEMU was started all the same")
    fi
}
refused "a missing file" "PROGRAMS: $out/a/nosuch: no such file" "$out/a/nosuch"
refused "a directory" "PROGRAMS: $out/a: not a regular file" "$out/a"
refused "a text file" "PROGRAMS: $out/a/notes.txt: not an ELF file" "$out/a/notes.txt"
refused "a host program" "PROGRAMS: $out/a/host_true: ELF class 2" "$out/a/host_true"
refused "a built-in program's name" "PROGRAMS: $out/a/hello: /bin/hello is a built-in program" "$out/a/hello"
refused "two files of one name" "PROGRAMS: $out/b/greet: /bin/greet is already $out/a/greet" \
    "$out/a/greet" "$out/b/greet"
refused "a file given twice" "PROGRAMS: $out/a/greet: given twice" "$out/a/greet" "$out/a/greet"
refused "a comma in the path" "PROGRAMS: $out/a/x,y: only letters, digits" "$out/a/x,y"
refused "65 MiB in all" "may take at most 64 MiB" "$out/a/huge"
refused "41 programs" "a boot takes at most 64 modules" "${many[@]:0:41}"

# -kernel: make trace boots it, and `run greet ARGS` runs it with its arguments.
make --no-print-directory trace SCRIPT="$out/greet.script" OUT="$out/trace" \
    PROGRAMS="$out/a/greet" > "$out/trace.log" 2>&1 || problems+=("make trace PROGRAMS=... failed: $out/trace.log")
clean=$(tr -d '\r' < "$out/trace/console.log" 2> /dev/null)
for line in greet hello 'argv[0] = greet' 'argv[1] = one' 'argv[2] = two words'; do
    grep -qxF -- "$line" <<< "$clean" || problems+=("make trace PROGRAMS=...: no line '$line' (ls /bin, run greet)")
done

# make run: the ISO with the program (run with a qemu_run that records its arguments),
# then that ISO booted through GRUB; with APPEND, -kernel with the program in -initrd.
stub=$out/qemu_run_stub
printf '#!/bin/sh\nprintf "%%s\\n" "$@" > "%s/args.$MAKE_PROGRAMS_RUN"\n' "$out" > "$stub"
chmod +x "$stub"
MAKE_PROGRAMS_RUN=iso make --no-print-directory run-ready QEMU_RUN="$stub" PROGRAMS="$out/a/greet" \
    > "$out/make_run.log" 2>&1 < /dev/null
grep -qx 'build/tracekern-programs.iso' "$out/args.iso" 2> /dev/null ||
    problems+=("make run PROGRAMS=... does not boot build/tracekern-programs.iso: $out/make_run.log")
grep -q 'module /boot/bin/greet greet' build/iso-programs/boot/grub/grub.cfg 2> /dev/null ||
    problems+=("the ISO's grub.cfg has no module line for greet")
if build/tools/qemu_run --iso build/tracekern-programs.iso --send-on-prompt 'run greet from-the-iso' \
    --send-on-prompt poweroff --quiet --timeout 60 --console "$out/iso.log" > /dev/null 2>&1; then
    grep -qx 'argv\[1\] = from-the-iso' <(tr -d '\r' < "$out/iso.log") ||
        problems+=("the ISO's /bin/greet did not run with its argument: $out/iso.log")
else
    problems+=("the ISO with PROGRAMS did not boot to poweroff: $out/iso.log")
fi
MAKE_PROGRAMS_RUN=append make --no-print-directory run-ready QEMU_RUN="$stub" PROGRAMS="$out/a/greet" \
    APPEND=quiet > "$out/make_run_append.log" 2>&1 < /dev/null
grep -q ",$out/a/greet\$" "$out/args.append" 2> /dev/null ||
    problems+=("make run APPEND=... PROGRAMS=... does not add the program to -initrd")
MAKE_PROGRAMS_RUN=debug make --no-print-directory debug-ready QEMU_RUN="$stub" PROGRAMS="$out/a/greet" \
    > "$out/make_debug.log" 2>&1 < /dev/null
grep -q ",$out/a/greet\$" "$out/args.debug" 2> /dev/null ||
    problems+=("make debug PROGRAMS=... does not add the program to -initrd")
MAKE_PROGRAMS_RUN=refused make --no-print-directory run-ready QEMU_RUN="$stub" PROGRAMS="$out/a/notes.txt" \
    > "$out/make_run_refused.log" 2>&1 < /dev/null && problems+=("make run with a text file in PROGRAMS succeeded")
[ -e "$out/args.refused" ] && problems+=("make run with a text file in PROGRAMS started QEMU")

# QEMU started by hand with more modules than the kernel keeps: the kernel says so.
list=$(printf "$out/a/g%d," $(seq 66))
build/tools/qemu_run --kernel build/tracekern.elf --initrd "${list%,}" --send-on-prompt poweroff \
    --quiet --timeout 60 --console "$out/many.log" > /dev/null 2>&1
grep -q '^boot: 2 modules past the first 64 ignored (BOOT_MAX_MODULES)' "$out/many.log" ||
    problems+=("66 modules booted by hand: the kernel did not say it ignored 2: $out/many.log")

if [ ${#problems[@]} -eq 0 ]; then exit 0; fi
for p in "${problems[@]}"; do echo "#   $p"; done
exit 1
