#!/bin/sh
# fetch-linux-image.sh - puts the kernel of Debian's linux-image-686 (i386) at OUT/vmlinuz,
# its config at OUT/config and its uio modules in OUT/modules, unmodified. The metapackage names the real package
# (linux-image-6.1.0-N-686), which tools/fetch-deb.sh downloads into the shared
# cache; OUT/package says which one it was. usage: fetch-linux-image.sh OUT
set -eu

out=${1:?usage: fetch-linux-image.sh OUT}
here=$(dirname "$0")
meta=linux-image-686
arch=i386

# The metapackage's dependency is the versioned image; apt knows it once i386 is added and
# the lists updated, which fetch-deb.sh does for the metapackage itself.
"$here/../fetch-deb.sh" --lists-only "$meta" "$arch"
real=$(apt-cache depends "$meta:$arch" | sed -n 's/^ *Depends: \(linux-image-[0-9.]*-[0-9]*-686\)\(:i386\)\{0,1\}$/\1/p' | head -n 1)
if [ -z "$real" ]; then
    echo "fetch-linux-image: apt does not say which image $meta:$arch depends on" >&2
    exit 1
fi
deb=$("$here/../fetch-deb.sh" "$real" "$arch")

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir" ./boot ./lib
mkdir -p "$out/modules"
cp "$dir"/boot/vmlinuz-* "$out/vmlinuz"
cp "$dir"/boot/config-* "$out/config"
# uio and uio_pci_generic, for the user-space drivers that run on both kernels
# (tools/compare/abi_diff.sh, docs/device-models.md).
cp "$dir"/lib/modules/*/kernel/drivers/uio/uio.ko "$dir"/lib/modules/*/kernel/drivers/uio/uio_pci_generic.ko \
    "$out/modules/"
basename "$deb" > "$out/package"
echo "fetch-linux-image: $out/vmlinuz from $(basename "$deb")"
