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
 *
 * and, as its own benchmark (ftrace_patching), what switching costs with the CPUs this
 * kernel runs (the rows name the count): the function tracer enabled, then disabled, on
 * every site (one patch round each, three syncs of every CPU), and the same sites patched
 * one round per site (three syncs per site: how ftrace patched before rounds were
 * batched).
 */
#include "kernel/arch.h"
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

/* Cycles to patch every site to call ftrace_caller and back, one round per site. Nobody
 * uses the tracer meanwhile, so the calls land in ftrace_stub; the sites end as they began. */
static uint64_t cycles_site_by_site(void)
{
    uint32_t caller = (uint32_t)(uintptr_t)ftrace_caller, nop = 0;
    uint64_t start = arch_cycles();
    for (uint32_t i = 0; i < ftrace_sites.count; i++)
        ftrace_sites_patch(&ftrace_sites.addr[i], &caller, 1);
    for (uint32_t i = 0; i < ftrace_sites.count; i++)
        ftrace_sites_patch(&ftrace_sites.addr[i], &nop, 1);
    return arch_cycles() - start;
}

/* "what, N CPU(s)" in buf: a row name that says how many CPUs ran. */
static const char *row_name(char *buf, size_t size, const char *what)
{
    unsigned n = arch_cpu_count();
    size_t len = strlen(what);
    if (len + 16 > size)
        return what;
    memcpy(buf, what, len);
    buf[len++] = ',';
    buf[len++] = ' ';
    if (n >= 10)
        buf[len++] = (char)('0' + n / 10);
    buf[len++] = (char)('0' + n % 10);
    const char *tail = n == 1 ? " CPU" : " CPUs";
    memcpy(buf + len, tail, strlen(tail) + 1);
    return buf;
}

/* The patching rows: every site on and off, batched and site by site. */
BENCHMARK(ftrace_patching)
{
    static char rows[3][80];
    trace_stream_enabled = false;
    trace_switch(trace_find_tracer("nop", 3));
    set_filter("");
    uint64_t t0 = arch_cycles();
    ftrace_set_user(FTRACE_USER_FUNCTION, true);
    uint64_t t1 = arch_cycles();
    ftrace_set_user(FTRACE_USER_FUNCTION, false);
    uint64_t t2 = arch_cycles();
    bench_report(row_name(rows[0], sizeof rows[0], "ftrace: function tracer on, all sites"),
                 t1 - t0, "instructions");
    bench_report(row_name(rows[1], sizeof rows[1], "ftrace: function tracer off, all sites"),
                 t2 - t1, "instructions");
    bench_report(row_name(rows[2], sizeof rows[2], "ftrace: all sites on+off, round per site"),
                 cycles_site_by_site(), "instructions");
    bench_report("ftrace: call sites patched", ftrace_sites.count, "sites");
    rb_reset(trace_buffer());
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
