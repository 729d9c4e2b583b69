/*
 * double_fault.c - a crash report even when the kernel stack is gone.
 *
 * When the CPU cannot deliver an exception (typically: the kernel stack ran into its guard
 * page, so pushing the page fault's frame faults again) it raises a double fault. An
 * ordinary interrupt gate would try to push onto the same broken stack and the CPU would
 * reset (triple fault). Vector 8 is therefore a task gate: the CPU saves all registers of
 * the failing context into the current TSS (main_tss), loads this task's TSS, and runs
 * double_fault_task on a stack of its own. From there we print the failing context's
 * registers, read back from its TSS, and its backtrace.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/double_fault.h"
#include "arch/x86/gdt.h"
#include "arch/x86/paging.h"
#include "kernel/arch.h"
#include "kernel/panic.h"
#include "kernel/log/printk.h"

/* Each CPU's own: a double fault on one CPU must not switch to a task another CPU may be
 * in (its descriptor would be busy), nor share its stack. */
static struct tss double_fault_tss[MAX_CPUS];
static uint8_t double_fault_stack[MAX_CPUS][8192] __attribute__((aligned(16)));

/* Entered by the CPU's task switch, never called. Interrupts are off (its TSS's EFLAGS). */
static void __attribute__((noreturn)) double_fault_task(void)
{
    panic_begin();
    uint16_t link = double_fault_tss[arch_cpu_id()].back_link;
    const struct tss *failed = gdt_tss_of(link);
    printk("\n*** double fault (through the task gate; the failing task's TSS is %#x)\n", link);
    if (!failed) {
        printk(" back link %#x is not a TSS: cannot show the failing context\n", link);
        panic_end("double fault");
    }
    uint32_t guard = (uint32_t)(uintptr_t)boot_stack_guard;
    if (failed->esp >= guard && failed->esp < guard + 4096 + 64)
        printk(" kernel stack overflow: ESP %08x is at the guard page %08x-%08x\n", failed->esp,
               guard, guard + 4095);
    printk(" EIP: %04x:%08x EFLAGS: %08x ", failed->cs, failed->eip, failed->eflags);
    print_symbol(failed->eip);
    printk("\n EAX: %08x EBX: %08x ECX: %08x EDX: %08x\n", failed->eax, failed->ebx, failed->ecx,
           failed->edx);
    printk(" ESI: %08x EDI: %08x EBP: %08x ESP: %08x\n", failed->esi, failed->edi, failed->ebp,
           failed->esp);
    /* The CPU does not write CR3 back into the old TSS on a task switch, and this task runs
     * in the kernel's address space anyway: CR3 is left out. */
    printk(" DS: %04x ES: %04x FS: %04x GS: %04x SS: %04x\n", failed->ds, failed->es,
           failed->fs, failed->gs, failed->ss);
    printk(" CR2: %08x (the address of the fault that could not be delivered)\n", read_cr2());
    printk(" Call Trace:\n");
    print_call_site(failed->eip);
    arch_backtrace(failed->ebp);
    panic_end("double fault");
}

/* Prepares this CPU's double-fault task and puts it in this CPU's GDT. */
void double_fault_init(void)
{
    unsigned cpu = arch_cpu_id();
    tss_prepare_kernel_task(&double_fault_tss[cpu], double_fault_task,
                            double_fault_stack[cpu] + sizeof double_fault_stack[cpu]);
    gdt_set_tss(SEL_TSS_DOUBLE_FAULT >> 3, &double_fault_tss[cpu]);
}
