/*
 * pci_intx.h - a device's legacy interrupt (INTx) masked and unmasked in its own command
 * register, as PCI 2.3 allows: Linux's pci_intx, pci_intx_mask_supported and
 * pci_check_and_mask_intx (drivers/pci/pci.c), which a driver needs when it shares its line
 * and leaves the device's own acknowledgement to someone else (uio_pci_generic: a program).
 *
 * Command bit 10 (Interrupt Disable) set keeps the device from asserting INTx; status bit 3
 * (Interrupt Status) says the device wants to interrupt, whether or not bit 10 lets it.
 * Every change is a read-modify-write of the command register under the configuration lock
 * (arch/x86/pci_config.h), so a handler on one CPU and a program's config write on another
 * cannot lose each other's bit.
 */
#ifndef DRIVERS_PCI_PCI_INTX_H
#define DRIVERS_PCI_PCI_INTX_H

#include <stdbool.h>

#include "drivers/pci/pci.h"

#define PCI_COMMAND_INTX_DISABLE 0x0400 /* command register bit 10 */
#define PCI_STATUS_INTERRUPT 0x0008     /* status register bit 3 */

/* Whether d's Interrupt Disable bit can be set and cleared (it sticks when written): Linux
 * refuses uio_pci_generic on a device whose bit does not (pci_intx_mask_broken). The bit is
 * toggled and put back. */
bool pci_intx_mask_supported(const struct pci_device *d);

/* The interrupt handler's test of a shared line: when d's status says it is interrupting
 * and its INTx is not masked yet, masks it (sets Interrupt Disable) and returns true (the
 * interrupt was d's); else changes nothing and returns false. */
bool pci_check_and_mask_intx(const struct pci_device *d);

/* Lets d assert INTx (enable) or masks it: Interrupt Disable cleared or set, written only
 * when it changes. */
void pci_intx(const struct pci_device *d, bool enable);

#endif
