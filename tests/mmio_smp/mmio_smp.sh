#!/usr/bin/env bash
# mmio_smp.sh QEMU_RUN TEST_KERNEL LOGDIR PROGRAMS SMP [ITERATIONS] - mmiotrace with every
# CPU online, lossless and in order, with QEMU's edu model as the oracle (issue 19).
#
# hammer.script has all SMP CPUs hammer one page of edu's BAR0 at once (`mmio_hammer`, test
# kernel only: the same register, a register of each CPU's own, writes, reads and
# single-instruction read-modify-writes), twice. QEMU logs every access its model handles
# with the CPU that made it (-trace memory_region_ops_read/write: "... cpu N ... addr A
# value V size S name 'edu-mmio'"). Then:
#  run 1 (the mmiotrace tracer): the log holds exactly QEMU's accesses (direction, address,
#    width, value), as many as mmio_hammer made, none lost, none UNKNOWN; the mmiotrace
#    format has no CPU field (Linux's last field is a PID, always 0), so this one is
#    compared as a multiset;
#  run 2 (the mmio/mmio_rw event, whose lines carry [CPU]): for every CPU, the accesses
#    recorded on it are QEMU's accesses by that CPU, one for one and in the same order.
# Prints TAP-style "#" lines; exits 0 when every check holds.
set -u
qemu_run=$1 kernel=$2 logs=$3 programs=$4 smp=$5 iterations=${6:-200}
here=$(dirname "$0")
name=mmio_smp$smp
script=$logs/$name.script con=$logs/$name.log com2=$logs/$name.com2 qemu=$logs/$name.qemu
problems=()
sed "s/@ITERATIONS@/$iterations/" "$here/hammer.script" > "$script"
rm -f "$qemu"
"$qemu_run" --kernel "$kernel" --initrd "$script,$programs" --devices edu --smp "$smp" \
    --qemu-trace "$qemu" --quiet --timeout 120 --console "$con" --com2 "$com2" > /dev/null 2>&1 \
    || problems+=("the boot failed (qemu_run exit $?; see $con)")

expected=$((smp * iterations * 10))
ran=$(tr -d '\r' < "$con" | sed -n 's/^mmio_hammer: \([0-9]*\) CPUs x [0-9]* iterations: \([0-9]*\) accesses$/\1 \2/p')
[ "$ran" = "$smp $expected
$smp $expected" ] || problems+=("mmio_hammer did not run twice on all $smp CPUs: '$(echo $ran)'")

hex='function hex(s) { s = tolower(s); sub(/^0x/, "", s); sub(/^0+/, "", s); return s == "" ? "0" : s }'
# QEMU: "cpu R addr width value" per access by a CPU (not DMA, cpu -1), split in two at the
# untraced read of BAR0 + 0 (run 1 never touches it): run=1 before it, run=2 after.
qemu_run_accesses() { # run
    awk -v want="$1" "$hex"'
        /memory_region_ops_(read|write) cpu [0-9]+ / && $NF == "'"'edu-mmio'"'" {
            for (i = 1; i < NF; i++) {
                if ($i == "cpu") cpu = $(i + 1)
                if ($i == "addr") addr = hex($(i + 1))
                if ($i == "value") value = $(i + 1)
                if ($i == "size") size = $(i + 1)
            }
            if (addr == "fea00000") { run = 2; next }
            sub(/^0x/, "", value)
            if (length(value) > 2 * size) value = substr(value, length(value) - 2 * size + 1)
            if ((run == 2) == (want == 2))
                print cpu, (($1 ~ /read$/) ? "R" : "W"), addr, size, hex(value)
        }' "$qemu"
}
tr -d '\r' < "$com2" > "$logs/$name.com2.txt"
ours1=$(mktemp) ours2=$(mktemp) theirs1=$(mktemp) theirs2=$(mktemp)
trap 'rm -f "$ours1" "$ours2" "$theirs1" "$theirs2"' EXIT
qemu_run_accesses 1 | cut -d' ' -f2- | sort > "$theirs1"
qemu_run_accesses 2 > "$theirs2"
# Run 1: "R width time map 0xphys 0xvalue 0xpc pid" -> "R phys width value".
awk "$hex"' ($1 == "R" || $1 == "W") { print $1, hex($5), $2, hex($6) }' "$logs/$name.com2.txt" | sort > "$ours1"
# Run 2: "sh-1 [001] d.... 1.2: mmio_rw: rw=R width=4 addr=0x.. value=0x.. pc=.. map_id=N".
sed -n 's/.*\[0*\([0-9][0-9]*\)\] .* mmio_rw: rw=\([RW]\) width=\([0-9]*\) addr=\(0x[0-9a-f]*\) value=\(0x[0-9a-f]*\) .*/\1 \2 \4 \3 \5/p' \
    "$logs/$name.com2.txt" | awk "$hex"' { print $1, $2, hex($3), $4, hex($5) }' > "$ours2"

n1=$(wc -l < "$ours1") q1=$(wc -l < "$theirs1")
[ "$q1" -eq "$expected" ] || problems+=("run 1: QEMU saw $q1 accesses, mmio_hammer made $expected")
if ! diff -q "$ours1" "$theirs1" > /dev/null; then
    problems+=("run 1: the mmiotrace log ($n1 accesses) is not QEMU's ($q1); first differences (< ours, > QEMU's):")
    while read -r l; do problems+=("  $l"); done < <(diff "$ours1" "$theirs1" | head -n 8)
fi
grep -q '^UNKNOWN' "$logs/$name.com2.txt" && problems+=("run 1: UNKNOWN records")
grep -qi 'lost' "$logs/$name.com2.txt" && problems+=("events were reported lost")

n2=$(wc -l < "$ours2") q2=$(wc -l < "$theirs2")
[ "$q2" -eq "$expected" ] || problems+=("run 2: QEMU saw $q2 accesses, mmio_hammer made $expected")
percpu=""
for cpu in $(seq 0 $((smp - 1))); do
    a=$(awk -v c="$cpu" '$1 == c' "$ours2" | wc -l) b=$(awk -v c="$cpu" '$1 == c' "$theirs2" | wc -l)
    percpu="$percpu CPU$cpu:$a"
    [ "$b" -eq $((iterations * 10)) ] || problems+=("run 2: QEMU saw CPU $cpu make $b accesses, not $((iterations * 10))")
    if ! diff -q <(awk -v c="$cpu" '$1 == c' "$ours2") <(awk -v c="$cpu" '$1 == c' "$theirs2") > /dev/null; then
        problems+=("run 2: CPU $cpu's recorded accesses ($a) are not QEMU's ($b) in order; first differences (< ours, > QEMU's):")
        while read -r l; do problems+=("  $l"); done < <(diff <(awk -v c="$cpu" '$1 == c' "$ours2") \
            <(awk -v c="$cpu" '$1 == c' "$theirs2") | head -n 6)
    fi
done
# Nobody else touched the page while both runs went: it really was the CPUs racing.
shared=$(awk '$3 == "fea00004" || $3 == "fea00080"' "$theirs2" | awk '{ print $1 }' | sort -u | wc -l)
[ "$shared" -eq "$smp" ] || problems+=("run 2: only $shared CPUs reached the shared registers")

echo "#   $smp CPUs: run 1 $n1 accesses (QEMU $q1), run 2 $n2 accesses (QEMU $q2), per CPU$percpu"
[ ${#problems[@]} -eq 0 ] && exit 0
for p in "${problems[@]}"; do echo "#   $p"; done
exit 1
