/*
 * st_trace.c - self-tests of the tracing core in the real kernel: a writer interrupted by
 * an exception handler that traces too, and switching tracers.
 */
#include "arch/x86/trap.h"
#include "drivers/serial/com2_stream.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/selftest.h"
#include "kernel/shell/shell.h"
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
