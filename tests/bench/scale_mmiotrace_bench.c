/*
 * scale_mmiotrace_bench.c - the curve mmiotrace_read_oldest_mapping (issue 24, `make bench
 * BENCH=scale`): a traced 4-byte read through the oldest of N traced mappings, for N from 1
 * to 4000. The fault handler finds the mapping of the faulting address (ioremap_find): what
 * that lookup costs is what grows with N, if anything does. All N mappings are of one RAM
 * page, as in mmiotrace_bench.c, so the curve does not depend on the machine's devices.
 *
 * Each point is printed as `SCALE CURVE SIZE VALUE` (VALUE in guest instructions under
 * -icount); tools/bench.sh collects those lines into build/scale.json.
 */
#include "kernel/arch.h"
#include "kernel/bench.h"
#include "kernel/mm/ioremap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/log/printk.h"
#include "trace/mmiotrace/mmiotrace.h"
#include "trace/core/trace_internal.h"

#define ITERATIONS 1000
#define MAX_MAPPINGS 4000

static void *mappings[MAX_MAPPINGS];

static void read32(void *p) { (void)mmio_read32(p); }

BENCHMARK(scale_mmiotrace)
{
    static const uint32_t sizes[] = { 1, 10, 100, 1000, MAX_MAPPINGS };
    uintptr_t page = page_alloc(1);
    struct tracer *mmiotrace = trace_find_tracer("mmiotrace", 9);
    if (!page || !mmiotrace) {
        printk("bench: scale_mmiotrace cannot run (no page or no tracer)\n");
        return;
    }
    trace_stream_enabled = false;
    trace_switch(mmiotrace);
    uint32_t mapped = 0;
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        while (mapped < sizes[s]) {
            void *m = ioremap(virt_to_phys((void *)page), PAGE_SIZE); /* traced: mmiotrace is on */
            if (!m)
                break;
            mappings[mapped++] = m;
        }
        if (mapped < sizes[s]) {
            printk("bench: scale_mmiotrace: the ioremap window took only %u mappings\n", mapped);
            break;
        }
        uint64_t cost = bench_cost(read32, mappings[0], ITERATIONS); /* the oldest */
        printk("SCALE mmiotrace_read_oldest_mapping %u %llu\n", sizes[s], (unsigned long long)cost);
        rb_reset(trace_buffer());
    }
    while (mapped > 0) /* newest first */
        iounmap(mappings[--mapped]);
    trace_switch(trace_find_tracer("nop", 3));
    page_free(page, 1);
    rb_reset(trace_buffer());
}
