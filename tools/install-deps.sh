#!/bin/sh
# install-deps.sh - installs the Debian packages tracekern needs, if any is missing.
#
#   gcc, gcc-multilib   the compiler, and the 32-bit libgcc the kernel links (64-bit division)
#   nasm                the assembler for boot and trap entry code
#   grub-pc-bin, grub-common, xorriso, mtools   grub-mkrescue and what it needs for a BIOS ISO
#   qemu-system-x86     the machine we run on
#   make, binutils      building
#   gdb                 make debug (and its test)
#   python3             tools/doctest.py: runs the documentation's console sessions (make test, make tour)
#   libtraceevent-dev, pkg-config   tests/tools/parse_formats: Linux's event-format parser checks
#                       every format file the guest serves (make test)
#   babeltrace2, trace-cmd   read the CTF traces and trace.dat files tools/tkconvert writes
#                       (tests/tools/test_tkconvert.sh; tracedat.c runs trace-cmd restore)
#   kernelshark, xvfb, imagemagick, librsvg2-bin   only with PICTURES=1 (make pictures:
#                       tools/make-pictures.sh's screenshot and timeline; not make test)
#
# Run by `make run`, `make test` and the other targets that need them; safe to run again.
set -eu

need=""
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

have_cmd gcc || need="$need gcc"
have_pkg gcc-multilib || need="$need gcc-multilib"
have_cmd nasm || need="$need nasm"
have_cmd ld || need="$need binutils"
have_cmd grub-mkrescue || need="$need grub-common"
[ -d /usr/lib/grub/i386-pc ] || need="$need grub-pc-bin"
have_cmd xorriso || need="$need xorriso"
have_cmd mformat || need="$need mtools"
have_cmd qemu-system-i386 || need="$need qemu-system-x86"
have_cmd gdb || need="$need gdb"
have_cmd python3 || need="$need python3"
have_pkg libtraceevent-dev || need="$need libtraceevent-dev"
have_cmd pkg-config || need="$need pkg-config"
have_cmd babeltrace2 || need="$need babeltrace2"
have_cmd trace-cmd || need="$need trace-cmd"
# make pictures (issue 17, record): KernelShark under Xvfb, ImageMagick's import, rsvg-convert.
if [ "${PICTURES:-0}" = 1 ]; then
    have_cmd kernelshark || need="$need kernelshark"
    have_cmd xvfb-run || need="$need xvfb"
    have_cmd import || need="$need imagemagick"
    have_cmd rsvg-convert || need="$need librsvg2-bin"
fi

[ -z "$need" ] && exit 0

echo "install-deps: installing:$need"
if [ "$(id -u)" -ne 0 ]; then
    if have_cmd sudo; then SUDO=sudo; else
        echo "install-deps: need root to install:$need" >&2
        exit 1
    fi
else
    SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
SUDO=$SUDO "$(dirname "$0")/apt-update.sh"
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
echo "install-deps: done"
