/*
 * syscall_handlers.h - the handlers of the system call table (kernel/syscall/syscall.h), one file
 * per group: sys_file.c (files), sys_mem.c (memory), sys_proc.c (the process itself),
 * sys_ipc.c (message passing), sys_cred.c (user and group ids), sys_signal.c (signals),
 * sys_time.c (clocks), sys_info.c (uname, sysinfo, limits, random numbers, CPUs).
 * Each takes the argument registers (SYSCALL_ARGS_MAX of them) and returns the result or
 * -errno.
 */
#ifndef KERNEL_SYSCALL_SYSCALL_HANDLERS_H
#define KERNEL_SYSCALL_SYSCALL_HANDLERS_H

#include <stdint.h>

#include "kernel/syscall/syscall.h"

#define SYSCALL_HANDLER(name) int32_t sys_##name(const uint32_t a[SYSCALL_ARGS_MAX])

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
SYSCALL_HANDLER(ipc_call_regs);       /* arch/x86/ipc_regs.c */
SYSCALL_HANDLER(ipc_reply_recv_regs);
/* sys_cred.c */
SYSCALL_HANDLER(getuid16);
SYSCALL_HANDLER(geteuid16);
SYSCALL_HANDLER(getgid16);
SYSCALL_HANDLER(getegid16);
SYSCALL_HANDLER(setuid16);
SYSCALL_HANDLER(setgid16);
SYSCALL_HANDLER(setreuid16);
SYSCALL_HANDLER(setregid16);
SYSCALL_HANDLER(setresuid16);
SYSCALL_HANDLER(setresgid16);
SYSCALL_HANDLER(getresuid16);
SYSCALL_HANDLER(getresgid16);
SYSCALL_HANDLER(getuid);
SYSCALL_HANDLER(geteuid);
SYSCALL_HANDLER(getgid);
SYSCALL_HANDLER(getegid);
SYSCALL_HANDLER(setuid);
SYSCALL_HANDLER(setgid);
SYSCALL_HANDLER(setreuid);
SYSCALL_HANDLER(setregid);
SYSCALL_HANDLER(setresuid);
SYSCALL_HANDLER(setresgid);
SYSCALL_HANDLER(getresuid);
SYSCALL_HANDLER(getresgid);
SYSCALL_HANDLER(rt_sigaction); /* sys_signal.c */
SYSCALL_HANDLER(rt_sigprocmask);
SYSCALL_HANDLER(sigaltstack);
SYSCALL_HANDLER(rt_sigreturn); /* arch/x86/signal_frame.c */
SYSCALL_HANDLER(sigreturn);
/* Memory: the process layout and its calls (issue 16): sys_mem.c */
SYSCALL_HANDLER(brk);
SYSCALL_HANDLER(old_mmap);
SYSCALL_HANDLER(mprotect);
SYSCALL_HANDLER(mremap);
SYSCALL_HANDLER(madvise);
SYSCALL_HANDLER(mlock);
SYSCALL_HANDLER(munlock);
SYSCALL_HANDLER(mlockall);
SYSCALL_HANDLER(munlockall);
SYSCALL_HANDLER(mlock2);
SYSCALL_HANDLER(ioperm);
SYSCALL_HANDLER(iopl);
/* Static glibc programs (issue 16, tests/linux/glibc_abi.c): sys_file.c */
SYSCALL_HANDLER(ia32_pread64);
SYSCALL_HANDLER(ia32_pwrite64);
/* Files and the terminal (issue 16): sys_file.c, sys_fd.c, sys_stat.c, sys_poll.c. */
SYSCALL_HANDLER(chdir);
SYSCALL_HANDLER(lseek);
SYSCALL_HANDLER(access);
SYSCALL_HANDLER(dup);
SYSCALL_HANDLER(pipe);
SYSCALL_HANDLER(fcntl);
SYSCALL_HANDLER(umask);
SYSCALL_HANDLER(dup2);
SYSCALL_HANDLER(old_select);
SYSCALL_HANDLER(readlink);
SYSCALL_HANDLER(newstat);
SYSCALL_HANDLER(newlstat);
SYSCALL_HANDLER(newfstat);
SYSCALL_HANDLER(fchdir);
SYSCALL_HANDLER(llseek);
SYSCALL_HANDLER(getdents);
SYSCALL_HANDLER(select);
SYSCALL_HANDLER(poll);
SYSCALL_HANDLER(getcwd);
SYSCALL_HANDLER(stat64);
SYSCALL_HANDLER(lstat64);
SYSCALL_HANDLER(fstat64);
SYSCALL_HANDLER(getdents64);
SYSCALL_HANDLER(fcntl64);
SYSCALL_HANDLER(openat);
SYSCALL_HANDLER(fstatat64);
SYSCALL_HANDLER(readlinkat);
SYSCALL_HANDLER(faccessat);
SYSCALL_HANDLER(pselect6_time32);
SYSCALL_HANDLER(ppoll_time32);
SYSCALL_HANDLER(dup3);
SYSCALL_HANDLER(pipe2);
SYSCALL_HANDLER(statx);
SYSCALL_HANDLER(pselect6);
SYSCALL_HANDLER(ppoll);
SYSCALL_HANDLER(close_range);
SYSCALL_HANDLER(faccessat2);
/* Processes (issue 16): sys_process.c, set/get_thread_area in arch/x86/tls.c */
SYSCALL_HANDLER(fork);
SYSCALL_HANDLER(vfork);
SYSCALL_HANDLER(clone);
SYSCALL_HANDLER(execve);
SYSCALL_HANDLER(waitpid);
SYSCALL_HANDLER(wait4);
SYSCALL_HANDLER(getppid);
SYSCALL_HANDLER(gettid);
SYSCALL_HANDLER(kill);
SYSCALL_HANDLER(tkill);
SYSCALL_HANDLER(tgkill);
SYSCALL_HANDLER(setpgid);
SYSCALL_HANDLER(getpgid);
SYSCALL_HANDLER(getpgrp);
SYSCALL_HANDLER(setsid);
SYSCALL_HANDLER(getsid);
SYSCALL_HANDLER(alarm);
SYSCALL_HANDLER(setitimer);
SYSCALL_HANDLER(getitimer);
SYSCALL_HANDLER(pause);
SYSCALL_HANDLER(rt_sigsuspend);
SYSCALL_HANDLER(set_tid_address);
SYSCALL_HANDLER(set_robust_list);
SYSCALL_HANDLER(set_thread_area);
SYSCALL_HANDLER(get_thread_area);
/* Time, system information, limits and random numbers (issue 16): sys_time.c, sys_info.c */
SYSCALL_HANDLER(time32);
SYSCALL_HANDLER(gettimeofday);
SYSCALL_HANDLER(clock_gettime);
SYSCALL_HANDLER(clock_getres_time32);
SYSCALL_HANDLER(clock_getres);
SYSCALL_HANDLER(clock_nanosleep_time32);
SYSCALL_HANDLER(clock_nanosleep);
SYSCALL_HANDLER(newuname);
SYSCALL_HANDLER(uname);
SYSCALL_HANDLER(olduname);
SYSCALL_HANDLER(sysinfo);
SYSCALL_HANDLER(old_getrlimit);
SYSCALL_HANDLER(getrlimit);
SYSCALL_HANDLER(setrlimit);
SYSCALL_HANDLER(prlimit64);
SYSCALL_HANDLER(getrandom);
SYSCALL_HANDLER(sched_getaffinity);
SYSCALL_HANDLER(sched_setaffinity);
SYSCALL_HANDLER(getcpu);
SYSCALL_HANDLER(sched_getscheduler);
SYSCALL_HANDLER(sched_getparam);
SYSCALL_HANDLER(sched_get_priority_max);
SYSCALL_HANDLER(sched_get_priority_min);
SYSCALL_HANDLER(personality);
/* The time of clock (a CLOCK_* id) in ns into *ns: 0, or -EINVAL for an unknown clock
 * (sys_time.c; clock_gettime32 in sys_proc.c uses it too). */
int clock_now_ns(uint32_t clock, uint64_t *ns);
/* busybox (issue 16): supplementary groups, sys_cred.c */
SYSCALL_HANDLER(getgroups);
SYSCALL_HANDLER(setgroups);
SYSCALL_HANDLER(getgroups16);
SYSCALL_HANDLER(setgroups16);
/* busybox (issue 16): the kernel log, sys_syslog.c */
SYSCALL_HANDLER(syslog);
/* busybox (issue 16): which file system, sys_statfs.c */
SYSCALL_HANDLER(statfs);
SYSCALL_HANDLER(fstatfs);
SYSCALL_HANDLER(statfs64);
SYSCALL_HANDLER(fstatfs64);

/* issue 18, trace instances: sys_dir.c */
SYSCALL_HANDLER(mkdir);
SYSCALL_HANDLER(rmdir);

#endif
