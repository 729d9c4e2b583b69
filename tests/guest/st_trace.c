/*
 * st_trace.c - self-tests of the tracing core in the real kernel: a writer interrupted by
 * an exception handler that traces too, switching tracers, and every CPU writing its ring
 * while one reads (issue 19).
 */
#include "arch/x86/trap.h"
#include "drivers/serial/com2_stream.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/selftest.h"
#include "kernel/shell/shell.h"
#include "kernel/smp.h"
#include "kernel/lib/string.h"
#include "tests/guest/guest_helpers.h"
#include "trace/core/trace_internal.h"

#define NESTING_VECTOR 0x81

/* A software interrupt whose handler writes a marker: an event nested inside another. */
static bool nested_marker(struct trap_frame *tf)
{
    (void)tf;
    tracing_mark_write("inner", 5);
    return true;
}

/* Collects the markers in the buffer (read_markers). */
struct marker_list {
    char (*texts)[16];
    int max, n;
};

static void collect_marker(const struct trace_entry *e, uint32_t length, void *ctx)
{
    (void)length;
    struct marker_list *l = ctx;
    if (e->type == TRACE_PRINT && l->n < l->max) {
        memcpy(l->texts[l->n], ((const struct print_entry *)e)->text, 15);
        l->texts[l->n][15] = '\0';
    }
    l->n++;
}

/* Reads the buffer from the start; returns how many events it holds, copying the texts of
 * the markers among them. */
static int read_markers(char texts[][16], int max)
{
    struct marker_list l = { texts, max, 0 };
    for_each_buffered_event(collect_marker, &l);
    return l.n;
}

SELFTEST(trace_nested_in_exception)
{
    trace_stream_enabled = false;
    rb_reset(trace_buffer());
    trap_set_handler(NESTING_VECTOR, nested_marker);
    struct print_entry *outer = (struct print_entry *)trace_reserve(TRACE_PRINT, 24);
    ST_CHECK(outer != 0);
    __asm__ volatile("int %0" ::"i"(NESTING_VECTOR)); /* traces while outer is open */
    char texts[4][16];
    ST_CHECK(read_markers(texts, 4) == 0); /* nothing visible before the outer commit */
    outer->ip = 0;
    memcpy(outer->text, "outer", 6);
    trace_commit();
    ST_CHECK(read_markers(texts, 4) == 2);
    ST_CHECK(strcmp(texts[0], "outer") == 0 && strcmp(texts[1], "inner") == 0);
    trap_set_handler(NESTING_VECTOR, 0);
    rb_reset(trace_buffer());
    trace_stream_enabled = true;
}

/* A tracer that records which of its hooks ran. */
static int calls_init, calls_reset, calls_start, calls_stop, init_error;
static int test_init(void) { calls_init++; return init_error; }
static void test_reset(void) { calls_reset++; }
static void test_start(void) { calls_start++; }
static void test_stop(void) { calls_stop++; }
static struct tracer test_tracer = {
    .name = "selftest", .init = test_init, .reset = test_reset,
    .start = test_start, .stop = test_stop,
};

SELFTEST(tracer_switching)
{
    struct tracer *nop = trace_find_tracer("nop", 3);
    register_tracer(&test_tracer); /* only ever in a selftest boot */
    ST_CHECK(trace_find_tracer("selftest", 8) == &test_tracer);
    ST_CHECK(trace_switch(&test_tracer) == 0);
    ST_CHECK(calls_init == 1 && calls_start == 1 && trace_current() == &test_tracer);

    /* tracing_on stops and restarts the tracer without reselecting it. */
    trace_set_on(false);
    ST_CHECK(calls_stop == 1 && !trace_enabled());
    trace_set_on(true);
    ST_CHECK(calls_start == 2 && trace_enabled());

    /* Switching away streams what is buffered to COM2 before the buffer is emptied. */
    tracing_mark_write("before the switch", 17);
    uint64_t sent = com2_bytes_sent();
    ST_CHECK(trace_switch(nop) == 0);
    ST_CHECK(calls_stop == 2 && calls_reset == 1);
    ST_CHECK(!com2_present() || com2_bytes_sent() > sent);
    struct rb_stats st;
    rb_get_stats(trace_buffer(), RB_ALL_CPUS, &st);
    ST_CHECK(st.entries == 0);

    /* A tracer that refuses to start leaves nop current and reports why. */
    init_error = -19;
    ST_CHECK(trace_switch(&test_tracer) == -19);
    ST_CHECK(trace_current() == nop);
    init_error = 0;
}

/* Shell lines run inside the kernel: status codes and their effect on the tree. */
SELFTEST(shell_lines)
{
    trace_stream_enabled = false;
    rb_reset(trace_buffer());
    ST_CHECK(shell_run_line("echo \"from the shell\" > /sys/kernel/tracing/trace_marker") == 0);
    char texts[2][16];
    ST_CHECK(read_markers(texts, 2) == 1 && strcmp(texts[0], "from the shell") == 0);
    ST_CHECK(shell_run_line("   # a comment") == 0);
    ST_CHECK(shell_run_line("") == 0);
    ST_CHECK(shell_run_line("nosuchcommand") == -ENOENT);
    ST_CHECK(shell_run_line("echo 'unterminated") == -EINVAL);
    ST_CHECK(shell_run_line("echo x > /proc/cmdline") == -EACCES);
    ST_CHECK(shell_run_line("echo x > /proc") == -EISDIR);
    ST_CHECK(shell_run_line("echo x > /no/such/file") == -ENOENT);
    ST_CHECK(shell_run_line("echo 7 > current_tracer") == -EINVAL);
    ST_CHECK(shell_run_line("cat /nonexistent") == SHELL_FAILED);
    ST_CHECK(shell_run_line("cat") == SHELL_USAGE);
    rb_reset(trace_buffer());
    trace_stream_enabled = true;
}

/* The flight recorder: 500 markers the stream has not sent, then the worst crash there is
 * (the stack gone, a double fault through the task gate). The host checks all 500 arrive. */
CRASHTEST(flight_recorder)
{
    trace_stream_enabled = false;
    rb_reset(trace_buffer());
    for (int i = 0; i < 500; i++) {
        char text[16];
        int n = ksnprintf(text, sizeof text, "before %d", i);
        tracing_mark_write(text, (uint32_t)n);
    }
    recurse_deeply(0);
}

/* --- issue 19: every CPU writing its ring while this one reads ------------------------- */

#define SMP_EVENTS 3000 /* per CPU; a 4-page ring holds about 1300 of these */

static struct ring_buffer *smp_rb;
static volatile unsigned smp_writers_done;

/* Writes SMP_EVENTS events (this CPU, its attempt number) as fast as it can. */
static void smp_rb_writer(void *arg)
{
    (void)arg;
    unsigned cpu = arch_cpu_id();
    for (uint32_t seq = 0; seq < SMP_EVENTS; seq++) {
        uint32_t *p = rb_reserve(smp_rb, 8);
        if (p) {
            p[0] = cpu;
            p[1] = seq;
            rb_commit(smp_rb);
        }
    }
    __atomic_add_fetch(&smp_writers_done, 1, __ATOMIC_RELEASE);
}

/* Each online CPU writes its own ring while this CPU, once done with its own, consumes all
 * rings merged by time (trace_pipe's way): per CPU, every attempt is read or counted lost,
 * in writing order; the drain after the last writer finished comes out in time order. On
 * one CPU the writers run one after the other; with SMP=N they overlap for real. */
SELFTEST(ring_buffer_every_cpu_writes_one_reads)
{
    unsigned ncpus = arch_cpu_count(), self = arch_cpu_id();
    smp_rb = rb_create(&trace_rb_env, ncpus, 4);
    ST_CHECK(smp_rb != 0);
    if (!smp_rb)
        return;
    smp_writers_done = 0;
    for (unsigned cpu = 0; cpu < ncpus; cpu++)
        if (cpu != self)
            ST_CHECK(smp_run_on(cpu, smp_rb_writer, 0));
    smp_rb_writer(0);
    uint64_t read[MAX_CPUS] = { 0 }, lost[MAX_CPUS] = { 0 }, last_ts = 0;
    int64_t last_seq[MAX_CPUS];
    for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++)
        last_seq[cpu] = -1;
    bool in_order = true, per_cpu_order = true, whole = true, drain_started = false;
    for (;;) {
        bool all_done = __atomic_load_n(&smp_writers_done, __ATOMIC_ACQUIRE) == ncpus;
        int best = -1;
        uint64_t best_ts = 0, ts;
        for (unsigned cpu = 0; cpu < ncpus; cpu++)
            if (rb_peek_ts(smp_rb, cpu, &ts) && (best < 0 || ts < best_ts)) {
                best = (int)cpu;
                best_ts = ts;
            }
        uint32_t p[2];
        struct rb_event ev;
        if (best < 0 || !rb_consume(smp_rb, (unsigned)best, p, sizeof p, &ev)) {
            if (all_done)
                break;
            continue;
        }
        whole &= p[0] == ev.cpu && ev.length == 8;
        per_cpu_order &= (int64_t)p[1] - last_seq[ev.cpu] - 1 == (int64_t)ev.lost_before;
        /* A fixed set of rings (every writer done) merges in time order, from its first
         * event on: what was read while writers ran is no yardstick for it. */
        if (all_done && drain_started)
            in_order &= ev.ts >= last_ts;
        drain_started = all_done;
        last_ts = ev.ts;
        last_seq[ev.cpu] = p[1];
        read[ev.cpu]++;
        lost[ev.cpu] += ev.lost_before;
    }
    for (unsigned cpu = 0; cpu < ncpus; cpu++) {
        if (cpu != self)
            smp_wait(cpu);
        lost[cpu] += rb_take_lost(smp_rb, cpu);
        ST_CHECK(read[cpu] > 0);
        ST_CHECK(read[cpu] + lost[cpu] == SMP_EVENTS);
    }
    ST_CHECK(whole);
    ST_CHECK(per_cpu_order);
    ST_CHECK(in_order);
    rb_destroy(smp_rb);
    smp_rb = 0;
}
