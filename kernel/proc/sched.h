/*
 * sched.h - running tasks in turn, and waiting.
 *
 * Round robin on each CPU's own run queue, tasks spread over the CPUs and moved between
 * them to keep the load even. User processes are preempted on the timer tick when they are about
 * to return to ring 3; kernel threads (the shell) run until they wait or call cond_resched()
 * in a long loop, which keeps kernel code free of preemption races without a preempt count.
 * Waiting is sleep_on(): the task
 * sleeps on a channel (any address) until wake_up() names it, a timeout passes, or the task
 * is killed. Sleepers are hashed by channel and timeouts kept in order of deadline, so a
 * wake-up and the tick touch only the sleepers they end (docs/scaling.md, section 5).
 */
#ifndef KERNEL_PROC_SCHED_H
#define KERNEL_PROC_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/arch.h" /* arch_cpu_id */

struct task;

/* Gives the CPU to the next runnable task; returns when this one is chosen again. Called
 * with interrupts off; returns with them off. */
void schedule(void);

/* sched_can_switch_to(t) (inline in kernel/proc/task_internal.h, which has the fields it
 * reads): true when t sleeps, last ran on this CPU and may run on it: then it is on no run
 * queue and no CPU, and sched_sleep_and_switch_to may run it here. Kernel lock held. */

/*
 * A direct switch, for IPC's fast path (kernel/ipc/ipc_fast.c), as seL4's: the current task
 * goes to sleep on chan (as sleep_on_direct(chan, 0), which the caller has checked it may: not
 * killed, no signal to take) and this CPU runs next at once, a task sched_can_switch_to
 * allowed, woken without a trip through the run queue (traced as sched_wakeup and
 * sched_switch all the same). Returns when the current task is woken and runs again; it
 * sees why in its wait. Kernel lock held, interrupts off.
 */
void sched_sleep_and_switch_to(const void *chan, struct task *next);

/* Lets other runnable tasks run first (sched_yield). */
void sched_yield(void);

/* Yields if the tick or a wakeup asked for it, as Linux's cond_resched(): the preemption
 * point of a long loop in a kernel thread (kernel threads are not preempted otherwise).
 * Only where the loop holds no lock and interrupts are on. */
void cond_resched(void);

/*
 * Sleeps on chan. Call it with interrupts off, after testing the condition waited for (so
 * a wake_up between the test and the sleep cannot be missed); returns with them off.
 * timeout_ns 0 means no timeout. Returns 0 when woken, -ETIMEDOUT after the timeout, and
 * -EINTR when the task has been killed or a signal it takes (not blocked, not ignored) is
 * pending (at once, if so before).
 */
int sleep_on(const void *chan, uint64_t timeout_ns);

/* sleep_on for a wait whose waker knows the sleeping task (an IPC wait names its task): the
 * task is not put in the wait table, so wake_up(chan) does not find it and the sleep costs
 * no table bookkeeping; sched_wake_sleeper(t, chan) ends it. Returns as sleep_on. */
int sleep_on_direct(const void *chan, uint64_t timeout_ns);

/* Ends t's sleep if t sleeps on chan (either kind of sleep), its sleep returning 0; else
 * does nothing. Safe from interrupt handlers. */
void sched_wake_sleeper(struct task *t, const void *chan);

/* sleep_on without a timeout that neither a signal nor a kill ends: only wake_up(chan)
 * (or a spurious wake: the caller tests its condition in a loop). For waits that must
 * finish before the task may act on a signal (a vfork parent). Returns 0. */
int sleep_on_uninterruptible(const void *chan);

/* Makes sleeping task t runnable; its sleep returns reason (an interruptible sleep first
 * checks for a kill or a pending signal: -EINTR). Interrupts off. */
void sched_wake_task(struct task *t, int reason);

/* Sleeps for ns nanoseconds: 0, or -EINTR when killed or a signal is to be taken. */
int sleep_ns(uint64_t ns);

/* When t runs on another CPU, interrupts that CPU, so that t passes through the kernel on
 * its way back to ring 3 and finds what was just posted for it (a signal, a kill), as
 * Linux's kick_process. */
void sched_kick(struct task *t);

/* Makes every task sleeping on chan runnable, in the order they went to sleep; looks only
 * at the sleepers that share chan's bucket of the wait table (0 names no sleeper: a sleep
 * on channel 0 ends by its timeout or a signal). Safe from interrupt handlers. */
void wake_up(const void *chan);

/* t's ITIMER_REAL timer fires at at_ns (time_ns's clock), or never for 0: the tick sends
 * the signal (signal_alarm_expired) once it is due. task_alarm_at reads it. */
void sched_alarm_set(struct task *t, uint64_t at_ns);

/* task_alloc's reservation of a new task's place among the sleepers and timers, so that
 * its sleeps never find them full: 0, or -ENOMEM. sched_task_release gives it back when
 * the task structure is freed. */
int sched_task_reserve(void);
void sched_task_release(void);

/* From the global timer interrupt (the PIT, CPU 0), with the kernel lock held: wakes tasks
 * whose timeout passed and sends the alarms that are due (looking at the earliest of each
 * only), samples the load average from the run queues' counts and balances the queues. */
void sched_tick(void);

/* This CPU's part of the tick: when others wait for this CPU, asks its running task to give
 * way. Each CPU's local timer interrupt calls it (arch_local_timer_running); without local
 * timers, sched_tick() does the same for every CPU. Needs no lock. */
void sched_cpu_tick(void);

/* The CPU time t has used, in nanoseconds, as ps shows it in TIME (Linux's utime + stime):
 * the time between its being switched to and away from, interrupts it took included. */
uint64_t task_cpu_time_ns(const struct task *t);

/* Each CPU's request that its running task call schedule() at its next chance (set and
 * cleared by sched.c), on a cache line of its own. Read through sched_need_resched. */
struct sched_resched_flag {
    volatile bool set;
} __attribute__((aligned(64)));
extern struct sched_resched_flag sched_resched_flags[];

/* True when the running task should call schedule() at its next chance. Inline: every
 * return to ring 3 asks. */
static inline bool sched_need_resched(void) { return sched_resched_flags[arch_cpu_id()].set; }

/* Called on the way back to ring 3 (after a system call or an interrupt from user mode),
 * with interrupts off: exits a killed process, switches when others should run. */
void sched_return_to_user(void);

/* Hands a new task (on the task list already) to the scheduler: it is queued on the CPU
 * it should start on (traced as sched_wakeup_new). */
void sched_start_task(struct task *t);

/* Makes idle the idle task of cpu: what it runs when its queue is empty. */
void sched_set_idle(unsigned cpu, struct task *idle);
/* True for every CPU's idle task (pid 0). */
bool sched_is_idle_task(const struct task *t);

/* An idle task's step: when its CPU has tasks waiting (or was asked to reschedule), takes
 * the kernel lock and runs them until nothing is left, then gives the lock back. Called
 * with interrupts off; returns with them off. */
void sched_idle_step(void);

/* Limits t to the CPUs in mask (bit n: CPU n); CPUs that are not online are ignored.
 * -EINVAL when that leaves none. t leaves a CPU no longer in its mask before it runs
 * there again (a running t at its next return to ring 3). */
int sched_setaffinity(struct task *t, uint32_t mask);
/* The online CPUs t may run on. */
uint32_t sched_getaffinity(const struct task *t);

#endif
