/*
 * pci_driver.h - binding devices to the built-in drivers: the one path that modprobe and
 * rmmod (pci_commands.c) and sysfs's bind, unbind and new_id (pci_sysfs.c) all take.
 *
 * A driver handles the (vendor, device) pairs of its table and the ids added to it at run
 * time through new_id (Linux's dynamic ids). Binding names the driver in the device while
 * probe runs, so that a second bind of the same device sees it taken (EBUSY), as Linux's
 * device lock makes it; probe may sleep (edu waits for its interrupt), which lets other
 * tasks in under the big kernel lock (kernel/kernel_lock.h), and they find the device
 * marked. Every state change happens under that lock.
 */
#ifndef DRIVERS_PCI_PCI_DRIVER_H
#define DRIVERS_PCI_PCI_DRIVER_H

#include <stddef.h>

#include "drivers/pci/pci.h"

extern const struct pci_driver *const pci_drivers_start[], *const pci_drivers_end[];

/* The built-in driver called name, or NULL. */
const struct pci_driver *pci_find_driver(const char *name);

/* Whether drv handles d: its table or an id new_id gave it (Linux's pci_match_device). */
bool pci_driver_matches(const struct pci_driver *drv, const struct pci_device *d);

/* Binds drv to d and probes: 0, -EBUSY (d has a driver, or a probe of it is running), or
 * probe's error (d is left without a driver). Records the bind (pci/ event, IPC log) and
 * makes the sysfs links. */
int pci_bind_driver(const struct pci_driver *drv, struct pci_device *d);

/* Unbinds d from its driver (remove undoes probe): 0, -ENODEV (no driver), -EBUSY (its
 * probe is still running). */
int pci_unbind_driver(struct pci_device *d);

/* new_id: parses buf as Linux's new_id_store, adds the id to drv and binds drv to every
 * unbound device it now matches. 0, -EINVAL (malformed, or a driver_data no table entry
 * has), -EEXIST (drv already handles that id), -ENOMEM. */
int pci_driver_new_id(const struct pci_driver *drv, const char *buf, size_t len);

#endif
