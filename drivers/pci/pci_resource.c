/*
 * pci_resource.c - filling and printing Linux's resource table of a device
 * (pci_resource.h).
 */
#include "drivers/pci/pci_resource.h"

#include "drivers/pci/pci_format.h"
#include "kernel/lib/string.h"

/* Little-endian registers of a configuration snapshot. */
static uint32_t cfg16(const uint8_t *c, unsigned offset)
{
    return (uint32_t)c[offset] | (uint32_t)c[offset + 1] << 8;
}

static uint32_t cfg32(const uint8_t *c, unsigned offset)
{
    return cfg16(c, offset) | cfg16(c, offset + 2) << 16;
}

static void set_range(struct pci_resource *r, uint64_t start, uint64_t end, uint32_t flags)
{
    r->start = start;
    r->end = end;
    r->flags = flags;
}

/* A sized BAR as Linux's decode_bar and __pci_read_base leave it: the register's low bits,
 * the space, prefetch and 64-bit bits, and "aligned to its size". */
static void bar_resource(struct pci_resource *r, const struct pci_bar *b, uint32_t raw)
{
    uint32_t flags;
    if (b->io) {
        flags = (raw & 3u) | IORESOURCE_IO;
    } else {
        flags = (raw & 0xfu) | IORESOURCE_MEM;
        if (raw & 8u)
            flags |= IORESOURCE_PREFETCH;
        if ((raw & 6u) == 4u)
            flags |= IORESOURCE_MEM_64;
    }
    set_range(r, b->base, b->base + b->size - 1, flags | IORESOURCE_SIZEALIGN);
}

/* The legacy IDE ports of one channel: command block (8 ports) in r[0], control port in
 * r[1], both fixed (Linux's LEGACY_IO_RESOURCE). */
static void legacy_ide_channel(struct pci_resource *r, uint64_t command, uint64_t control)
{
    set_range(&r[0], command, command + 7, IORESOURCE_IO | IORESOURCE_PCI_FIXED);
    set_range(&r[1], control, control, IORESOURCE_IO | IORESOURCE_PCI_FIXED);
}

/* A bridge's three forwarding windows as Linux's pci_read_bridge_{io,mmio,mmio_pref} read
 * them; a window whose base is above its limit is closed and stays empty. */
static void bridge_windows(struct pci_resource *w, const uint8_t *c)
{
    uint32_t io_lo = c[0x1c], io_hi = c[0x1d];
    uint64_t base = (io_lo & 0xf0u) << 8, limit = (io_hi & 0xf0u) << 8;
    if ((io_lo & 0xf) == 1) { /* 32-bit I/O addressing */
        base |= cfg16(c, 0x30) << 16;
        limit |= cfg16(c, 0x32) << 16;
    }
    if (base <= limit)
        set_range(&w[0], base, limit + 0xfff, (io_lo & 0xf) | IORESOURCE_IO);

    uint32_t mem_lo = cfg16(c, 0x20), mem_hi = cfg16(c, 0x22);
    base = (uint64_t)(mem_lo & 0xfff0u) << 16;
    limit = (uint64_t)(mem_hi & 0xfff0u) << 16;
    if (base <= limit)
        set_range(&w[1], base, limit + 0xfffff, (mem_lo & 0xf) | IORESOURCE_MEM);

    uint32_t pref_lo = cfg16(c, 0x24), pref_hi = cfg16(c, 0x26);
    uint32_t flags = (pref_lo & 0xf) | IORESOURCE_MEM | IORESOURCE_PREFETCH;
    base = (uint64_t)(pref_lo & 0xfff0u) << 16;
    limit = (uint64_t)(pref_hi & 0xfff0u) << 16;
    if ((pref_lo & 0xf) == 1) { /* 64-bit window */
        base |= (uint64_t)cfg32(c, 0x28) << 32;
        limit |= (uint64_t)cfg32(c, 0x2c) << 32;
        flags |= IORESOURCE_MEM_64;
    }
    if (base <= limit)
        set_range(&w[2], base, limit + 0xfffff, flags);
}

void pci_setup_resources(struct pci_device *d, const uint8_t *c, bool boot_video)
{
    memset(d->resource, 0, sizeof d->resource);
    int slots = pci_bar_slots(d->header_type);
    for (int i = 0; i < slots && i < PCI_MAX_BARS; i++)
        if (d->bar[i].size)
            bar_resource(&d->resource[i], &d->bar[i], cfg32(c, PCI_BAR0 + 4 * (unsigned)i));
    uint8_t rom = pci_rom_register(d->header_type);
    if (rom && d->rom_size) {
        uint32_t flags = IORESOURCE_MEM | IORESOURCE_PREFETCH | IORESOURCE_READONLY |
                         IORESOURCE_SIZEALIGN;
        if (cfg32(c, rom) & PCI_ROM_ENABLE)
            flags |= IORESOURCE_ROM_ENABLE;
        set_range(&d->resource[PCI_ROM_RESOURCE], d->rom_base, d->rom_base + d->rom_size - 1,
                  flags);
    }
    if (d->header_type == 0 && d->class_code == 0x01 && d->subclass == 0x01) {
        if (!(d->prog_if & 1))
            legacy_ide_channel(&d->resource[0], 0x1f0, 0x3f6);
        if (!(d->prog_if & 4))
            legacy_ide_channel(&d->resource[2], 0x170, 0x376);
    }
    if (boot_video)
        set_range(&d->resource[PCI_ROM_RESOURCE], 0xc0000, 0xc0000 + 0x20000 - 1,
                  IORESOURCE_MEM | IORESOURCE_ROM_SHADOW | IORESOURCE_PCI_FIXED);
    if (d->header_type == 1)
        bridge_windows(&d->resource[PCI_BRIDGE_RESOURCES], c);
}

bool pci_is_boot_video(const struct pci_device *d, uint16_t command, bool vga_routed)
{
    return d->class_code == 0x03 && d->subclass == 0x00 && vga_routed &&
           (command & (PCI_COMMAND_IO | PCI_COMMAND_MEMORY)) != 0;
}

uint64_t pci_resource_size(const struct pci_resource *r)
{
    return r->start < r->end ? r->end - r->start + 1 : 0;
}

int pci_resource_lines(const struct pci_device *d)
{
    return d->header_type == 1 ? PCI_NUM_RESOURCES : PCI_BRIDGE_RESOURCES;
}

void pci_print_resource_file(struct fs_writer *out, const struct pci_device *d)
{
    for (int i = 0; i < pci_resource_lines(d); i++) {
        const struct pci_resource *r = &d->resource[i];
        fs_printf(out, "0x%016llx 0x%016llx 0x%016llx\n", (unsigned long long)r->start,
                  (unsigned long long)r->end, (unsigned long long)r->flags);
    }
}
