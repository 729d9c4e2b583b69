/*
 * ioapic.c - the I/O APIC (Intel 82093AA datasheet; ACPI spec, "Multiple APIC Description
 * Table"): a table of 24 redirection entries, one per input pin, each saying which vector
 * to send to which local APIC, and how the pin signals (edge or level, active high or low).
 *
 * The chip is reached through two 32-bit registers in its page: IOREGSEL at offset 0 picks
 * a register, IOWIN at offset 0x10 reads or writes it. Register 1 holds the number of pins;
 * entry n is the pair 0x10 + 2n (low word: vector, trigger, polarity, mask) and
 * 0x11 + 2n (high word: destination APIC id in bits 24-31). The two registers are one
 * shared cursor, so every access takes ioapic_lock.
 *
 * ISA line n arrives at pin n unless the MADT has an "interrupt source override" for it:
 * on a PC the PIT's IRQ 0 is wired to pin 2. PCI lines were routed by the firmware to ISA
 * line numbers (their config space's interrupt line) and marked level-triggered in the
 * ELCR (ports 0x4d0/0x4d1); such a line is programmed level-triggered here too, so that a
 * device holding its line up is seen again after the EOI.
 */
#include "arch/x86/ioapic.h"

#include "arch/x86/acpi_madt.h"
#include "arch/x86/cpu.h"
#include "arch/x86/irq_chip.h"
#include "arch/x86/lapic.h"
#include "arch/x86/mmio.h"
#include "arch/x86/paging.h"
#include "arch/x86/pic.h"
#include "arch/x86/trap.h"
#include "kernel/arch.h"
#include "kernel/lib/format.h"
#include "kernel/log/printk.h"
#include "kernel/mm/ioremap.h"
#include "kernel/spinlock.h"

#define IOREGSEL 0x00
#define IOWIN 0x10
#define REG_VERSION 0x01
#define REG_REDIRECT_LOW(pin) (0x10 + 2 * (pin))
#define REG_REDIRECT_HIGH(pin) (0x11 + 2 * (pin))

#define RTE_ACTIVE_LOW (1u << 13)
#define RTE_LEVEL (1u << 15)
#define RTE_MASKED (1u << 16)

#define ELCR_PORT_LOW 0x4d0
#define ELCR_PORT_HIGH 0x4d1

static volatile uint8_t *ioapic_regs;
static unsigned pin_count;
static struct spinlock ioapic_lock = SPINLOCK_INIT("ioapic");

/* Each ISA line's pin and redirection low word (vector, trigger, polarity) when unmasked;
 * routed is false for a line with no pin of its own (see claimed_by_override). */
static struct {
    unsigned pin;
    uint32_t low;
    bool routed;
} lines[IRQ_COUNT];

/* Reads an I/O APIC register. ioapic_lock held. */
static uint32_t ioapic_read(uint32_t reg)
{
    mmio_write32(ioapic_regs + IOREGSEL, reg);
    return mmio_read32(ioapic_regs + IOWIN);
}

/* Writes an I/O APIC register. ioapic_lock held. */
static void ioapic_write(uint32_t reg, uint32_t value)
{
    mmio_write32(ioapic_regs + IOREGSEL, reg);
    mmio_write32(ioapic_regs + IOWIN, value);
}

/* Sets line irq's entry to its routing with the mask bit as asked. */
static void set_masked(int irq, bool masked)
{
    if (!lines[irq].routed)
        return;
    unsigned long flags = spin_lock_irqsave(&ioapic_lock);
    uint32_t low = lines[irq].low | (masked ? RTE_MASKED : 0);
    ioapic_write(REG_REDIRECT_LOW(lines[irq].pin), low);
    spin_unlock_irqrestore(&ioapic_lock, flags);
}

static void ioapic_unmask(int irq) { set_masked(irq, false); }
static void ioapic_mask(int irq) { set_masked(irq, true); }

/* The local APIC takes the EOI; for a level-triggered line it passes it on to the I/O APIC
 * (an "EOI broadcast"), which then delivers the line again if it is still raised. */
static void ioapic_eoi(int irq)
{
    (void)irq;
    lapic_eoi();
}

/* The I/O APIC sends only what a pin really raised: nothing is spurious at this level (the
 * local APIC's spurious vector is a vector of its own, lapic.c). */
static bool ioapic_is_spurious(int irq)
{
    (void)irq;
    return false;
}

static bool ioapic_level_triggered(int irq) { return lines[irq].low & RTE_LEVEL; }

static const char *ioapic_line_kind(int irq, char *buf, unsigned len)
{
    ksnprintf(buf, len, "%u-%s", lines[irq].pin, lines[irq].low & RTE_LEVEL ? "fasteoi" : "edge");
    return buf;
}

static const struct irq_chip ioapic_chip = {
    .name = "IO-APIC",
    .unmask = ioapic_unmask,
    .mask = ioapic_mask,
    .eoi = ioapic_eoi,
    .is_spurious = ioapic_is_spurious,
    .level_triggered = ioapic_level_triggered,
    .line_kind = ioapic_line_kind,
};

/* MPS INTI flags of an override (ACPI spec, table "MPS INTI Flags"): 0 in a field means
 * "as the bus does it", which for ISA is active high and edge-triggered. */
#define INTI_POLARITY(flags) ((flags) & 3u)
#define INTI_TRIGGER(flags) (((flags) >> 2) & 3u)
#define INTI_ACTIVE_LOW 3u
#define INTI_EDGE 1u
#define INTI_LEVEL 3u

/* Works out ISA line irq's pin, trigger and polarity: the MADT's override if it has one,
 * else pin = line, level-triggered where the firmware gave the line to PCI (ELCR), else
 * edge, active high (the ISA bus's own convention). */
static void route_line(int irq, const struct madt_ioapic *io, uint16_t elcr)
{
    uint16_t flags = 0;
    uint32_t gsi = madt_isa_irq_gsi((unsigned)irq, &flags);
    bool level = (elcr >> irq) & 1;
    if (INTI_TRIGGER(flags) == INTI_LEVEL)
        level = true;
    else if (INTI_TRIGGER(flags) == INTI_EDGE)
        level = false;
    bool active_low = INTI_POLARITY(flags) == INTI_ACTIVE_LOW;
    lines[irq].pin = gsi - io->gsi_base;
    lines[irq].low = (uint32_t)(VEC_IRQ_BASE + irq) | (level ? RTE_LEVEL : 0) |
                     (active_low ? RTE_ACTIVE_LOW : 0);
}

/* True when line irq would sit on a pin that an override gave to another line: on a PC the
 * PIT's IRQ 0 arrives at pin 2, where IRQ 2 (the PICs' cascade, never a device) would
 * otherwise go. The override wins, as on Linux; the displaced line gets no pin. */
static bool claimed_by_override(int irq)
{
    for (int other = 0; other < IRQ_COUNT; other++)
        if (other != irq && lines[other].pin == lines[irq].pin && lines[other].pin != (unsigned)other)
            return true;
    return false;
}

bool ioapic_take_over(void)
{
    /* ONE I/O APIC: a PC's 24 pins carry every ISA and PCI line; a second one (GSI 24 and
     * up) would serve lines this kernel does not use. */
    const struct madt_ioapic *io = madt.ioapic_count ? &madt.ioapics[0] : NULL;
    if (!io || !lapic_present())
        return false;
    uintptr_t va = ioremap_reserve_window(1);
    if (!va)
        return false;
    /* A fixed mapping, not an ioremap(): mmiotrace must never trace the chip that
     * delivers its own interrupts. */
    paging_set_pte(va, io->address & ~0xfffu, PTE_IO_FLAGS);
    ioapic_regs = (volatile uint8_t *)(va + (io->address & 0xfffu));

    unsigned long flags = spin_lock_irqsave(&ioapic_lock);
    pin_count = ((ioapic_read(REG_VERSION) >> 16) & 0xff) + 1;
    for (unsigned pin = 0; pin < pin_count; pin++) {
        ioapic_write(REG_REDIRECT_LOW(pin), RTE_MASKED);
        ioapic_write(REG_REDIRECT_HIGH(pin), 0);
    }
    spin_unlock_irqrestore(&ioapic_lock, flags);

    uint16_t elcr = (uint16_t)(inb(ELCR_PORT_LOW) | inb(ELCR_PORT_HIGH) << 8);
    uint32_t destination = (uint32_t)lapic_id() << 24;
    uint16_t was_unmasked = pic_unmasked_lines();
    for (int irq = 0; irq < IRQ_COUNT; irq++)
        route_line(irq, io, elcr);
    for (int irq = 0; irq < IRQ_COUNT; irq++) {
        lines[irq].routed = lines[irq].pin < pin_count && !claimed_by_override(irq);
        if (!lines[irq].routed)
            continue;
        flags = spin_lock_irqsave(&ioapic_lock);
        ioapic_write(REG_REDIRECT_HIGH(lines[irq].pin), destination);
        ioapic_write(REG_REDIRECT_LOW(lines[irq].pin), lines[irq].low | RTE_MASKED);
        spin_unlock_irqrestore(&ioapic_lock, flags);
    }
    /* The PIC goes quiet and the local APIC stops listening to it (LINT0 was its "virtual
     * wire", lapic.c): from here on every line comes as a message from the I/O APIC. */
    pic_mask_all();
    lapic_write(LAPIC_LVT_LINT0, LAPIC_LVT_MASKED);
    irq_chip = &ioapic_chip;
    for (int irq = 0; irq < IRQ_COUNT; irq++)
        if (was_unmasked & (1u << irq))
            ioapic_unmask(irq);
    printk("ioapic: %u pins at %#x, GSI base %u; ISA lines routed to APIC id %u\n", pin_count,
           (unsigned)io->address, (unsigned)io->gsi_base, (unsigned)lapic_id());
    return true;
}
