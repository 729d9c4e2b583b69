/*
 * lapic_timer.c - the local APIC timer of each CPU, ticking at TICK_HZ (lapic_timer.h).
 *
 * The timer (Intel SDM vol. 3A, 10.5.4) counts the processor's bus clock, divided by the
 * divide configuration register, down from the initial count register; the current count
 * register shows where it is. In periodic mode (LVT timer bits 17-18 = 01) it reloads the
 * initial count each time it reaches 0 and raises the LVT timer's vector. Every CPU has one,
 * and its interrupt goes to that CPU only: what a per-CPU time slice needs, which the PIT,
 * one chip whose line reaches one CPU, cannot give.
 *
 * The bus clock's rate is not architectural (QEMU's is 1 GHz; real machines have 100-200
 * MHz, or the crystal clock), so CPU 0 measures it once against the TSC, which timer.c
 * already measured against the PIT: the count rate is known as well as the TSC's. The
 * divider is 16 (Linux's choice too): at QEMU's 1 GHz a tick of 10 ms is 625000 counts,
 * fine-grained enough that rounding the count costs under 2 ppm, and the 32-bit count
 * would last 68 s, so even a bus clock 60 times faster fits a tick. Every AP loads the same
 * count: the CPUs share one bus clock.
 */
#include "arch/x86/lapic_timer.h"

#include "arch/x86/cpu.h"
#include "arch/x86/lapic.h"
#include "arch/x86/trap.h"
#include "kernel/arch.h"
#include "kernel/log/printk.h"
#include "kernel/proc/sched.h"

#define CALIBRATION_MS 10
#define CALIBRATION_RUNS 3
#define DIVIDER 16
/* Fewer counts per tick than this and rounding alone would miss TICK_HZ by over 1%: a
 * rate so low (under 10 kHz) means the measurement went wrong. */
#define MIN_COUNT_PER_TICK 100

static uint32_t count_per_tick; /* the initial count of one tick; 0: no local timer */
static volatile bool running[MAX_CPUS];

/* The timer's interrupt: this CPU's tick. EOI first (interrupts stay off until the iret):
 * a tick that comes due meanwhile waits in the IRR instead of being merged with this one. */
static bool local_timer_interrupt(struct trap_frame *tf)
{
    (void)tf;
    unsigned cpu = arch_cpu_id();
    lapic_eoi();
    irq_stat_count(IRQ_STAT_LOCAL_TIMER);
    hardirq_depth[cpu]++;
    sched_cpu_tick();
    hardirq_depth[cpu]--;
    return true;
}

/* Runs the timer one-shot, masked, from the largest count for CALIBRATION_MS of TSC time,
 * and returns its rate in counts per second. Each register read costs about the same, so
 * reading the count before the TSC at the start and at the end times the same interval. */
static uint64_t measure_rate_hz(void)
{
    uint64_t span = (uint64_t)arch_cycles_khz() * CALIBRATION_MS;
    lapic_write(LAPIC_TIMER_DIVIDE, LAPIC_TIMER_DIVIDE_16);
    lapic_write(LAPIC_LVT_TIMER, LAPIC_LVT_MASKED | VEC_LAPIC_TIMER);
    lapic_write(LAPIC_TIMER_INITIAL, 0xffffffffu); /* writing it starts the countdown */
    uint32_t count0 = lapic_read(LAPIC_TIMER_CURRENT);
    uint64_t tsc0 = rdtsc();
    while (rdtsc() - tsc0 < span)
        __asm__ volatile("pause");
    uint32_t count1 = lapic_read(LAPIC_TIMER_CURRENT);
    uint64_t tsc1 = rdtsc();
    lapic_write(LAPIC_TIMER_INITIAL, 0); /* 0 stops it */
    return (uint64_t)(count0 - count1) * arch_cycles_khz() * 1000 / (tsc1 - tsc0);
}

/* The median of CALIBRATION_RUNS measurements: one run stretched by a host hiccup between
 * two register reads is outvoted. */
static uint64_t calibrate(void)
{
    uint64_t runs[CALIBRATION_RUNS];
    for (int i = 0; i < CALIBRATION_RUNS; i++) {
        uint64_t r = measure_rate_hz();
        int j = i;
        for (; j > 0 && runs[j - 1] > r; j--)
            runs[j] = runs[j - 1];
        runs[j] = r;
    }
    return runs[CALIBRATION_RUNS / 2];
}

void lapic_timer_init(void)
{
    if (!lapic_present())
        return; /* lapic_init said why; the PIT ticks alone */
    uint64_t rate = calibrate();
    if (rate / TICK_HZ < MIN_COUNT_PER_TICK || rate / TICK_HZ > 0xffffffffu) {
        printk("lapic timer: measured %llu counts/s: unusable, the PIT ticks alone\n",
               (unsigned long long)rate);
        return;
    }
    count_per_tick = (uint32_t)((rate + TICK_HZ / 2) / TICK_HZ);
    trap_set_handler(VEC_LAPIC_TIMER, local_timer_interrupt);
    printk("lapic timer: bus clock / %d = %llu.%03llu MHz, initial count %u for %d Hz, "
           "vector %#x\n", DIVIDER, (unsigned long long)(rate / 1000000),
           (unsigned long long)(rate / 1000 % 1000), count_per_tick, TICK_HZ,
           VEC_LAPIC_TIMER);
    lapic_timer_start();
}

void lapic_timer_start(void)
{
    if (!count_per_tick)
        return;
    lapic_write(LAPIC_TIMER_DIVIDE, LAPIC_TIMER_DIVIDE_16);
    lapic_write(LAPIC_LVT_TIMER, LAPIC_TIMER_PERIODIC | VEC_LAPIC_TIMER);
    lapic_write(LAPIC_TIMER_INITIAL, count_per_tick);
    running[arch_cpu_id()] = true;
}

bool arch_local_timer_running(void) { return running[arch_cpu_id()]; }

uint32_t lapic_timer_count_per_tick(void) { return count_per_tick; }
