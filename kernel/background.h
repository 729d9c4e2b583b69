/*
 * background.h - work that runs when the kernel has a moment: a slice of every timer tick,
 * bounded in time, and whenever the CPU would otherwise halt waiting for input. The COM2
 * trace stream is such work: a background consumer, as `cat trace_pipe > file &` is on
 * Linux, in a kernel whose threads are not preempted.
 *
 * The tick's slice is bounded the way Linux bounds softirq processing at the end of an
 * interrupt (MAX_SOFTIRQ_TIME, 2 ms): by the clock, not by a count of items, so however slow
 * one item is to carry out, the tick handler ends long before the next tick is due and the
 * timer keeps its rate. What does not fit waits for the next tick or for the idle loop,
 * which is the place of Linux's ksoftirqd: it runs when nothing else wants the CPU.
 */
#ifndef KERNEL_BACKGROUND_H
#define KERNEL_BACKGROUND_H

#include <stdbool.h>
#include <stdint.h>

/* The most time the timer tick spends on background work: a fifth of a 10 ms tick. */
#define BACKGROUND_TICK_US 2000

/* fn(deadline) works until arch_cycles() reaches deadline (it may finish the one item it is
 * on: keep items short) and returns true if there may be more. */
void background_register(bool (*fn)(uint64_t deadline));

/* From the timer interrupt: at most BACKGROUND_TICK_US of work. */
void background_tick(void);
/* From a waiting loop before it halts: a short slice (the loop checks for runnable tasks
 * in between); true if there may be more work (check again first). */
bool background_idle(void);
/* Runs the work until none is left: before the machine stops (poweroff), so that what the
 * COM2 stream still had buffered reaches the host. */
void background_drain(void);

/* A function to run when a session ends (the COM2 stream ends an open binary capture). */
void background_on_session_end(void (*fn)(void));
/* The session ends (poweroff, the end of a boot script): drains the work as
 * background_drain, then runs each session-end function once. */
void background_end_session(void);

#endif
