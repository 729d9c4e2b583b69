/* test_ftrace_output.c - the function and function_graph tracers' lines match Linux's
 * layout to the character. */
#include "unit.h"

#include "collect_writer.h"
#include "trace/ftrace/ftrace.h"

/* do_work 0x1000-0x103f, kmain 0x1040-0x109f, leaf 0x10a0-0x1fff; 0x2000 ends the text. */
static const struct symbol_entry entries[] = {
    { 0x1000, 0 }, { 0x1040, 8 }, { 0x10a0, 14 }, { 0x2000, 19 },
};
static const char names[] = "do_work\0kmain\0leaf\0end";
static const struct symbol_table table = { 4, entries, names };

/* Prints a graph record of type type (entry, leaf or return) and returns the text. */
static const char *graph(uint16_t type, uint32_t func, int32_t depth, uint64_t duration_ns,
                         unsigned cpu)
{
    struct trace_event_view ev;
    struct ftrace_graph_entry ent;
    struct ftrace_graph_return ret;

    ftrace_output_set_symbols(&table);
    collect_reset();
    if (type == TRACE_GRAPH_ENT) {
        ent = (struct ftrace_graph_entry){ { type, 0, 0, 0 }, func, depth, 5000 };
        ev = (struct trace_event_view){ &ent.ent, sizeof ent, 5000, cpu };
    } else {
        ret = (struct ftrace_graph_return){ { type, 0, 0, 0 }, func, depth, 7000,
                                            7000 + duration_ns, 0 };
        ev = (struct trace_event_view){ &ret.ent, sizeof ret, 7000 + duration_ns, cpu };
    }
    ftrace_print_graph(&collect_writer, &ev);
    return collected;
}

/* The duration column of a return at depth 0 on CPU 0, its entry printed before it. */
static const char *ret_line(uint64_t duration_ns)
{
    graph(TRACE_GRAPH_ENT, 0x1000, 0, 0, 0);
    return graph(TRACE_GRAPH_RET, 0x1000, 0, duration_ns, 0);
}

TEST(function_line)
{
    struct ftrace_entry fn = { { TRACE_FN, 0, 0, 0 }, 0x1004, 0x1050 };
    struct trace_event_view ev = { &fn.ent, sizeof fn, 12345678000ull, 0 };
    ftrace_output_set_symbols(&table);
    collect_reset();
    ftrace_print_function(&collect_writer, &ev);
    CHECK_EQ_STR(collected, "          <idle>-0       [000] .....    12.345678: do_work <-kmain\n");
}

TEST(function_unknown_and_zero_addresses)
{
    struct ftrace_entry fn = { { TRACE_FN, TRACE_FLAG_IRQS_OFF, 0, 0 }, 0xc0de0, 0x2000 };
    struct trace_event_view ev = { &fn.ent, sizeof fn, 1000, 1 };
    ftrace_output_set_symbols(&table);
    collect_reset();
    ftrace_print_function(&collect_writer, &ev);
    CHECK_EQ_STR(collected,
                 "          <idle>-0       [001] d....     0.000001: 0x000c0de0 <-0x00002000\n");

    /* No parent: Linux leaves " <-parent" out. */
    fn.parent_ip = 0;
    collect_reset();
    ftrace_print_function(&collect_writer, &ev);
    CHECK_EQ_STR(collected, "          <idle>-0       [001] d....     0.000001: 0x000c0de0\n");
}

TEST(function_without_symbols)
{
    struct ftrace_entry fn = { { TRACE_FN, 0, 0, 0 }, 0x1004, 0x1050 };
    struct trace_event_view ev = { &fn.ent, sizeof fn, 0, 0 };
    ftrace_output_set_symbols(NULL);
    collect_reset();
    ftrace_print_function(&collect_writer, &ev);
    CHECK_EQ_STR(collected, "          <idle>-0       [000] .....     0.000000: 0x00001004 <-0x00001050\n");
}

TEST(graph_entry)
{
    CHECK_EQ_STR(graph(TRACE_GRAPH_ENT, 0x1000, 0, 0, 0), " 0)               |  do_work() {\n");
    CHECK_EQ_STR(graph(TRACE_GRAPH_ENT, 0x1044, 2, 0, 3), " 3)               |      kmain() {\n");
}

TEST(graph_leaf)
{
    CHECK_EQ_STR(graph(TRACE_GRAPH_LEAF, 0x10a0, 2, 456, 0), " 0)   0.456 us    |      leaf();\n");
    CHECK_EQ_STR(graph(TRACE_GRAPH_LEAF, 0x10a0, 1, 12345, 1), " 1) + 12.345 us   |    leaf();\n");
}

TEST(graph_return)
{
    graph(TRACE_GRAPH_ENT, 0x1000, 0, 0, 0);
    CHECK_EQ_STR(graph(TRACE_GRAPH_RET, 0x1000, 0, 12345, 0), " 0) + 12.345 us   |  }\n");
    graph(TRACE_GRAPH_ENT, 0x1000, 3, 0, 2);
    CHECK_EQ_STR(graph(TRACE_GRAPH_RET, 0x1000, 3, 789, 2), " 2)   0.789 us    |        }\n");
}

TEST(graph_unknown_function)
{
    CHECK_EQ_STR(graph(TRACE_GRAPH_ENT, 0xc0de0, 0, 0, 0), " 0)               |  0xc0de0() {\n");
    CHECK_EQ_STR(graph(TRACE_GRAPH_LEAF, 0x2000, 0, 1, 0), " 0)   0.001 us    |  0x2000();\n");
}

TEST(graph_duration_marks_and_widths)
{
    CHECK_EQ_STR(ret_line(0), " 0)   0.000 us    |  }\n");
    CHECK_EQ_STR(ret_line(10000), " 0)   10.000 us   |  }\n");        /* not above 10 us */
    CHECK_EQ_STR(ret_line(10001), " 0) + 10.001 us   |  }\n");
    CHECK_EQ_STR(ret_line(100000), " 0) + 100.000 us  |  }\n");
    CHECK_EQ_STR(ret_line(100001), " 0) ! 100.001 us  |  }\n");
    CHECK_EQ_STR(ret_line(1000000), " 0) ! 1000.000 us |  }\n");
    CHECK_EQ_STR(ret_line(1000001), " 0) # 1000.001 us |  }\n");
    CHECK_EQ_STR(ret_line(10000000), " 0) # 10000.00 us |  }\n");      /* nsecs cut to 2 */
    CHECK_EQ_STR(ret_line(10000999), " 0) * 10000.99 us |  }\n");
    CHECK_EQ_STR(ret_line(100000000), " 0) * 100000.0 us |  }\n");     /* nsecs cut to 1 */
    CHECK_EQ_STR(ret_line(100000001), " 0) @ 100000.0 us |  }\n");
    CHECK_EQ_STR(ret_line(1000000000), " 0) @ 1000000 us  |  }\n");    /* no nsecs */
    CHECK_EQ_STR(ret_line(1000000001), " 0) $ 1000000 us  |  }\n");
    CHECK_EQ_STR(ret_line(12345678901ull), " 0) $ 12345678 us |  }\n");
    CHECK_EQ_STR(ret_line(123456789012345ull), " 0) $ 123456789012 us |  }\n");
}

TEST(graph_ignores_other_types)
{
    struct ftrace_entry fn = { { TRACE_FN, 0, 0, 0 }, 0x1004, 0x1050 };
    struct trace_event_view ev = { &fn.ent, sizeof fn, 0, 0 };
    collect_reset();
    ftrace_print_graph(&collect_writer, &ev);
    CHECK_EQ_STR(collected, "");
}

TEST(stack_trace)
{
    struct ftrace_stack_entry st = { { TRACE_STACK, 0, 0, 0 }, 3, { 0x1010, 0x1041, 0x5000 } };
    struct trace_event_view ev = { &st.ent, sizeof st, 2000000, 0 };
    ftrace_output_set_symbols(&table);
    collect_reset();
    ftrace_print_stack(&collect_writer, &ev);
    CHECK_EQ_STR(collected,
                 "          <idle>-0       [000] .....     0.002000: <stack trace>\n"
                 " => do_work\n"
                 " => kmain\n"
                 " => 0x00005000\n");
}

TEST(stack_trace_ends_at_marker_and_bounds)
{
    struct ftrace_stack_entry st = { { TRACE_STACK, 0, 0, 0 }, 3, { 0x1010, 0xffffffffu, 0x1041 } };
    struct trace_event_view ev = { &st.ent, sizeof st, 0, 0 };
    ftrace_output_set_symbols(&table);
    collect_reset();
    ftrace_print_stack(&collect_writer, &ev);
    CHECK_EQ_STR(collected,
                 "          <idle>-0       [000] .....     0.000000: <stack trace>\n"
                 " => do_work\n");

    /* nr beyond the array, or beyond the recorded length, prints only what is there. */
    st = (struct ftrace_stack_entry){ { TRACE_STACK, 0, 0, 0 }, 99,
                                      { 0x1000, 0x1040, 0x10a0, 0x1000, 0x1040, 0x10a0,
                                        0x1000, 0x1040 } };
    ev.length = (uint32_t)(offsetof(struct ftrace_stack_entry, caller) + 2 * sizeof(uint32_t));
    collect_reset();
    ftrace_print_stack(&collect_writer, &ev);
    CHECK_EQ_STR(collected,
                 "          <idle>-0       [000] .....     0.000000: <stack trace>\n"
                 " => do_work\n"
                 " => kmain\n");
    ev.length = sizeof st;
    collect_reset();
    ftrace_print_stack(&collect_writer, &ev);
    CHECK(strstr(collected, " => kmain\n => leaf\n => do_work\n => kmain\n => leaf\n"
                            " => do_work\n => kmain\n") != NULL);
}

TEST(graph_header)
{
    struct trace_header_info info = { 813, 26317372, 1 };
    collect_reset();
    ftrace_print_graph_header(&collect_writer, &info);
    CHECK_EQ_STR(collected,
                 "# tracer: function_graph\n"
                 "#\n"
                 "# entries-in-buffer/entries-written: 813/26317372   #P:1\n"
                 "#\n"
                 "# CPU  DURATION                  FUNCTION CALLS\n"
                 "# |     |   |                     |   |   |   |\n");
}

/* --- issue 18, the print options (options/sym-*, options/funcgraph-*) ------------------- */

/* The function line of test function_line with the given ftrace_print_flags. */
static const char *function_with(unsigned flags)
{
    struct ftrace_entry fn = { { TRACE_FN, 0, 0, 0 }, 0x1004, 0x1050 };
    struct trace_event_view ev = { &fn.ent, sizeof fn, 12345678000ull, 0 };
    ftrace_output_set_symbols(&table);
    ftrace_print_flags = flags;
    collect_reset();
    ftrace_print_function(&collect_writer, &ev);
    ftrace_print_flags = FTRACE_PRINT_DEFAULT;
    return collected;
}

TEST(sym_offset_and_sym_addr)
{
    const char *ctx = "          <idle>-0       [000] .....    12.345678: ";
    char want[160];
    snprintf(want, sizeof want, "%sdo_work+0x4/0x40 <-kmain+0x10/0x60\n", ctx);
    CHECK_EQ_STR(function_with(FTRACE_PRINT_SYM_OFFSET), want);
    snprintf(want, sizeof want, "%sdo_work <00001004> <-kmain <00001050>\n", ctx);
    CHECK_EQ_STR(function_with(FTRACE_PRINT_SYM_ADDR), want);
    snprintf(want, sizeof want, "%sdo_work+0x4/0x40 <00001004> <-kmain+0x10/0x60 <00001050>\n", ctx);
    CHECK_EQ_STR(function_with(FTRACE_PRINT_SYM_OFFSET | FTRACE_PRINT_SYM_ADDR), want);
}

/* Forgets the entries printed before, as a new reading of `trace` does (its header). */
static void new_reading(void)
{
    struct trace_header_info info = { 0, 0, 1 };
    collect_reset();
    ftrace_print_graph_header(&collect_writer, &info);
}

TEST(graph_return_without_its_entry_names_the_function)
{
    new_reading();
    CHECK_EQ_STR(graph(TRACE_GRAPH_RET, 0x1000, 1, 2500, 0),
                 " 0)   2.500 us    |    } /* do_work */\n");
    /* With its entry printed, a bare brace (Linux's default)... */
    graph(TRACE_GRAPH_ENT, 0x1000, 1, 0, 0);
    CHECK_EQ_STR(graph(TRACE_GRAPH_RET, 0x1000, 1, 2500, 0), " 0)   2.500 us    |    }\n");
    /* ...and with funcgraph-tail, the name every time. */
    ftrace_print_flags = FTRACE_PRINT_DEFAULT | FGRAPH_PRINT_TAIL;
    graph(TRACE_GRAPH_ENT, 0x1000, 1, 0, 0);
    CHECK_EQ_STR(graph(TRACE_GRAPH_RET, 0x1000, 1, 2500, 0),
                 " 0)   2.500 us    |    } /* do_work */\n");
    ftrace_print_flags = FTRACE_PRINT_DEFAULT;
}

TEST(graph_columns_follow_the_options)
{
    new_reading();
    ftrace_print_flags = FTRACE_PRINT_DEFAULT | FGRAPH_PRINT_PROC | FGRAPH_PRINT_ABS_TIME;
    CHECK_EQ_STR(graph(TRACE_GRAPH_ENT, 0x1000, 0, 0, 0),
                 "    0.000005 |   0)    <idle>-0    |               |  do_work() {\n");
    ftrace_print_flags = FGRAPH_PRINT_CPU | FGRAPH_PRINT_DURATION; /* nooverhead */
    CHECK_EQ_STR(graph(TRACE_GRAPH_LEAF, 0x10a0, 1, 150000, 0), " 0)   150.000 us  |    leaf();\n");
    ftrace_print_flags = 0; /* no cpu, no duration: the call alone */
    CHECK_EQ_STR(graph(TRACE_GRAPH_LEAF, 0x10a0, 2, 150000, 0), "    leaf();\n");
    ftrace_print_flags = FTRACE_PRINT_DEFAULT;
}

TEST(graph_header_follows_the_options)
{
    struct trace_header_info info = { 1, 1, 1 };
    ftrace_print_flags = FTRACE_PRINT_DEFAULT | FGRAPH_PRINT_PROC | FGRAPH_PRINT_ABS_TIME;
    collect_reset();
    ftrace_print_graph_header(&collect_writer, &info);
    CHECK(strstr(collected, "\n#     TIME        CPU  TASK/PID         DURATION                  "
                            "FUNCTION CALLS\n"
                            "#      |          |     |    |           |   |                     "
                            "|   |   |   |\n") != NULL);
    ftrace_print_flags = 0;
    collect_reset();
    ftrace_print_graph_header(&collect_writer, &info);
    CHECK(strstr(collected, "\n#               FUNCTION CALLS\n#               |   |   |   |\n") != NULL);
    ftrace_print_flags = FTRACE_PRINT_DEFAULT;
}
