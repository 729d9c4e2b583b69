#!/usr/bin/env bash
# bench.sh - `make bench`: boots the test kernel (build/tracekern-test.elf: the benchmarks
# are linked only there) with `bench` under QEMU's -icount shift=0, sleep=off, where guest
# time counts instructions, prints the kernel's table and writes the rows to
# build/bench.json. Then the rows measured in real time (QEMU without -icount), the
# ISO's boot to the prompt among them.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build
# The rows of a part that does not run this time (BENCH=...) must not be taken for this run's.
rm -f build/bench-smp.json build/bench-ftrace-off.json build/bench-real-time.json build/bench-iso-boot.json
log=build/bench-console.log
# Debian's busybox too (make bench builds it first): proc_bench runs it (execve's row).
programs=$(make -s --no-print-directory print-user-modules),build/busybox/busybox
# The part `scale` (issue 24) is every benchmark named scale_* (tests/bench/scale_*.c): how a
# cost grows with the size of the work. In BENCH it stands for all of them; they run in the
# main boot, and their `SCALE CURVE SIZE VALUE` lines become build/scale.json (below).
rm -f build/scale.json
scale_benchmarks=$(sed -n 's/^BENCHMARK(\(scale_[a-z_0-9]*\))$/\1/p' tests/bench/*.c | paste -sd, -)
which=${BENCH:-}
if [[ ",$which," == *,scale,* ]]; then
    which=$(echo ",$which," | sed "s/,scale,/,$scale_benchmarks,/; s/^,//; s/,$//")
fi
if ! build/tools/qemu_run --kernel build/tracekern-test.elf --append "bench${which:+=$which}" \
    --initrd "$programs" --icount --quiet --timeout 600 --console "$log" --com2 build/bench-com2.txt; then
    echo "bench: the benchmark run failed; see $log" >&2
    exit 1
fi
# scale_sched (tests/bench/scale_sched_bench.c) forks a thousand sleeping processes, more
# than task_limit() admits in the main boot's 128 MiB: it runs again in a boot of its own
# with 1 GiB (in the main boot it only says so), and its console joins the main one's below.
sched_log=build/bench-scale-sched-console.log
rm -f "$sched_log"
if [ -z "$which" ] || [[ ",$which," == *,scale_sched,* ]]; then
    if ! build/tools/qemu_run --kernel build/tracekern-test.elf --append "bench=scale_sched" \
        --initrd "$programs" --icount --quiet --timeout 600 --memory 1024 --console "$sched_log"; then
        echo "bench: the scale_sched run failed; see $sched_log" >&2
        exit 1
    fi
    grep '^bench: ' "$sched_log" || true
fi
consoles=("$log")
[ -f "$sched_log" ] && consoles+=("$sched_log")
grep '^bench: ' "$log"
# Rows a user program measured itself (user/programs/ue_bench.c): "BENCH NAME VALUE".
awk '/^BENCH [a-z_0-9]+ [0-9.]+\r?$/ { sub(/\r$/, ""); printf "bench: %-44s %12s guest instructions (user program)\n", $2, $3 }' "$log"
# A row a user program could not measure: "BENCH-ERROR NAME: WHAT: ERRNO (text)" (a call the
# kernel lacks is ENOSYS); shown as that row's error instead of a number, and make bench
# fails at its end.
errors=$(cat "${consoles[@]}" | tr -d '\r' | sed -n 's/^BENCH-ERROR \([a-z_0-9]*\): \(.*\)/\1 \2/p')
if [ -n "$errors" ]; then
    while read -r row why; do
        printf "bench: %-44s %12s %s\n" "$row" "ERROR" "$why"
    done <<< "$errors"
fi
# The IPC ping-pong ran twice (logging off, then on): throughput lost to IPC logging.
awk '/^BENCH ipc_roundtrip_logging_off / { off = $3 } /^BENCH ipc_roundtrip_logging_on / { on = $3 }
     END { if (off > 0 && on > 0) printf "bench: %-44s %11.1f%% (round trip %d -> %d instructions)\n", "ipc_logging_throughput_loss", 100 * (1 - off / on), off, on }' "$log"
user_rows=$(awk '/^BENCH [a-z_0-9]+ [0-9.]+\r?$/ { sub(/\r$/, ""); printf ", {\"row\": \"%s\", \"value\": %s, \"unit\": \"guest instructions\"}", $2, $3 }' "$log")
json=$(sed -n 's/^BENCH-JSON //p' "$log" | tr -d '\r')
[ "$json" = "[]" ] && user_rows=${user_rows#, }
echo "${json%]}$user_rows]" > build/bench.json
# Benchmarks run again with 2 and 4 CPUs (each row names the CPUs the kernel ran):
# smp_bench NAME ROWS, where ROWS matches the console lines of the rows it prints.
smp_json=
smp_bench() {
    if [ -n "${BENCH:-}" ] && [[ ",$BENCH," != *,$1,* ]]; then
        return
    fi
    for n in 2 4; do
        smp_log=build/bench-$1-smp$n-console.log
        if build/tools/qemu_run --kernel build/tracekern-test.elf --append "bench=$1" \
            --smp "$n" --icount --quiet --timeout 300 --console "$smp_log"; then
            grep "$2" "$smp_log"
            smp_json=$smp_json$(sed -n 's/^BENCH-JSON //p' "$smp_log" | tr -d '\r')
        else
            echo "bench: the $1 run with $n CPUs failed; see $smp_log" >&2
            exit 1
        fi
    done
}
# ftrace's patching rounds: a sync is then an IPI to every other CPU and a wait for all of
# them. The TLB shootdown (tests/bench/tlb_bench.c): an unmap that must flush 1 and 3 other
# CPUs (the 1-CPU run above has only the unmap without one).
smp_bench ftrace_patching '^bench: ftrace: .*CPU'
smp_bench tlb_shootdown '^bench: tlb: .*CPUs'
# The ring buffer with 1, 2 and 4 CPUs all writing (tests/bench/ring_buffer_smp_bench.c),
# twice. Under -icount QEMU runs every CPU on one thread in turn and each CPU's executed
# instructions advance the one guest clock (accel/tcg/tcg-accel-ops-icount.c, icount-common.c):
# there the elapsed time over all CPUs' events is the instructions one event costs one CPU,
# flat when the writers do not slow each other down, and events per guest second cannot
# grow with CPUs. Without -icount (multi-threaded TCG, a host thread per CPU) the events per
# second of QEMU's real time are what scales, up to this host's cores.
if [ -z "${BENCH:-}" ] || [[ ",$BENCH," == *,ring_buffer_smp,* ]]; then
    for clock in icount real; do
        for n in 1 2 4; do
            # -icount is exact: one run. Real time varies with the host's load: median of 3.
            icount=(--icount) runs=1 what="cycles per event" \
                unit="guest instructions per event per CPU (-icount)"
            if [ "$clock" = real ]; then
                icount=() runs=3 what="events per second" \
                    unit="events/s in QEMU real time (multi-threaded TCG, $(nproc) host cores; median of 3)"
            fi
            values=()
            for run in $(seq "$runs"); do
                smp_log=build/bench-rb-smp$n-$clock-console.log
                if ! build/tools/qemu_run --kernel build/tracekern-test.elf --append bench=ring_buffer_smp \
                    --smp "$n" "${icount[@]}" --quiet --timeout 300 --console "$smp_log" > /dev/null; then
                    echo "bench: the ring_buffer_smp run with $n CPUs ($clock) failed; see $smp_log" >&2
                    exit 1
                fi
                value=$(tr -d '\r' < "$smp_log" |
                    sed -n "s/^bench: ring buffer, all CPUs writing, .*: $what  *\([0-9][0-9]*\) .*/\1/p")
                if [ -z "$value" ]; then
                    echo "bench: the ring_buffer_smp run with $n CPUs ($clock) gave no row; see $smp_log" >&2
                    exit 1
                fi
                values+=("$value")
            done
            value=$(printf '%s\n' "${values[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
            name="ring buffer, all CPUs writing, $n CPU$([ "$n" -eq 1 ] || echo s)"
            printf "bench: %-44s %12s %s\n" "$name" "$value" "$unit"
            smp_json="$smp_json[{\"row\": \"$name\", \"value\": $value, \"unit\": \"$unit\"}]"
        done
    done
fi
# IPC between two processes on one CPU and on two (tests/bench/ipc_bench.c's ipc_smp), with
# 4 CPUs so that the benchmark's own thread on CPU 0 stays out of the pair's way.
if [ -z "${BENCH:-}" ] || [[ ",$BENCH," == *,ipc_smp,* ]]; then
    smp_log=build/bench-ipc-smp-console.log
    if ! build/tools/qemu_run --kernel build/tracekern-test.elf --append bench=ipc_smp --initrd "$programs" \
        --smp 4 --icount --quiet --timeout 300 --console "$smp_log" > /dev/null; then
        echo "bench: the ipc_smp run with 4 CPUs failed; see $smp_log" >&2
        exit 1
    fi
    # issue 20: and with register messages (ipc_call_regs / ipc_reply_recv_regs).
    for row in same cross regs_same regs_cross; do
        where=${row#regs_}
        value=$(tr -d '\r' < "$smp_log" | sed -n "s/^BENCH ipc_roundtrip_${row}_cpu \([0-9][0-9]*\)$/\1/p")
        if [ -z "$value" ]; then
            echo "bench: the ipc_smp run gave no $row-CPU row; see $smp_log" >&2
            exit 1
        fi
        name="IPC round trip, $where CPU"
        [ "$row" = "$where" ] || name="IPC round trip, registers, $where CPU"
        unit="guest instructions per round trip (4 CPUs, -icount)"
        printf "bench: %-44s %12s %s\n" "$name" "$value" "$unit"
        smp_json="$smp_json[{\"row\": \"$name\", \"value\": $value, \"unit\": \"$unit\"}]"
    done
fi
# A program's access to edu's BAR mapped through sysfs's resourceN, and to a port of
# pci-testdev's I/O BAR through ioperm, untraced and under mmiotrace
# (tests/bench/mmiotrace_user_bench.c, user/programs/bar_bench.c): a boot with both devices.
if [ -z "${BENCH:-}" ] || [[ ",$BENCH," == *,mmiotrace_user,* ]]; then
    bar_log=build/bench-mmiotrace-user-console.log
    if ! build/tools/qemu_run --kernel build/tracekern-test.elf --append bench=mmiotrace_user \
        --initrd "$programs" --devices "edu pci-testdev" --icount --quiet --timeout 300 --console "$bar_log" > /dev/null; then
        echo "bench: the mmiotrace_user run failed; see $bar_log" >&2
        exit 1
    fi
    for row in read:"mmiotrace: traced ring-3 BAR read" write:"mmiotrace: traced ring-3 BAR write" \
        untraced:"untraced ring-3 BAR access" port_read:"mmiotrace: traced ring-3 port read" \
        port_untraced:"untraced ring-3 port read"; do
        value=$(tr -d '\r' < "$bar_log" | sed -n "s/^BENCH mmiotrace_user_${row%%:*} \([0-9.]*\)$/\1/p")
        if [ -z "$value" ]; then
            echo "bench: the mmiotrace_user run gave no ${row%%:*} row; see $bar_log" >&2
            exit 1
        fi
        name=${row#*:} unit="guest instructions per 4-byte access (program, edu's BAR 0)"
        [[ $row == port* ]] && unit="guest instructions per inb (program, ioperm, pci-testdev's I/O BAR)"
        printf "bench: %-44s %12s %s\n" "$name" "$value" "$unit"
        smp_json="$smp_json[{\"row\": \"$name\", \"value\": $value, \"unit\": \"$unit\"}]"
    done
fi
if [ -n "$smp_json" ]; then
    echo "$smp_json" | sed 's/\]\[/, /g' > build/bench-smp.json
fi
# The function tracer's hooks compiled in but off, on whole workloads: an IPC round trip,
# getpid and the boot, against the same kernel built without -pg (build/nopg; its ftrace
# has no call sites). Both kernels run the same benchmarks with the same arguments.
if [ -z "${BENCH:-}" ] || [[ ",$BENCH," == *,ftrace_off,* ]]; then
    make -s --no-print-directory BUILD=build/nopg FTRACE_CFLAGS= build/nopg/tracekern-test.elf
    for kernel in build/tracekern-test.elf build/nopg/tracekern-test.elf; do
        off_log=build/bench-ftrace-off-$(basename "$(dirname "$kernel")")-console.log
        if ! build/tools/qemu_run --kernel "$kernel" --append bench=ipc,user_events --initrd "$programs" \
            --icount --quiet --timeout 300 --console "$off_log" > /dev/null; then
            echo "bench: the ipc,user_events run of $kernel failed; see $off_log" >&2
            exit 1
        fi
    done
    # value ROW LOG: a row's number in a console log ("BENCH ROW N" or "bench: ROW N unit")
    value() { tr -d '\r' < "$2" | sed -n -e "s/^BENCH $1 \([0-9.]*\)$/\1/p" \
        -e "s/^bench: $1  *\([0-9][0-9]*\) .*/\1/p" | head -n 1; }
    off_json=
    for pair in "IPC round trip:ipc_roundtrip_logging_off" "getpid:syscall_getpid" \
        "boot:boot: power-on to the benchmarks"; do
        what=${pair%%:*} row=${pair#*:}
        with=$(value "$row" build/bench-ftrace-off-build-console.log)
        without=$(value "$row" build/bench-ftrace-off-nopg-console.log)
        if [ -z "$with" ] || [ -z "$without" ]; then
            echo "bench: no '$row' row in the ftrace_off runs; see build/bench-ftrace-off-*-console.log" >&2
            exit 1
        fi
        pct=$(awk -v a="$with" -v b="$without" 'BEGIN { printf "%.2f", 100 * (a - b) / b }')
        name="ftrace hooks compiled in, off: $what"
        printf "bench: %-44s %11s%% (%s with the hooks, %s without -pg)\n" "$name" "$pct" "$with" "$without"
        off_json="$off_json${off_json:+, }{\"row\": \"$name\", \"value\": $pct, \"unit\": \"percent\"}"
    done
    echo "[$off_json]" > build/bench-ftrace-off.json
fi
# A hardware task switch is one instruction to -icount, whatever it really costs, and so is
# each byte written to COM2's port: the snapshot rows and the COM2 stream are measured once
# more without -icount, in QEMU's real time.
real_rows=
if [ -z "${BENCH:-}" ] || [[ ",$BENCH," == *,snapshot,* ]]; then real_rows=snapshot; fi
for b in trace_pipe_export capture_export stream_flood; do
    if [ -z "${BENCH:-}" ] || [[ ",$BENCH," == *,$b,* ]]; then real_rows=${real_rows:+$real_rows,}$b; fi
done
if [ -n "$real_rows" ]; then
    real=build/bench-real-console.log
    if build/tools/qemu_run --kernel build/tracekern-test.elf --append "bench=$real_rows" --quiet \
        --timeout 120 --console "$real" --com2 build/bench-real-com2.txt; then
        echo "bench: without -icount (QEMU real time on this host, varies from run to run):"
        grep -E '^bench: (snapshot|marker flood|trace_pipe export|binary capture)' "$real"
        sed -n 's/^BENCH-JSON //p' "$real" > build/bench-real-time.json
    fi
fi
# Wall-clock time from starting QEMU on the ISO (SeaBIOS, GRUB over the emulated CD, the
# kernel) to the shell's prompt, then poweroff; the median of three boots.
if [ -z "${BENCH:-}" ] || [[ ",$BENCH," == *,iso_boot,* ]]; then
    make -s --no-print-directory build/tracekern.iso
    times=()
    for i in 1 2 3; do
        start=$(date +%s%N)
        if ! build/tools/qemu_run --iso build/tracekern.iso --devices "edu pci-testdev" \
            --send-on-prompt poweroff --quiet --timeout 60 --console build/bench-iso-boot.log \
            > /dev/null; then
            echo "bench: the ISO boot failed; see build/bench-iso-boot.log" >&2
            exit 1
        fi
        times+=($(( ($(date +%s%N) - start) / 1000000 )))
    done
    median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p)
    printf "bench: %-44s %12s ms (boots: %s ms)\n" "ISO boot to prompt, median of 3" "$median" "${times[*]}"
    printf '[{"row": "iso_boot_to_prompt_median_of_3", "value": %s, "unit": "ms"}]\n' "$median" \
        > build/bench-iso-boot.json
fi
echo "bench: rows written to build/bench.json (and build/bench-real-time.json, build/bench-iso-boot.json, build/bench-smp.json, build/bench-ftrace-off.json, build/scale.json)"
python3 tools/bench_goals.py tools/bench-goals.txt build/bench.json build/bench-smp.json \
    build/bench-ftrace-off.json
# The scale curves (from the main boot's console), beside the goals: each as one line, with
# "within 1.3x: yes/NO" for a per-operation curve (docs/scaling.md).
if [ -z "${BENCH:-}" ] || [[ ",$BENCH," == *,scale,* ]] || [[ ",$BENCH," == *,scale_sched,* ]]; then
    if [ -z "${BENCH:-}" ] || [[ ",$BENCH," == *,scale,* ]]; then
        # The boot's own curves (tests/bench/boot_cost_bench.c, docs/scaling.md §7): short
        # boots with no modules that print their points and power off, at memory sizes from
        # 16 MiB to 2 GiB and with 1, 2, 4, 8 and 16 edu devices added to QEMU's 6 functions
        # (about 0.4 s each). Their logs come last: a later point of a curve and size replaces
        # an earlier one (the main boot's boot_cost point, made with modules, among them).
        boot_point() { # NAME QEMU_RUN_ARGS...
            local boot_log=build/bench-boot-$1-console.log
            shift
            if ! build/tools/qemu_run --kernel build/tracekern-test.elf --append bench=boot_cost \
                --icount --quiet --timeout 120 --console "$boot_log" "$@" > /dev/null; then
                echo "bench: the boot_cost boot ($*) failed; see $boot_log" >&2
                exit 1
            fi
            consoles+=("$boot_log")
        }
        # (The device boots first: each boot also prints a point of the other curve, and the
        # memory boots' 128 MiB point, with QEMU's devices only, is the one to keep.)
        for n in 1 2 4 8 16; do
            boot_point "${n}edu" --devices "$(printf 'edu %.0s' $(seq "$n"))"
        done
        for mib in 16 64 128 256 512 768 1024 2048; do
            boot_point "${mib}m" --memory "$mib"
        done
    fi
    if ! python3 tools/scale_curves.py build/scale.json "${consoles[@]}"; then
        echo "bench: the scale benchmarks printed no SCALE line; see $log" >&2
        exit 1
    fi
fi
if [ -n "$errors" ]; then
    echo "bench: $(wc -l <<< "$errors") row(s) could not be measured (ERROR above)" >&2
    exit 1
fi
