#!/bin/sh
# fetch-linux-source.sh - Linux 6.1's user_events clients, from Debian's linux-source-6.1
# package, into a cache outside the repository (nothing of Linux is ever committed here).
#
#   tools/fetch-linux-source.sh        prints the directory that holds the extracted files
#
# What is extracted (the rest of the 139 MB package is not kept):
#   samples/user_events/                    example.c, the sample program
#   tools/testing/selftests/user_events/    ftrace_test.c, dyn_test.c, perf_test.c, Makefile
#   tools/testing/selftests/kselftest*.h    the harness they include
#   include/linux/user_events.h             6.1's header (KHDR_INCLUDES points here)
#
# The cache: $TRACEKERN_CACHE if set, else /var/cache/tracekern when writable (root, as in
# CI: keep that directory between runs to skip the download), else
# ${XDG_CACHE_HOME:-$HOME/.cache}/tracekern. A complete extraction is reused as it is; the
# .deb is fetched with `apt-get download` (running `apt-get update` first, as root or
# through sudo, if apt has no package lists yet) unless $LINUX_SOURCE_DEB names a copy
# already on disk. Exit status 1, with the reason on stderr, if it cannot be had.
set -eu

PACKAGE=linux-source-6.1
if [ -n "${TRACEKERN_CACHE:-}" ]; then
    cache=$TRACEKERN_CACHE
elif mkdir -p /var/cache/tracekern 2>/dev/null && [ -w /var/cache/tracekern ]; then
    cache=/var/cache/tracekern
else
    cache=${XDG_CACHE_HOME:-$HOME/.cache}/tracekern
fi
dest=$cache/$PACKAGE
stamp=$dest/.complete

if [ -f "$stamp" ]; then
    echo "$dest"
    exit 0
fi
mkdir -p "$cache"

deb=${LINUX_SOURCE_DEB:-}
if [ -z "$deb" ]; then
    deb=$(ls "$cache"/${PACKAGE}_*_all.deb 2>/dev/null | tail -n 1 || true)
fi
if [ -z "$deb" ] || [ ! -f "$deb" ]; then
    echo "fetch-linux-source: downloading $PACKAGE (about 140 MB) into $cache" >&2
    if ! (cd "$cache" && apt-get download -q "$PACKAGE" >&2); then
        SUDO=
        [ "$(id -u)" -eq 0 ] || SUDO=sudo
        SUDO=$SUDO "$(dirname "$0")/apt-update.sh" >&2
        (cd "$cache" && apt-get download -q "$PACKAGE" >&2) || {
            echo "fetch-linux-source: apt-get download $PACKAGE failed" >&2
            exit 1
        }
    fi
    deb=$(ls "$cache"/${PACKAGE}_*_all.deb | tail -n 1)
fi

# The package holds /usr/src/linux-source-6.1.tar.xz; only the files above come out of it.
tmp=$cache/.extract.$$
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" ./usr/src/$PACKAGE.tar.xz
tar -xJf "$tmp/usr/src/$PACKAGE.tar.xz" -C "$tmp" --wildcards \
    "$PACKAGE/samples/user_events/*" \
    "$PACKAGE/tools/testing/selftests/user_events/*" \
    "$PACKAGE/tools/testing/selftests/kselftest*.h" \
    "$PACKAGE/include/linux/user_events.h"
rm -rf "$dest"
mv "$tmp/$PACKAGE" "$dest"
echo "from $(basename "$deb")" > "$stamp"
echo "$dest"
