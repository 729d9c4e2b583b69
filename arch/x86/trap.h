/*
 * trap.h - interrupts and exceptions: the saved register frame and handler registration.
 */
#ifndef ARCH_X86_TRAP_H
#define ARCH_X86_TRAP_H

#include <stdbool.h>
#include <stdint.h>

/* What trap_entry.asm leaves on the stack, lowest address first. */
struct trap_frame {
    uint32_t gs, fs, es, ds;
    uint32_t edi, esi, ebp, esp_pushad, ebx, edx, ecx, eax; /* pushad */
    uint32_t vector, error_code;
    uint32_t eip, cs, eflags; /* pushed by the CPU */
    uint32_t user_esp, user_ss; /* only when coming from ring 3 */
};

#define VEC_DIVIDE 0
#define VEC_DEBUG 1
#define VEC_NMI 2
#define VEC_BREAKPOINT 3
#define VEC_OVERFLOW 4
#define VEC_INVALID_OPCODE 6
#define VEC_DOUBLE_FAULT 8
#define VEC_GENERAL_PROTECTION 13
#define VEC_PAGE_FAULT 14
#define VEC_IRQ_BASE 32
#define IRQ_COUNT 16

/* The ESP the interrupted code had: for ring 0 the CPU pushed no ESP, so it is just above
 * the frame's EFLAGS. */
uint32_t trap_frame_esp(const struct trap_frame *tf);
bool trap_from_user(const struct trap_frame *tf);

/*
 * A handler for an exception or software interrupt vector. Returns true when it dealt with
 * the event (execution resumes at tf->eip); false passes it on to the fatal-exception report.
 */
typedef bool (*trap_handler_fn)(struct trap_frame *tf);
void trap_set_handler(int vector, trap_handler_fn fn);

/* Hardware interrupt lines (0-15, through the PIC or the I/O APIC: irq_chip.h). The handler
 * runs with interrupts off, the end-of-interrupt is sent after it returns. Registering
 * unmasks the line; registering NULL masks it. */
typedef void (*irq_handler_fn)(void);
void irq_set_handler(int irq, irq_handler_fn fn);
/* The same for a handler that must run even while another CPU holds the big kernel lock
 * for long (the timer tick: a 100 MB trace buffer resize held it 267 ms): the handler runs
 * without it and takes it itself where it needs it (kernel_trylock). The others run under
 * it (kernel/kernel_lock.h). */
void irq_set_handler_unlocked(int irq, irq_handler_fn fn);
/* The line's handler, NULL when it has none: a driver that would share a line asks first
 * (irq_set_handler replaces what was there). */
irq_handler_fn irq_handler_of(int irq);
uint64_t irq_count(int irq); /* summed over the CPUs */
uint64_t irq_count_on(unsigned cpu, int irq);
/* Interrupts that are no ISA line, counted per CPU for /proc/interrupts' lower rows
 * (Linux's NMI, LOC, SPU, RES, CAL and TLB, in that order). */
enum irq_stat {
    IRQ_STAT_NMI,
    IRQ_STAT_LOCAL_TIMER,
    IRQ_STAT_SPURIOUS,
    IRQ_STAT_RESCHEDULE,
    IRQ_STAT_CALL_FUNCTION,
    IRQ_STAT_TLB, /* shootdowns this CPU received (arch/x86/tlb_shootdown.c) */
    IRQ_STAT_COUNT
};
void irq_stat_count(enum irq_stat what);
uint64_t irq_stat_on(unsigned cpu, enum irq_stat what);
/* The line's device as /proc/interrupts shows it ("timer (PIT)"), "" when it has none. */
const char *irq_name(int irq);

/* Installs the IDT (all 256 vectors; vector 8 as a task gate to the double-fault task). */
void idt_init(void);
/* Loads the interrupt table into this CPU (idt_init does it for CPU 0; each other CPU when
 * it starts). */
void idt_load(void);
/* Makes vector a task gate to the task whose TSS selector is given, or (back) an interrupt
 * gate into trap_dispatch; dpl 3 lets ring 3 raise it with `int`. */
void idt_route_to_task(int vector, uint16_t tss_selector, int dpl);
void idt_route_to_handler(int vector, int dpl);

/* An exception raised by a user program that no handler took: reports it (what, where,
 * the registers) and kills the process. Does not return. (arch/x86/user_mode.c) */
void user_fault(struct trap_frame *tf, const char *what) __attribute__((noreturn));

/* The end of every entry from ring 3, kernel lock held: a kill, a pending reschedule and
 * signals are handled (unless a uprobe's step is on its way), and the frame's data
 * selectors made safe to pop. */
void trap_exit_to_user(struct trap_frame *tf);

/* The IPC fast path's entry (arch/x86/ipc_regs.c), called by trap_entry.asm's trap_syscall
 * for a system call whose EAX is SYS_tracekern_ipc and EBX a register-message operation
 * (interrupts off, as the interrupt gate left them): true when it did the call whole,
 * registers and return to ring 3 included; false (nothing done, the kernel lock not held)
 * for the ordinary way. */
bool ipc_regs_fastpath(struct trap_frame *tf);

/* Installs the system call gate (int $0x80, callable from ring 3). */
void syscall_gate_init(void);

/* Writes the full register dump of a fatal exception (or of a frame a test wants to see). */
void trap_print_frame(const struct trap_frame *tf);

#endif
