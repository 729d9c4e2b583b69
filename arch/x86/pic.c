/*
 * pic.c - programs the master and slave 8259A PICs.
 *
 * At power-on the master delivers IRQ 0-7 on vectors 8-15, where they collide with CPU
 * exceptions; we move IRQ 0-15 to vectors 32-47 and mask every line until a driver asks.
 */
#include "arch/x86/pic.h"

#include "arch/x86/cpu.h"
#include "arch/x86/irq_chip.h"
#include "kernel/lib/format.h"
#include "arch/x86/trap.h"

#define MASTER_CMD 0x20
#define MASTER_DATA 0x21
#define SLAVE_CMD 0xa0
#define SLAVE_DATA 0xa1
#define ICW1_INIT_ICW4 0x11
#define ICW4_8086 0x01
#define OCW3_READ_ISR 0x0b
#define EOI 0x20
#define CASCADE_IRQ 2

static uint16_t irq_mask = 0xffff;

/* Writes the cached mask to both chips. */
static void write_mask(void)
{
    outb(MASTER_DATA, irq_mask & 0xff);
    outb(SLAVE_DATA, irq_mask >> 8);
}

void pic_init(void)
{
    outb(MASTER_CMD, ICW1_INIT_ICW4);
    outb(SLAVE_CMD, ICW1_INIT_ICW4);
    outb(MASTER_DATA, VEC_IRQ_BASE);       /* ICW2: vector base */
    outb(SLAVE_DATA, VEC_IRQ_BASE + 8);
    outb(MASTER_DATA, 1 << CASCADE_IRQ);   /* ICW3: slave on IRQ 2 */
    outb(SLAVE_DATA, CASCADE_IRQ);
    outb(MASTER_DATA, ICW4_8086);
    outb(SLAVE_DATA, ICW4_8086);
    irq_mask = 0xffff & ~(1u << CASCADE_IRQ);
    write_mask();
}

void pic_unmask(int irq)
{
    irq_mask &= (uint16_t)~(1u << irq);
    write_mask();
}

void pic_send_eoi(int irq)
{
    if (irq >= 8)
        outb(SLAVE_CMD, EOI);
    outb(MASTER_CMD, EOI);
}

/* Reads the in-service register of the chip that owns irq. */
static uint8_t in_service(int irq)
{
    uint16_t cmd = irq >= 8 ? SLAVE_CMD : MASTER_CMD;
    outb(cmd, OCW3_READ_ISR);
    return inb(cmd);
}

bool pic_is_spurious(int irq)
{
    if (irq != 7 && irq != 15)
        return false;
    if (in_service(irq) & 0x80)
        return false;
    if (irq == 15)
        outb(MASTER_CMD, EOI); /* the master did see the cascade interrupt */
    return true;
}

uint16_t pic_unmasked_lines(void) { return (uint16_t)~irq_mask & ~(1u << CASCADE_IRQ); }

void pic_mask_all(void)
{
    irq_mask = 0xffff;
    write_mask();
}

static void pic_mask(int irq)
{
    irq_mask |= (uint16_t)(1u << irq);
    write_mask();
}

/* This kernel programs the PICs edge-triggered (ICW1), every line. */
static bool pic_level_triggered(int irq)
{
    (void)irq;
    return false;
}

/* Linux calls the PIC's lines "XT-PIC" with the bare line number. */
static const char *pic_line_kind(int irq, char *buf, unsigned len)
{
    ksnprintf(buf, len, "%d", irq);
    return buf;
}

const struct irq_chip pic_chip = {
    .name = "XT-PIC",
    .unmask = pic_unmask,
    .mask = pic_mask,
    .eoi = pic_send_eoi,
    .is_spurious = pic_is_spurious,
    .level_triggered = pic_level_triggered,
    .line_kind = pic_line_kind,
};

const struct irq_chip *irq_chip = &pic_chip;
