/*
 * ioapic.h - the I/O APIC: routes the ISA and PCI interrupt lines to local APICs.
 */
#ifndef ARCH_X86_IOAPIC_H
#define ARCH_X86_IOAPIC_H

#include <stdbool.h>

/* Takes the 16 lines over from the PIC when the ACPI MADT names an I/O APIC: every line
 * the PIC had unmasked is routed to CPU 0 and the PIC is masked for good. False (the PIC
 * stays in charge) when there is none. Interrupts must be off. */
bool ioapic_take_over(void);

#endif
