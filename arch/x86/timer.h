/*
 * timer.h - periodic tick (PIT) and cycle-counter calibration (TSC).
 */
#ifndef ARCH_X86_TIMER_H
#define ARCH_X86_TIMER_H

#include <stdint.h>

#define TICK_HZ 100

/* Measures the TSC rate, then starts the tick. Interrupts must still be off. */
void timer_init(void);
uint64_t timer_ticks(void);

#endif
