/*
 * process.c - processes and signals between them: fork, vfork, execve, waitpid/wait4,
 * kill, alarm, pause, sigsuspend, process groups and sessions, the interval timer, with
 * Linux's i386 calls (issue 16). Each returns what the kernel returned, or -1 with errno.
 */
#include <errno.h>
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libc_internal.h"

#define SYS(nr, a1, a2, a3, a4, a5)                                                        \
    syscall_result(syscall_raw((nr), (long)(a1), (long)(a2), (long)(a3), (long)(a4),       \
                               (long)(a5), 0))

/* What printf() holds is written first, so that the child does not write it a second
 * time (glibc leaves this to the program; here it costs nothing and avoids surprises). */
pid_t fork(void)
{
    stdout_flush();
    return (pid_t)SYS(SYS_fork, 0, 0, 0, 0, 0);
}

/*
 * vfork: the child runs on this very stack until it execs or exits, so the wrapper must
 * not keep anything on it across the call: the return address is popped into ECX (which
 * the system call preserves) and jumped to, as glibc's i386 vfork does. errno is set by
 * a C helper only on failure, in the parent.
 */
__asm__(".text\n"
        ".globl vfork\n"
        ".type vfork, @function\n"
        "vfork:\n\t"
        "popl %ecx\n\t"
        "movl $" "190" ", %eax\n\t"
        "int $0x80\n\t"
        "pushl %ecx\n\t"
        "cmpl $-4095, %eax\n\t"
        "jae 1f\n\t"
        "ret\n"
        "1:\n\t"
        "pushl %eax\n\t"
        "call syscall_result\n\t"
        "addl $4, %esp\n\t"
        "ret\n"
        ".size vfork, .-vfork\n");
_Static_assert(SYS_vfork == 190, "vfork's number is written in the asm above");

int execve(const char *path, char *const argv[], char *const envp[])
{
    return SYS(SYS_execve, path, argv, envp, 0, 0);
}

int execv(const char *path, char *const argv[]) { return execve(path, argv, environ); }

pid_t wait4(pid_t pid, int *status, int options, void *rusage)
{
    return (pid_t)SYS(SYS_wait4, pid, status, options, rusage, 0);
}

pid_t waitpid(pid_t pid, int *status, int options) { return wait4(pid, status, options, 0); }

pid_t wait(int *status) { return wait4(-1, status, 0, 0); }

pid_t getppid(void) { return (pid_t)SYS(SYS_getppid, 0, 0, 0, 0, 0); }
pid_t gettid(void) { return (pid_t)SYS(SYS_gettid, 0, 0, 0, 0, 0); }
int setpgid(pid_t pid, pid_t pgid) { return SYS(SYS_setpgid, pid, pgid, 0, 0, 0); }
pid_t getpgid(pid_t pid) { return (pid_t)SYS(SYS_getpgid, pid, 0, 0, 0, 0); }
pid_t getpgrp(void) { return (pid_t)SYS(SYS_getpgrp, 0, 0, 0, 0, 0); }
pid_t setsid(void) { return (pid_t)SYS(SYS_setsid, 0, 0, 0, 0, 0); }
pid_t getsid(pid_t pid) { return (pid_t)SYS(SYS_getsid, pid, 0, 0, 0, 0); }

int kill(pid_t pid, int sig) { return SYS(SYS_kill, pid, sig, 0, 0, 0); }
int raise(int sig) { return SYS(SYS_tgkill, getpid(), gettid(), sig, 0, 0); }

unsigned int alarm(unsigned int seconds) { return (unsigned int)SYS(SYS_alarm, seconds, 0, 0, 0, 0); }
int pause(void) { return SYS(SYS_pause, 0, 0, 0, 0, 0); }

int sigsuspend(const sigset_t *mask)
{
    return SYS(SYS_rt_sigsuspend, mask, sizeof(sigset_t), 0, 0, 0);
}

int setitimer(int which, const struct itimerval *value, struct itimerval *old)
{
    return SYS(SYS_setitimer, which, value, old, 0, 0);
}

int getitimer(int which, struct itimerval *value) { return SYS(SYS_getitimer, which, value, 0, 0, 0); }
