/* test_trace_output.c - the trace files' text matches Linux's layout to the character. */
#include "unit.h"

#include "trace/trace.h"

static char buf[4096];
static size_t buf_len;

static void collect(struct fs_writer *w, const char *t, size_t n)
{
    (void)w;
    memcpy(buf + buf_len, t, n);
    buf_len += n;
    buf[buf_len] = '\0';
}

static struct fs_writer out = { collect, NULL, NULL, false };

TEST(context_columns)
{
    struct trace_entry e = { TRACE_PRINT, 0, 0, 0 };
    struct trace_event_view ev = { &e, sizeof e, 314011428000ull, 3 };
    buf_len = 0;
    trace_print_context(&out, &ev);
    CHECK_EQ_STR(buf, "          <idle>-0       [003] .....   314.011428: ");
}

TEST(flags_irqs_off_and_hardirq)
{
    struct trace_entry e = { TRACE_PRINT, TRACE_FLAG_IRQS_OFF | TRACE_FLAG_HARDIRQ, 1, 0 };
    struct trace_event_view ev = { &e, sizeof e, 999999, 0 };
    buf_len = 0;
    trace_print_context(&out, &ev);
    CHECK_EQ_STR(buf, "          <idle>-0       [000] d.h1.     0.000999: ");
}

TEST(default_header)
{
    struct trace_header_info info = { 813, 26317372, 8 };
    buf_len = 0;
    trace_print_default_header(&out, "nop", &info);
    CHECK_EQ_STR(buf,
                 "# tracer: nop\n"
                 "#\n"
                 "# entries-in-buffer/entries-written: 813/26317372   #P:8\n"
                 "#\n"
                 "#                                _-----=> irqs-off/BH-disabled\n"
                 "#                               / _----=> need-resched\n"
                 "#                              | / _---=> hardirq/softirq\n"
                 "#                              || / _--=> preempt-depth\n"
                 "#                              ||| / _-=> migrate-disable\n"
                 "#                              |||| /     delay\n"
                 "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
                 "#              | |         |   |||||     |         |\n");
}

TEST(timestamps)
{
    buf_len = 0;
    trace_print_ts(&out, 54968170887123ull);
    CHECK_EQ_STR(buf, "54968.170887");
}
