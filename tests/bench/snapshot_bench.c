/*
 * snapshot_bench.c - the cost of one snapshot (`make bench`): int3 through the task gate
 * against int3 through an ordinary interrupt gate whose handler records the same thing, in
 * one run. Chuck Ebbert's 2003 patch "Debugging i386 using hardware task" measured about
 * 1000 clocks per snapshot on a Pentium Pro.
 */
#include "kernel/arch.h"
#include "kernel/bench.h"
#include "trace/snapshot/snapshot.h"
#include "trace/core/trace_internal.h"

#define ITERATIONS 5000

static void snapshot_once(void *arg)
{
    (void)arg;
    TRACE_SNAPSHOT();
}

BENCHMARK(snapshot)
{
    trace_stream_enabled = false;
    trace_switch(trace_find_tracer("snapshot", 8));
    uint64_t task = bench_cost(snapshot_once, 0, ITERATIONS);
    snapshot_use_task_gate(false);
    uint64_t gate = bench_cost(snapshot_once, 0, ITERATIONS);
    snapshot_use_task_gate(true);
    trace_switch(trace_find_tracer("nop", 3));
    rb_reset(trace_buffer());
    /* Under -icount these are guest instructions; without it (tools/bench.sh's second run)
     * the TSC follows the host's clock, and the nanoseconds are QEMU's real time. */
    uint32_t khz = arch_cycles_khz();
    bench_report("snapshot: int3 through the task gate", task, "cycles");
    bench_report("snapshot: int3 through an interrupt gate, same record", gate, "cycles");
    bench_report("snapshot: int3 through the task gate, time", task * 1000000u / khz, "ns");
    bench_report("snapshot: int3 through an interrupt gate, time", gate * 1000000u / khz, "ns");
    bench_report("snapshot: task gate / interrupt gate", gate ? task * 100 / gate : 0, "percent");
}
