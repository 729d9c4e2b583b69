#!/bin/sh
# fetch-deb.sh - downloads one Debian package with `apt-get download` into the shared cache
# tools/fetch-busybox.sh and make compare use (/var/cache/tracekern as root, else
# ${XDG_CACHE_HOME:-~/.cache}/tracekern) and prints the cached .deb's path. A .deb already
# there is used again (no network); the architecture is added to dpkg, and apt's lists
# updated (tools/apt-update.sh), only when apt does not know the package yet. Nothing is
# installed. usage: fetch-deb.sh [--lists-only] PACKAGE[=VERSION] ARCH
# (ARCH may be "all"; with =VERSION, that version and no other.)
# --lists-only: only make apt know the package (architecture, lists); download nothing.
set -eu

lists_only=0
if [ "${1:-}" = --lists-only ]; then lists_only=1; shift; fi
spec=${1:?usage: fetch-deb.sh PACKAGE[=VERSION] ARCH}
arch=${2:?usage: fetch-deb.sh PACKAGE[=VERSION] ARCH}
package=${spec%%=*}
version=
case $spec in *=*) version=${spec#*=} ;; esac
tools=$(cd "$(dirname "$0")/.." && pwd)

if [ "$(id -u)" -eq 0 ]; then
    cache=/var/cache/tracekern
    SUDO=
else
    cache=${XDG_CACHE_HOME:-$HOME/.cache}/tracekern
    SUDO=sudo
fi
mkdir -p "$cache"

cached_deb() {
    # shellcheck disable=SC2012,SC2027,SC2086 # unquoted: the version is a glob when none was asked for
    ls -t "$cache/${package}_"${version:-*}"_$arch.deb" 2> /dev/null | head -n 1
}

# apt-cache answers from the lists: without the architecture in dpkg, or before an update,
# it does not know the package.
know_package() {
    if ! apt-cache show "$package:$arch" > /dev/null 2>&1; then
        if [ "$arch" != all ] && [ "$arch" != "$(dpkg --print-architecture)" ] &&
            ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
            echo "fetch-deb: adding the $arch architecture to dpkg (for apt-get download)" >&2
            $SUDO dpkg --add-architecture "$arch"
        fi
        echo "fetch-deb: apt-get update" >&2
        SUDO=$SUDO "$tools/apt-update.sh" >&2
    fi
}

if [ "$lists_only" = 1 ]; then
    know_package
    exit 0
fi
deb=$(cached_deb)
if [ -z "$deb" ]; then
    know_package
    echo "fetch-deb: downloading $package:$arch into $cache" >&2
    tmp=$(mktemp -d "$cache/download.XXXXXX")
    chmod 755 "$tmp" # apt downloads as its own user, _apt, where it can
    if ! (cd "$tmp" && apt-get download -qq "$package:$arch${version:+=$version}" >&2); then
        rm -rf "$tmp"
        echo "fetch-deb: apt-get download $package:$arch failed" >&2
        exit 1
    fi
    mv "$tmp"/*.deb "$cache"/
    rmdir "$tmp"
    deb=$(cached_deb)
    if [ -z "$deb" ]; then
        echo "fetch-deb: $package:$arch: apt-get download gave no ${package}_${version:-*}_$arch.deb" >&2
        exit 1
    fi
fi
echo "$deb"
