/*
 * pci_events.h - pci/pci_config_write, pci_driver_bind and pci_driver_unbind: what drivers
 * do to PCI devices (drivers/pci), as events (Linux 6.1 has no counterpart; the fields are
 * what a user filters on: bus, dev, fn, offset, width, value; vendor, device, driver name):
 *
 *   pci_config_write   a driver's write to a function's configuration space (pci_write8,
 *                      16, 32: enabling the device, its command register; enumeration's
 *                      BAR sizing writes through them too, at boot, before any event is on)
 *   pci_driver_bind    `modprobe NAME`: the driver's probe of a device returned ret (0:
 *                      bound; the device named its driver while probe ran, as on Linux)
 *   pci_driver_unbind  `rmmod NAME`: the driver's remove ran
 * The slot prints as lspci shows it ("00:04.0"). Hooks in kernel/trace_hooks.h: each costs
 * one load and a branch while off.
 */
#ifndef TRACE_EVENTS_PCI_EVENTS_H
#define TRACE_EVENTS_PCI_EVENTS_H

#include "trace/events/tracepoint.h"

extern struct trace_event_call event_pci_config_write, event_pci_driver_bind,
    event_pci_driver_unbind;

#endif
