/*
 * trace_syscalls.h - syscall tracepoints (Linux's HAVE_SYSCALL_TRACEPOINTS): for every
 * system call the kernel has (kernel/syscall/syscall.h), the events syscalls/sys_enter_NAME and
 * syscalls/sys_exit_NAME, with Linux's record layout, `format` files and output:
 *
 *   sys_write(fd: 1, buf: 40001000, count: c)
 *   sys_write -> 0xc
 *
 * and raw_syscalls/sys_enter and sys_exit, which see every call by number, including those
 * the kernel does not have (ENOSYS): "NR 4 (1, 40001000, c, 0, 0, 0)", "NR 4 = 12".
 *
 * The two functions below are installed as the system call dispatcher's tracer
 * (kernel/syscall/syscall.h: syscall_set_tracer) exactly while some syscall event is enabled, so
 * that an untraced call pays one test of a pointer and the kernel includes nothing of
 * tracing.
 */
#ifndef TRACE_EVENTS_TRACE_SYSCALLS_H
#define TRACE_EVENTS_TRACE_SYSCALLS_H

#include <stdbool.h>
#include <stdint.h>

/* Records raw_syscalls:sys_enter for call nr, and sys_enter_NAME when the table has the
 * call, with its arguments as the registers carried them (SYSCALL_ARGS_MAX of them:
 * kernel/syscall/syscall.h, which this header does not include so that host tests need not
 * see uapi/syscall.h), each if enabled. Any context. sys_enter_NAME of an IPC operation
 * shows the registers after the operation (syscall.h: slots). */
void trace_syscall_enter(unsigned nr, const uint32_t *regs);

/* Records raw_syscalls:sys_exit and sys_exit_NAME for call nr (whose registers were regs)
 * with its result (a value or -errno), each if enabled. */
void trace_syscall_exit(unsigned nr, const uint32_t *regs, int32_t ret);

/* Registers the two events of every call in the system call table (trace_init). */
void trace_syscalls_init(void);

#endif
