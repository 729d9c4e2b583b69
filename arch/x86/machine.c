/*
 * machine.c - the arch_* functions of kernel/arch.h that are one or two instructions:
 * the interrupt flag, waiting, leaving QEMU, halting.
 */
#include "arch/x86/cpu.h"
#include "kernel/arch.h"

#define ISA_DEBUG_EXIT_PORT 0xf4
#define ACPI_PM1A_CONTROL 0x604 /* QEMU's PIIX4 power management: SLP_EN | S5 powers off */
#define ACPI_SLEEP_S5 0x2000

void arch_irq_enable(void) { sti(); }
void arch_cpu_relax(void) { __asm__ volatile("pause"); }

/* sti takes effect after the next instruction, so no interrupt can slip in between the
 * caller's last check and the hlt: the wake-up interrupt always ends the hlt. */
void arch_wait_for_interrupt(void) { __asm__ volatile("sti; hlt" ::: "memory"); }

void arch_halt_forever(void)
{
    for (;;)
        __asm__ volatile("cli; hlt");
}

/* isa-debug-exit makes QEMU exit with (code << 1) | 1; without that device the write does
 * nothing, so we fall back to an ACPI power-off (QEMU exits 0), then halt. */
void arch_exit_emulator(uint8_t code)
{
    outb(ISA_DEBUG_EXIT_PORT, code);
    outw(ACPI_PM1A_CONTROL, ACPI_SLEEP_S5);
    arch_halt_forever();
}
