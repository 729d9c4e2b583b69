/*
 * arch.h - what the portable kernel needs from the machine. arch/x86 implements it.
 */
#ifndef KERNEL_ARCH_H
#define KERNEL_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef TRACEKERN_HOST
/* Kernel build: the hot-path functions below are inline (arch/x86/arch_inline.h); the
 * machine's per-task state (struct arch_task, embedded in struct task as `arch`), the MMIO
 * accessors (mmio_read32 ...: one access of the given width each), function tracing's
 * call-site patching and trampolines, and the int3 snapshot's registers and sink hook
 * come from the arch too. This header is the one door
 * from portable code to arch/x86: tests/tools/include_check.sh holds everyone to it. */
#include "arch/x86/arch_inline.h"
#include "arch/x86/arch_task.h"
#include "arch/x86/ftrace_arch.h"
#include "arch/x86/kprobe_arch.h"
#include "arch/x86/mmio.h"
#include "arch/x86/snapshot.h"
#include "arch/x86/uprobe_arch.h" /* issue 18, uprobes */
#else
/* Interrupt flag: disable and return the previous state, or restore it. */
unsigned long arch_irq_save(void);
void arch_irq_restore(unsigned long flags);
bool arch_irqs_enabled(void);
/* A serializing instruction: code patched by any CPU is fetched anew after it. */
void arch_serialize(void);
/* Cycle counter: raw, monotonic per CPU. */
uint64_t arch_cycles(void);
/* The cycle counter's advance past *last, when it is less than 2^32 cycles and not
 * negative: true, and the advance in *since; otherwise false. */
bool arch_cycles_since(const uint64_t *last, uint32_t *since);
/* *t += n for a cycle count: the ring buffer's fast path moves its last time on with it. */
void arch_cycles_add(uint64_t *t, uint32_t n);
/* How many CPUs are running, and which one this code runs on (0 .. count-1). */
unsigned arch_cpu_count(void);
unsigned arch_cpu_id(void);
/* True while the CPU runs a hardware interrupt handler (trace flags show 'h'); _on: for
 * a caller that has this CPU's number already. */
bool arch_in_hardirq(void);
bool arch_in_hardirq_on(unsigned cpu);
#endif
/* issue 18, uprobes: the x86-32 instruction decoder is portable (host-tested): the uprobe
 * offset checks (trace/uprobes/uprobe_elf.c) read programs' instructions with it. */
#include "arch/x86/insn_decode.h"

/*
 * Bring-up, in the order kernel/main.c calls these (arch/x86/setup.c):
 * arch_early_init reads the boot loader's information (magic and the address it passed)
 * into boot_info and sets up the CPU's tables, so faults are reported; false when no
 * multiboot loader started us. arch_memory_init turns paging on up to lowmem_top once
 * physical memory is known. arch_timer_init measures the cycle counter and starts the tick
 * (interrupts off). arch_tasks_ready runs once tasks exist: FPU switching, the system call
 * gate.
 */
bool arch_early_init(uint32_t magic, uint32_t boot_info_addr);
void arch_memory_init(uintptr_t lowmem_top);
void arch_timer_init(void);
void arch_tasks_ready(void);

/* The periodic tick: its rate, and how many ticks have passed since arch_timer_init. */
#define TICK_HZ 100
uint64_t timer_ticks(void);
/* True when this CPU has a periodic timer of its own (the local APIC timer) whose interrupt
 * calls sched_cpu_tick(): the global tick (sched_tick, on CPU 0) must then leave this CPU's
 * part to it. False without a local APIC: the global tick does everything. */
bool arch_local_timer_running(void);

/* Unmaps the lowest page of a kernel stack starting at kstack (guard on), so that an
 * overflow faults instead of corrupting memory, or maps it back before the stack is freed. */
void arch_kstack_guard(uintptr_t kstack, bool on);

void arch_irq_enable(void);
/* The user stack pointer the current process had when it entered the kernel. */
uint32_t arch_user_stack_pointer(void);


/* Spin-wait hint (pause), and wait for the next interrupt with interrupts enabled. */
void arch_cpu_relax(void);
void arch_wait_for_interrupt(void);

/* The date and time (UTC) of the machine's battery-backed clock (the CMOS RTC) into *t;
 * false when it cannot be read or holds no valid date (kernel/wall_clock.c). */
struct civil_time;
bool arch_rtc_read(struct civil_time *t);
/* One word from the CPU's random number generator (RDRAND) into *out; false, *out
 * untouched, when the CPU has none or it failed (kernel/random.c). */
bool arch_random_word(uint32_t *out);
/* The cycle counter's rate, measured at boot. */
uint32_t arch_cycles_khz(void);
/* Where that rate came from, in words (x86: a CPUID leaf, or measured against the PIT). */
const char *arch_cycles_source(void);

/* How many CPUs the machine was started with (QEMU's fw_cfg; 1 where it cannot tell): a
 * cross-check of what the MADT listed and arch_start_cpus started. */
unsigned arch_cpus_present(void);

/* SMP (arch/x86/smp_boot.c): arch_start_cpus starts every CPU the firmware lists and
 * returns how many are online (arch_cpu_count); arch_send_call_ipi makes cpu run
 * smp_call_interrupt() (kernel/smp.h) in interrupt context, false when the local APIC
 * could not send it; arch_send_resched_ipi interrupts cpu so that it notices the
 * need_resched the scheduler set for it; arch_send_stop_nmi sends cpu an NMI, which stops
 * it for good while smp_stop_requested() says so. */
unsigned arch_start_cpus(void);
bool arch_send_call_ipi(unsigned cpu);
void arch_send_resched_ipi(unsigned cpu);
void arch_send_stop_nmi(unsigned cpu);

/* Leave QEMU with isa-debug-exit (code 0x10 pass, 0x11 fail); halts forever if not in QEMU. */
void arch_exit_emulator(uint8_t code) __attribute__((noreturn));
#define EXIT_PASS 0x10
#define EXIT_FAIL 0x11

/* Stops this CPU for good with interrupts off. */
void arch_halt_forever(void) __attribute__((noreturn));

/* Prints the call chain starting at frame pointer fp (0: the caller's own), with symbols. */
void arch_backtrace(uintptr_t fp);
/* Stores up to max return addresses of the call chain starting at frame pointer fp into
 * out; returns how many. */
int arch_save_stack_trace(uintptr_t fp, uint32_t *out, int max);

/*
 * Runs fn(arg); if it raises a CPU exception, the exception is not fatal: the call is
 * abandoned, *fault gets its vector, error code, EIP and CR2, and the result is true.
 * Returns false when fn returned normally. Used by self-tests and by commands that touch
 * addresses a user typed.
 */
struct caught_fault {
    uint32_t vector;
    uint32_t error_code;
    uint32_t eip;
    uint32_t cr2;
};
bool arch_call_catching_faults(void (*fn)(void *), void *arg, struct caught_fault *fault);

/* issue 23: mmiotrace's recording of port I/O came on or went off (kernel/trace_hooks.h
 * trace_hook_port_io): each CPU stops or goes back to letting programs reach their ports
 * directly, so that while it is on every program's port access traps and is recorded. */
void arch_port_tracing_changed(void);

/* The process layout (issue 16): what a new program is told about the machine (its
 * auxiliary vector, kernel/proc/exec.c). arch_hwcap is AT_HWCAP: on x86 the feature bits
 * of CPUID leaf 1, EDX. arch_random_bytes fills buf with bytes no program can predict
 * (AT_RANDOM): RDRAND where the CPU has it, else a mix of the cycle counter. */
uint32_t arch_hwcap(void);
void arch_random_bytes(void *buf, size_t len);

#endif
