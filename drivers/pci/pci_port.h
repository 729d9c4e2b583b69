/*
 * pci_port.h - a PCI driver's accesses to its device's I/O ports (an I/O BAR).
 *
 * Each is the `in` or `out`, then, while mmiotrace's extension is on, an IN or OUT record
 * of it (kernel/trace_hooks.h: a load and a branch otherwise). Linux's mmiotrace sees no
 * port I/O at all; whoever writes a device model wants every access the driver makes. The
 * kernel's own ports (serial, PIC, PIT, PCI configuration) go through kernel/arch.h's
 * inb/outb and are never recorded: they keep time and carry the trace itself.
 */
#ifndef DRIVERS_PCI_PCI_PORT_H
#define DRIVERS_PCI_PCI_PORT_H

#include <stdint.h>

/* Reads width bytes (1, 2 or 4) from port. */
uint32_t pci_port_read(uint16_t port, unsigned width);
/* Writes the low width bytes (1, 2 or 4) of value to port. */
void pci_port_write(uint16_t port, unsigned width, uint32_t value);

#endif
