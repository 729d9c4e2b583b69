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
 * MHz, or the crystal clock), so CPU 0 measures it once against the TSC, whose rate
 * timer.c knows: the count rate is known as well as the TSC's. The count runs from before
 * timer_init to after it, so the TSC's own measurement is most of the window. The
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

/* The bus clock's rate is measured without a wait of its own where it can be: the count
 * starts in lapic_timer_calibration_start, before timer_init measures the TSC, and is read
 * again in lapic_timer_init once the TSC's rate is known; only a window shorter than
 * MIN_WINDOW_US is waited out. Each end is read between two TSC readings, the tightest
 * pair of three, and placed at their midpoint: an interrupt or a host hiccup between one
 * pair's readings is outvoted by the other two. */
#define MIN_WINDOW_US 200
#define END_READINGS 3

static uint32_t window_count;
static uint64_t window_tsc;

/* The current count, and in *tsc the middle of the tightest of END_READINGS brackets. */
static uint32_t read_count(uint64_t *tsc)
{
    uint64_t best = UINT64_MAX;
    uint32_t count = 0;
    for (int i = 0; i < END_READINGS; i++) {
        uint64_t t0 = rdtsc();
        uint32_t c = lapic_read(LAPIC_TIMER_CURRENT);
        uint64_t t1 = rdtsc();
        if (t1 - t0 < best) {
            best = t1 - t0;
            count = c;
            *tsc = t0 + (t1 - t0) / 2;
        }
    }
    return count;
}

void lapic_timer_calibration_start(void)
{
    if (!lapic_present())
        return;
    lapic_write(LAPIC_TIMER_DIVIDE, LAPIC_TIMER_DIVIDE_16);
    lapic_write(LAPIC_LVT_TIMER, LAPIC_LVT_MASKED | VEC_LAPIC_TIMER);
    lapic_write(LAPIC_TIMER_INITIAL, 0xffffffffu); /* writing it starts the countdown */
    window_count = read_count(&window_tsc);
}

/* Closes the window and returns the timer's rate in counts per second. */
static uint64_t measure_rate_hz(void)
{
    uint64_t min_cycles = (uint64_t)arch_cycles_khz() * MIN_WINDOW_US / 1000;
    while (rdtsc() - window_tsc < min_cycles)
        __asm__ volatile("pause");
    uint64_t tsc;
    uint32_t count = read_count(&tsc);
    lapic_write(LAPIC_TIMER_INITIAL, 0); /* 0 stops it */
    if (tsc == window_tsc)
        return 0;
    return (uint64_t)(window_count - count) * arch_cycles_khz() * 1000 / (tsc - window_tsc);
}

void lapic_timer_init(void)
{
    if (!lapic_present())
        return; /* lapic_init said why; the PIT ticks alone */
    uint64_t rate = measure_rate_hz();
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
