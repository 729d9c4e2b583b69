/*
 * mmiotrace_bench.c - what tracing one MMIO access costs (`make bench`): a 4-byte read and
 * a 4-byte write through a traced mapping against the same through an untraced mapping of
 * the same page, in one run. The page is RAM, mapped with ioremap like a device: the trap,
 * decode, shadow step and records are the same as for a device, and the numbers do not
 * depend on which device models the machine has.
 */
#include "kernel/arch.h"
#include "kernel/bench.h"
#include "kernel/mm/ioremap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/log/printk.h"
#include "trace/mmiotrace/mmiotrace.h"
#include "trace/core/trace_internal.h"

#define ITERATIONS 5000

static void read32(void *p) { (void)mmio_read32(p); }
static void write32(void *p) { mmio_write32(p, 0x12345678); }

BENCHMARK(mmiotrace)
{
    uintptr_t page = page_alloc(1);
    struct tracer *mmiotrace = trace_find_tracer("mmiotrace", 9);
    if (!page || !mmiotrace) {
        printk("bench: mmiotrace benchmark cannot run (no page or no tracer)\n");
        return;
    }
    trace_stream_enabled = false;
    trace_switch(trace_find_tracer("nop", 3));
    void *plain = ioremap(virt_to_phys((void *)page), PAGE_SIZE);  /* mapped before mmiotrace: not traced */
    trace_switch(mmiotrace);
    void *traced = ioremap(virt_to_phys((void *)page), PAGE_SIZE); /* mapped while it is on: traced */

    uint64_t plain_read = bench_cost(read32, plain, ITERATIONS);
    uint64_t traced_read = bench_cost(read32, traced, ITERATIONS);
    uint64_t plain_write = bench_cost(write32, plain, ITERATIONS);
    uint64_t traced_write = bench_cost(write32, traced, ITERATIONS);
    bench_report("mmiotrace: untraced 4-byte read", plain_read, "instructions");
    bench_report("mmiotrace: traced 4-byte read", traced_read, "instructions");
    bench_report("mmiotrace: overhead per traced read", traced_read - plain_read, "instructions");
    bench_report("mmiotrace: untraced 4-byte write", plain_write, "instructions");
    bench_report("mmiotrace: traced 4-byte write", traced_write, "instructions");
    bench_report("mmiotrace: overhead per traced write", traced_write - plain_write,
                 "instructions");

    iounmap(traced);
    trace_switch(trace_find_tracer("nop", 3));
    iounmap(plain);
    page_free(page, 1);
    rb_reset(trace_buffer());
}
