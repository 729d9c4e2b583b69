/*
 * ftrace_function.c - the function tracer's handler when it listens alone: what
 * ftrace_caller calls on every traced call while `current_tracer` is function (and
 * func_stack_trace off). ftrace.c chooses it (dispatcher_for).
 *
 * This file holds only what the trampoline calls, because it is built differently from the
 * rest of the kernel (the Makefile's FTRACE_HANDLER_CFLAGS): gcc may change ebx, esi and edi
 * without saving them (-fcall-used-*). ftrace_caller's popad restores all three for the
 * traced code anyway, so the saves and restores a normal function makes are pure cost
 * here: 6 of the 13 instructions the handler's frame took (docs/ftrace.md section 10).
 * The frame pointer stays, for backtraces through the handler. No C code may call these
 * functions: a normal caller expects ebx, esi and edi to survive the call.
 */
#include "trace/ftrace/ftrace_internal.h"

#include "kernel/arch.h"
#include "trace/core/trace_internal.h"

/* Linux's function_trace_call: the recursion guard, the pid filter, one record. The
 * record is inlined twice, once for each state of the traced code's interrupt flag: in each
 * copy the flag is a constant (as in trace_reserve), not one more value kept through the
 * ring buffer's code. */
void __attribute__((regparm(1))) ftrace_function_call(struct ftrace_frame *f)
{
    unsigned cpu = arch_cpu_id();
    struct ftrace_cpu *c = &ftrace_cpu_state[cpu];
    if (!ftrace_enter(c))
        return;
    if (!ftrace_pid_skips()) {
        if (f->eflags & FTRACE_FRAME_IF)
            ftrace_function_record(cpu, f, true, false);
        else
            ftrace_function_record(cpu, f, false, false);
    }
    ftrace_exit(c);
}
