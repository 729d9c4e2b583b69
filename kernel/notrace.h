/*
 * notrace.h - `notrace`: a function the function tracer never sees (gcc puts no NOPs at its
 * entry, so it has no call site), as Linux's notrace and its entry code's noinstr.
 *
 * Whole files are kept out by the Makefile (NOTRACE_*: the tracers, trap entry, what
 * carries the trace out). This is for single functions on the way between ring 3 and a
 * system call's own function: the gate, the dispatcher and the checks on the way back run
 * on every call, and a hook in each of them made the hooks alone cost getpid 3.6% with
 * tracing off (make bench, "ftrace hooks compiled in, off"). What the call does is still
 * traced: sys_getpid, ipc_call and the rest keep their hooks.
 */
#ifndef KERNEL_NOTRACE_H
#define KERNEL_NOTRACE_H

#define notrace __attribute__((patchable_function_entry(0, 0)))

#endif
