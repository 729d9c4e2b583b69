/*
 * smp.h - how kernel code reaches the other CPUs (issue 19).
 *
 * Per-CPU state is an array of MAX_CPUS entries indexed by arch_cpu_id(): that is the one
 * accessor, so code written today finds its own slot on any CPU. The functions below are
 * the only ways to make another CPU do something:
 *
 *   smp_call_others  runs a short function on every other online CPU, in interrupt context
 *                    (an IPI; interrupts off there) and returns when all of them ran it.
 *   smp_call_mask    the same on the online CPUs of a mask (bit per CPU; the caller's own
 *                    bit is ignored): the TLB shootdown reaches only the CPUs that have an
 *                    address space loaded (arch/x86/tlb_shootdown.c).
 *   smp_sync_cores   returns once this CPU and every other online CPU have executed a
 *                    serializing instruction: code this CPU patched is what all fetch next (ftrace's
 *                    text_poke_sync, Linux arch/x86/kernel/alternative.c).
 *   smp_run_on       hands a long-running function to an idle CPU, which runs it in its
 *                    idle loop with interrupts on (so it still answers IPIs); smp_wait
 *                    waits for it to return. Stress tests and benchmarks use this to keep
 *                    several CPUs busy at once.
 *   smp_stop_others  stops every other CPU for good by NMI, even one spinning with
 *                    interrupts off: halt, panic and the flight recorder call it first.
 *
 * With one CPU (SMP=1, or before the others are started) every function does the one-CPU
 * thing: call_others and sync_cores have nobody to reach, run_on(0) runs fn at once.
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include <stdbool.h>
#include <stdint.h>

#define MAX_CPUS 8

typedef void (*smp_fn)(void *arg);

void smp_call_others(smp_fn fn, void *arg);
void smp_call_mask(uint32_t cpus, smp_fn fn, void *arg);
void smp_sync_cores(void);
/* False when cpu is not online or already runs something handed to it. */
bool smp_run_on(unsigned cpu, smp_fn fn, void *arg);
void smp_wait(unsigned cpu);
void smp_stop_others(void);
/* Runs the calls other CPUs addressed to this one, from a loop that waits with interrupts
 * off (kernel_lock's): the caller of smp_call_others may be the CPU it waits for. */
void smp_serve_calls(void);

/* Bring-up and the arch layer's side (arch/x86/smp_boot.c), not for other callers:
 * smp_init starts the other CPUs (kernel/main.c, once the clock runs);
 * smp_ap_main is each application processor's idle loop, entered once it is up;
 * smp_call_interrupt is the call-function IPI's handler (interrupts off);
 * smp_stop_requested tells the NMI handler that the NMI is smp_stop_others', and
 * smp_stop_is_mine tells it that this CPU is the one stopping the others (it must go on);
 * smp_stopped_here is what it calls just before it halts the CPU. */
void smp_init(void);
void smp_ap_main(void) __attribute__((noreturn));
void smp_call_interrupt(void);
bool smp_stop_requested(void);
bool smp_stop_is_mine(void);
void smp_stopped_here(void);

#endif
