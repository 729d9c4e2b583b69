/*
 * user_mode.c - where ring 3 meets the kernel: the system call gate, and the end of a
 * program that raised an exception it has no signal handler for.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/signal_frame.h"
#include "arch/x86/trap.h"
#include "arch/x86/umip.h"
#include "kernel/arch.h"
#include "kernel/lib/format.h"
#include "kernel/log/printk.h"
#include "kernel/notrace.h"
#include "kernel/trace_hooks.h"
#include "kernel/proc/task_internal.h"
#include "kernel/syscall/syscall.h"

/* int $0x80: EAX is the call, EBX..EBP its arguments, EAX its result. The gate is an
 * interrupt gate (interrupts off on entry); the call runs with them on, so that it may sleep
 * and the clock keeps ticking. */
static notrace bool syscall_trap(struct trap_frame *tf)
{
    if (!trap_from_user(tf))
        return false;
    uint32_t args[SYSCALL_ARGS_MAX] = { tf->ebx, tf->ecx, tf->edx, tf->esi, tf->edi, tf->ebp };
    current->syscall_nr = tf->eax; /* for SA_RESTART (signal_deliver) */
    arch_irq_enable();
    tf->eax = (uint32_t)syscall_dispatch(tf->eax, args);
    arch_irq_save();
    return true;
}

void syscall_gate_init(void)
{
    idt_route_to_handler(SYSCALL_VECTOR, 3);
    trap_set_handler(SYSCALL_VECTOR, syscall_trap);
    /* As in Linux, `into` (and `int $4`) may raise #OF from ring 3: it becomes SIGSEGV with
     * trapno 4. Every other vector but 3 and 0x80 is DPL 0: `int N` is a #GP. */
    idt_route_to_handler(VEC_OVERFLOW, 3);
    umip_init();
}

void user_fault(struct trap_frame *tf, const char *what)
{
    struct fault_info fi; /* the signal Linux sends: the exit status is 128 + it */
    int sig = fault_signal(tf, tf->vector == VEC_PAGE_FAULT ? read_cr2() : 0, &fi);
    const char *signame = signal_name(sig);
    printk("%s[%d]: killed by %s", current->name, current->pid, what);
    if (tf->vector == VEC_PAGE_FAULT)
        printk(" at address %#x (%s, %s)", read_cr2(), (tf->error_code & 2) ? "write" : "read",
               (tf->error_code & 1) ? "protection violation" : "page not present");
    printk(", error code %#x, %s\n", tf->error_code, signame);
    trap_print_frame(tf);
    ksnprintf(current->exit_reason, sizeof current->exit_reason, "killed by %s (%s)", what,
              signame);
    trace_signal_deliver(sig, fi.code, 0, 0); /* signal_force generated it; SIG_DFL takes it */
    task_exit_signal(sig, true); /* every fault signal's default action is "core" */
}
