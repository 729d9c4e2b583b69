/*
 * scale_ring_buffer_bench.c - the curve ring_reserve_commit_by_buffer_kib (issue 24, `make
 * bench BENCH=scale`): one reserve+commit of an 8-byte payload into a buffer of 8 KiB to
 * 4 MiB per CPU, in overwrite mode (every reservation succeeds, the oldest page is dropped
 * once full). Writing touches only the current page and the next: it should be flat.
 * Printed as `SCALE CURVE SIZE VALUE` (guest instructions under -icount).
 */
#include "kernel/arch.h"
#include "kernel/bench.h"
#include "kernel/log/printk.h"
#include "tests/bench/rb_call.h"
#include "trace/core/ring_buffer.h"
#include "trace/core/trace_internal.h"

#define ITERATIONS 5000

BENCHMARK(scale_ring_buffer)
{
    static const uint32_t kib[] = { 8, 64, 512, 4096 };
    for (unsigned s = 0; s < sizeof kib / sizeof kib[0]; s++) {
        struct rb_call call = { rb_create(&trace_rb_env, arch_cpu_count(), kib[s] / 4), 8 };
        if (!call.rb) {
            printk("bench: scale_ring_buffer: no memory for a %u KiB buffer\n", kib[s]);
            return;
        }
        uint64_t cost = bench_cost(reserve_commit, &call, ITERATIONS);
        printk("SCALE ring_reserve_commit_by_buffer_kib %u %llu\n", kib[s], (unsigned long long)cost);
        rb_destroy(call.rb);
    }
}
