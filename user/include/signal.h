/*
 * signal.h - catching the signals a fault raises (SIGSEGV, SIGILL, SIGFPE, SIGTRAP, SIGBUS),
 * with Linux's i386 calls: sigaction, sigprocmask, sigaltstack. The kernel's structures are
 * in uapi/signal.h; siginfo_t and ucontext_t are those, under their POSIX names.
 */
#ifndef _SIGNAL_H
#define _SIGNAL_H

#include <sys/types.h>

#include "uapi/signal.h"

typedef kernel_sigset_t sigset_t;
typedef struct kernel_siginfo siginfo_t;
typedef struct kernel_stack stack_t;
typedef struct kernel_ucontext ucontext_t;

/* What a program passes to sigaction(): the handler (sa_handler, or sa_sigaction with
 * SA_SIGINFO), the signals blocked while it runs, SA_* flags. sa_restorer is filled by the
 * library (SA_RESTORER is always set: the handler returns through sigreturn). */
struct sigaction {
    union {
        void (*sa_handler)(int);
        void (*sa_sigaction)(int, siginfo_t *, void *);
    };
    sigset_t sa_mask;
    int sa_flags;
    void (*sa_restorer)(void);
};

/* Each returns 0, or -1 with errno (the kernel's EINVAL, EFAULT, EPERM, ENOMEM). */
int sigaction(int sig, const struct sigaction *act, struct sigaction *old);
int sigprocmask(int how, const sigset_t *set, sigset_t *old);
int sigaltstack(const stack_t *ss, stack_t *old);

/* Signals between processes (issue 16): kill(2) (pid > 0, 0: the group, -1: all, < -1:
 * group -pid), raise (to itself), sigsuspend (waits with mask; always -1, EINTR). */
int kill(pid_t pid, int sig);
int raise(int sig);
int sigsuspend(const sigset_t *mask);

int sigemptyset(sigset_t *set);
int sigfillset(sigset_t *set);
int sigaddset(sigset_t *set, int sig);
int sigdelset(sigset_t *set, int sig);
int sigismember(const sigset_t *set, int sig);

#endif
