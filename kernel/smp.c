/*
 * smp.c - kernel/smp.h on every online CPU: cross-CPU calls by IPI, work handed to idle
 * CPUs, and the NMI stop.
 *
 * Calls. Each CPU owns one call slot, used when it is the caller: the function, its
 * argument, and a mask of the CPUs that still have to run it. The caller fills the slot,
 * publishes the mask, sends each target the call IPI and spins until the mask is empty. A
 * target's IPI handler (smp_call_interrupt) looks through every other CPU's slot for its
 * bit, runs the function and clears the bit. Two CPUs may call each other at once with
 * interrupts off: each one, while it spins, also serves the slots that name it, so neither
 * waits for an interrupt the other cannot take (the deadlock a single shared slot under a
 * lock would have); a call served so runs with interrupts off and, like one served from
 * the IPI, with the CPU counted in hardirq (arch_in_hardirq is true in fn either way).
 * fn must not itself call smp_call_others. A target whose IPI the local APIC could not
 * send (ICR timeout) is warned about once and not waited for: its bit is cleared at once
 * (should the IPI have gone out after all, its handler finds no bit and runs nothing; a
 * target already serving the slot from its own waiting loop may still be in fn).
 * Memory order: the mask is stored with release after fn and arg, and loaded with acquire
 * before them.
 *
 * Work. Each CPU but 0 has a run slot (idle, claimed, ready); smp_run_on claims it with a
 * compare-and-swap, fills it, marks it ready and sends the IPI that ends the CPU's hlt;
 * the CPU's idle loop (smp_ap_main) runs it with interrupts on and marks it idle again.
 * CPU 0 is never handed work. Work runs in the idle task, so the tasks queued on that CPU
 * wait until it returns (stress tests and benchmarks hand out work only to free CPUs).
 *
 * Stop. The first CPU to call smp_stop_others owns the stop; it sends every other CPU an
 * NMI, which even a CPU spinning with interrupts off takes; their NMI handler sees
 * smp_stop_requested(), counts itself stopped and halts with NMIs blocked; the stopping
 * CPU itself ignores an NMI (smp_stop_is_mine: CPU 0's LINT1 takes external NMIs). The
 * stopper turns lock debugging off and printk lock-free first: the stopped CPUs may hold
 * any lock. A CPU that calls smp_stop_others after another CPU owns the stop halts
 * itself instead (two panics at once: one report).
 */
#include "kernel/smp.h"

#include "kernel/kernel_lock.h"
#include "kernel/proc/sched.h"

#include "kernel/arch.h"
#include "kernel/lock_debug.h"
#include "kernel/log/printk.h"

#define STOP_WAIT_MS 100

struct call_slot {
    smp_fn fn;
    void *arg;
    uint32_t pending; /* bit per CPU that has yet to run fn */
};

enum { RUN_IDLE, RUN_CLAIMED, RUN_READY };
struct run_slot {
    smp_fn fn;
    void *arg;
    uint32_t state;
};

/* One cache line each: a CPU spinning on its own slot does not slow the others' writes. */
static struct call_slot call_slots[MAX_CPUS] __attribute__((aligned(64)));
static struct run_slot run_slots[MAX_CPUS] __attribute__((aligned(64)));
static int stopper = -1;        /* the CPU that owns the stop, -1: none */
static uint32_t stopped_mask;   /* CPUs halted by the stop NMI */

void smp_init(void) { arch_start_cpus(); }

/* Runs every call another CPU addressed to this one; interrupts off. */
static void serve_calls(unsigned me)
{
    uint32_t bit = 1u << me;
    for (unsigned from = 0; from < MAX_CPUS; from++) {
        struct call_slot *s = &call_slots[from];
        if (from == me || !(__atomic_load_n(&s->pending, __ATOMIC_ACQUIRE) & bit))
            continue;
        s->fn(s->arg);
        __atomic_and_fetch(&s->pending, ~bit, __ATOMIC_RELEASE);
    }
}

void smp_call_interrupt(void) { serve_calls(arch_cpu_id()); }

void smp_serve_calls(void)
{
    unsigned me = arch_cpu_id();
    hardirq_depth[me]++; /* as in the IPI handler (arch/x86/smp_boot.c's call_ipi) */
    serve_calls(me);
    hardirq_depth[me]--;
}

static uint32_t ipi_failures_warned; /* bit per CPU */

/* Sends cpu the call IPI; false when the local APIC could not, with a warning the first
 * time for that CPU (a stuck ICR would otherwise repeat it on every call). */
static bool send_call_ipi(unsigned cpu)
{
    if (arch_send_call_ipi(cpu))
        return true;
    uint32_t bit = 1u << cpu;
    if (!(__atomic_fetch_or(&ipi_failures_warned, bit, __ATOMIC_RELAXED) & bit))
        printk("smp: WARNING: the call IPI to CPU %u could not be sent (local APIC busy): "
               "calls do not wait for that CPU\n", cpu);
    return false;
}

void smp_call_others(smp_fn fn, void *arg) { smp_call_mask(~0u, fn, arg); }

void smp_call_mask(uint32_t cpus, smp_fn fn, void *arg)
{
    unsigned n = arch_cpu_count();
    if (n == 1 || smp_stop_requested())
        return;
    unsigned long flags = arch_irq_save(); /* the slot is this CPU's until every bit clears */
    unsigned me = arch_cpu_id();
    struct call_slot *s = &call_slots[me];
    uint32_t targets = cpus & ((1u << n) - 1) & ~(1u << me);
    if (!targets) {
        arch_irq_restore(flags);
        return;
    }
    s->fn = fn;
    s->arg = arg;
    __atomic_store_n(&s->pending, targets, __ATOMIC_RELEASE);
    for (unsigned cpu = 0; cpu < n; cpu++)
        if ((targets & (1u << cpu)) && !send_call_ipi(cpu))
            __atomic_and_fetch(&s->pending, ~(1u << cpu), __ATOMIC_RELEASE);
    while (__atomic_load_n(&s->pending, __ATOMIC_ACQUIRE)) {
        if (smp_stop_requested())
            break; /* a stopped CPU will never answer */
        smp_serve_calls();
        arch_cpu_relax();
    }
    arch_irq_restore(flags);
}

/* A CPU may run this from the IPI, whose iret serializes it anyway, or from its own waiting
 * loop (serve_calls), where nothing else would: so it serializes itself. */
static void serialize(void *unused)
{
    (void)unused;
    arch_serialize();
}

void smp_sync_cores(void)
{
    arch_serialize();
    smp_call_others(serialize, 0);
}

bool smp_run_on(unsigned cpu, smp_fn fn, void *arg)
{
    if (cpu == arch_cpu_id()) {
        fn(arg);
        return true;
    }
    if (cpu == 0 || cpu >= arch_cpu_count() || smp_stop_requested())
        return false;
    struct run_slot *r = &run_slots[cpu];
    uint32_t idle = RUN_IDLE;
    if (!__atomic_compare_exchange_n(&r->state, &idle, RUN_CLAIMED, false, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED))
        return false;
    r->fn = fn;
    r->arg = arg;
    __atomic_store_n(&r->state, RUN_READY, __ATOMIC_RELEASE);
    send_call_ipi(cpu); /* ends its hlt; the handler finds no call, the loop the work (not
                         * sent: it finds the work at its next interrupt) */
    return true;
}

void smp_wait(unsigned cpu)
{
    if (cpu == arch_cpu_id() || cpu >= arch_cpu_count())
        return;
    while (__atomic_load_n(&run_slots[cpu].state, __ATOMIC_ACQUIRE) != RUN_IDLE) {
        /* The CPU may be running a task of its own first, and need the kernel lock to get
         * back to its idle loop: a waiter holding it lets it in. */
        unsigned long flags = arch_irq_save();
        kernel_lock_break();
        arch_irq_restore(flags);
        arch_cpu_relax();
    }
}

/* An application processor's life once it is up: run handed work with interrupts on, run
 * the tasks the scheduler gives it, else sleep until an interrupt (an IPI or its timer:
 * devices interrupt CPU 0 only). The check and the
 * hlt cannot miss a wake-up: interrupts are off from the check until sti;hlt. */
void smp_ap_main(void)
{
    struct run_slot *r = &run_slots[arch_cpu_id()];
    for (;;) {
        arch_irq_save();
        if (__atomic_load_n(&r->state, __ATOMIC_ACQUIRE) == RUN_READY) {
            arch_irq_enable();
            r->fn(r->arg);
            __atomic_store_n(&r->state, RUN_IDLE, __ATOMIC_RELEASE);
            continue;
        }
        if (sched_need_resched()) {
            sched_idle_step(); /* runs this CPU's tasks until none is left */
            continue;
        }
        arch_wait_for_interrupt();
    }
}

bool smp_stop_requested(void) { return __atomic_load_n(&stopper, __ATOMIC_ACQUIRE) >= 0; }

bool smp_stop_is_mine(void)
{
    return __atomic_load_n(&stopper, __ATOMIC_ACQUIRE) == (int)arch_cpu_id();
}

void smp_stopped_here(void)
{
    __atomic_or_fetch(&stopped_mask, 1u << arch_cpu_id(), __ATOMIC_RELEASE);
}

void smp_stop_others(void)
{
    unsigned n = arch_cpu_count(), me = arch_cpu_id();
    int none = -1;
    if (!__atomic_compare_exchange_n(&stopper, &none, (int)me, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        if (none == (int)me)
            return; /* this CPU stopped the others already (halt, then a panic) */
        arch_halt_forever(); /* another CPU is stopping everyone: be stopped */
    }
    /* From here on this CPU runs alone with whatever locks the stopped ones held: lock
     * checks off and printk lock-free before anything is printed (halt comes here without
     * panic_begin, which did both already). */
    lock_debug_off();
    printk_enter_emergency();
    if (n == 1)
        return;
    uint32_t others = ((1u << n) - 1) & ~(1u << me);
    for (unsigned cpu = 0; cpu < n; cpu++)
        if (others & (1u << cpu))
            arch_send_stop_nmi(cpu);
    uint64_t start = arch_cycles(), limit = (uint64_t)arch_cycles_khz() * STOP_WAIT_MS;
    while ((__atomic_load_n(&stopped_mask, __ATOMIC_ACQUIRE) & others) != others) {
        if (arch_cycles() - start > limit) {
            printk("smp: CPUs %#x did not stop within %u ms\n",
                   others & ~__atomic_load_n(&stopped_mask, __ATOMIC_ACQUIRE), STOP_WAIT_MS);
            return;
        }
        arch_cpu_relax();
    }
}
