/*
 * scale_ftrace_bench.c - the curve function_by_traceable_functions (issue 24, `make bench
 * BENCH=scale`): what the function tracer costs per traced call while N functions are
 * traced (set_ftrace_filter holding N of them, by index as Linux's filter files take
 * them), from 1 to every traceable function in the kernel. A call site patched to call
 * ftrace_caller costs the same however many others are: the filter is applied by patching
 * only its functions' sites, and the function tracer's path (ftrace_function_call) never
 * looks at the others. Printed as `SCALE CURVE SIZE VALUE`, the instructions of one traced
 * call of ftrace_test_small over the same call untraced.
 */
#include "kernel/arch.h"
#include "kernel/bench.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/log/printk.h"
#include "kernel/mm/heap.h"
#include "samples/ftrace/ftrace_testmod.h"
#include "trace/core/trace_internal.h"
#include "trace/ftrace/ftrace_internal.h"

#define ITERATIONS 5000

static void traced_call(void *arg)
{
    (void)arg;
    ftrace_test_small();
}

/* set_ftrace_filter = ftrace_test_small (site small) and the first n - 1 other functions,
 * by index (1-based, as available_filter_functions' lines); 0 or -errno. */
static int filter_n(uint32_t n, char *text, size_t size, uint32_t small)
{
    size_t len = (size_t)ksnprintf(text, size, "%u", small + 1);
    for (uint32_t i = 0, added = 1; i < ftrace_sites.count && added < n; i++) {
        if (i == small)
            continue;
        if (len + 12 >= size)
            return -1;
        len += (size_t)ksnprintf(text + len, size - len, " %u", i + 1);
        added++;
    }
    int err = ftrace_filter_write(&ftrace_filter, ftrace_sites.scratch, text, len, false,
                                  ftrace_sites.addr, kernel_symbols());
    ftrace_update();
    return err;
}

BENCHMARK(scale_ftrace)
{
    int small = ftrace_site_index((uint32_t)(uintptr_t)ftrace_test_small);
    size_t size = (size_t)ftrace_sites.count * 8 + 16;
    char *text = kmalloc(size);
    if (small < 0 || !text) {
        printk("bench: scale_ftrace: %s\n", small < 0 ? "ftrace_test_small is not traceable"
                                                       : "no memory for the filter text");
        kfree(text);
        return;
    }
    trace_stream_enabled = false;
    trace_switch(trace_find_tracer("nop", 3));
    uint64_t untraced = bench_cost(traced_call, 0, ITERATIONS);
    trace_switch(trace_find_tracer("function", 8));
    const uint32_t sizes[] = { 1, 10, 100, 1000, ftrace_sites.count };
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        if (filter_n(sizes[s], text, size, (uint32_t)small) != 0) {
            printk("bench: scale_ftrace: the filter of %u functions was refused\n", sizes[s]);
            break;
        }
        uint64_t cost = bench_cost(traced_call, 0, ITERATIONS);
        printk("SCALE function_by_traceable_functions %u %llu\n", sizes[s],
               (unsigned long long)(cost > untraced ? cost - untraced : 0));
    }
    trace_switch(trace_find_tracer("nop", 3));
    ftrace_filter_write(&ftrace_filter, ftrace_sites.scratch, "", 0, false, ftrace_sites.addr,
                        kernel_symbols());
    ftrace_update();
    rb_reset(trace_buffer());
    trace_stream_enabled = true;
    kfree(text);
}
