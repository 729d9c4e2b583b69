/*
 * pic.h - the two 8259A interrupt controllers of a PC, remapped to vectors 32-47.
 */
#ifndef ARCH_X86_PIC_H
#define ARCH_X86_PIC_H

#include <stdbool.h>
#include <stdint.h>

void pic_init(void);
void pic_unmask(int irq);
void pic_send_eoi(int irq);
/* True for a spurious IRQ 7 or 15 (the line dropped before the PIC delivered it): such an
 * interrupt must not be acknowledged as if it were real. */
bool pic_is_spurious(int irq);
/* The lines unmasked now (bit n: line n), and masking every one: the I/O APIC takes over
 * the lines the PIC had open and leaves the PIC silent (arch/x86/ioapic.c). */
uint16_t pic_unmasked_lines(void);
void pic_mask_all(void);

#endif
