/*
 * sys_process.c - the system calls of processes (issue 16): fork, vfork, clone, execve,
 * wait4/waitpid, getppid, gettid, kill, tkill, tgkill, process groups and sessions,
 * alarm and the ITIMER_REAL interval timer, pause, rt_sigsuspend, set_tid_address and
 * set_robust_list, with Linux's i386 arguments and errors. The work is done in
 * kernel/proc/ (fork.c, execve.c, wait.c, task_signal.c); set_thread_area and
 * get_thread_area are in arch/x86/tls.c.
 */
#include "kernel/arch.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/sched.h"
#include "kernel/proc/signal.h"
#include "kernel/proc/task_internal.h"
#include "kernel/syscall/syscall_handlers.h"
#include "kernel/time.h"
#include "kernel/trace_hooks.h"

#define SIGCHLD_FORK 17 /* fork and vfork tell the parent with SIGCHLD */
#define CLONE_VM 0x00000100u
#define CLONE_VFORK 0x00004000u

SYSCALL_HANDLER(fork)
{
    (void)a;
    return process_fork(SIGCHLD_FORK, 0, 0, 0);
}

SYSCALL_HANDLER(vfork)
{
    (void)a;
    return process_fork(CLONE_VM | CLONE_VFORK | SIGCHLD_FORK, 0, 0, 0);
}

/* clone(flags, newsp, parent_tidptr, tls, child_tidptr): i386's argument order. */
SYSCALL_HANDLER(clone) { return process_fork(a[0], a[1], a[2], a[4]); }

SYSCALL_HANDLER(execve) { return process_execve(a[0], a[1], a[2]); }

#define WNOHANG 0x1u
#define WUNTRACED 0x2u
#define WCONTINUED 0x8u
#define WNOTHREAD 0x20000000u
#define WALL 0x40000000u
#define WCLONE 0x80000000u

/* struct rusage on i386: two timevals, then 14 longs. */
struct rusage32 {
    int32_t utime_sec, utime_usec, stime_sec, stime_usec;
    int32_t rest[14];
};

/* wait4(pid, stat_addr, options, ru): the child is collected before its status is written,
 * so a bad stat_addr loses it with EFAULT, as on Linux. Every child counts, whatever its
 * exit signal (as __WALL); stopped children do not exist here. */
static int32_t do_wait4(int pid, uint32_t stat_addr, uint32_t options, uint32_t ru)
{
    if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | WNOTHREAD | WALL | WCLONE))
        return -EINVAL;
    if (pid == (int)0x80000000)
        return -ESRCH;
    int status = 0, child = 0;
    uint64_t cpu_ns = 0;
    int err = process_wait(pid, (int)options, &status, &child, &cpu_ns);
    if (err)
        return err;
    if (child && stat_addr && copy_to_user(stat_addr, &status, sizeof status))
        return -EFAULT;
    if (ru) {
        struct rusage32 r;
        memset(&r, 0, sizeof r);
        uint64_t us = cpu_ns / 1000u;
        r.utime_sec = (int32_t)(us / 1000000u), r.utime_usec = (int32_t)(us % 1000000u);
        if (copy_to_user(ru, &r, sizeof r))
            return -EFAULT;
    }
    return child;
}

SYSCALL_HANDLER(wait4) { return do_wait4((int)a[0], a[1], a[2], a[3]); }

SYSCALL_HANDLER(waitpid) { return do_wait4((int)a[0], a[1], a[2], 0); }

SYSCALL_HANDLER(getppid)
{
    (void)a;
    return current->parent ? current->parent->pid : 0;
}

SYSCALL_HANDLER(gettid)
{
    (void)a;
    return current->pid; /* one thread per process: its id is the pid */
}

SYSCALL_HANDLER(kill) { return signal_kill((int)a[0], (int)a[1]); }

SYSCALL_HANDLER(tkill) { return signal_tgkill(-1, (int)a[0], (int)a[1]); }

SYSCALL_HANDLER(tgkill) { return signal_tgkill((int)a[0], (int)a[1], (int)a[2]); }

/* A living user process by pid (0: the caller), or NULL. */
static struct task *process_by_pid(int pid)
{
    if (pid == 0)
        return current;
    struct task *t = pid > 0 ? task_find(pid) : 0;
    return t && t->as && t->state != TASK_ZOMBIE ? t : 0;
}

/* setpgid(pid, pgid), Linux's rules: the caller or one of its children (ESRCH), not a
 * session leader and in the caller's session (EPERM), into its own new group or a group
 * that exists in that session (EPERM); pgid < 0 is EINVAL. */
SYSCALL_HANDLER(setpgid)
{
    int pid = (int)a[0], pgid = (int)a[1];
    if (pgid < 0)
        return -EINVAL;
    unsigned long flags = arch_irq_save();
    struct task *t = process_by_pid(pid);
    int err = 0;
    if (!t || (t != current && t->parent != current))
        err = -ESRCH;
    else if (t->sid == t->pid || t->sid != current->sid)
        err = -EPERM;
    if (!err && pgid == 0)
        pgid = t->pid;
    if (!err && pgid != t->pid) {
        err = -EPERM;
        for (struct task *o = task_list(); o; o = o->next)
            if (o->as && o->state != TASK_ZOMBIE && o->pgid == pgid && o->sid == current->sid)
                err = 0;
    }
    if (!err)
        t->pgid = pgid;
    arch_irq_restore(flags);
    return err;
}

SYSCALL_HANDLER(getpgid)
{
    struct task *t = process_by_pid((int)a[0]);
    return t ? t->pgid : -ESRCH;
}

SYSCALL_HANDLER(getpgrp)
{
    (void)a;
    return current->pgid;
}

/* setsid: EPERM when the caller leads a process group (or its pid names one), else it
 * leads a new session and a new group, both its pid. */
SYSCALL_HANDLER(setsid)
{
    (void)a;
    unsigned long flags = arch_irq_save();
    int err = 0;
    for (struct task *t = task_list(); t; t = t->next)
        if (t->as && t->state != TASK_ZOMBIE && t->pgid == current->pid)
            err = -EPERM;
    if (!err)
        current->sid = current->pgid = current->pid;
    arch_irq_restore(flags);
    return err ? err : current->pid;
}

SYSCALL_HANDLER(getsid)
{
    struct task *t = process_by_pid((int)a[0]);
    return t ? t->sid : -ESRCH;
}

/* struct __kernel_old_itimerval: interval, then value, each a 32-bit timeval. */
struct itimerval32 {
    int32_t interval_sec, interval_usec, value_sec, value_usec;
};
#define ITIMER_REAL 0
#define NS_PER_US 1000u
#define NS_PER_S 1000000000ull

/* The ITIMER_REAL timer now: what is left and the interval, as an itimerval. */
static struct itimerval32 itimer_read(void)
{
    unsigned long flags = arch_irq_save();
    uint64_t at = task_alarm_at(current), interval = current->alarm_interval_ns, now = time_ns();
    arch_irq_restore(flags);
    uint64_t left = at > now ? at - now : at ? 1000 : 0; /* due: 1 us, as Linux shows it */
    struct itimerval32 v = {
        (int32_t)(interval / NS_PER_S), (int32_t)(interval % NS_PER_S / NS_PER_US),
        (int32_t)(left / NS_PER_S), (int32_t)((left % NS_PER_S + NS_PER_US - 1) / NS_PER_US),
    };
    if (v.value_usec == 1000000)
        v.value_sec++, v.value_usec = 0;
    return v;
}

/* Arms (value_ns > 0) or disarms the timer. */
static void itimer_set(uint64_t value_ns, uint64_t interval_ns)
{
    unsigned long flags = arch_irq_save();
    if (task_alarm_at(current))
        trace_hrtimer_cancel(&current->alarm);
    sched_alarm_set(current, value_ns ? time_ns() + value_ns : 0);
    current->alarm_interval_ns = value_ns ? interval_ns : 0;
    if (value_ns)
        trace_hrtimer_start(&current->alarm, (uintptr_t)signal_alarm_expired, current->alarm.at);
    arch_irq_restore(flags);
}

/* alarm(seconds): the seconds left of the previous alarm, rounded as Linux rounds them. */
SYSCALL_HANDLER(alarm)
{
    struct itimerval32 old = itimer_read();
    itimer_set((uint64_t)a[0] * NS_PER_S, 0);
    if ((old.value_sec == 0 && old.value_usec) || old.value_usec >= 500000)
        old.value_sec++;
    return old.value_sec;
}

SYSCALL_HANDLER(getitimer)
{
    if (a[0] != ITIMER_REAL)
        return -EINVAL; /* ITIMER_VIRTUAL and ITIMER_PROF are not kept here */
    struct itimerval32 v = itimer_read();
    return copy_to_user(a[1], &v, sizeof v) ? -EFAULT : 0;
}

/* setitimer(which, value, ovalue): a NULL value disarms, as Linux 6.1 takes it. */
SYSCALL_HANDLER(setitimer)
{
    struct itimerval32 v = { 0, 0, 0, 0 };
    if (a[1] && copy_from_user(&v, a[1], sizeof v))
        return -EFAULT;
    if (a[0] != ITIMER_REAL)
        return -EINVAL;
    if (v.value_sec < 0 || v.value_usec < 0 || v.value_usec >= 1000000 || v.interval_sec < 0 ||
        v.interval_usec < 0 || v.interval_usec >= 1000000)
        return -EINVAL;
    struct itimerval32 old = itimer_read();
    itimer_set((uint64_t)v.value_sec * NS_PER_S + (uint64_t)v.value_usec * NS_PER_US,
               (uint64_t)v.interval_sec * NS_PER_S + (uint64_t)v.interval_usec * NS_PER_US);
    if (a[2] && copy_to_user(a[2], &old, sizeof old))
        return -EFAULT;
    return 0;
}

/* Sleeps until a signal is to be taken (or the task is killed): always -EINTR. */
static int32_t wait_for_signal(void)
{
    unsigned long flags = arch_irq_save();
    while (sleep_on(&current->sig, 0) == 0)
        ;
    arch_irq_restore(flags);
    return -EINTR;
}

SYSCALL_HANDLER(pause)
{
    (void)a;
    return wait_for_signal();
}

/* rt_sigsuspend(mask, sigsetsize): waits with mask blocked; the handler's frame restores
 * the mask from before (signal_deliver). */
SYSCALL_HANDLER(rt_sigsuspend)
{
    if (a[1] != sizeof(kernel_sigset_t))
        return -EINVAL;
    kernel_sigset_t mask;
    if (copy_from_user(&mask, a[0], sizeof mask))
        return -EFAULT;
    struct sigstate *s = &current->sig;
    s->saved_mask = s->blocked;
    s->restore_mask = true;
    sigstate_change_mask(s, SIG_SETMASK, mask);
    return wait_for_signal();
}

SYSCALL_HANDLER(set_tid_address)
{
    current->clear_child_tid = a[0];
    return current->pid;
}

#define ROBUST_LIST_HEAD_SIZE 12 /* struct robust_list_head on i386 */

/* set_robust_list(head, len): kept (nothing walks it: there are no futexes or threads). */
SYSCALL_HANDLER(set_robust_list)
{
    if (a[1] != ROBUST_LIST_HEAD_SIZE)
        return -EINVAL;
    current->robust_list = a[0];
    current->robust_list_len = a[1];
    return 0;
}
