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
echo "bench: rows written to build/bench.json"
