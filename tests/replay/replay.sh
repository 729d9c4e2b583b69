#!/usr/bin/env bash
# replay.sh QEMU_RUN KERNEL MMIO_REPLAY LOGDIR - replaying an MMIO log, one of the tools
# Linux's Documentation/trace/mmiotrace.rst lists for developers, end to end: trace a
# session (capture.script), turn its log into a boot script with mmio_replay, run that under
# mmiotrace, and check that the device received the same writes, in the same order, and that
# every read the replay checked gave the value the first session saw.
set -u
qemu_run=$1 kernel=$2 replay=$3 logs=$4
here=$(dirname "$0")
devices="edu pci-testdev"

run() { # script console com2
    "$qemu_run" --kernel "$kernel" --initrd "$1" --devices "$devices" --quiet --timeout 60 \
        --console "$2" --com2 "$3" > /dev/null 2>&1
}
# The writes: W records (width, address, value) and the extension's OUT records (width, port, value).
writes() { awk '$1 == "W" { print "W", $2, $5, $6 } $1 == "OUT" { print "OUT", $2, $4, $5 }' "$1"; }
problems=()

run "$here/capture.script" "$logs/replay_capture.log" "$logs/replay_capture.com2" \
    || problems+=("the capture session failed")
"$replay" --check-reads "$logs/replay_capture.com2" > "$logs/replay.script" 2> "$logs/replay.err" \
    || problems+=("mmio_replay failed: $(head -n 1 "$logs/replay.err")")
run "$logs/replay.script" "$logs/replay_run.log" "$logs/replay_run.com2" \
    || problems+=("the replayed script failed")

[ "$(writes "$logs/replay_capture.com2" | wc -l)" -ge 5 ] || problems+=("the capture has too few writes")
if ! diff <(writes "$logs/replay_capture.com2") <(writes "$logs/replay_run.com2") > "$logs/replay.diff"; then
    problems+=("the replay's writes differ from the capture's (see $logs/replay.diff)")
fi
# --check-reads: the n-th `mmio read` must print the n-th "# expect" value.
expected=$(sed -n 's/^# expect //p' "$logs/replay.script")
got=$(sed -n 's/^[0-9a-f:.]* BAR[0-9]+0x[0-9a-f]*: //p' "$logs/replay_run.log")
[ -n "$expected" ] || problems+=("the replay checks no read")
norm() { while read -r v; do printf '0x%x\n' "$v"; done; }
[ "$(echo "$expected" | norm)" = "$(echo "$got" | norm)" ] \
    || problems+=("replayed reads gave $(echo $got), expected $(echo $expected)")

[ ${#problems[@]} -eq 0 ] && exit 0
for p in "${problems[@]}"; do echo "#   $p"; done
exit 1
