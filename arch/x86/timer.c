/*
 * timer.c - the PIT's periodic tick and the TSC's rate.
 *
 * The 8254 PIT runs from a 1.193182 MHz crystal. Channel 0 raises IRQ 0 at TICK_HZ; the
 * tick count gives a coarse clock for timeouts and sleeping. For fine timestamps the kernel
 * reads the TSC, whose rate we measure once at boot against PIT channel 2: that channel's
 * gate and output are wired to port 0x61, so we can count down a known interval without an
 * interrupt.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/timer.h"
#include "arch/x86/trap.h"
#include "kernel/arch.h"
#include "kernel/background.h"
#include "kernel/kernel_lock.h"
#include "kernel/proc/sched.h"
#include "kernel/trace_hooks.h"

#define PIT_HZ 1193182u
#define PIT_CH0 0x40
#define PIT_CH2 0x42
#define PIT_MODE 0x43
#define PORT_B 0x61
#define PORT_B_GATE2 0x01
#define PORT_B_SPEAKER 0x02
#define PORT_B_OUT2 0x20
#define CALIBRATION_MS 10

static volatile uint64_t ticks;
static uint32_t cycles_khz;

/* The tick's work; the timer/ events see it as one timer expiring (named by &ticks). */
static void timer_tick(void)
{
    trace_hrtimer_expire_entry((const void *)&ticks, (uintptr_t)timer_tick);
    ticks++;
    /* The clock runs whoever holds the kernel lock; the rest of the tick's work needs it,
     * and while another CPU holds it (a long system call) waits for the next tick: a
     * timeout then ends a tick later. */
    if (kernel_trylock()) {
        background_tick();
        sched_tick();
        kernel_unlock();
    }
    trace_hrtimer_expire_exit((const void *)&ticks);
}

uint64_t timer_ticks(void) { return ticks; }

/* Runs PIT channel 2 once for CALIBRATION_MS in mode 0 and counts TSC cycles meanwhile. */
static uint32_t measure_tsc_khz(void)
{
    uint32_t count = PIT_HZ * CALIBRATION_MS / 1000;
    uint8_t b = inb(PORT_B);
    outb(PORT_B, (uint8_t)((b & ~PORT_B_SPEAKER) | PORT_B_GATE2));
    outb(PIT_MODE, 0xb0); /* channel 2, lobyte/hibyte, mode 0 (interrupt on terminal count) */
    outb(PIT_CH2, count & 0xff);
    outb(PIT_CH2, count >> 8);
    /* Writing the count restarts the countdown; the output goes high when it reaches 0. */
    uint64_t start = rdtsc();
    while (!(inb(PORT_B) & PORT_B_OUT2))
        ;
    uint64_t cycles = rdtsc() - start;
    outb(PORT_B, b);
    return (uint32_t)(cycles / CALIBRATION_MS);
}

void timer_init(void)
{
    /* The fastest of three runs: an interrupt or host hiccup can only lengthen one. */
    uint32_t best = 0;
    for (int i = 0; i < 3; i++) {
        uint32_t khz = measure_tsc_khz();
        if (best == 0 || khz < best)
            best = khz;
    }
    cycles_khz = best ? best : 1;

    uint32_t divisor = PIT_HZ / TICK_HZ;
    outb(PIT_MODE, 0x34); /* channel 0, lobyte/hibyte, mode 2 (rate generator) */
    outb(PIT_CH0, divisor & 0xff);
    outb(PIT_CH0, divisor >> 8);
    irq_set_handler_unlocked(0, timer_tick); /* it takes the kernel lock if it can */
}

uint32_t arch_cycles_khz(void) { return cycles_khz; }
