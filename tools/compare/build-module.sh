#!/bin/sh
# build-module.sh - builds tools/compare/module/compare_mod.c, the Linux module of the two
# kernel-side rows of `make compare`, against the headers of the very image
# fetch-linux-image.sh fetched (its name and version are in LINUX_DIR/package):
#   linux-headers-ABI-686 (i386)     its .config, Module.symvers, generated headers
#   linux-headers-ABI-common (all)   the kernel's headers and Makefiles
#   linux-kbuild-MAJOR.MINOR (host)  fixdep, modpost and the other build programs, for the
#                                    host's architecture: the i386 ones cannot run here
# all of the same version, downloaded with tools/fetch-deb.sh and unpacked under
# LINUX_DIR/headers (nothing is installed). The 686 package's Makefile includes the common
# one by its installed path, /usr/src/...; the unpacked copy is pointed at the unpacked
# tree instead. The result is an i386 module for the guest; the host never loads it.
# usage: build-module.sh LINUX_DIR OUT_KO
set -eu

linux=${1:?usage: build-module.sh LINUX_DIR OUT_KO}
out=${2:?usage: build-module.sh LINUX_DIR OUT_KO}
here=$(cd "$(dirname "$0")" && pwd)

# linux-image-6.1.0-50-686_6.1.176-1_i386.deb -> abi 6.1.0-50, version 6.1.176-1
package=$(cat "$linux/package")
abi=$(echo "$package" | sed -n 's/^linux-image-\([0-9.]*-[0-9]*\)-686_.*/\1/p')
version=$(echo "$package" | sed -n 's/^linux-image-[^_]*_\([^_]*\)_i386\.deb$/\1/p')
if [ -z "$abi" ] || [ -z "$version" ]; then
    echo "build-module: cannot read the image's ABI and version from $linux/package ($package)" >&2
    exit 1
fi
kbuild=linux-kbuild-$(echo "$abi" | cut -d. -f1-2)

root=$linux/headers
rm -rf "$root"
mkdir -p "$root"
for spec in "linux-headers-$abi-686=$version i386" "linux-headers-$abi-common=$version all" \
    "$kbuild=$version $(dpkg --print-architecture)"; do
    # shellcheck disable=SC2086
    deb=$("$here/../fetch-deb.sh" $spec)
    dpkg-deb -x "$deb" "$root"
done
root=$(cd "$root" && pwd)
tree=$root/usr/src/linux-headers-$abi-686
sed -i "s|^include /usr/src/|include $root/usr/src/|" "$tree/Makefile"

build=$(dirname "$out")/module-build
rm -rf "$build"
mkdir -p "$build"
cp "$here/module/compare_mod.c" "$here/module/Kbuild" "$build"/
build=$(cd "$build" && pwd)
make -s -C "$tree" M="$build" modules
cp "$build/compare_mod.ko" "$out"
echo "build-module: $out for $abi-686 ($version)"
