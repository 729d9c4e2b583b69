/*
 * smp.c - kernel/smp.h for a machine running one CPU. ONE CPU: this file is what SMP
 * bring-up (issue 19) replaces with the IPI-based version; every caller already goes
 * through these functions, so none of them changes when it does.
 */
#include "kernel/smp.h"
#include "kernel/arch.h"

/* Nobody else to call. */
void smp_call_others(smp_fn fn, void *arg)
{
    (void)fn;
    (void)arg;
}

/* Nobody else fetches code this CPU patched. */
void smp_sync_cores(void) {}

/* The only CPU is this one: run fn now. */
bool smp_run_on(unsigned cpu, smp_fn fn, void *arg)
{
    if (cpu != arch_cpu_id())
        return false;
    fn(arg);
    return true;
}

/* smp_run_on already waited. */
void smp_wait(unsigned cpu) { (void)cpu; }

/* Nobody else to stop. */
void smp_stop_others(void) {}
