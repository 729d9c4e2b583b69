/*
 * tracepoint_bench.c - what the static kernel events (trace/events/tracepoint.h) cost on the
 * paths they sit on (`make bench`): a context switch (two kernel threads handing the CPU to
 * each other with sched_yield) and a hardware interrupt (a software `int` on an unused PIC
 * line, through the real IRQ dispatch), each with every event off and with its events on;
 * and the disabled check alone (an inline trace_sched_switch() with the event off), which is
 * what a kernel built without the tracepoints would not run: its cost on each path.
 */
#include "arch/x86/trap.h"
#include "kernel/arch.h"
#include "kernel/bench.h"
#include "kernel/proc/sched.h"
#include "kernel/proc/task_internal.h"
#include "trace/events/irq_events.h"
#include "trace/events/sched_events.h"

#define SWITCHES 2000
#define IRQS 2000
#define UNUSED_IRQ 3 /* COM2's line: tracekern polls COM2, the line has no handler */

/* The partner thread: yields back as often as the measuring task yields to it. */
static void yield_partner(void *arg)
{
    (void)arg;
    for (unsigned i = 0; i < SWITCHES; i++)
        sched_yield();
}

/* Instructions per context switch: SWITCHES round trips, two switches each. */
static uint64_t switch_cost(void)
{
    struct task *partner = task_create_kernel("yield_partner", yield_partner, 0);
    if (!partner)
        return 0;
    sched_yield(); /* let it start */
    uint64_t start = arch_cycles();
    for (unsigned i = 0; i < SWITCHES; i++)
        sched_yield();
    uint64_t cycles = arch_cycles() - start;
    int status;
    task_wait(partner, &status, 0, 0);
    return cycles / (2 * SWITCHES);
}

/* One interrupt on UNUSED_IRQ through the IDT and handle_irq (counted, traced, EOI sent:
 * nothing is in service, so the EOI changes nothing). */
static void raise_irq(void *arg)
{
    (void)arg;
    __asm__ volatile("int %0" ::"i"(VEC_IRQ_BASE + UNUSED_IRQ) : "memory");
}

/* The call site of a disabled sched_switch tracepoint, alone... */
static void disabled_check(void *arg)
{
    trace_sched_switch(arg, arg);
}

/* ...and the same function without it, built the same way (bench_cost's own empty
 * iteration is compiled elsewhere, with other flags). */
static void no_check(void *arg)
{
    (void)arg;
}

BENCHMARK(tracepoints)
{
    unsigned long flags = arch_irq_save();
    uint64_t irq_off = bench_cost(raise_irq, 0, IRQS);
    arch_irq_restore(flags);
    uint64_t switch_off = switch_cost();
    uint64_t with_check = bench_cost(disabled_check, current, 100000);
    uint64_t without_check = bench_cost(no_check, current, 100000);
    uint64_t check = with_check > without_check ? with_check - without_check : 0;

    trace_event_set_enabled(&event_irq_handler_entry, true);
    trace_event_set_enabled(&event_irq_handler_exit, true);
    flags = arch_irq_save();
    uint64_t irq_on = bench_cost(raise_irq, 0, IRQS);
    arch_irq_restore(flags);
    trace_event_set_enabled(&event_irq_handler_entry, false);
    trace_event_set_enabled(&event_irq_handler_exit, false);
    trace_event_set_enabled(&event_sched_switch, true);
    uint64_t switch_on = switch_cost();
    trace_event_set_enabled(&event_sched_switch, false);
    rb_reset(trace_buffer());

    bench_report("tracepoints: context switch (sched_yield), all events off", switch_off,
                 "instructions");
    bench_report("tracepoints: context switch, sched_switch on", switch_on, "instructions");
    bench_report("tracepoints: IRQ (int on a line without handler), all events off", irq_off,
                 "instructions");
    bench_report("tracepoints: IRQ, irq_handler_entry/exit on", irq_on, "instructions");
    bench_report("tracepoints: one disabled tracepoint's check (load, branch)", check,
                 "instructions");
}
