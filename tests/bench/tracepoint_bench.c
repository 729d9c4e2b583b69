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
#include "kernel/fs/fs_dirops.h" /* issue 18, instances */
#include "kernel/proc/sched.h"
#include "kernel/proc/task_internal.h"
#include "kernel/trace_hooks.h"
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

/* A call the compiler cannot drop: it gives both functions below a stack frame, as the
 * functions the tracepoints sit in have one (schedule, trap_dispatch). */
static __attribute__((noinline)) void sink(void *arg)
{
    __asm__ volatile("" ::"r"(arg) : "memory");
}

/* A call site of a disabled sched_switch tracepoint... */
static void disabled_check(void *arg)
{
    trace_sched_switch(arg, arg);
    sink(arg);
}

/* ...and the same function without it: the difference is the check (mov, test, je) and
 * what the possible call costs around it here (the argument kept in a callee-saved
 * register); in schedule() and trap_dispatch() the check alone is the mov, test, je. */
static void no_check(void *arg)
{
    sink(arg);
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
    bench_report("tracepoints: one disabled tracepoint at a call site (its load, test, branch)", check,
                 "instructions");

    /* issue 18, instances: sched_switch on in an instance only, then in the top array and
     * the instance (the slow path of event_commit.c: a scratch record, copied into each). */
    if (fs_mkdir_path_as_task("/sys/kernel/tracing/instances/bench") == 0) {
        trace_event_set_enabled_in(&event_sched_switch, 1, true); /* the first instance's slot */
        uint64_t switch_instance = switch_cost();
        trace_event_set_enabled(&event_sched_switch, true);
        uint64_t switch_both = switch_cost();
        trace_event_set_enabled(&event_sched_switch, false);
        trace_event_set_enabled_in(&event_sched_switch, 1, false);
        fs_rmdir_path_as_task("/sys/kernel/tracing/instances/bench");
        rb_reset(trace_buffer());
        bench_report("tracepoints: context switch, sched_switch on in an instance only",
                     switch_instance, "instructions");
        bench_report("tracepoints: context switch, sched_switch on in the top array and an instance",
                     switch_both, "instructions");
    }
}
