/*
 * st_ftrace_smp.c - function tracing while every CPU runs the traced code (issue 19).
 *
 * ftrace_smp_stress: every CPU but 0 calls the test module's functions (known results,
 * each checked) in a tight loop while CPU 0 switches the tracer (function, function_graph,
 * nop) and rewrites set_ftrace_filter and set_ftrace_notrace 1000 times, calling them too
 * between switches. No crash, no wrong return, every site whole at the end.
 * Then the loss accounting: with the tracer fixed, each loop CPU makes an exact number of
 * calls into a small buffer, so it writes a known number of events, and each CPU's counts
 * must add up to it (entries + overrun + dropped + read), with some overrun to count.
 * And the profiler: each CPU's trace_stat/function<cpu> counts that CPU's calls, and
 * trace_stat/functions their sum.
 *
 * With one CPU (SMP=1, or before the others run work) CPU 0 does the loops itself between
 * switches: everything but the concurrency is checked the same.
 *
 * A named test (selftest=ftrace_smp_stress), run on several CPUs under QEMU's default
 * multi-threaded TCG, each CPU a host thread: there a CPU kept, for good, a translation
 * made while another CPU was writing the function (it then trapped on an int3 replaced
 * rounds ago) until the patcher wrote each site's first byte a second time
 * (text_rewrite_byte, arch/x86/ftrace_arch.c; docs/ftrace.md section 11).
 */
#include "kernel/arch.h"
#include "kernel/lib/string.h"
#include "kernel/log/printk.h"
#include "kernel/selftest.h"
#include "kernel/smp.h"
#include "samples/ftrace/ftrace_testmod.h"
#include "tests/guest/guest_helpers.h"
#include "trace/core/trace_internal.h"
#include "trace/ftrace/ftrace_internal.h"

#define SWITCHES 1000
#define ONE_CPU_CALLS 20   /* calls per switch when CPU 0 is the only caller */
#define COUNTED_CALLS 300  /* calls per CPU in the loss accounting */
#define SMALL_BUFFER 4     /* pages per CPU during the accounting: it overflows */

/* Events one iteration of call_loop writes: ftrace_test_top(x) is 7 calls (top, middle
 * twice, each middle a leaf and a leaf2) and ftrace_test_leaf(x) one. Under
 * function_graph: top's entry and return, each middle's entry and return and its two
 * leaves, and leaf's own leaf record. */
#define EVENTS_FUNCTION 8
#define EVENTS_GRAPH 11

/* One loop CPU's job and results, a cache line of its own. */
struct loop {
    volatile bool stop; /* set by CPU 0 to end an unbounded loop */
    uint32_t limit;     /* calls to make; 0: until stop */
    uint32_t calls;     /* iterations made */
    uint32_t wrong;     /* returns that were not the known result */
} __attribute__((aligned(64)));
static struct loop loops[MAX_CPUS];

/* Calls traced functions whose results are known and counts the wrong ones. */
static void call_loop(void *arg)
{
    struct loop *l = arg;
    uint32_t n = 0;
    while (l->limit ? n < l->limit : !l->stop) {
        int x = (int)(n & 0xffff);
        if (ftrace_test_top(x) != 6 * x + 5)
            l->wrong++;
        if (ftrace_test_leaf(x) != x + 1)
            l->wrong++;
        n++;
        arch_cpu_relax(); /* pause: lets single-threaded TCG run the other CPUs */
    }
    l->calls = n;
}

/* The CPUs that run the loops: every CPU but 0, or CPU 0 alone on one CPU. */
static unsigned first_loop_cpu(void) { return arch_cpu_count() > 1 ? 1 : 0; }

/* Starts the loop on each loop CPU with limit calls (0: until stopped). On one CPU this
 * runs it to the end at once (smp_run_on(0) does), so limit must not be 0 there. */
static bool start_loops(uint32_t limit)
{
    bool ok = true;
    for (unsigned cpu = first_loop_cpu(); cpu < arch_cpu_count() && cpu < MAX_CPUS; cpu++) {
        loops[cpu].stop = false;
        loops[cpu].limit = limit;
        loops[cpu].calls = 0;
        ok &= smp_run_on(cpu, call_loop, &loops[cpu]);
    }
    return ok;
}

static void wait_loops(void)
{
    for (unsigned cpu = first_loop_cpu(); cpu < arch_cpu_count() && cpu < MAX_CPUS; cpu++) {
        loops[cpu].stop = true;
        smp_wait(cpu);
    }
}

static bool set_tracer(const char *name)
{
    return trace_switch(trace_find_tracer(name, strlen(name))) == 0 &&
           trace_current() == trace_find_tracer(name, strlen(name));
}

static bool sites_whole(void)
{
    for (uint32_t i = 0; i < ftrace_sites.count; i++) {
        uint32_t s = ftrace_sites.addr[i];
        if (!ftrace_site_is_nop(s) && !ftrace_site_calls(s, (uint32_t)(uintptr_t)ftrace_caller))
            return false;
    }
    return true;
}

static bool all_sites_nop(void)
{
    for (uint32_t i = 0; i < ftrace_sites.count; i++)
        if (!ftrace_site_is_nop(ftrace_sites.addr[i]))
            return false;
    return ftrace_trace_function == (ftrace_func_t)ftrace_stub;
}

/* Each loop CPU's counts add up to the events it wrote; the others wrote none. Returns
 * the overrun over all CPUs (losses the counts show). */
static uint64_t check_accounting(uint32_t per_call, const char *tracer)
{
    uint64_t overrun = 0;
    for (unsigned cpu = 0; cpu < arch_cpu_count() && cpu < MAX_CPUS; cpu++) {
        bool looped = cpu >= first_loop_cpu();
        uint64_t written = looped ? (uint64_t)per_call * loops[cpu].calls : 0;
        struct rb_stats st;
        rb_get_stats(trace_buffer(), cpu, &st);
        uint64_t counted = st.entries + st.overrun + st.dropped + st.read;
        if (counted != written)
            printk("ftrace_smp_stress: %s cpu %u wrote %llu events, counts add up to %llu "
                   "(entries %llu overrun %llu dropped %llu read %llu)\n", tracer, cpu,
                   (unsigned long long)written, (unsigned long long)counted,
                   (unsigned long long)st.entries, (unsigned long long)st.overrun,
                   (unsigned long long)st.dropped, (unsigned long long)st.read);
        ST_CHECK(counted == written);
        ST_CHECK(!looped || loops[cpu].calls == COUNTED_CALLS);
        overrun += st.overrun + st.dropped;
    }
    return overrun;
}

NAMEDTEST(ftrace_smp_stress)
{
    static const char *const tracers[] = { "function", "function_graph", "nop" };
    static const char *const filters[] = { "ftrace_test_*", "ftrace_test_leaf*", "*_middle",
                                           "ftrace_test_top ftrace_test_leaf" };
    unsigned cpus = arch_cpu_count() < MAX_CPUS ? arch_cpu_count() : MAX_CPUS;
    uint64_t skips_before = ftrace_patching_skips();
    trace_stream_enabled = false;
    bool smp = first_loop_cpu() > 0;

    /* The storm. */
    if (smp)
        ST_CHECK(start_loops(0));
    uint32_t own_wrong = 0, one_cpu_calls = 0;
    for (int round = 0; round < SWITCHES; round++) {
        const char *t = tracers[round % 3];
        ST_CHECK(set_tracer(t));
        /* Every 250th round traces every function (one round patches them all). */
        const char *filter = round % 250 == 0 ? "" : filters[round % 4];
        ST_CHECK(guest_write_file("set_ftrace_filter", filter, false) == 0);
        ST_CHECK(guest_write_file("set_ftrace_notrace", round % 7 ? "" : "ftrace_test_leaf2",
                                  false) == 0);
        if (ftrace_test_top(round) != 6 * round + 5)
            own_wrong++;
        if (!smp) {
            ST_CHECK(start_loops(ONE_CPU_CALLS));
            one_cpu_calls += loops[0].calls;
            own_wrong += loops[0].wrong;
            loops[0].wrong = 0;
        }
    }
    if (smp)
        wait_loops();
    ST_CHECK(own_wrong == 0);
    for (unsigned cpu = first_loop_cpu(); cpu < cpus; cpu++) {
        ST_CHECK(loops[cpu].wrong == 0);
        ST_CHECK(smp ? loops[cpu].calls > 0 : one_cpu_calls == SWITCHES * ONE_CPU_CALLS);
        printk("ftrace_smp_stress: cpu %u made %u loop iterations during %d switches, "
               "%u wrong\n", cpu, smp ? loops[cpu].calls : one_cpu_calls, SWITCHES,
               loops[cpu].wrong);
    }
    printk("ftrace_smp_stress: %llu calls met a site being patched (sent past it)\n",
           (unsigned long long)(ftrace_patching_skips() - skips_before));
    ST_CHECK(sites_whole());
    ST_CHECK(set_tracer("nop"));
    ST_CHECK(guest_write_file("set_ftrace_filter", "", false) == 0);
    ST_CHECK(guest_write_file("set_ftrace_notrace", "", false) == 0);
    ST_CHECK(all_sites_nop());
    ST_CHECK(ftrace_recursion_skipped() == 0);

    /* Every event accounted for, each CPU's in its own counts. */
    uint32_t pages = rb_pages_per_cpu(trace_buffer());
    ST_CHECK(trace_resize(SMALL_BUFFER) == 0);
    ST_CHECK(guest_write_file("set_ftrace_filter", "ftrace_test_*", false) == 0);
    static const struct {
        const char *tracer;
        uint32_t events;
    } counted[] = { { "function", EVENTS_FUNCTION }, { "function_graph", EVENTS_GRAPH } };
    for (unsigned k = 0; k < 2; k++) {
        ST_CHECK(set_tracer(counted[k].tracer));
        rb_reset(trace_buffer());
        ST_CHECK(start_loops(COUNTED_CALLS));
        wait_loops();
        ST_CHECK(check_accounting(counted[k].events, counted[k].tracer) > 0);
        for (unsigned cpu = first_loop_cpu(); cpu < cpus; cpu++)
            ST_CHECK(loops[cpu].wrong == 0);
    }
    ST_CHECK(set_tracer("nop"));

    /* The profiler: per CPU, and summed. */
    ST_CHECK(guest_write_file("function_profile_enabled", "1", false) == 0);
    ST_CHECK(start_loops(COUNTED_CALLS));
    wait_loops();
    ST_CHECK(guest_write_file("function_profile_enabled", "0", false) == 0);
    long sum = 0;
    for (unsigned cpu = 0; cpu < cpus; cpu++) {
        char path[32] = "trace_stat/function";
        size_t n = strlen(path);
        if (cpu >= 10)
            path[n++] = (char)('0' + cpu / 10);
        path[n++] = (char)('0' + cpu % 10);
        path[n] = '\0';
        long hits = trace_stat_hits(guest_read_file(path), "ftrace_test_top");
        long want = cpu >= first_loop_cpu() ? COUNTED_CALLS : -1; /* -1: no line */
        if (hits != want)
            printk("ftrace_smp_stress: %s shows %ld calls of ftrace_test_top, not %ld\n", path,
                   hits, want);
        ST_CHECK(hits == want);
        sum += hits > 0 ? hits : 0;
    }
    ST_CHECK(trace_stat_hits(guest_read_file("trace_stat/functions"), "ftrace_test_top") == sum);
    ST_CHECK(trace_stat_hits(guest_read_file("trace_stat/functions"), "ftrace_test_leaf") == 3 * sum);

    ST_CHECK(guest_write_file("set_ftrace_filter", "", false) == 0);
    ST_CHECK(trace_resize(pages) == 0);
    rb_reset(trace_buffer());
    trace_stream_enabled = true;
    ST_CHECK(all_sites_nop());
}
