/*
 * ftrace_internal.h - what the function-tracing files share (ftrace.c: sites, dispatch,
 * function tracer, files; ftrace_function.c: the function tracer's own handler;
 * ftrace_graph.c: return stack, function_graph tracer, profiler; ftrace_graph_handler.c:
 * function_graph's handlers).
 */
#ifndef TRACE_FTRACE_FTRACE_INTERNAL_H
#define TRACE_FTRACE_FTRACE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/ftrace/ftrace.h"
#include "trace/ftrace/ftrace_filter.h"
#include "trace/core/trace_pid_filter.h"
#include "kernel/arch.h"
#include "kernel/smp.h"

/* Who wants the call sites patched. */
#define FTRACE_USER_FUNCTION 1u
#define FTRACE_USER_GRAPH 2u
#define FTRACE_USER_PROFILE 4u
#define FTRACE_USER_KPROBE 8u /* a site has an entry probe (trace/kprobes) */

/* The traceable functions: their call sites (== their addresses), sorted. */
struct ftrace_sites {
    uint32_t *addr;
    uint32_t count;
    uint32_t *patched; /* bitmap: the site calls ftrace_caller now */
    uint32_t *scratch; /* for atomic filter writes */
};
extern struct ftrace_sites ftrace_sites;
extern struct ftrace_func_set ftrace_filter, ftrace_notrace, ftrace_graph_filter;
/* set_graph_notrace: these functions and all they call are left out of function_graph. */
extern struct ftrace_func_set ftrace_graph_notrace;

/* The index of the site at ip, or -1. */
int ftrace_site_index(uint32_t ip);

/* Adds or removes a user and patches the sites accordingly. */
void ftrace_set_user(unsigned user, bool on);
/* Re-patches after a filter changed. */
void ftrace_update(void);

/*
 * What the hot path keeps per CPU, a cache line of its own, so CPUs never write the same
 * line: the recursion guard, and function_graph's overrun count. Each traced call
 * reads arch_cpu_id() once, with interrupts off from ftrace_caller to its return, and
 * passes the slot down.
 */
struct ftrace_cpu {
    bool running;                   /* this CPU is inside the tracer */
    uint32_t recursion_skipped;     /* calls not traced because the tracer was running */
    uint32_t ret_overrun;           /* calls not followed: that stack was full */
} __attribute__((aligned(64)));
extern struct ftrace_cpu ftrace_cpu_state[MAX_CPUS];

/*
 * Every handler ftrace_caller calls starts with ftrace_enter and ends with ftrace_exit.
 * ftrace_enter refuses a call that finds the tracer already running on this CPU: the tracer
 * called traced code by mistake (interrupts are off, so no interrupt handler gets here
 * nested). It is counted in recursion_skipped, not traced; the self-tests require the sum
 * to stay 0.
 */
static inline bool ftrace_enter(struct ftrace_cpu *c)
{
    if (__builtin_expect(c->running, 0)) {
        c->recursion_skipped++;
        return false;
    }
    c->running = true;
    return true;
}

static inline void ftrace_exit(struct ftrace_cpu *c) { c->running = false; }

/* Where ftrace_caller lands when several users listen, or a kprobe (Linux's
 * ftrace_ops_list_func); a single tracer has a handler of its own (ftrace.c's
 * dispatcher_for). */
void __attribute__((regparm(1))) ftrace_dispatch(struct ftrace_frame *f);

/* The function tracer's handler while it is the only user and func_stack_trace is off
 * (ftrace_function.c). Called by ftrace_caller only: it is built to keep no register for
 * its caller (the Makefile's FTRACE_HANDLER_CFLAGS), which only the trampoline, restoring
 * them all with popad, allows. */
void __attribute__((regparm(1))) ftrace_function_call(struct ftrace_frame *f);

/* Records a stack trace of the callers above the frame pointer fp (func_stack_trace). */
void ftrace_record_stack(unsigned cpu, uint32_t fp, bool irqs);

/* The function tracer's record of the call at f: ip and parent ip (and, with_stack, a
 * stack trace). cpu: this CPU, read once by the handler (interrupts stay off until it
 * returns); irqs: the traced code's interrupt flag, which the events show. Inlined in each
 * handler that records calls (ftrace_function_call, ftrace_dispatch). trace_buf is read
 * once, for the reservation and the commit, as tracing_mark_write does (trace_reserve_cpu
 * and trace_commit_cpu read it at each): a buffer swap waits until no CPU is between
 * reserve and commit (trace_swap_buffers), so it is the same buffer, and the commit needs
 * no reload. */
static inline __attribute__((always_inline)) void
ftrace_function_record(unsigned cpu, struct ftrace_frame *f, bool irqs, bool with_stack)
{
    if (!trace_recording)
        return;
    struct ring_buffer *rb = trace_buf;
    struct ftrace_entry *e =
        (struct ftrace_entry *)trace_reserve_on(rb, cpu, TRACE_FN, sizeof *e, irqs);
    if (!e)
        return;
    e->ip = ftrace_frame_ip(f);
    e->parent_ip = f->parent_ip;
    rb_commit_cpu(rb, cpu);
    if (with_stack)
        ftrace_record_stack(cpu, f->ebp, irqs);
}

/* function_graph and the profiler: ftrace_graph_call (ftrace_graph_handler.c, built as
 * ftrace_function_call is: for ftrace_caller only) is the handler when they are the only
 * users; ftrace_graph_entry is their part of ftrace_dispatch's work (interrupts off on cpu,
 * past ftrace_enter and the pid filter). */
void __attribute__((regparm(1))) ftrace_graph_call(struct ftrace_frame *f);
void ftrace_graph_entry(unsigned cpu, struct ftrace_frame *f);
/* A filter set changed (function_graph keeps a summary of its controls). */
void ftrace_graph_controls_changed(void);
void ftrace_graph_setup(void);

/* set_ftrace_pid (ftrace_pid.c): the lists, and whether the running task is left out;
 * ftrace_pid_skips is the handlers' test (one load and a branch while no list is set). */
extern struct trace_pid_filter ftrace_pids;
bool ftrace_pid_ignored(void);
static inline bool ftrace_pid_skips(void)
{
    return __builtin_expect(ftrace_pids.active, 0) && ftrace_pid_ignored();
}

/* Calls the handlers declined because the tracer itself was running (a bug if not 0). */
uint32_t ftrace_recursion_skipped(void);

#endif
