/*
 * ftrace.h - the function tracers' events and the pieces they share: the function tracer
 * (one record per call: function and caller), the function_graph tracer (entry, return and
 * leaf records with durations), and stack traces attached to events.
 *
 * Layout of each event is fixed here; trace/ftrace/ftrace_output.c prints them in the line layouts of
 * Linux's function and function_graph tracers; trace/ftrace/ftrace_filter.c parses the filter files.
 */
#ifndef TRACE_FTRACE_FTRACE_H
#define TRACE_FTRACE_FTRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/lib/symbols.h"
#include "trace/core/trace.h"

/* TRACE_FN: the function tracer. */
struct ftrace_entry {
    struct trace_entry ent;
    uint32_t ip;        /* the traced function's address (its first instruction) */
    uint32_t parent_ip; /* the address its caller will return to */
};

/*
 * TRACE_GRAPH_ENT / TRACE_GRAPH_RET / TRACE_GRAPH_LEAF: the function_graph tracer. The
 * tracer writes an entry only once it knows the function calls something traced (or is
 * interrupted by something traced); a function that returns with nothing traced in between
 * becomes one leaf record, printed "func();" as Linux prints a leaf.
 */
struct ftrace_graph_entry {
    struct trace_entry ent;
    uint32_t func;
    int32_t depth;      /* 0 for the outermost traced call */
    uint64_t calltime;  /* at entry: cycles in the buffer, ns when handed to the printer
                         * and in exported pages (trace_declare_cycle_field) */
};

struct ftrace_graph_return {
    struct trace_entry ent;
    uint32_t func;
    int32_t depth;
    uint64_t calltime;  /* at entry and return: cycles in the buffer, ns when handed to */
    uint64_t rettime;   /* the printer and in exported pages (declared cycle fields) */
    uint32_t overrun;   /* entries lost because the return stack was full, so far */
};

/* TRACE_STACK: a backtrace attached to the event before it (options/func_stack_trace). */
#define FTRACE_STACK_DEPTH 8
struct ftrace_stack_entry {
    struct trace_entry ent;
    uint32_t nr;
    uint32_t caller[FTRACE_STACK_DEPTH];
};

/* Backtraces and caught faults reach the return stacks through the unwinder that
 * ftrace_graph.c installs (struct ftrace_graph_unwinder, arch/x86/ftrace_arch.h). */

/* Per-task return stacks live in each task's graph_stack: ftrace_graph.c registers the
 * hook that gives every task one (kernel/proc/task.h: task_on_create); the handlers find
 * the running task's from the CPU's current task (ftrace_graph_internal.h: this_stack). */

/* What options/ change in the printing (Linux's sym-offset and sym-addr trace options, and
 * function_graph's funcgraph-* flags); FTRACE_PRINT_DEFAULT is Linux's default. The option
 * files set the bits (ftrace_options.c); the printer reads them as it prints. */
#define FTRACE_PRINT_SYM_OFFSET 0x01 /* "func+0x12/0x40" */
#define FTRACE_PRINT_SYM_ADDR 0x02   /* " <c0101234>" after the name */
#define FGRAPH_PRINT_CPU 0x04        /* the " 0) " column */
#define FGRAPH_PRINT_OVERHEAD 0x08   /* the '+', '!', ... marks */
#define FGRAPH_PRINT_PROC 0x10       /* the "comm-pid |" column */
#define FGRAPH_PRINT_DURATION 0x20   /* the duration column */
#define FGRAPH_PRINT_ABS_TIME 0x40   /* the timestamp column */
#define FGRAPH_PRINT_TAIL 0x80       /* every return names its function */
#define FTRACE_PRINT_DEFAULT (FGRAPH_PRINT_CPU | FGRAPH_PRINT_OVERHEAD | FGRAPH_PRINT_DURATION)
extern unsigned ftrace_print_flags;

/* Printing (portable: tests/unit/test_ftrace_output.c). Names come from the symbol table. */
void ftrace_output_set_symbols(const struct symbol_table *symbols);
/* "          <idle>-0       [000] .....    12.345678: func <-parent" */
void ftrace_print_function(struct fs_writer *out, const struct trace_event_view *ev);
/* " 0)               |    func() {"  and  " 0)   0.456 us    |      leaf();"  and
 * " 0) + 12.345 us   |  }" */
void ftrace_print_graph(struct fs_writer *out, const struct trace_event_view *ev);
/* " => func+0x12/0x40" lines, as Linux prints a kernel stack trace event. */
void ftrace_print_stack(struct fs_writer *out, const struct trace_event_view *ev);
/* The function_graph tracer's `trace` header. */
void ftrace_print_graph_header(struct fs_writer *out, const struct trace_header_info *info);

/* kprobes (trace/kprobes/kprobe_events.c): the hook a site with an entry probe calls, with
 * the function's address, the frame ftrace_caller saved (the traced code's registers; the
 * address of parent_ip is where its return address is, its stack pointer at entry), and the
 * traced code's interrupt flag (irqs: 0 when they were off). It runs with interrupts off,
 * never re-entered. ftrace_kprobe_site marks or unmarks the site at
 * ip as probed and patches it: 0, or -EINVAL when ip is no traceable function's site. */
struct ftrace_frame; /* arch/x86/ftrace_arch.h */
typedef void (*ftrace_kprobe_hook_t)(uint32_t ip, struct ftrace_frame *f, unsigned long irqs);
void ftrace_set_kprobe_hook(ftrace_kprobe_hook_t hook);
int ftrace_kprobe_site(uint32_t ip, bool on);
/* Whether ip is a traceable function's call site (its address). */
bool ftrace_is_site(uint32_t ip);

#endif
