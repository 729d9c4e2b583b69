/*
 * irq_chip.h - the interrupt controller that delivers the 16 ISA/PCI lines, whichever it is.
 *
 * A PC has two: the pair of 8259A PICs every PC has had since 1984 (arch/x86/pic.c), which
 * can reach only CPU 0, and the I/O APIC (arch/x86/ioapic.c), which sends each line as a
 * message to any CPU's local APIC. trap.c handles a line the same way with either: it asks
 * the chip whether the interrupt is real, runs the driver, and acknowledges it through the
 * chip. Lines keep their ISA numbers (0-15) and vectors (32-47) with both, so drivers and
 * /proc/interrupts never need to know which one is in charge (Linux: struct irq_chip in
 * include/linux/irq.h, "XT-PIC" and "IO-APIC" in /proc/interrupts).
 */
#ifndef ARCH_X86_IRQ_CHIP_H
#define ARCH_X86_IRQ_CHIP_H

#include <stdbool.h>

struct irq_chip {
    const char *name;             /* as /proc/interrupts shows it */
    void (*unmask)(int irq);      /* lets the line's interrupts through */
    void (*mask)(int irq);        /* holds them back */
    void (*eoi)(int irq);         /* end of interrupt, after the handler ran */
    bool (*is_spurious)(int irq); /* an interrupt the chip did not really raise */
    bool (*level_triggered)(int irq); /* raised for as long as the device wants service */
    /* "2-edge", "11-fasteoi": the chip's input and how it triggers, as Linux prints it */
    const char *(*line_kind)(int irq, char *buf, unsigned len);
};

/* The chip in charge: the PIC from boot, the I/O APIC once ioapic_take_over() ran. */
extern const struct irq_chip *irq_chip;
extern const struct irq_chip pic_chip;

#endif
