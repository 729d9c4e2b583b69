/*
 * syscalls.h - the handlers of the system call table (kernel/syscall.c), one file per
 * group: sys_file.c (files), sys_mem.c (memory), sys_proc.c (the process itself),
 * sys_ipc.c (message passing).
 * Each takes the six argument registers and returns the result or -errno.
 */
#ifndef KERNEL_SYSCALLS_H
#define KERNEL_SYSCALLS_H

#include <stdint.h>

#define SYSCALL_HANDLER(name) int32_t sys_##name(const uint32_t a[6])

SYSCALL_HANDLER(exit);
SYSCALL_HANDLER(read);
SYSCALL_HANDLER(write);
SYSCALL_HANDLER(open);
SYSCALL_HANDLER(close);
SYSCALL_HANDLER(getpid);
SYSCALL_HANDLER(ioctl);
SYSCALL_HANDLER(munmap);
SYSCALL_HANDLER(writev);
SYSCALL_HANDLER(sched_yield);
SYSCALL_HANDLER(nanosleep_time32);
SYSCALL_HANDLER(mmap_pgoff);
SYSCALL_HANDLER(clock_gettime32);
SYSCALL_HANDLER(ipc_create);
SYSCALL_HANDLER(ipc_send);
SYSCALL_HANDLER(ipc_recv);
SYSCALL_HANDLER(ipc_call);
SYSCALL_HANDLER(ipc_reply);
SYSCALL_HANDLER(rt_sigaction); /* sys_signal.c */
SYSCALL_HANDLER(rt_sigprocmask);
SYSCALL_HANDLER(sigaltstack);
SYSCALL_HANDLER(rt_sigreturn); /* arch/x86/signal_frame.c */
SYSCALL_HANDLER(sigreturn);

#endif
