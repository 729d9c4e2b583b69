#!/usr/bin/env bash
# mmio_oracle.sh [-b] [-p] [-x ADDR]... TRACE_PIPE QEMU_TRACE REGION BASE SIZE - checks an
# mmiotrace log against what one of QEMU's device models received.
#
# QEMU run with `-trace memory_region_ops_read -trace memory_region_ops_write -D FILE` logs
# every access a memory region's model handles: its absolute address, value, size and the
# region's name. Every R/W record of the mmiotrace log in [BASE, BASE+SIZE) (hex) must match
# the accesses of region REGION made by the CPUs (cpu 0, 1, ...: a program may run on any;
# "cpu -1" is DMA), one for one and in
# order: same direction, physical address, width and value. Nothing missing, nothing extra.
#
# -b: compare byte by byte. Some models declare a smaller access size than the CPU used
# (pci-testdev's MMIO region takes 1 byte at a time), so QEMU's memory core splits one 2- or
# 4-byte access into several and traces each; both sides then agree byte for byte (address,
# value, order) but not on widths. QEMU also turns an unaligned read into reads of the whole
# aligned 4-byte words around it: for those, the bytes the CPU did not ask for must be there
# too, in place, with any value ("?").
# -p: the region is I/O space: the log's IN and OUT records (tracekern's extension: "IN
# width time 0xport 0xvalue 0xpc pid") are compared, as R and W, with QEMU's accesses of it
# (QEMU names a port by its number, as it names memory by its physical address).
# -x ADDR: a write to ADDR (hex) is taken by a QEMU ioeventfd before any region sees it, so
# QEMU's trace cannot show it (pci-testdev's *-eventfd tests); such writes are left out of
# the comparison, and only those.
# Prints the first difference and exits 1, or prints the number of accesses and exits 0.
set -u
invisible=" " bytewise=0 ports=0
while :; do
    case "${1:-}" in
    -b) bytewise=1; shift ;;
    -p) ports=1; shift ;;
    -x) invisible="$invisible$(echo "$2" | tr 'A-F' 'a-f' | sed 's/^0x//; s/^0*//') "; shift 2 ;;
    *) break ;;
    esac
done
trace=$1 qemu=$2 region=$3 base=$((16#${4#0x})) size=$((16#${5#0x}))

ours=$(mktemp) theirs=$(mktemp)
trap 'rm -f "$ours" "$theirs"' EXIT

# Hex numbers are compared without their 0x and leading zeros (0x00ed is 0xed).
hex='function hex(s) { s = tolower(s); sub(/^0x/, "", s); sub(/^0+/, "", s); return s == "" ? "0" : s }'
# mmiotrace: "R width time map 0xphys 0xvalue 0xpc pid" -> "R phys width value", for the
# records inside the region (addresses compared as numbers: a 32-bit range fits awk's).
# With -p, "IN width time 0xport 0xvalue 0xpc pid" -> "R port width value" (OUT: W).
awk -v invisible="$invisible" -v lo="$base" -v hi="$((base + size))" -v ports="$ports" "$hex"'
    function num(h,   i, n) { n = 0; for (i = 1; i <= length(h); i++) n = n * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1; return n }
    !ports && ($1 == "R" || $1 == "W") { op = $1; addr = $5; value = $6 }
    ports && ($1 == "IN" || $1 == "OUT") { op = $1 == "IN" ? "R" : "W"; addr = $4; value = $5 }
    op != "" && num(hex(addr)) >= lo && num(hex(addr)) < hi &&
    !(op == "W" && index(invisible, " " hex(addr) " ")) {
        print op, hex(addr), $2, hex(value)
    }
    { op = "" }' "$trace" > "$ours"
# QEMU: "memory_region_ops_read cpu 0 mr 0x... addr 0x... value 0x... size N name 'edu-mmio'"
awk -v name="'$region'" "$hex"'
    /memory_region_ops_(read|write) cpu [0-9]+ / && $NF == name {
        op = ($1 ~ /read$/) ? "R" : "W"
        for (i = 1; i < NF; i++) {
            if ($i == "addr") addr = hex($(i + 1))
            if ($i == "value") value = $(i + 1)
            if ($i == "size") size = $(i + 1)
        }
        # A model may return more bits than the access has: the CPU gets the low size bytes.
        sub(/^0x/, "", value)
        if (length(value) > 2 * size)
            value = substr(value, length(value) - 2 * size + 1)
        print op, addr, size, hex(value)
    }' "$qemu" > "$theirs"

# Byte by byte: "R addr width value" becomes width lines "R addr+i 1 byte_i" (little end
# first); with our_side set, an unaligned read becomes the aligned 4-byte words around it,
# "?" for bytes outside it. Hex digits are turned into numbers by hand: mawk has no strtonum.
split_bytes() { # file our_side
    awk -v ours="$2" '
    function num(h,   i, n) { n = 0; for (i = 1; i <= length(h); i++) n = n * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1; return n }
    {
        a = num($2); w = $3; v = $4
        while (length(v) < 2 * w) v = "0" v
        first = a; last = a + w
        if (ours && $1 == "R" && a % w) { first = a - a % 4; last = last + (4 - last % 4) % 4 }
        for (b = first; b < last; b++) {
            value = (b < a || b >= a + w) ? "?" : sprintf("%x", num(substr(v, length(v) - 2 * (b - a) - 1, 2)))
            printf "%s %x 1 %s\n", $1, b, value
        }
    }' "$1" > "$1.bytes" && mv "$1.bytes" "$1"
}
if [ "$bytewise" = 1 ]; then
    split_bytes "$ours" 1
    split_bytes "$theirs" 0
    # A "?" byte on our side takes QEMU's value, if QEMU read that same byte there.
    paste -d'|' "$ours" "$theirs" | awk -F'|' '$1 != "" {
        split($1, o, " "); split($2, t, " ")
        if (o[4] == "?" && o[1] == t[1] && o[2] == t[2]) o[4] = t[4]
        print o[1], o[2], o[3], o[4] }' > "$ours.resolved"
    mv "$ours.resolved" "$ours"
fi

if ! diff -q "$ours" "$theirs" > /dev/null; then
    echo "#   mmiotrace log ($(wc -l < "$ours") accesses) and QEMU ($(wc -l < "$theirs")) differ;"
    echo "#   first differences (direction, address, width, value; < ours, > QEMU's):"
    diff "$ours" "$theirs" | head -n 10 | sed 's/^/#   /'
    exit 1
fi
echo "#   $region: $(wc -l < "$ours") accesses$([ "$bytewise" = 1 ] && echo " (bytes)"), identical to QEMU's"
exit 0
