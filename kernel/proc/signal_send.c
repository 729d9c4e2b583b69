/*
 * signal_send.c - a signal sent to a process takes its action at once (signal_send.h).
 */
#include "kernel/proc/signal_send.h"

#include "kernel/arch.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/proc/task_internal.h"

/* Linux's names of the signals whose default action ends a process without a core dump,
 * and of those that dump core; others (SIGCHLD, SIGURG, SIGWINCH, SIGCONT) are ignored by
 * default and SIGSTOP's family stops, which processes here cannot. */
static const char *default_kill_name(int sig)
{
    switch (sig) {
    case SIGHUP: return "SIGHUP";
    case SIGINT: return "SIGINT";
    case SIGQUIT: return "SIGQUIT";
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGKILL: return "SIGKILL";
    case SIGUSR1: return "SIGUSR1";
    case SIGSEGV: return "SIGSEGV";
    case SIGUSR2: return "SIGUSR2";
    case SIGPIPE: return "SIGPIPE";
    case SIGALRM: return "SIGALRM";
    case SIGTERM: return "SIGTERM";
    default: return 0;
    }
}

int signal_send_task(struct task *t, int sig)
{
    if (sig < 1 || sig > NSIG_LINUX)
        return -EINVAL;
    if (!t->as)
        return 0; /* kernel threads take no signals */
    const struct kernel_sigaction *act = &t->sig.action[sig - 1];
    bool blocked = t->sig.blocked & SIGSET_BIT(sig);
    if (sig != SIGKILL && (blocked || act->handler != SIG_DFL))
        return 0; /* ignored, or left undelivered (see signal_send.h) */
    const char *name = default_kill_name(sig);
    if (!name)
        return 0;
    char reason[32];
    ksnprintf(reason, sizeof reason, "killed by %s", name);
    task_kill(t, 128 + sig, reason);
    return 0;
}

int signal_send_pgrp(int pgid, int sig)
{
    if (sig < 1 || sig > NSIG_LINUX)
        return -EINVAL;
    /* Until process groups exist, each process is the one member of its own group, whose
     * id is its pid (as a shell's job of one command is). The list is walked with
     * interrupts off: one CPU. */
    unsigned long flags = arch_irq_save();
    struct task *t = pgid > 0 ? task_find(pgid) : 0;
    bool found = t && t->as && t->state != TASK_ZOMBIE;
    arch_irq_restore(flags);
    if (!found)
        return -ESRCH;
    return signal_send_task(t, sig);
}
