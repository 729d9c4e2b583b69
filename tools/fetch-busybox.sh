#!/bin/sh
# fetch-busybox.sh - puts Debian's busybox-static for i386, unmodified, at OUT (the binary
# bin/busybox of the package). usage: fetch-busybox.sh OUT
#
# The package is downloaded once with apt (`apt-get download busybox-static:i386`) into a
# cache outside the repository: /var/cache/tracekern as root, else
# ${XDG_CACHE_HOME:-~/.cache}/tracekern; a .deb already there is used again, so a second
# build needs no network. The i386 architecture is added to dpkg, and apt's lists
# updated, only when apt does not know the package yet. Nothing is installed on the host,
# and the binary is never run there: it runs in the guest (`make run PROGRAMS=OUT`).
set -eu

out=${1:?usage: fetch-busybox.sh OUT}
package=busybox-static
arch=i386

if [ "$(id -u)" -eq 0 ]; then
    cache=/var/cache/tracekern
    SUDO=
else
    cache=${XDG_CACHE_HOME:-$HOME/.cache}/tracekern
    SUDO=sudo
fi
mkdir -p "$cache"

# The newest .deb of the package in the cache, if any.
cached_deb() {
    ls -t "$cache/${package}_"*"_$arch.deb" 2> /dev/null | head -n 1
}

deb=$(cached_deb)
if [ -z "$deb" ]; then
    # apt-cache answers from the lists: without i386 in dpkg, or before an update, it
    # does not know the package.
    if ! apt-cache show "$package:$arch" > /dev/null 2>&1; then
        if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
            echo "fetch-busybox: adding the $arch architecture to dpkg (for apt-get download)"
            $SUDO dpkg --add-architecture "$arch"
        fi
        echo "fetch-busybox: apt-get update"
        SUDO=$SUDO "$(dirname "$0")/apt-update.sh"
    fi
    echo "fetch-busybox: downloading $package:$arch into $cache"
    # apt-get download writes into the current directory; a partial file never has the
    # .deb name the cache is searched for.
    tmp=$(mktemp -d "$cache/download.XXXXXX")
    chmod 755 "$tmp" # apt downloads as its own user, _apt, where it can
    if ! (cd "$tmp" && apt-get download -qq "$package:$arch"); then
        rm -rf "$tmp"
        echo "fetch-busybox: apt-get download $package:$arch failed" >&2
        exit 1
    fi
    mv "$tmp"/*.deb "$cache"/
    rmdir "$tmp"
    deb=$(cached_deb)
fi

# Only bin/busybox is taken from the package's files.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir" ./bin/busybox
mkdir -p "$(dirname "$out")"
cp "$dir/bin/busybox" "$out.tmp"
chmod 755 "$out.tmp"
mv "$out.tmp" "$out"
echo "fetch-busybox: $out from $(basename "$deb")"
