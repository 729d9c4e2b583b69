/*
 * background.h - work that runs when the kernel has a moment: on every timer tick (a small,
 * bounded amount) and whenever the CPU would otherwise halt waiting for input. The COM2
 * trace stream is such work: a background consumer, as `cat trace_pipe > file &` is on
 * Linux, in a kernel that has no threads of its own yet.
 */
#ifndef KERNEL_BACKGROUND_H
#define KERNEL_BACKGROUND_H

#include <stdbool.h>

/* fn(from_tick) does a bounded piece of work and returns true if there may be more. */
void background_register(bool (*fn)(bool from_tick));

/* From the timer interrupt. */
void background_tick(void);
/* From a waiting loop before it halts; true if any work was done (check again first). */
bool background_idle(void);
/* Runs the work until none is left: before the machine stops (poweroff), so that what the
 * COM2 stream still had buffered reaches the host. */
void background_drain(void);

#endif
