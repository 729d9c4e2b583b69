/*
 * pci_intx.c - INTx masking through the command register (pci_intx.h).
 */
#include "drivers/pci/pci_intx.h"

#include "arch/x86/pci_config.h"
#include "drivers/pci/pci_format.h"

/* The dword at PCI_COMMAND holds the command register (low half) and the status register
 * (high half): one read gives both, as Linux's pci_check_and_set_intx_mask reads them. */
static uint16_t command_of(uint32_t dword) { return (uint16_t)dword; }
static uint16_t status_of(uint32_t dword) { return (uint16_t)(dword >> 16); }

/* pci_config_update16's decision for pci_check_and_mask_intx: the device interrupts and is
 * not masked yet. */
static bool mask_if_pending(uint32_t dword, uint16_t *command)
{
    if (!(status_of(dword) & PCI_STATUS_INTERRUPT) ||
        (command_of(dword) & PCI_COMMAND_INTX_DISABLE))
        return false;
    *command = command_of(dword) | PCI_COMMAND_INTX_DISABLE;
    return true;
}

bool pci_check_and_mask_intx(const struct pci_device *d)
{
    uint32_t dword = pci_config_update16(d->bus, d->dev, d->fn, PCI_COMMAND, mask_if_pending);
    uint16_t ignored;
    return mask_if_pending(dword, &ignored);
}

static bool set_disable(uint32_t dword, uint16_t *command)
{
    *command = command_of(dword) | PCI_COMMAND_INTX_DISABLE;
    return *command != command_of(dword);
}

static bool clear_disable(uint32_t dword, uint16_t *command)
{
    *command = command_of(dword) & (uint16_t)~PCI_COMMAND_INTX_DISABLE;
    return *command != command_of(dword);
}

void pci_intx(const struct pci_device *d, bool enable)
{
    pci_config_update16(d->bus, d->dev, d->fn, PCI_COMMAND, enable ? clear_disable : set_disable);
}

static bool toggle_disable(uint32_t dword, uint16_t *command)
{
    *command = command_of(dword) ^ PCI_COMMAND_INTX_DISABLE;
    return true;
}

bool pci_intx_mask_supported(const struct pci_device *d)
{
    uint16_t before = command_of(
        pci_config_update16(d->bus, d->dev, d->fn, PCI_COMMAND, toggle_disable));
    uint16_t after = command_of(
        pci_config_update16(d->bus, d->dev, d->fn, PCI_COMMAND, toggle_disable));
    /* The second toggle put the bit back; it moved if the first read differs from the
     * second in bit 10. */
    return ((before ^ after) & PCI_COMMAND_INTX_DISABLE) != 0;
}
