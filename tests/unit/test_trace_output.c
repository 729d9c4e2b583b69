/* test_trace_output.c - the trace files' text matches Linux's layout to the character. */
#include "unit.h"

#include "collect_writer.h"
#include "trace/core/trace.h"
#include "trace/core/trace_comm.h"


TEST(context_columns)
{
    struct trace_entry e = { TRACE_PRINT, 0, 0, 0 };
    struct trace_event_view ev = { &e, sizeof e, 314011428000ull, 3 };
    collect_reset();
    trace_print_context(&collect_writer, &ev);
    CHECK_EQ_STR(collected, "          <idle>-0       [003] .....   314.011428: ");
}

TEST(flags_irqs_off_and_hardirq)
{
    struct trace_entry e = { TRACE_PRINT, TRACE_FLAG_IRQS_OFF | TRACE_FLAG_HARDIRQ, 1, 0 };
    struct trace_event_view ev = { &e, sizeof e, 999999, 0 };
    collect_reset();
    trace_print_context(&collect_writer, &ev);
    CHECK_EQ_STR(collected, "          <idle>-0       [000] d.h1.     0.001000: "); /* 999,999 ns, to the nearest us */
}

TEST(default_header)
{
    struct trace_header_info info = { 813, 26317372, 8 };
    collect_reset();
    trace_print_default_header(&collect_writer, "nop", &info);
    CHECK_EQ_STR(collected,
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
    collect_reset();
    trace_print_ts(&collect_writer, 54968170887123ull);
    CHECK_EQ_STR(collected, "54968.170887");
    collect_reset(); /* to the nearest microsecond, as Linux's ns2usecs */
    trace_print_ts(&collect_writer, 54968170887500ull);
    CHECK_EQ_STR(collected, "54968.170888");
    collect_reset();
    trace_print_ts(&collect_writer, 54968999999600ull);
    CHECK_EQ_STR(collected, "54969.000000");
}

/* options/irq-info off (issue 18): no flag columns, in the lines and the header, as Linux's
 * trace_print_context and print_func_help_header. */
TEST(without_irq_info)
{
    struct trace_entry e = { TRACE_PRINT, TRACE_FLAG_IRQS_OFF, 0, 0 };
    struct trace_event_view ev = { &e, sizeof e, 314011428000ull, 3 };
    struct trace_header_info info = { 1, 1, 1 };
    trace_print_irq_info = false;
    collect_reset();
    trace_print_context(&collect_writer, &ev);
    CHECK_EQ_STR(collected, "          <idle>-0       [003]    314.011428: ");
    collect_reset();
    trace_print_default_header(&collect_writer, "nop", &info);
    CHECK_EQ_STR(collected, "# tracer: nop\n#\n# entries-in-buffer/entries-written: 1/1   #P:1\n#\n"
                            "#           TASK-PID     CPU#     TIMESTAMP  FUNCTION\n"
                            "#              | |         |         |         |\n");
    trace_print_irq_info = true;
}

/* options/latency-format (issue 18): Linux's lat_print_generic and lat_print_timestamp
 * columns (time since the buffer was emptied, rounded to us; the mark of the gap to the
 * next event), and print_trace_header with print_lat_help_header. */
TEST(latency_format)
{
    struct trace_entry e = { TRACE_PRINT, TRACE_FLAG_IRQS_OFF | TRACE_FLAG_HARDIRQ, 0, 0 };
    struct trace_event_view ev = { &e, sizeof e, 1001500, 0 };
    trace_print_latency_format = true;
    trace_time_start_ns = 1000000;
    trace_latency_next_ns = 1001500 + 150000;
    collect_reset();
    trace_print_context(&collect_writer, &ev);
    CHECK_EQ_STR(collected, "  <idle>-0         0d.h..    2us!: ");
    trace_latency_next_ns = 0; /* no next event: no mark */
    collect_reset();
    trace_print_context(&collect_writer, &ev);
    CHECK_EQ_STR(collected, "  <idle>-0         0d.h..    2us : ");

    /* A writer printing another buffer (the snapshot file) counts from that buffer's
     * start; any other writer still from the live one's. */
    trace_print_times_from(&collect_writer, 500000);
    collect_reset();
    trace_print_context(&collect_writer, &ev);
    CHECK_EQ_STR(collected, "  <idle>-0         0d.h..  502us : ");
    trace_print_times_from(0, 0);
    collect_reset();
    trace_print_context(&collect_writer, &ev);
    CHECK_EQ_STR(collected, "  <idle>-0         0d.h..    2us : ");

    struct trace_header_info info = { 2, 5, 1 };
    collect_reset();
    trace_print_default_header(&collect_writer, "nop", &info);
    static const char latency_header[] =
        "# tracer: nop\n#\n# nop latency trace v1.1.5 on 6.1.0-tracekern\n"
        "# --------------------------------------------------------------------\n"
        "# latency: 0 us, #2/5, CPU#0 | (M:server VP:0, KP:0, SP:0 HP:0 #P:1)\n"
        "#    -----------------\n"
        "#    | task: -0 (uid:0 nice:0 policy:0 rt_prio:0)\n"
        "#    -----------------\n"
        "#\n"
        "#                    _------=> CPU#            \n"
        "#                   / _-----=> irqs-off/BH-disabled\n"
        "#                  | / _----=> need-resched    \n"
        "#                  || / _---=> hardirq/softirq \n"
        "#                  ||| / _--=> preempt-depth   \n"
        "#                  |||| / _-=> migrate-disable \n"
        "#                  ||||| /     delay           \n"
        "#  cmd     pid     |||||| time  |   caller     \n"
        "#     \\   /        ||||||  \\    |    /       \n";
    CHECK_EQ_STR(collected, latency_header);
    /* record-tgid changes neither (Linux's lat_print_generic and print_lat_help_header
     * have no TGID) */
    trace_print_record_tgid = true;
    collect_reset();
    trace_print_default_header(&collect_writer, "nop", &info);
    CHECK_EQ_STR(collected, latency_header);
    collect_reset();
    trace_print_context(&collect_writer, &ev);
    CHECK_EQ_STR(collected, "  <idle>-0         0d.h..    2us : ");
    trace_print_record_tgid = false;
    info.entries = 0; /* an empty buffer: the tracer's name alone, as Linux */
    collect_reset();
    trace_print_default_header(&collect_writer, "nop", &info);
    CHECK_EQ_STR(collected, "# tracer: nop\n#\n");
    trace_print_latency_format = false;
    trace_time_start_ns = 0;
}

/* options/record-tgid (issue 18): "(-------)" for a pid whose tgid is not known (idle's),
 * "(%7d)" for a saved one, and the headers ten columns wider, as Linux prints them. */
TEST(record_tgid)
{
    struct trace_entry e = { TRACE_PRINT, 0, 0, 0 };
    struct trace_event_view ev = { &e, sizeof e, 314011428000ull, 0 };
    struct trace_header_info info = { 1, 1, 1 };
    trace_print_record_tgid = true;
    collect_reset();
    trace_print_context(&collect_writer, &ev);
    CHECK_EQ_STR(collected, "          <idle>-0       (-------) [000] .....   314.011428: ");
    trace_comm_save(42, "hello");
    e.pid = 42;
    collect_reset();
    trace_print_context(&collect_writer, &ev);
    CHECK_EQ_STR(collected, "           hello-42      (     42) [000] .....   314.011428: ");
    /* Byte for byte Linux 6.1's print_func_help_header_irq with record-tgid (its
     * 12-column gap) and print_func_help_header (its 10-column TGID). */
    collect_reset();
    trace_print_default_header(&collect_writer, "nop", &info);
    CHECK_EQ_STR(collected,
                 "# tracer: nop\n#\n# entries-in-buffer/entries-written: 1/1   #P:1\n#\n"
                 "#                                          _-----=> irqs-off/BH-disabled\n"
                 "#                                         / _----=> need-resched\n"
                 "#                                        | / _---=> hardirq/softirq\n"
                 "#                                        || / _--=> preempt-depth\n"
                 "#                                        ||| / _-=> migrate-disable\n"
                 "#                                        |||| /     delay\n"
                 "#           TASK-PID       TGID    CPU#  |||||  TIMESTAMP  FUNCTION\n"
                 "#              | |           |       |   |||||     |         |\n");
    /* Each header's CPU# starts where the lines' "[000]" does. */
    CHECK(strstr(collected, "CPU#") - strstr(collected, "#           TASK-PID") ==
          (long)strlen("          <idle>-0       (-------) "));
    trace_print_irq_info = false;
    collect_reset();
    trace_print_default_header(&collect_writer, "nop", &info);
    CHECK_EQ_STR(collected,
                 "# tracer: nop\n#\n# entries-in-buffer/entries-written: 1/1   #P:1\n#\n"
                 "#           TASK-PID       TGID    CPU#     TIMESTAMP  FUNCTION\n"
                 "#              | |           |       |         |         |\n");
    CHECK(strstr(collected, "CPU#") - strstr(collected, "#           TASK-PID") ==
          (long)strlen("          <idle>-0       (-------) "));
    trace_print_irq_info = true;
    trace_print_record_tgid = false;
}
