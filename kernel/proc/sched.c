/*
 * sched.c - choosing the next task, sleeping and waking.
 *
 * Round robin over the task list. Every field the scheduler reads (state, wait_chan,
 * wake_at_ns) is changed only with interrupts off, which on one CPU is the whole locking.
 */
#include "kernel/proc/sched.h"

#include "kernel/arch.h"
#include "kernel/lib/errno.h"
#include "kernel/proc/task_internal.h"
#include "kernel/proc/task.h" /* current_pid */
#include "kernel/loadavg.h"
#include "kernel/time.h"
#include "kernel/proc/signal.h"
#include "kernel/trace_hooks.h"

struct task *cpu_current[MAX_CPUS];  /* current: each CPU's running task */
int32_t cpu_current_pid[MAX_CPUS];   /* current_pid: what trace events record (trace.h) */
static volatile bool need_resched;
static struct task *switched_from; /* the task that ran before the one resuming now */
static uint64_t current_since_ns;  /* when current was switched to; per CPU once SMP exists */
static void (*switch_hook)(struct task *prev, struct task *next); /* task_on_switch's */

int task_on_switch(void (*fn)(struct task *prev, struct task *next))
{
    if (switch_hook && switch_hook != fn)
        return -EBUSY;
    switch_hook = fn;
    return 0;
}

bool sched_need_resched(void) { return need_resched; }

/* The next runnable task after prev in list order (wrapping round), prev itself if it alone
 * can run, or the idle task when nothing can. */
static struct task *pick_next(struct task *prev)
{
    /* ONE CPU scheduler: tasks run on CPU 0 only. Another CPU runs its own idle task and
     * nothing else (smp_run_on work included): it keeps running what it runs. (Its call
     * cleared need_resched, CPU 0's request: the next tick raises it again while tasks
     * wait.) Checked here, not at schedule's top, where GCC would split it off into every
     * caller. */
    if (arch_cpu_id() != 0)
        return prev;
    struct task *start = prev->next ? prev->next : task_list();
    struct task *t = start;
    do {
        if (t->state == TASK_RUNNABLE && t != idle_task)
            return t;
        t = t->next ? t->next : task_list();
    } while (t != start);
    return idle_task;
}

/* Charges prev with the time since it was switched to, now that it is switched away. */
static void account_cpu_time(struct task *prev)
{
    uint64_t now = time_ns();
    prev->cpu_ns += now - current_since_ns;
    current_since_ns = now;
}

uint64_t task_cpu_time_ns(const struct task *t)
{
    unsigned long flags = arch_irq_save(); /* current and current_since_ns change together */
    uint64_t ns = t->cpu_ns + (t == current ? time_ns() - current_since_ns : 0);
    arch_irq_restore(flags);
    return ns;
}

void schedule(void)
{
    need_resched = false;
    struct task *prev = current;
    struct task *next = pick_next(prev);
    if (next == prev)
        return;
    account_cpu_time(prev);
    trace_sched_switch(prev, next); /* while current_pid is still prev's, as on Linux */
    switched_from = prev;
    current = next;
    current_pid = next->pid;
    if (switch_hook)
        switch_hook(prev, next);
    arch_switch_to(prev, next);
    /* prev runs again here, switched to by some other task. */
    task_finish_switch(switched_from);
}

/* A new task's first code after the switch to it (arch layer calls it). */
void sched_first_run(void) { task_finish_switch(switched_from); }

void sched_yield(void)
{
    unsigned long flags = arch_irq_save();
    schedule();
    arch_irq_restore(flags);
}

void cond_resched(void)
{
    if (need_resched)
        sched_yield();
}

/* True when a sleep of the current task must end with EINTR: it was killed, or a signal
 * it takes (not blocked, not ignored) is pending. */
static bool interrupted(void)
{
    return current->killed || sigstate_deliverable(&current->sig);
}

/* The sleep behind both forms: interruptible ends at once (or when woken) on interrupted(). */
static int sleep_until_woken(const void *chan, uint64_t timeout_ns, bool interruptible)
{
    if (interruptible && interrupted())
        return -EINTR;
    current->state = TASK_SLEEPING;
    current->wait_chan = chan;
    current->wake_at_ns = timeout_ns ? time_ns() + timeout_ns : 0;
    current->wake_reason = 0;
    if (timeout_ns)
        trace_hrtimer_start(&current->wake_at_ns, (uintptr_t)sched_wake_task, current->wake_at_ns);
    schedule();
    if (timeout_ns && current->wake_reason != -ETIMEDOUT)
        trace_hrtimer_cancel(&current->wake_at_ns); /* woken before its deadline */
    current->wait_chan = 0;
    if (interruptible && interrupted())
        return -EINTR;
    return current->wake_reason == -EINTR ? 0 : current->wake_reason;
}

int sleep_on(const void *chan, uint64_t timeout_ns)
{
    return sleep_until_woken(chan, timeout_ns, true);
}

int sleep_on_uninterruptible(const void *chan)
{
    return sleep_until_woken(chan, 0, false);
}

int sleep_ns(uint64_t ns)
{
    unsigned long flags = arch_irq_save();
    int err = ns ? sleep_on(0, ns) : 0;
    arch_irq_restore(flags);
    return err == -ETIMEDOUT ? 0 : err;
}

/* Makes a sleeping task runnable, with the result its sleep_on() returns. */
void sched_wake_task(struct task *t, int reason)
{
    trace_sched_wakeup(t);
    t->state = TASK_RUNNABLE;
    t->wake_reason = reason;
    need_resched = true;
}

void wake_up(const void *chan)
{
    unsigned long flags = arch_irq_save();
    for (struct task *t = task_list(); t; t = t->next)
        if (t->state == TASK_SLEEPING && t->wait_chan == chan)
            sched_wake_task(t, 0);
    arch_irq_restore(flags);
}

void sched_tick(void)
{
    if (!current)
        return; /* before tasks_init */
    uint64_t now = time_ns();
    unsigned active = 0; /* for the load average (issue 16) */
    for (struct task *t = task_list(); t; t = t->next) {
        if (t->state == TASK_SLEEPING && t->wake_at_ns && now >= t->wake_at_ns) {
            trace_hrtimer_expire_entry(&t->wake_at_ns, (uintptr_t)sched_wake_task);
            sched_wake_task(t, -ETIMEDOUT);
            trace_hrtimer_expire_exit(&t->wake_at_ns);
        }
        if (t->alarm_at_ns && now >= t->alarm_at_ns) {
            trace_hrtimer_expire_entry(&t->alarm_at_ns, (uintptr_t)signal_alarm_expired);
            signal_alarm_expired(t, now);
            trace_hrtimer_expire_exit(&t->alarm_at_ns);
        }
        active += t != idle_task && t->state == TASK_RUNNABLE;
    }
    loadavg_sample(active, now);
    sched_cpu_tick();
}

void sched_cpu_tick(void)
{
    if (!current)
        return; /* before tasks_init */
    /* A time slice is one tick. Kernel threads are never preempted: they see the request at
     * their next cond_resched() or wait. */
    for (struct task *t = task_list(); t; t = t->next)
        if (t != current && t != idle_task && t->state == TASK_RUNNABLE) {
            need_resched = true;
            return;
        }
}

void sched_return_to_user(void)
{
    for (;;) {
        if (current->killed) {
            arch_irq_enable();
            int sig = current->kill_signal;
            /* It takes the fatal signal now, with its default action, as Linux's
             * get_signal records it before the process exits. */
            trace_signal_deliver(sig, current->kill_code, 0, 0);
            task_exit_signal(sig, sig_default_action(sig) == SIG_DEFAULT_CORE);
        }
        if (!need_resched)
            return;
        schedule();
    }
}
