/*
 * pci_format.h - what PCI configuration space means, and the text tools expect about it.
 *
 * Decoding: pci_decode_config() turns a snapshot of a function's 256 configuration bytes
 * into a struct pci_device (pci.c adds the BAR sizes, which only the hardware can tell).
 * Text, each in the layout of the tool that defined it:
 *   pci_print_lspci()        pciutils' `lspci` line, or its `lspci -v` block
 *   pci_print_proc_device()  a line of Linux's /proc/bus/pci/devices
 *   pci_print_pcidev()       a PCIDEV record of Linux's mmiotrace log
 * Names come from a small built-in table of classes and vendors, spelled as in pciutils'
 * pci.ids, so the output is what lspci prints with a database holding just those entries.
 *
 * Portable: no port I/O here. `lspci -v` reads the live configuration space through
 * pci_read32() (drivers/pci/pci.h), as lspci reads it through libpci; the host test
 * (tests/unit/test_pci_format.c) supplies a pci_read32 that serves canned bytes.
 */
#ifndef DRIVERS_PCI_PCI_FORMAT_H
#define DRIVERS_PCI_PCI_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/pci/pci.h"
#include "kernel/fs/fs_tree.h"

#define PCI_CONFIG_SIZE 256

/* Registers of the configuration header (PCI Local Bus Specification 3.0, 6.1). */
#define PCI_VENDOR_ID 0x00
#define PCI_DEVICE_ID 0x02
#define PCI_COMMAND 0x04
#define PCI_COMMAND_IO 0x0001
#define PCI_COMMAND_MEMORY 0x0002
#define PCI_COMMAND_MASTER 0x0004
#define PCI_STATUS 0x06
#define PCI_STATUS_CAP_LIST 0x0010
#define PCI_REVISION_ID 0x08
#define PCI_HEADER_TYPE 0x0e
#define PCI_HEADER_MULTIFUNCTION 0x80
#define PCI_BAR0 0x10
#define PCI_SECONDARY_BUS 0x19
#define PCI_CAPABILITY_LIST 0x34
#define PCI_ROM_ADDRESS 0x30      /* header type 0 */
#define PCI_ROM_ADDRESS1 0x38     /* header type 1 */
#define PCI_ROM_ADDRESS_MASK 0xfffff800u
#define PCI_ROM_ENABLE 0x1u

/* Longest slot name "bb:dd.f" with its NUL. */
#define PCI_SLOT_NAME_MAX 8

/* Fills d's identity, class, header type, interrupt line and pin, subsystem ids (header
 * type 0), bridge bus numbers (type 1), and each BAR's kind, flags and base, and the ROM
 * base, from config (PCI_CONFIG_SIZE bytes). bus/dev/fn, sizes, driver and list links are
 * left as they are. A 64-bit BAR fills its slot and leaves the next one zero. */
void pci_decode_config(struct pci_device *d, const uint8_t *config);

/* How many BAR slots a header type has (6, 2 for a PCI-to-PCI bridge, 1 for CardBus). */
int pci_bar_slots(uint8_t header_type);

/* Offset of the expansion ROM register for a header type, or 0 if it has none. */
uint8_t pci_rom_register(uint8_t header_type);

/* The size a BAR decodes, from what it read back after all-ones was written (a 64-bit BAR:
 * high word << 32 | low word): the lowest address bit that stuck. 0 when none did. */
uint64_t pci_bar_size(uint64_t readback, bool io);
/* The same for an expansion ROM register written with PCI_ROM_ADDRESS_MASK. */
uint64_t pci_rom_size(uint32_t readback);

/* The BAR's low flag bits as the hardware reports them: 1 for I/O; for memory 0x4 if 64-bit
 * and 0x8 if prefetchable. (Linux ORs these into a resource's start in its files.) */
uint32_t pci_bar_flags(const struct pci_bar *b);

/* The interrupt number Linux would give the device (its dev->irq): the line the firmware
 * routed its pin to, or 0 when it has no pin or no route. */
unsigned pci_irq(const struct pci_device *d);

/* "00:04.0" into buf. */
void pci_slot_name(const struct pci_device *d, char buf[PCI_SLOT_NAME_MAX]);

/* Parses "bb:dd.f" or "dddd:bb:dd.f" (hex bus and device, domain 0000 only, function 0-7).
 * Returns true and fills the numbers, or false for anything else. */
bool pci_parse_slot(const char *text, uint8_t *bus, uint8_t *dev, uint8_t *fn);

/* pciutils' `lspci` line for d; with verbose, its `lspci -v` block (Subsystem, Flags, BARs,
 * ROM, capabilities, bound driver), ending with an empty line. */
void pci_print_lspci(struct fs_writer *out, const struct pci_device *d, bool verbose);

/* d's line of /proc/bus/pci/devices: "%02x%02x\t%04x%04x\t%x", 7 resource starts with their
 * flag bits, 7 sizes (all "\t%08llx"), a tab, the bound driver's name, a newline. */
void pci_print_proc_device(struct fs_writer *out, const struct pci_device *d);

/* d's PCIDEV record as Linux's kernel/trace/trace_mmiotrace.c prints it. */
void pci_print_pcidev(struct fs_writer *out, const struct pci_device *d);

#endif
