/*
 * lapic_timer.h - every CPU's own periodic tick: its local APIC timer, on vector 0xf0
 * (VEC_LAPIC_TIMER), at TICK_HZ. Its interrupt does this CPU's part of the tick
 * (sched_cpu_tick: the time slice); the PIT's tick on CPU 0 stays the global clock
 * (timer.c: timer_ticks, timeouts, the load average). docs/smp.md, "The local APIC timer".
 */
#ifndef ARCH_X86_LAPIC_TIMER_H
#define ARCH_X86_LAPIC_TIMER_H

#include <stdint.h>

/* On CPU 0, once, after timer_init (it needs the TSC's rate) with interrupts off: measures
 * the timer's count rate against the TSC and starts CPU 0's timer. Without a local APIC,
 * or when the rate cannot be measured, it starts nothing and the PIT ticks alone. */
void lapic_timer_init(void);
/* Starts CPU 0's count for lapic_timer_init's measurement: called before timer_init, so
 * that the TSC's measurement runs inside the window (lapic_timer.c). */
void lapic_timer_calibration_start(void);
/* Starts this CPU's timer with the count CPU 0 measured (an AP's first code calls it);
 * nothing when lapic_timer_init started none. */
void lapic_timer_start(void);
/* The initial count every CPU loads for one tick, as measured at boot (0: no local timer). */
uint32_t lapic_timer_count_per_tick(void);

#endif
