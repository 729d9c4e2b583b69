/*
 * st_ftrace.c - self-tests of function tracing on the test module's fixed call chain
 * (samples/ftrace/ftrace_testmod.c): exact records of both tracers, filters, patched bytes read
 * back, many switches, the profiler, stack traces, and backtraces under function_graph.
 */
#include "kernel/fs/fs_layout.h"
#include "arch/x86/cpu.h"
#include "arch/x86/ftrace_arch.h"
#include "kernel/arch.h"
#include "kernel/selftest.h"
#include "kernel/lib/string.h"
#include "kernel/lib/symbols.h"
#include "tests/guest/guest_helpers.h"
#include "samples/ftrace/ftrace_testmod.h"
#include "trace/ftrace/ftrace_internal.h"
#include "trace/core/trace_internal.h"

#define MAX_RECORDS 32

struct call {
    uint16_t type;
    const char *func;   /* function (TRACE_FN: ip; graph: func) */
    const char *parent; /* TRACE_FN only */
    int depth;          /* graph only */
    uint8_t flags;      /* the event's TRACE_FLAG_* */
};

static const char *name_of(uint32_t addr)
{
    const char *n = symbol_lookup(kernel_symbols(), addr, 0, 0);
    return n ? n : "?";
}

/* Collects the function tracers' records (read_calls). */
struct call_list {
    struct call *out;
    int max, n;
};

static void collect_call(const struct trace_entry *e, uint32_t length, void *ctx)
{
    (void)length;
    struct call_list *l = ctx;
    if (l->n == l->max)
        return;
    if (e->type == TRACE_FN) {
        const struct ftrace_entry *f = (const void *)e;
        l->out[l->n++] =
            (struct call){ e->type, name_of(f->ip), name_of(f->parent_ip), 0, e->flags };
    } else if (e->type == TRACE_GRAPH_ENT) {
        const struct ftrace_graph_entry *g = (const void *)e;
        l->out[l->n++] = (struct call){ e->type, name_of(g->func), 0, g->depth, e->flags };
    } else if (e->type == TRACE_GRAPH_RET || e->type == TRACE_GRAPH_LEAF) {
        const struct ftrace_graph_return *g = (const void *)e;
        l->out[l->n++] = (struct call){ e->type, name_of(g->func), 0, g->depth, e->flags };
    } else if (e->type == TRACE_STACK) {
        l->out[l->n++] = (struct call){ e->type, 0, 0, 0, e->flags };
    }
}

/* The function tracers' records in the buffer, oldest first. */
static int read_calls(struct call *out, int max)
{
    struct call_list l = { out, max, 0 };
    for_each_buffered_event(collect_call, &l);
    return l.n;
}

static bool is_call(const struct call *c, uint16_t type, const char *func, const char *parent,
                    int depth)
{
    return c->type == type && strcmp(c->func, func) == 0 &&
           (!parent || strcmp(c->parent, parent) == 0) && c->depth == depth;
}

static void set_files(const char *filter, const char *notrace, const char *graph)
{
    ftrace_filter_write(&ftrace_filter, ftrace_sites.scratch, filter, strlen(filter), false,
                        ftrace_sites.addr, kernel_symbols());
    ftrace_filter_write(&ftrace_notrace, ftrace_sites.scratch, notrace, strlen(notrace), false,
                        ftrace_sites.addr, kernel_symbols());
    ftrace_filter_write(&ftrace_graph_filter, ftrace_sites.scratch, graph, strlen(graph), false,
                        ftrace_sites.addr, kernel_symbols());
    ftrace_update();
}

/* Selects a tracer with the test module as the only traced functions, buffer empty. */
static void start(const char *tracer)
{
    trace_stream_enabled = false;
    trace_switch(trace_find_tracer(tracer, strlen(tracer)));
    set_files("ftrace_test_*", "", "");
    rb_reset(trace_buffer());
}

static void stop(void)
{
    trace_switch(trace_find_tracer("nop", 3));
    set_files("", "", "");
    rb_reset(trace_buffer());
    trace_stream_enabled = true;
}

/* No site calls the tracer, and the dispatcher pointer is the stub. */
static bool all_sites_nop(void)
{
    for (uint32_t i = 0; i < ftrace_sites.count; i++)
        if (!ftrace_site_is_nop(ftrace_sites.addr[i]))
            return false;
    return ftrace_trace_function == (ftrace_func_t)ftrace_stub;
}

SELFTEST(ftrace_sites_at_boot)
{
    ST_CHECK(ftrace_sites.count > 100);
    ST_CHECK(all_sites_nop());
    ST_CHECK(ftrace_site_index((uint32_t)(uintptr_t)ftrace_test_top) >= 0);
    /* The tracer itself is built without the hook. */
    ST_CHECK(ftrace_site_index((uint32_t)(uintptr_t)ftrace_dispatch) < 0);
}

SELFTEST(ftrace_function_records)
{
    start("function");
    uint32_t top = (uint32_t)(uintptr_t)ftrace_test_top;
    ST_CHECK(ftrace_site_calls(top, (uint32_t)(uintptr_t)ftrace_caller));
    ST_CHECK(ftrace_site_is_nop((uint32_t)(uintptr_t)symbol_address(kernel_symbols(), "kmalloc")));
    ST_CHECK(ftrace_test_top(1) == 11);
    struct call c[MAX_RECORDS];
    ST_CHECK(read_calls(c, MAX_RECORDS) == 7);
    ST_CHECK(is_call(&c[0], TRACE_FN, "ftrace_test_top", 0, 0));
    ST_CHECK(is_call(&c[1], TRACE_FN, "ftrace_test_middle", "ftrace_test_top", 0));
    ST_CHECK(is_call(&c[2], TRACE_FN, "ftrace_test_leaf", "ftrace_test_middle", 0));
    ST_CHECK(is_call(&c[3], TRACE_FN, "ftrace_test_leaf2", "ftrace_test_middle", 0));
    ST_CHECK(is_call(&c[4], TRACE_FN, "ftrace_test_middle", "ftrace_test_top", 0));

    /* notrace wins over the filter; '!' takes a function out of the filter. */
    rb_reset(trace_buffer());
    set_files("ftrace_test_* !ftrace_test_middle", "ftrace_test_leaf2", "");
    ST_CHECK(ftrace_site_is_nop((uint32_t)(uintptr_t)ftrace_test_middle));
    ftrace_test_top(1);
    ST_CHECK(read_calls(c, MAX_RECORDS) == 3);
    ST_CHECK(is_call(&c[0], TRACE_FN, "ftrace_test_top", 0, 0));
    ST_CHECK(is_call(&c[1], TRACE_FN, "ftrace_test_leaf", "ftrace_test_middle", 0));
    ST_CHECK(is_call(&c[2], TRACE_FN, "ftrace_test_leaf", "ftrace_test_middle", 0));
    stop();
    ST_CHECK(all_sites_nop());
}

SELFTEST(ftrace_graph_records)
{
    start("function_graph");
    ST_CHECK(ftrace_test_top(1) == 11);
    struct call c[MAX_RECORDS];
    ST_CHECK(read_calls(c, MAX_RECORDS) == 10);
    ST_CHECK(is_call(&c[0], TRACE_GRAPH_ENT, "ftrace_test_top", 0, 0));
    ST_CHECK(is_call(&c[1], TRACE_GRAPH_ENT, "ftrace_test_middle", 0, 1));
    ST_CHECK(is_call(&c[2], TRACE_GRAPH_LEAF, "ftrace_test_leaf", 0, 2));
    ST_CHECK(is_call(&c[3], TRACE_GRAPH_LEAF, "ftrace_test_leaf2", 0, 2));
    ST_CHECK(is_call(&c[4], TRACE_GRAPH_RET, "ftrace_test_middle", 0, 1));
    ST_CHECK(is_call(&c[5], TRACE_GRAPH_ENT, "ftrace_test_middle", 0, 1));
    ST_CHECK(is_call(&c[9], TRACE_GRAPH_RET, "ftrace_test_top", 0, 0));

    /* set_graph_function: only what runs inside ftrace_test_middle; as on Linux, depth
     * counts only the calls graphed, so middle is now the outermost. */
    rb_reset(trace_buffer());
    set_files("ftrace_test_*", "", "ftrace_test_middle");
    ftrace_test_top(1);
    ST_CHECK(read_calls(c, MAX_RECORDS) == 8);
    ST_CHECK(is_call(&c[0], TRACE_GRAPH_ENT, "ftrace_test_middle", 0, 0));
    ST_CHECK(is_call(&c[1], TRACE_GRAPH_LEAF, "ftrace_test_leaf", 0, 1));
    stop();
    ST_CHECK(all_sites_nop());
}

/* Each record shows the traced code's interrupt flag: the handlers inline the record once
 * for each state of the flag (ftrace_function_call, ftrace_return_to_handler), and both
 * copies must mark it right. */
SELFTEST(ftrace_records_show_the_interrupt_flag)
{
    static const char *const tracers[] = { "function", "function_graph" };
    for (int t = 0; t < 2; t++) {
        start(tracers[t]);
        ftrace_test_leaf(1);
        unsigned long irqs = arch_irq_save();
        ftrace_test_leaf(1);
        arch_irq_restore(irqs);
        ST_CHECK(irqs != 0); /* the first call ran with interrupts on */
        struct call c[MAX_RECORDS];
        ST_CHECK(read_calls(c, MAX_RECORDS) == 2);
        uint16_t type = t == 0 ? TRACE_FN : TRACE_GRAPH_LEAF;
        ST_CHECK(c[0].type == type && !(c[0].flags & TRACE_FLAG_IRQS_OFF));
        ST_CHECK(c[1].type == type && (c[1].flags & TRACE_FLAG_IRQS_OFF));
        stop();
    }
}

/* Calls into the module many times while tracers and filters change under it. */
SELFTEST(ftrace_switching_many_times)
{
    static const char *const tracers[] = { "function", "function_graph", "nop" };
    static const char *const filters[] = { "ftrace_test_*", "ftrace_test_leaf*", "", "*_middle" };
    trace_stream_enabled = false;
    for (int round = 0; round < 60; round++) {
        const char *t = tracers[round % 3];
        trace_switch(trace_find_tracer(t, strlen(t)));
        set_files(filters[round % 4], round % 5 ? "" : "ftrace_test_leaf2", "");
        ST_CHECK(ftrace_test_top(round) == 6 * round + 5);
        /* Every site is exactly the NOP or exactly the call, never anything else. */
        for (uint32_t i = 0; i < ftrace_sites.count; i++) {
            uint32_t s = ftrace_sites.addr[i];
            if (!ftrace_site_is_nop(s) && !ftrace_site_calls(s, (uint32_t)(uintptr_t)ftrace_caller)) {
                ST_CHECK(!"a site holds neither the NOP nor the call");
                break;
            }
        }
    }
    stop();
    ST_CHECK(all_sites_nop());
    ST_CHECK(ftrace_recursion_skipped() == 0);
}

/* Captures the call chain from inside a traced function (a graph-hijacked frame). */
static uint32_t chain[8];
static int chain_len;
static int __attribute__((noinline)) capture(int x)
{
    chain_len = arch_save_stack_trace(read_ebp(), chain, 8);
    return x;
}

SELFTEST(ftrace_stack_traces)
{
    /* func_stack_trace: each function record is followed by the stack above it. */
    start("function");
    struct fs_node *opt = tracefs_lookup("options/func_stack_trace", &(int){ 0 });
    ST_CHECK(opt && opt->ops->write(opt, "1", 1, false) == 0);
    ftrace_test_leaf(1);
    ST_CHECK(opt->ops->write(opt, "0", 1, false) == 0);
    struct call c[MAX_RECORDS];
    ST_CHECK(read_calls(c, MAX_RECORDS) == 2 && c[1].type == TRACE_STACK);
    /* Off again: the function tracer's own handler is back, and records no stack. */
    rb_reset(trace_buffer());
    ftrace_test_leaf(1);
    ST_CHECK(read_calls(c, MAX_RECORDS) == 1 && c[0].type == TRACE_FN);
    stop();

    /* Under function_graph, a backtrace through a hijacked return shows the real caller. */
    start("function_graph");
    set_files("ftrace_test_* capture", "", "");
    ftrace_test_leaf(capture(1));
    stop();
    bool hijack_seen = false;
    for (int i = 0; i < chain_len; i++)
        hijack_seen |= chain[i] == (uint32_t)(uintptr_t)return_to_handler;
    ST_CHECK(chain_len > 1 && !hijack_seen);
    ST_CHECK(strcmp(name_of(chain[0]), "selftest_ftrace_stack_traces") == 0);
}

/* Collects what a file prints, for reading it back in a test. */
static char collected[4096];
static size_t collected_len;
static void collect(struct fs_writer *w, const char *t, size_t n)
{
    (void)w;
    for (size_t i = 0; i < n && collected_len + 1 < sizeof collected; i++)
        collected[collected_len++] = t[i];
    collected[collected_len] = '\0';
}
static bool never(struct fs_writer *w)
{
    (void)w;
    return false;
}

/* The Hit column of name's line in trace_stat/function0, or -1. */
static long hits_of(const char *name) { return trace_stat_hits(collected, name); }

SELFTEST(ftrace_profile)
{
    trace_stream_enabled = false;
    set_files("ftrace_test_*", "", "");
    struct fs_node *f = tracefs_lookup("function_profile_enabled", &(int){ 0 });
    ST_CHECK(f && f->ops->write(f, "1", 1, false) == 0);
    for (int i = 0; i < 3; i++)
        ftrace_test_top(i);
    ST_CHECK(f->ops->write(f, "0", 1, false) == 0);
    struct fs_node *stat = tracefs_lookup("trace_stat/function0", &(int){ 0 });
    struct fs_writer w = { .emit = collect, .interrupted = never };
    collected_len = 0;
    ST_CHECK(stat && stat->ops->read(stat, &w) == 0);
    ST_CHECK(hits_of("ftrace_test_top") == 3);
    ST_CHECK(hits_of("ftrace_test_middle") == 6);
    ST_CHECK(hits_of("ftrace_test_leaf") == 6);
    ST_CHECK(hits_of("ftrace_test_leaf2") == 6);
    ST_CHECK(hits_of("kmalloc") == -1); /* filtered out: never hit */
    stop();
    ST_CHECK(all_sites_nop());
}

/* Called by smash_saved_frame only to make it a function with a frame. */
static void __attribute__((noinline)) frame_needed(void) { __asm__ volatile(""); }

/* A traced function that overwrites its caller's saved frame pointer: at its return the
 * frame-pointer check must stop function_graph with a report, not jump anywhere. It calls
 * a function, so gcc gives it a frame: a function that uses no stack has none, even with
 * -fno-omit-frame-pointer, and its (%ebp) would be its caller's frame, not its own. */
static void __attribute__((noinline)) smash_saved_frame(void)
{
    frame_needed();
    __asm__ volatile("movl $0x1234, (%%ebp)" ::: "memory");
}

CRASHTEST(ftrace_graph_bad_frame)
{
    start("function_graph");
    set_files("smash_saved_frame", "", "");
    smash_saved_frame();
}
