/*
 * ftrace_graph_internal.h - what the two function_graph files share: ftrace_graph.c (the
 * tracer, the profiler, the controls and the rare paths) and ftrace_graph_handler.c (the
 * two handlers the trampolines call, built with FTRACE_HANDLER_CFLAGS: docs/ftrace.md
 * section 10). The return stack's layout, and the hot path's inline steps, are here so
 * that both inline them.
 */
#ifndef TRACE_FTRACE_FTRACE_GRAPH_INTERNAL_H
#define TRACE_FTRACE_FTRACE_GRAPH_INTERNAL_H

#include "kernel/proc/task_internal.h" /* cpu_current, task->graph_stack */
#include "trace/ftrace/ftrace_internal.h"

#define RET_STACK_DEPTH 64

/* What a return stack entry says about its call (ret_entry.state). RET_IRQS is the
 * interrupt flag's own bit in EFLAGS, so the entry takes it from the trampoline's saved
 * flags with one AND. */
#define RET_PENDING 0x1          /* the entry record is not written yet */
#define RET_INSIDE 0x2           /* graphed: within a set_graph_function function, and
                                  * allowed by the controls above */
#define RET_NOTRACE 0x4          /* a set_graph_notrace function, or called from one */
#define RET_IRQS FTRACE_FRAME_IF /* interrupts were on at entry (for the events' flags) */
_Static_assert(RET_IRQS > (RET_PENDING | RET_INSIDE | RET_NOTRACE),
               "ftrace_return_to_handler's one compare needs RET_IRQS above the others");

struct ret_entry {
    uint32_t ret;       /* the real return address */
    uint32_t *slot;     /* where it was on the stack */
    uint32_t func;
    uint32_t fp;        /* the caller's frame pointer at entry */
    uint64_t calltime;  /* cycles (converted to ns when printed) */
    uint32_t state;     /* RET_* */
    int32_t depth;      /* entries below it: its records' depth (32 bytes in all, so an
                         * entry's address is a shift, not a multiply) */
};

/* Each task has its own return stack (Linux's ret_stack in task_struct): a task switched
 * out in the middle of traced calls returns through them only when it runs again. */
struct graph_stack {
    struct ret_entry *next;     /* the first free entry: e + the entries in use */
    /* What is below the first entry, so that every entry has one below it (the top of an
     * empty stack): depth -1, state 0 (never pending, graphed or under a notrace
     * function). Nothing writes it after graph_stack_init. */
    struct ret_entry bottom;
    struct ret_entry e[RET_STACK_DEPTH];
};

/* How many entries gs holds. */
static inline int stack_depth(const struct graph_stack *gs) { return (int)(gs->next - gs->e); }

/* The entry on top of gs: the bottom when it is empty. */
static inline const struct ret_entry *stack_top(const struct graph_stack *gs)
{
    return gs->next - 1;
}

/* Each CPU's boot or idle context, which has no task stack of its own (ftrace_graph.c). */
extern struct graph_stack graph_context_stack[MAX_CPUS];

/* The running task's return stack on cpu, this CPU (interrupts off, so it stays this one;
 * the caller passes arch_cpu_id(), read once per call): the task's own, or the CPU's
 * context stack for a task without one (before tasks_init, the boot task, idle). Found
 * from the CPU's current task at each use, so that a switch has nothing to do for it: the
 * stack follows the running task from the moment the scheduler makes next current
 * (kernel/proc/sched.c, switch_to), whether or not function_graph is on, and a task that
 * sleeps with returns hijacked finds them when it runs again, after the tracer was
 * switched on or off meanwhile. */
static inline struct graph_stack *this_stack(unsigned cpu)
{
    const struct task *t = cpu_current[cpu];
    struct graph_stack *gs = t ? t->graph_stack : 0;
    return gs ? gs : &graph_context_stack[cpu];
}

/* function_graph records every call and nothing else asks for anything: no
 * set_graph_function, set_graph_notrace, max_graph_depth, tracing_thresh, funcgraph-irqs
 * off, profiler, broken frame. Entry and return then test this alone, and the rest is
 * graph_entry_general's and graph_return_general's (ftrace_graph.c keeps it). */
extern bool graph_plain;
extern bool graph_broken; /* a frame-pointer mismatch stopped function_graph */

/* The rare paths, out of line in ftrace_graph.c, all with interrupts off on cpu:
 * the entry record of a caller found pending; a call not followed (the stack was full);
 * the entry and the return when graph_plain is not set. */
void graph_write_entry(unsigned cpu, const struct ret_entry *e);
void graph_overrun(unsigned cpu);
void graph_entry_general(unsigned cpu, struct ftrace_frame *f);
void graph_return_general(unsigned cpu, const struct ret_entry *e);

/* The return of e, just popped, at rettime: a leaf when its entry is still pending; irqs is
 * e's RET_IRQS (the caller may pass it as a constant). rettime is read before the record is
 * reserved, so that it never comes after the event's own timestamp, as on Linux (readers of
 * the binary pages may rely on it: st_capture.c checks it). */
static inline __attribute__((always_inline)) void
write_return(unsigned cpu, const struct ret_entry *e, bool irqs, uint64_t rettime)
{
    struct ftrace_graph_return *r = (struct ftrace_graph_return *)trace_reserve_cpu(
        cpu, e->state & RET_PENDING ? TRACE_GRAPH_LEAF : TRACE_GRAPH_RET, sizeof *r, irqs);
    if (!r)
        return;
    r->rettime = rettime;
    r->func = e->func;
    r->depth = e->depth;
    r->calltime = e->calltime;
    r->overrun = ftrace_cpu_state[cpu].ret_overrun;
    trace_commit_cpu(cpu);
}

/* Pushes the call at f on gs with state (RET_IRQS is added here) and hijacks its return.
 * record: it is graphed, so a caller still pending is not a leaf after all, and its
 * entry record goes out now, before anything of ours. A full stack: the call is not
 * followed, and counted. */
static inline __attribute__((always_inline)) void
graph_push(unsigned cpu, struct graph_stack *gs, struct ftrace_frame *f, uint32_t state,
           bool record)
{
    struct ret_entry *e = gs->next;
    if (__builtin_expect(e == &gs->e[RET_STACK_DEPTH], 0)) {
        graph_overrun(cpu);
        return;
    }
    if (record && (e[-1].state & RET_PENDING)) {
        graph_write_entry(cpu, &e[-1]);
        e[-1].state &= ~RET_PENDING;
    }
    gs->next = e + 1;
    e->depth = e[-1].depth + 1;
    e->ret = f->parent_ip;
    e->slot = ftrace_frame_parent_slot(f);
    e->func = ftrace_frame_ip(f);
    e->fp = f->ebp;
    e->calltime = arch_cycles();
    e->state = state | (f->eflags & RET_IRQS);
    f->parent_ip = (uint32_t)(uintptr_t)return_to_handler;
}

/* The entry of a traced call, interrupts off on cpu since ftrace_caller. While
 * graph_plain, every call is graphed: pushed pending, and its caller's entry written if
 * that was still pending. */
static inline __attribute__((always_inline)) void graph_entry(unsigned cpu,
                                                              struct ftrace_frame *f)
{
    if (__builtin_expect(!graph_plain, 0)) {
        graph_entry_general(cpu, f);
        return;
    }
    graph_push(cpu, this_stack(cpu), f, RET_PENDING | RET_INSIDE, true);
}

#endif
