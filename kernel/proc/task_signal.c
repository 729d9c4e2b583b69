/*
 * task_signal.c - sending signals to processes: kill(2), tkill/tgkill, a process group
 * (the console's ^C), the timer's SIGALRM, with Linux's permission rule. What happens to
 * a signal once sent (pending, ignored, fatal) is signal.c's rule; its delivery on the
 * way back to ring 3 is arch/x86/signal_frame.c's.
 *
 * Every walk of the task list and every change of a task's signal state runs with
 * interrupts off: one CPU (a lock over the task list when SMP comes).
 */
#include "kernel/arch.h"
#include "kernel/lib/errno.h"
#include "kernel/proc/sched.h"
#include "kernel/proc/signal.h"
#include "kernel/proc/task_internal.h"
#include "kernel/trace_hooks.h"

/* The signal_generate record of sending sig to t, before it is posted: to the whole
 * process unless by tkill/tgkill (Linux's group), and what becomes of it (Linux's res=).
 * Called only while the event is on: working out the result costs nothing otherwise. */
static void trace_generate(const struct task *t, int sig, const struct sig_origin *o, bool fatal)
{
    const struct sigstate *s = &t->sig;
    int result = TRACE_SIGNAL_DELIVERED;
    if (!fatal && sig != SIGKILL && sigstate_ignores(s, sig))
        result = TRACE_SIGNAL_IGNORED;
    else if (!fatal && (s->pending & SIGSET_BIT(sig)))
        result = TRACE_SIGNAL_ALREADY_PENDING;
    trace_hook_signal_generate(sig, o->code, t, o->code != SI_TKILL, result);
}

void signal_send(struct task *t, int sig, const struct sig_origin *o)
{
    if (sig <= 0 || sig > NSIG_LINUX)
        return;
    unsigned long flags = arch_irq_save();
    if (t->as && t->state != TASK_ZOMBIE) {
        struct sigstate *s = &t->sig;
        enum sig_default d = sig_default_action(sig);
        bool fatal = sig == SIGKILL ||
                     (!(s->blocked & SIGSET_BIT(sig)) && s->action[sig - 1].handler == SIG_DFL &&
                      (d == SIG_DEFAULT_TERM || d == SIG_DEFAULT_CORE));
        if (trace_hook_signal_generate)
            trace_generate(t, sig, o, fatal);
        if (fatal)
            task_kill(t, sig, o->code, 0);
        else if (sigstate_post(s, sig, o) && t->state == TASK_SLEEPING)
            sched_wake_task(t, -EINTR);
        else
            sched_kick(t); /* running on another CPU: it takes the signal now, not at its
                            * next interrupt (Linux's kick_process) */
    }
    arch_irq_restore(flags);
}

int signal_send_pgrp(int pgid, int sig)
{
    struct sig_origin o = { SI_KERNEL, 0, 0, 0 };
    int found = 0;
    unsigned long flags = arch_irq_save();
    for (struct task *t = task_list(); t; t = t->next)
        if (t->as && t->pgid == pgid && t->state != TASK_ZOMBIE) {
            signal_send(t, sig, &o);
            found++;
        }
    arch_irq_restore(flags);
    return found ? 0 : -ESRCH;
}

/* Linux's kill_ok_by_cred: may the current task signal t? */
static bool may_signal(const struct task *t)
{
    const struct cred *me = &current->cred, *them = &t->cred;
    return cred_privileged(me) || me->euid == them->suid || me->euid == them->uid ||
           me->uid == them->suid || me->uid == them->uid;
}

/* Signals one task for kill(2) or tgkill(2): the permission check, then the signal
 * (nothing for sig 0, or for a kernel thread, which ignores signals as Linux's do). */
static int signal_one(struct task *t, int sig, int code)
{
    if (!may_signal(t))
        return -EPERM;
    struct sig_origin o = { code, (uint32_t)current->pid, current->cred.uid, 0 };
    signal_send(t, sig, &o);
    return 0;
}

int signal_kill(int pid, int sig)
{
    if (sig < 0 || sig > NSIG_LINUX)
        return -EINVAL;
    if (pid == (int)0x80000000)
        return -ESRCH; /* -INT_MIN has no meaning (Linux) */
    unsigned long flags = arch_irq_save();
    int err;
    if (pid > 0) {
        struct task *t = task_find(pid);
        err = t ? signal_one(t, sig, SI_USER) : -ESRCH;
    } else if (pid == -1) {
        /* Everyone but the shell and itself: Linux's rule counts a refusal (EPERM) as no
         * error, so the call fails only with ESRCH when there was nobody to try. */
        int tried = 0;
        err = 0;
        for (struct task *t = task_list(); t; t = t->next) {
            if (!t->as || t->state == TASK_ZOMBIE || t == current || t->pid <= 1)
                continue;
            int one = signal_one(t, sig, SI_USER);
            tried++;
            if (one != -EPERM)
                err = one;
        }
        if (!tried)
            err = -ESRCH;
    } else {
        /* A group: success if any member was signalled, else the last refusal, or ESRCH
         * when the group is empty. */
        int pgid = pid == 0 ? current->pgid : -pid, sent = 0;
        err = -ESRCH;
        for (struct task *t = task_list(); t; t = t->next) {
            if (!t->as || t->state == TASK_ZOMBIE || t->pgid != pgid)
                continue;
            int one = signal_one(t, sig, SI_USER);
            sent += one == 0;
            err = one;
        }
        if (sent)
            err = 0;
    }
    arch_irq_restore(flags);
    return err;
}

int signal_tgkill(int tgid, int tid, int sig)
{
    if (tid <= 0 || (tgid != -1 && tgid <= 0))
        return -EINVAL;
    if (sig < 0 || sig > NSIG_LINUX)
        return -EINVAL;
    unsigned long flags = arch_irq_save();
    struct task *t = task_find(tid);
    int err = t && (tgid == -1 || tgid == tid) ? signal_one(t, sig, SI_TKILL) : -ESRCH;
    arch_irq_restore(flags);
    return err;
}

void signal_alarm_expired(struct task *t, uint64_t now)
{
    sched_alarm_set(t, t->alarm_interval_ns ? now + t->alarm_interval_ns : 0);
    struct sig_origin o = { SI_KERNEL, 0, 0, 0 };
    signal_send(t, SIGALRM, &o);
}
