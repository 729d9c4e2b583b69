/*
 * ftrace_graph_handler.c - function_graph's two handlers: ftrace_graph_call, which
 * ftrace_caller calls at a traced call while function_graph or the profiler listen alone,
 * and ftrace_return_to_handler, which return_to_handler calls when a hijacked call returns.
 *
 * As ftrace_function.c, this file holds only what the trampolines call, because it is
 * built with FTRACE_HANDLER_CFLAGS (Makefile): gcc saves none of ebx, esi and edi, which
 * the trampolines' popad restores anyway (docs/ftrace.md section 10). No C code may call
 * these functions. What they share with the rest of function_graph is in
 * ftrace_graph_internal.h; the rare paths they call are normal functions in ftrace_graph.c.
 */
#include "trace/ftrace/ftrace_graph_internal.h"

#include "kernel/arch.h"
#include "kernel/panic.h"
#include "trace/core/trace_internal.h"

/* The handler while function_graph or the profiler are the only users (Linux's
 * function_graph_enter): the recursion guard, the pid filter, the entry. */
void __attribute__((regparm(1))) ftrace_graph_call(struct ftrace_frame *f)
{
    unsigned cpu = arch_cpu_id();
    struct ftrace_cpu *c = &ftrace_cpu_state[cpu];
    if (!ftrace_enter(c))
        return;
    if (!ftrace_pid_skips())
        graph_entry(cpu, f);
    ftrace_exit(c);
}

/* The report when the stacks disagree; does not return. Here, not in ftrace_graph.c, so
 * that gcc inlines it: a panic backtrace then starts at ftrace_return_to_handler. */
static void __attribute__((noreturn)) bad_frame(const struct ret_entry *e, uint32_t fp)
{
    graph_broken = true; /* no CPU hijacks another return; panic stops them all */
    graph_plain = false; /* without the lock: interrupts are off, and it may be held here */
    panic("function_graph: bad frame pointer returning from %s: expected %#x, found %#x "
          "(the return stack no longer matches the real one; the saved return address "
          "%#x cannot be trusted)",
          symbol_lookup(kernel_symbols(), e->func, 0, 0), e->fp, fp, e->ret);
}

/* return_to_handler's C half, with interrupts off (the trampoline's cli): pops the entry,
 * checks the frame pointer, records the return, and gives back the real return address. */
uint32_t __attribute__((regparm(1))) ftrace_return_to_handler(uint32_t fp)
{
    unsigned cpu = arch_cpu_id();
    struct graph_stack *gs = this_stack(cpu);
    struct ret_entry *e = --gs->next;
    if (__builtin_expect(e->fp != fp, 0))
        bad_frame(e, fp);
    /* The record is inlined once for each state of the interrupt flag at entry, a constant
     * in each copy (as ftrace_function_call's). The common case, graphed (pending or
     * inside) with interrupts on, is one compare: RET_IRQS is above the other two bits. */
    uint32_t graphed = e->state & (RET_PENDING | RET_INSIDE | RET_IRQS);
    if (__builtin_expect(!graph_plain, 0))
        graph_return_general(cpu, e);
    else if (graphed > RET_IRQS)
        write_return(cpu, e, true, arch_cycles());
    else if (graphed & (RET_PENDING | RET_INSIDE))
        write_return(cpu, e, false, arch_cycles());
    return e->ret;
}
