/*
 * pci_port.c - pci_port.h: a driver's port accesses, each recorded for mmiotrace.
 *
 * Not inline: the record's pc is the driver's call (the return address less the 5 bytes
 * of `call rel32`), which names the driver function that made the access.
 */
#include "drivers/pci/pci_port.h"

#include "arch/x86/cpu.h"
#include "kernel/trace_hooks.h"

/* Where the driver called from. */
#define CALLER_PC ((uint32_t)(uintptr_t)__builtin_return_address(0) - 5)

uint32_t pci_port_read(uint16_t port, unsigned width)
{
    uint32_t v = port_in_sized(port, width);
    trace_port_io(1, (uint8_t)width, port, v, CALLER_PC);
    return v;
}

void pci_port_write(uint16_t port, unsigned width, uint32_t value)
{
    port_out_sized(port, width, value);
    trace_port_io(2, (uint8_t)width, port, value, CALLER_PC);
}
