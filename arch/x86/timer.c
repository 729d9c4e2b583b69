/*
 * timer.c - the PIT's periodic tick and the TSC's rate.
 *
 * The 8254 PIT runs from a 1.193182 MHz crystal. Channel 0 raises IRQ 0 at TICK_HZ; the
 * tick count gives a coarse clock for timeouts and sleeping. For fine timestamps the kernel
 * reads the TSC, whose rate CPUID states on some CPUs and hypervisors (tsc_cpuid.c); else it
 * is measured against PIT channel 2 over the boot's first steps (timer_calibration_start):
 * that channel's gate and output are wired to port 0x61, so it counts without an interrupt.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/timer.h"
#include "arch/x86/trap.h"
#include "arch/x86/tsc_cpuid.h"
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

/*
 * The TSC's rate without a busy-wait of its own. timer_calibration_start, the boot's first
 * step, sets PIT channel 2 counting down from 0xffff (mode 0: it counts on, 54.9 ms, then
 * raises OUT2) and notes the TSC at a change of its count. The boot does its other work
 * meanwhile; timer_init then notes the TSC at a later change of the count: the ticks
 * between the two changes, at PIT_HZ, took the cycles between them. Each end is taken at a
 * change of the count, so neither carries the PIT's 838 ns granularity: a change is known
 * to have happened between two latches of the count, and of EDGES changes in a row the one
 * whose latches were closest is taken (an interrupt or a host hiccup only widens a pair).
 * Only when the boot took less than MIN_WINDOW_TICKS does timer_init wait for the rest; if
 * it took over 54.9 ms (OUT2 high: the count wrapped) it starts a window afresh.
 */
#define MIN_WINDOW_TICKS 597 /* 500 us */
#define EDGES 8              /* changes looked at per end: 6.7 us */
#define PIT_LATCH_CH2 0x80

/* A change of channel 2's count: the count from then on, when it happened (the middle of
 * the TSC readings before the two latches around it), and how far apart those were. */
struct pit_change {
    uint64_t tsc;
    uint32_t width;
    uint16_t count;
};

static struct pit_change window_start;

static uint16_t pit2_count(void)
{
    outb(PIT_MODE, PIT_LATCH_CH2);
    uint8_t lo = inb(PIT_CH2);
    return (uint16_t)(lo | inb(PIT_CH2) << 8);
}

/* Polls channel 2 until its count changes. */
static void wait_for_change(struct pit_change *c)
{
    uint64_t before = rdtsc();
    uint16_t last = pit2_count();
    for (;;) {
        uint64_t now = rdtsc();
        uint16_t count = pit2_count();
        if (count != last) {
            uint64_t width = now - before;
            c->tsc = before + width / 2;
            c->width = width > UINT32_MAX ? UINT32_MAX : (uint32_t)width;
            c->count = count;
            return;
        }
        before = now;
    }
}

/* Of EDGES changes in a row, the one whose moment is bracketed most tightly. */
static void tightest_change(struct pit_change *best)
{
    best->width = UINT32_MAX;
    for (int i = 0; i < EDGES; i++) {
        struct pit_change c;
        wait_for_change(&c);
        if (c.width < best->width)
            *best = c;
    }
}

/* Single CPU: the boot CPU, before any other runs. */
void timer_calibration_start(void)
{
    uint8_t b = inb(PORT_B);
    outb(PORT_B, (uint8_t)((b & ~PORT_B_SPEAKER) | PORT_B_GATE2));
    outb(PIT_MODE, 0xb0); /* channel 2, lobyte/hibyte, mode 0 (interrupt on terminal count) */
    outb(PIT_CH2, 0xff);
    outb(PIT_CH2, 0xff); /* writing the count restarts the countdown */
    tightest_change(&window_start);
}

/* Closes the window timer_calibration_start opened (see above) and gives the TSC's kHz. */
static uint32_t measure_tsc_khz(void)
{
    for (;;) {
        struct pit_change end;
        tightest_change(&end);
        if (inb(PORT_B) & PORT_B_OUT2) { /* past 0xffff ticks: the count wrapped */
            timer_calibration_start();
            continue;
        }
        uint16_t ticks = (uint16_t)(window_start.count - end.count);
        if (ticks < MIN_WINDOW_TICKS)
            continue;
        outb(PORT_B, inb(PORT_B) & ~(PORT_B_GATE2 | PORT_B_SPEAKER));
        return (uint32_t)((end.tsc - window_start.tsc) * PIT_HZ / ticks / 1000);
    }
}

/* The CPUID leaves that may state the TSC's rate (tsc_cpuid.h). */
static void read_tsc_cpuid(struct tsc_cpuid *c)
{
    uint32_t a, b, cx, d;
    cpuid_regs(0, &c->max_leaf, &b, &cx, &d);
    if (c->max_leaf >= 0x15)
        cpuid_regs(0x15, &c->leaf15_eax, &c->leaf15_ebx, &c->leaf15_ecx, &d);
    if (c->max_leaf >= 0x16)
        cpuid_regs(0x16, &c->leaf16_eax, &b, &cx, &d);
    cpuid_regs(1, &a, &b, &cx, &d);
    c->hypervisor = cx >> 31;
    if (c->hypervisor) {
        cpuid_regs(0x40000000, &c->hv_max_leaf, &b, &cx, &d);
        if (c->hv_max_leaf >= 0x40000010 && c->hv_max_leaf < 0x40000100)
            cpuid_regs(0x40000010, &c->hv_tsc_khz, &b, &cx, &d);
    }
}

static const char *const source_names[] = {
    [TSC_KHZ_NONE] = "measured against the PIT over the boot",
    [TSC_KHZ_HYPERVISOR] = "CPUID 0x40000010 (hypervisor)",
    [TSC_KHZ_CRYSTAL] = "CPUID 0x15 (crystal and ratio)",
    [TSC_KHZ_BASE_MHZ] = "CPUID 0x16 (base frequency)",
};
static enum tsc_khz_source cycles_source;

const char *arch_cycles_source(void) { return source_names[cycles_source]; }

void timer_init(void)
{
    struct tsc_cpuid leaves = { 0 };
    read_tsc_cpuid(&leaves);
    cycles_khz = tsc_khz_from_cpuid(&leaves, &cycles_source);
    if (cycles_khz)
        outb(PORT_B, inb(PORT_B) & ~(PORT_B_GATE2 | PORT_B_SPEAKER));
    else
        cycles_khz = measure_tsc_khz();
    if (!cycles_khz)
        cycles_khz = 1;

    uint32_t divisor = PIT_HZ / TICK_HZ;
    outb(PIT_MODE, 0x34); /* channel 0, lobyte/hibyte, mode 2 (rate generator) */
    outb(PIT_CH0, divisor & 0xff);
    outb(PIT_CH0, divisor >> 8);
    irq_set_handler_unlocked(0, timer_tick); /* it takes the kernel lock if it can */
}

uint32_t arch_cycles_khz(void) { return cycles_khz; }
