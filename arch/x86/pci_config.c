/*
 * pci_config.c - configuration mechanism #1: the address port 0xCF8 and the data port 0xCFC.
 *
 * An access is two port operations, and the address written by the first stays in the
 * chipset for the second. Another CPU or an interrupt handler that selected a different
 * address in between would make us read or write the wrong register, so every pair runs
 * under one lock with interrupts off.
 */
#include "arch/x86/pci_config.h"

#include "arch/x86/cpu.h"
#include "kernel/spinlock.h"

#define PCI_CONFIG_ADDRESS 0xcf8
#define PCI_CONFIG_DATA 0xcfc
#define PCI_CONFIG_ENABLE 0x80000000u

static struct spinlock pci_config_lock = SPINLOCK_INIT("pci_config");

/* The value for 0xCF8 that selects the dword holding offset: enable bit, bus, device,
 * function, and the register number with its low two bits clear. */
static uint32_t config_address(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t offset)
{
    return PCI_CONFIG_ENABLE | (uint32_t)bus << 16 | (uint32_t)(dev & 31) << 11 |
           (uint32_t)(fn & 7) << 8 | (offset & 0xfc);
}

uint8_t pci_config_read8(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t offset)
{
    unsigned long flags = spin_lock_irqsave(&pci_config_lock);
    outl(PCI_CONFIG_ADDRESS, config_address(bus, dev, fn, offset));
    uint8_t v = inb(PCI_CONFIG_DATA + (offset & 3));
    spin_unlock_irqrestore(&pci_config_lock, flags);
    return v;
}

uint16_t pci_config_read16(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t offset)
{
    unsigned long flags = spin_lock_irqsave(&pci_config_lock);
    outl(PCI_CONFIG_ADDRESS, config_address(bus, dev, fn, offset));
    uint16_t v = inw(PCI_CONFIG_DATA + (offset & 2));
    spin_unlock_irqrestore(&pci_config_lock, flags);
    return v;
}

uint32_t pci_config_read32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t offset)
{
    unsigned long flags = spin_lock_irqsave(&pci_config_lock);
    outl(PCI_CONFIG_ADDRESS, config_address(bus, dev, fn, offset));
    uint32_t v = inl(PCI_CONFIG_DATA);
    spin_unlock_irqrestore(&pci_config_lock, flags);
    return v;
}

void pci_config_write8(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t offset, uint8_t value)
{
    unsigned long flags = spin_lock_irqsave(&pci_config_lock);
    outl(PCI_CONFIG_ADDRESS, config_address(bus, dev, fn, offset));
    outb(PCI_CONFIG_DATA + (offset & 3), value);
    spin_unlock_irqrestore(&pci_config_lock, flags);
}

void pci_config_write16(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t offset, uint16_t value)
{
    unsigned long flags = spin_lock_irqsave(&pci_config_lock);
    outl(PCI_CONFIG_ADDRESS, config_address(bus, dev, fn, offset));
    outw(PCI_CONFIG_DATA + (offset & 2), value);
    spin_unlock_irqrestore(&pci_config_lock, flags);
}

void pci_config_write32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t offset, uint32_t value)
{
    unsigned long flags = spin_lock_irqsave(&pci_config_lock);
    outl(PCI_CONFIG_ADDRESS, config_address(bus, dev, fn, offset));
    outl(PCI_CONFIG_DATA, value);
    spin_unlock_irqrestore(&pci_config_lock, flags);
}

void pci_config_read_dwords(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t offset, uint32_t *out,
                            unsigned count)
{
    unsigned long flags = spin_lock_irqsave(&pci_config_lock);
    for (unsigned i = 0; i < count; i++) {
        outl(PCI_CONFIG_ADDRESS, config_address(bus, dev, fn, (uint8_t)(offset + 4 * i)));
        out[i] = inl(PCI_CONFIG_DATA);
    }
    spin_unlock_irqrestore(&pci_config_lock, flags);
}

uint32_t pci_config_probe32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t offset, uint32_t value,
                            uint32_t *saved)
{
    unsigned long flags = spin_lock_irqsave(&pci_config_lock);
    outl(PCI_CONFIG_ADDRESS, config_address(bus, dev, fn, offset));
    *saved = inl(PCI_CONFIG_DATA); /* the address stays selected for the three that follow */
    outl(PCI_CONFIG_DATA, value);
    uint32_t readback = inl(PCI_CONFIG_DATA);
    outl(PCI_CONFIG_DATA, *saved);
    spin_unlock_irqrestore(&pci_config_lock, flags);
    return readback;
}

uint32_t pci_config_update16(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t offset,
                             bool (*update)(uint32_t dword, uint16_t *word))
{
    unsigned long flags = spin_lock_irqsave(&pci_config_lock);
    outl(PCI_CONFIG_ADDRESS, config_address(bus, dev, fn, offset));
    uint32_t dword = inl(PCI_CONFIG_DATA);
    uint16_t word;
    if (update(dword, &word))
        outw(PCI_CONFIG_DATA + (offset & 2), word); /* the address is still selected */
    spin_unlock_irqrestore(&pci_config_lock, flags);
    return dword;
}
