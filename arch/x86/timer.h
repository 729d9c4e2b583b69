/*
 * timer.h - periodic tick (PIT) and cycle-counter calibration (TSC).
 */
#ifndef ARCH_X86_TIMER_H
#define ARCH_X86_TIMER_H

#include <stdint.h>

#include "kernel/arch.h" /* TICK_HZ, timer_ticks */

/* Measures the TSC rate, then starts the tick. Interrupts must still be off. */
void timer_init(void);

#endif
