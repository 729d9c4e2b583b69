/*
 * timer.h - periodic tick (PIT) and cycle-counter calibration (TSC).
 */
#ifndef ARCH_X86_TIMER_H
#define ARCH_X86_TIMER_H

#include <stdint.h>

#include "kernel/arch.h" /* TICK_HZ, timer_ticks */

/* Opens the window the TSC's rate is measured over (timer.c): the boot's first step. */
void timer_calibration_start(void);

/* Takes the TSC rate from CPUID, or closes the window and computes it, then starts the
 * tick. Interrupts must still be off. */
void timer_init(void);

#endif
