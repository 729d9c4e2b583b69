/*
 * sched.h - running tasks in turn, and waiting.
 *
 * One CPU, round robin. User processes are preempted on the timer tick when they are about
 * to return to ring 3; kernel threads (the shell) run until they wait or call cond_resched()
 * in a long loop, which keeps kernel code free of preemption races without a preempt count.
 * Waiting is sleep_on(): the task
 * sleeps on a channel (any address) until wake_up() names it, a timeout passes, or the task
 * is killed.
 */
#ifndef KERNEL_PROC_SCHED_H
#define KERNEL_PROC_SCHED_H

#include <stdbool.h>
#include <stdint.h>

struct task;

/* Gives the CPU to the next runnable task; returns when this one is chosen again. Called
 * with interrupts off; returns with them off. */
void schedule(void);

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

/* sleep_on without a timeout that neither a signal nor a kill ends: only wake_up(chan)
 * (or a spurious wake: the caller tests its condition in a loop). For waits that must
 * finish before the task may act on a signal (a vfork parent). Returns 0. */
int sleep_on_uninterruptible(const void *chan);

/* Makes sleeping task t runnable; its sleep returns reason (an interruptible sleep first
 * checks for a kill or a pending signal: -EINTR). Interrupts off. */
void sched_wake_task(struct task *t, int reason);

/* Sleeps for ns nanoseconds: 0, or -EINTR when killed or a signal is to be taken. */
int sleep_ns(uint64_t ns);

/* Makes every task sleeping on chan runnable. Safe from interrupt handlers. */
void wake_up(const void *chan);

/* From the timer interrupt: wakes tasks whose timeout passed and, when others wait for the
 * CPU, asks the running task to give way (a user process at once on its way back to ring 3,
 * a kernel thread at its next cond_resched()). */
void sched_tick(void);

/* This CPU's part of the tick: when others wait for this CPU, asks its running task to give
 * way. sched_tick() calls it for the CPU the global tick arrives on; a CPU with a timer of
 * its own calls it from that timer's interrupt. */
void sched_cpu_tick(void);

/* The CPU time t has used, in nanoseconds, as ps shows it in TIME (Linux's utime + stime):
 * the time between its being switched to and away from, interrupts it took included. */
uint64_t task_cpu_time_ns(const struct task *t);

/* True when the running task should call schedule() at its next chance. */
bool sched_need_resched(void);

/* Called on the way back to ring 3 (after a system call or an interrupt from user mode),
 * with interrupts off: exits a killed process, switches when others should run. */
void sched_return_to_user(void);

#endif
