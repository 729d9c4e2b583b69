/*
 * ftrace_bench.c - what function tracing costs per call (`make bench`), in guest
 * instructions, all in one run, for the smallest function there is:
 *
 *   built without the hook     the same function compiled here, without -pg (trace/ is)
 *   hook compiled in, off      its 5-byte NOP, and the frame -pg makes gcc set up even in a
 *                              leaf function (push ebp; mov ebp,esp; pop ebp)
 *   function tracer on         the call to ftrace_caller and one record
 *   function_graph on          entry, return hijack and one leaf record
 *   filtered out               function tracer on, but this function not in the filter
 */
#include "kernel/bench.h"
#include "kernel/log/printk.h"
#include "kernel/lib/string.h"
#include "samples/ftrace/ftrace_testmod.h"
#include "trace/ftrace/ftrace_internal.h"
#include "trace/core/trace_internal.h"

#define ITERATIONS 20000

/* ftrace_test_small's twin, without the hook: this file is built without -pg. Both are
 * called through the same kind of wrapper, so the difference is the hook alone. */
static void __attribute__((noinline)) small_twin(void) { __asm__ volatile("" ::: "memory"); }

static void small_without_hook(void *arg)
{
    (void)arg;
    small_twin();
}

static void small_with_hook(void *arg)
{
    (void)arg;
    ftrace_test_small();
}

static void set_filter(const char *words)
{
    ftrace_filter_write(&ftrace_filter, ftrace_sites.scratch, words, strlen(words), false,
                        ftrace_sites.addr, kernel_symbols());
    ftrace_update();
}

/* The cost of a call of the hooked function with tracer current, minus the wrapper's. */
static uint64_t cost_with(const char *tracer, uint64_t wrapper)
{
    trace_switch(trace_find_tracer(tracer, strlen(tracer)));
    uint64_t c = bench_cost(small_with_hook, 0, ITERATIONS);
    return c > wrapper ? c - wrapper : 0;
}

BENCHMARK(ftrace)
{
    trace_stream_enabled = false;
    trace_switch(trace_find_tracer("nop", 3));
    uint64_t without = bench_cost(small_without_hook, 0, ITERATIONS);
    uint64_t nop = bench_cost(small_with_hook, 0, ITERATIONS);
    bench_report("ftrace: call of a small function built without the hook", without,
                 "instructions");
    bench_report("ftrace: hook compiled in, tracing off", nop - without > nop ? 0 : nop - without,
                 "instructions over no hook");
    set_filter("ftrace_test_small");
    uint64_t wrapper = nop;
    bench_report("ftrace: function tracer on", cost_with("function", wrapper),
                 "instructions over tracing off");
    bench_report("ftrace: function_graph on", cost_with("function_graph", wrapper),
                 "instructions over tracing off");
    set_filter("ftrace_test_leaf");
    bench_report("ftrace: function tracer on, this function filtered out",
                 cost_with("function", wrapper), "instructions over tracing off");
    set_filter("");
    trace_switch(trace_find_tracer("nop", 3));
    rb_reset(trace_buffer());
}
