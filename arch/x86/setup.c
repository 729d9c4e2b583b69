/*
 * setup.c - x86 bring-up, in the steps kernel/main.c calls through kernel/arch.h: the boot
 * loader's information and the CPU tables first, then paging and the double-fault task once
 * physical memory is known, then the timer, and last what needs tasks (FPU, system calls).
 */
#include "kernel/arch.h"
#include "kernel/mm/vm.h"

#include "arch/x86/highmap.h"
#include "arch/x86/kmap.h"
#include "arch/x86/acpi_madt.h"
#include "arch/x86/cpu.h"
#include "kernel/smp.h"
#include "arch/x86/double_fault.h"
#include "arch/x86/fpu.h"
#include "arch/x86/gdt.h"
#include "arch/x86/ioapic.h"
#include "arch/x86/lapic.h"
#include "arch/x86/lapic_timer.h"
#include "arch/x86/multiboot.h"
#include "arch/x86/paging.h"
#include "arch/x86/pic.h"
#include "arch/x86/timer.h"
#include "arch/x86/trap.h"

/* Makes the function tracer's call sites the 5-byte NOPs it patches (before any other code
 * runs, let alone another CPU), reads the multiboot information before anything can
 * overwrite it, then loads the segments and the interrupt table and quiets the interrupt
 * controller, so that every fault from here on is reported. False when no multiboot loader
 * started us. */
bool arch_early_init(uint32_t magic, uint32_t boot_info_addr)
{
    ftrace_arch_prepare_sites();
    timer_calibration_start(); /* the TSC's rate is measured over the boot's first steps */
    bool multiboot_ok = multiboot_read(magic, boot_info_addr);
    gdt_init();
    idt_init();
    pic_init();
    return multiboot_ok;
}

/* Turns paging on over the low memory up to lowmem_top (with the boot stack's guard page)
 * and sets up the task that reports a double fault on a stack of its own. */
void arch_memory_init(uintptr_t lowmem_top)
{
    paging_init(lowmem_top);
    kmap_init();
    highmap_init();
    double_fault_init();
}

/* Reads the MADT (CPUs, I/O APICs) and enables this CPU's local APIC (the heap exists by
 * now: the ACPI tables are read through ioremap), then measures the cycle counter's rate
 * and starts the periodic tick, and this CPU's local APIC timer, measured against the
 * cycle counter (interrupts still off). */
void arch_timer_init(void)
{
    acpi_madt_init();
    lapic_init();
    lapic_timer_calibration_start();
    timer_init();
    lapic_timer_init();
    ioapic_take_over();
}

static uint32_t cpu_cr0_features, cpu_cr4_features;

/* CPU 0's feature bits (CR4: FXSR, UMIP ...; CR0: MP, NE, WP) on another CPU, now that
 * CPU 0 has set them all: every CPU runs with the same. CR0.TS is each CPU's own (lazy FPU
 * switching). Runs on each other CPU (smp_call_others). */
static void adopt_control_registers(void *unused)
{
    (void)unused;
    /* CR0's MP (bit 1), EM (bit 2), NE (bit 5) and WP: all of it but PE, PG and TS. */
    const uint32_t cr0_features = (1u << 1) | (1u << 2) | (1u << 5) | CR0_WP;
    uint32_t cr0 = cpu_cr0_features;
    write_cr4(cpu_cr4_features);
    write_cr0((read_cr0() & ~cr0_features) | (cr0 & cr0_features));
}

/* What needs the task structures: each task's own x87 registers, and the system call gate
 * user programs enter through. */
void arch_tasks_ready(void)
{
    fpu_init();
    syscall_gate_init();
    vm_init();
    cpu_cr0_features = read_cr0();
    cpu_cr4_features = read_cr4();
    smp_call_others(adopt_control_registers, 0);
}
