#!/bin/sh
# fetch-busybox.sh - puts Debian's busybox-static for i386, unmodified, at OUT (the binary
# bin/busybox of the package). usage: fetch-busybox.sh OUT
#
# The package is downloaded once with apt (`apt-get download busybox-static:i386`) into a
# cache outside the repository, by tools/fetch-deb.sh; a .deb already there is used again,
# so a second build needs no network. Nothing is installed on the host, and the binary is
# never run there: it runs in the guest (`make run PROGRAMS=OUT`).
set -eu

out=${1:?usage: fetch-busybox.sh OUT}
deb=$("$(dirname "$0")/fetch-deb.sh" busybox-static i386)

# Only bin/busybox is taken from the package's files.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir" ./bin/busybox
mkdir -p "$(dirname "$out")"
cp "$dir/bin/busybox" "$out.tmp"
chmod 755 "$out.tmp"
mv "$out.tmp" "$out"
echo "fetch-busybox: $out from $(basename "$deb")"
