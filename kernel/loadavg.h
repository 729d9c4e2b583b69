/*
 * loadavg.h - the load average (sysinfo's loads, /proc/loadavg's numbers): the number of
 * tasks that run or wait to run, averaged over 1, 5 and 15 minutes by Linux's method
 * (kernel/sched/loadavg.c): a sample every 5 seconds, decayed exponentially in 11-bit
 * fixed point.
 */
#ifndef KERNEL_LOADAVG_H
#define KERNEL_LOADAVG_H

#include <stdint.h>

#define LOADAVG_FSHIFT 11
#define LOADAVG_FIXED_1 (1u << LOADAVG_FSHIFT)
#define LOADAVG_PERIOD_NS 5000000000ull

/* Takes a sample of active tasks at time now_ns if a period has passed since the last
 * one (the first at LOADAVG_PERIOD_NS). Called from the tick (sched_tick), on one CPU:
 * with SMP, the CPUs' counts must be summed first, as Linux does. */
void loadavg_sample(unsigned active, uint64_t now_ns);

/* The three averages in fixed point with 1.0 = LOADAVG_FIXED_1. */
void loadavg_get(uint32_t loads[3]);

#endif
