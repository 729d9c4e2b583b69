#!/usr/bin/env bash
# check-programs.sh - refuses, on the host and before any boot, a PROGRAMS list the kernel
# could not turn into /bin/NAME programs; silent at exit 0 when every file is fine.
# usage: check-programs.sh "BUILTIN NAMES" MODULES_USED FILE...
#
# Each FILE becomes a multiboot module whose name in /bin is the file's name (its last path
# component), beside the built-in programs named in BUILTIN NAMES; MODULES_USED is how
# many modules the boot has without them (the built-in programs, a boot script). Refused,
# each with its own message on stderr and exit status 2:
#   - a missing file or one that is not a regular file;
#   - a file that is not an ELF i386 executable (32-bit, little-endian, EM_386,
#     ET_EXEC or ET_DYN): the kernel would only say so when it is run;
#   - a name that is a built-in program's or another file's: /bin would hold only one;
#   - a name longer than the kernel keeps (struct program, kernel/proc/programs.h), or a
#     path with a character GRUB's configuration or QEMU's -initrd list would split on;
#   - more modules than the kernel reads (BOOT_MAX_MODULES, kernel/boot_info.h);
#   - more than MAX_TOTAL_MIB in all: modules stay reserved in guest RAM for the whole
#     boot (kernel/main.c, memory_init), and the guest has 128 MiB unless told otherwise
#     (qemu_run --memory): half of it is left to the kernel and the programs' own pages.
set -u
# The paths are the caller's: this script stays in the caller's directory.
root=$(dirname "$0")/..

MAX_TOTAL_MIB=64
NAME_MAX=31 # struct program's name[32], with its NUL
# A module's string ("path" for -initrd) is kept in BOOT_STRING_MAX bytes with its NUL.
BOOT_MAX_MODULES=$(sed -n 's/^#define BOOT_MAX_MODULES \([0-9]*\).*/\1/p' "$root/kernel/boot_info.h")
BOOT_STRING_MAX=$(sed -n 's/^#define BOOT_STRING_MAX \([0-9]*\).*/\1/p' "$root/kernel/boot_info.h")

builtin=" $1 "
used=$2
shift 2
errors=0
error() { echo "PROGRAMS: $*" >&2; errors=$((errors + 1)); }

# The unsigned little-endian number of $3 bytes at offset $2 of file $1.
field() { od -An -tu"$3" -j"$2" -N"$3" --endian=little -- "$1" | tr -d ' '; }

declare -A given_as # NAME -> the file that claimed it
total=0
for file in "$@"; do
    name=${file##*/}
    if [ ! -e "$file" ]; then
        error "$file: no such file"
        continue
    elif [ ! -f "$file" ]; then
        error "$file: not a regular file"
        continue
    fi
    if ! [[ $file =~ ^[A-Za-z0-9._+/][A-Za-z0-9._+/-]*$ ]]; then
        error "$file: only letters, digits and . _ + - (and / between folders; not - first)" \
            "may be in a program's path: GRUB's configuration, QEMU's -initrd list and the" \
            "commands that copy it would read others otherwise"
        continue
    fi
    if [ "$(od -An -tx1 -N4 -- "$file" | tr -d ' \n')" != 7f454c46 ]; then
        error "$file: not an ELF file (a program must be an ELF i386 executable)"
        continue
    fi
    class=$(field "$file" 4 1) data=$(field "$file" 5 1)
    type=$(field "$file" 16 2) machine=$(field "$file" 18 2)
    if [ "$class" != 1 ] || [ "$data" != 1 ] || [ "$machine" != 3 ]; then
        error "$file: ELF class $class, byte order $data, machine $machine; tracekern runs" \
            "32-bit i386 programs (class 1, byte order 1, machine 3: gcc -m32 -static)"
        continue
    fi
    if [ "$type" != 2 ] && [ "$type" != 3 ]; then
        error "$file: ELF type $type is not an executable (2, ET_EXEC) or a static-pie (3, ET_DYN)"
        continue
    fi
    if [ "${#name}" -gt "$NAME_MAX" ]; then
        error "$file: its name '$name' is longer than the $NAME_MAX characters /bin keeps; rename the file"
        continue
    fi
    if [ "${#file}" -ge "$BOOT_STRING_MAX" ]; then
        error "$file: a path of ${#file} characters; the kernel keeps $((BOOT_STRING_MAX - 1))" \
            "(BOOT_STRING_MAX, kernel/boot_info.h): use a shorter one"
        continue
    fi
    if [[ $builtin == *" $name "* ]]; then
        error "$file: /bin/$name is a built-in program; rename the file"
        continue
    fi
    if [ -n "${given_as[$name]+set}" ]; then
        if [ "${given_as[$name]}" = "$file" ]; then
            error "$file: given twice"
        else
            error "$file: /bin/$name is already ${given_as[$name]}; rename one of them"
        fi
        continue
    fi
    given_as[$name]=$file
    total=$((total + $(stat -c %s -- "$file")))
done

if [ $((used + $#)) -gt "$BOOT_MAX_MODULES" ]; then
    error "$# programs given, but a boot takes at most $BOOT_MAX_MODULES modules" \
        "(BOOT_MAX_MODULES, kernel/boot_info.h) and $used are taken already:" \
        "give at most $((BOOT_MAX_MODULES - used))"
fi
if [ "$total" -gt $((MAX_TOTAL_MIB << 20)) ]; then
    error "$total bytes in all; the programs given may take at most $MAX_TOTAL_MIB MiB" \
        "($((MAX_TOTAL_MIB << 20)) bytes) of the guest's 128 MiB"
fi
[ "$errors" -eq 0 ] || exit 2
