/*
 * pci_sysfs.h - Linux's sysfs PCI tree: /sys/devices/pci0000:00/DDDD:BB:DD.F/ with each
 * function's attribute files, /sys/bus/pci/devices/ linking to them, and
 * /sys/bus/pci/drivers/NAME/ with bind, unbind and new_id. See pci_sysfs.c.
 */
#ifndef DRIVERS_PCI_PCI_SYSFS_H
#define DRIVERS_PCI_PCI_SYSFS_H

#include "drivers/pci/pci.h"

/* Makes the tree for every device and driver; pci_init calls it once enumeration is done. */
void pci_sysfs_init(void);

/* d was just bound to / is about to be unbound from its driver: make or remove its
 * `driver` link and the driver directory's link to it. */
void pci_sysfs_bound(struct pci_device *d);
void pci_sysfs_unbound(struct pci_device *d);

/* d's resourceN (and resourceN_wc) files in its directory (pci_sysfs_resource.c). */
void pci_sysfs_add_resource_files(struct pci_device *d);

#endif
