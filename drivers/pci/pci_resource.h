/*
 * pci_resource.h - Linux's resource view of a PCI function: one table per device that
 * every text about its address ranges reads.
 *
 * Enumeration (pci.c) sizes the BAR registers; pci_setup_resources() then turns what they
 * decode into the table Linux keeps in struct pci_dev's resource[] (start, end, flags),
 * including the two places where Linux reports something other than the registers:
 *   - an IDE controller in compatibility mode (class 0101, prog-if bit 0 or 2 clear) owns
 *     the legacy ports whatever its BARs 0-3 say: 0x1f0-0x1f7 and 0x3f6 for the primary
 *     channel, 0x170-0x177 and 0x376 for the secondary (Linux's pci_setup_device);
 *   - the boot VGA device's ROM is the copy the BIOS shadowed at 0xc0000, 128 KiB
 *     (Linux's x86 pci_fixup_video), not its ROM BAR.
 * The flags are Linux's IORESOURCE_* bits, and the low 4 bits carry the BAR's own low
 * bits (I/O: 1; memory: type and prefetch bits), as Linux's decode_bar keeps them.
 * Readers: sysfs's resource file (pci_print_resource_file), /proc/bus/pci/devices,
 * lspci -v and mmiotrace's PCIDEV (pci_format.c).
 * Portable: tests/unit/test_pci_format.c.
 */
#ifndef DRIVERS_PCI_PCI_RESOURCE_H
#define DRIVERS_PCI_PCI_RESOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/pci/pci.h"
#include "kernel/fs/fs_tree.h"

/* Linux's include/linux/ioport.h values. */
#define IORESOURCE_IO 0x00000100u
#define IORESOURCE_MEM 0x00000200u
#define IORESOURCE_PREFETCH 0x00002000u
#define IORESOURCE_READONLY 0x00004000u
#define IORESOURCE_SIZEALIGN 0x00040000u
#define IORESOURCE_MEM_64 0x00100000u
/* The PCI-specific low bits. */
#define IORESOURCE_ROM_ENABLE 0x1u
#define IORESOURCE_ROM_SHADOW 0x2u
#define IORESOURCE_PCI_FIXED 0x10u
/* What the text files OR into a start address: Linux's PCI_REGION_FLAG_MASK. */
#define PCI_REGION_FLAG_MASK 0xfu

/* Bridge control register and its VGA enable bit (a bridge forwards legacy VGA). */
#define PCI_BRIDGE_CONTROL 0x3e
#define PCI_BRIDGE_CTL_VGA 0x08

/* Fills d->resource from d's decoded BARs and their sizes (pci.c's sizing: d->bar,
 * d->rom_base, d->rom_size) and the configuration snapshot it was decoded from.
 * boot_video: d is the VGA device the BIOS set up (pci_is_boot_video), whose ROM Linux
 * reports as the shadow at 0xc0000. */
void pci_setup_resources(struct pci_device *d, const uint8_t *config, bool boot_video);

/* Whether d is a VGA device (class 0300) that decodes (I/O or memory on in command) with
 * VGA routed to its bus (vga_routed: every bridge above it has VGA enable; true on bus
 * 0): the device Linux's pci_fixup_video shadows. */
bool pci_is_boot_video(const struct pci_device *d, uint16_t command, bool vga_routed);

/* The size Linux's text files give a resource: end - start + 1 when start < end, else 0
 * (so a one-port resource such as 0x3f6 shows size 0, as on Linux). */
uint64_t pci_resource_size(const struct pci_resource *r);

/* The bytes a resource spans (Linux's pci_resource_len): 0 for an unused one. */
static inline uint64_t pci_resource_len(const struct pci_resource *r)
{
    return r->flags ? r->end - r->start + 1 : 0;
}

/* How many lines sysfs's resource file has: 13 (BARs, ROM, the 6 SR-IOV slots of a
 * kernel built with CONFIG_PCI_IOV, as Debian's) or 17 for a bridge (its 4 windows). */
int pci_resource_lines(const struct pci_device *d);

/* sysfs's resource file: "0x%016llx 0x%016llx 0x%016llx\n" start, end, flags per line. */
void pci_print_resource_file(struct fs_writer *out, const struct pci_device *d);

#endif
