/*
 * ftrace_options.c - the options/ files that change how the function tracers print, as
 * Linux names them: sym-offset and sym-addr (function lines and stack traces), and
 * function_graph's funcgraph-cpu, -overhead, -proc, -duration, -abstime and -tail. Each is
 * one bit of ftrace_print_flags (ftrace.h); a change shows at the next read, for records
 * already in the buffer too, as on Linux (the options act when the text is made).
 */
#include "kernel/fs/fs_layout.h"
#include "kernel/init.h"
#include "trace/ftrace/ftrace.h"

/* get and set for the option that is bit `bit` of ftrace_print_flags. */
#define PRINT_OPTION(fn, bit)                                                            \
    static bool fn##_get(void) { return (ftrace_print_flags & (bit)) != 0; }             \
    static void fn##_set(bool on)                                                        \
    {                                                                                    \
        ftrace_print_flags = on ? ftrace_print_flags | (bit) : ftrace_print_flags & ~(bit); \
    }                                                                                    \
    static const struct trace_flag fn##_flag = { .get = fn##_get, .set = fn##_set };

PRINT_OPTION(sym_offset, FTRACE_PRINT_SYM_OFFSET)
PRINT_OPTION(sym_addr, FTRACE_PRINT_SYM_ADDR)
PRINT_OPTION(graph_cpu, FGRAPH_PRINT_CPU)
PRINT_OPTION(graph_overhead, FGRAPH_PRINT_OVERHEAD)
PRINT_OPTION(graph_proc, FGRAPH_PRINT_PROC)
PRINT_OPTION(graph_duration, FGRAPH_PRINT_DURATION)
PRINT_OPTION(graph_abstime, FGRAPH_PRINT_ABS_TIME)
PRINT_OPTION(graph_tail, FGRAPH_PRINT_TAIL)

static void ftrace_options_init(void)
{
    struct fs_node *options = fs_mkdir_at(tracefs_root(), "options");
    trace_create_flag_file(options, "sym-offset", &sym_offset_flag);
    trace_create_flag_file(options, "sym-addr", &sym_addr_flag);
    trace_create_flag_file(options, "funcgraph-cpu", &graph_cpu_flag);
    trace_create_flag_file(options, "funcgraph-overhead", &graph_overhead_flag);
    trace_create_flag_file(options, "funcgraph-proc", &graph_proc_flag);
    trace_create_flag_file(options, "funcgraph-duration", &graph_duration_flag);
    trace_create_flag_file(options, "funcgraph-abstime", &graph_abstime_flag);
    trace_create_flag_file(options, "funcgraph-tail", &graph_tail_flag);
}
INITCALL(trace, ftrace_options_init);
