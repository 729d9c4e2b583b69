#!/usr/bin/env bash
# bench.sh - `make bench`: boots the kernel with `bench` under QEMU's -icount shift=0,
# sleep=off, where guest time counts instructions, prints the kernel's table and writes the
# rows to build/bench.json.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build
log=build/bench-console.log
if ! build/tools/qemu_run --kernel build/tracekern.elf --append "bench${BENCH:+=$BENCH}" \
    --icount --quiet --timeout 600 --console "$log" --com2 build/bench-com2.txt; then
    echo "bench: the benchmark run failed; see $log" >&2
    exit 1
fi
grep '^bench: ' "$log"
sed -n 's/^BENCH-JSON //p' "$log" > build/bench.json
# A hardware task switch is one instruction to -icount, whatever it really costs: the
# snapshot rows are measured once more without -icount, in QEMU's real time.
if [ -z "${BENCH:-}" ] || [[ ",$BENCH," == *,snapshot,* ]]; then
    real=build/bench-real-console.log
    if build/tools/qemu_run --kernel build/tracekern.elf --append "bench=snapshot" --quiet \
        --timeout 120 --console "$real"; then
        echo "bench: without -icount (QEMU real time on this host, varies from run to run):"
        grep '^bench: snapshot' "$real"
        sed -n 's/^BENCH-JSON //p' "$real" > build/bench-real-time.json
    fi
fi
echo "bench: rows written to build/bench.json (and build/bench-real-time.json)"
