/*
 * pci.c - finding every PCI function at boot, and the config-space accessors drivers use.
 *
 * pci_init() walks the buses the firmware numbered: bus 0, then the secondary bus of every
 * PCI-to-PCI bridge found, each bus once. For each function it decodes a snapshot of the
 * configuration header (pci_format.c), sizes the BARs and the expansion ROM, prints one
 * line per function as Linux does, and keeps a struct pci_device in a list sorted by
 * bus, device and function, then builds each one's resource table (pci_resource.c) and
 * its sysfs directory (pci_sysfs.c). The list never changes after boot; only driver
 * binding (pci_driver.c) and enabling write to the devices.
 */
#include "kernel/log/ipc_logging.h"
#include "drivers/pci/pci.h"

#include "arch/x86/pci_config.h"
#include "drivers/pci/pci_format.h"
#include "drivers/pci/pci_intx.h"
#include "drivers/pci/pci_resource.h"
#include "drivers/pci/pci_sysfs.h"
#include "kernel/mm/heap.h"
#include "kernel/log/printk.h"
#include "kernel/lib/string.h"
#include "kernel/trace_hooks.h"

static struct pci_device *device_list;

/* The PCI subsystem's IPC log (ipc_logging/pci/): functions found (one line each, with what
 * sizing found and the config writes it took), config writes after enumeration (drivers
 * enabling devices, sysfs), drivers bound and unbound. */
struct ipc_log_context *pci_log;

struct pci_device *pci_devices(void) { return device_list; }

uint8_t pci_read8(const struct pci_device *d, uint8_t offset)
{
    return pci_config_read8(d->bus, d->dev, d->fn, offset);
}

uint16_t pci_read16(const struct pci_device *d, uint8_t offset)
{
    return pci_config_read16(d->bus, d->dev, d->fn, offset);
}

uint32_t pci_read32(const struct pci_device *d, uint8_t offset)
{
    return pci_config_read32(d->bus, d->dev, d->fn, offset);
}

void pci_write8(const struct pci_device *d, uint8_t offset, uint8_t value)
{
    IPC_LOG(pci_log, "%02x:%02x.%u config write8 [%#04x] = %#x", d->bus, d->dev, d->fn, offset,
            (unsigned)value);
    trace_pci_config_write(d, offset, 1, value);
    pci_config_write8(d->bus, d->dev, d->fn, offset, value);
}

void pci_write16(const struct pci_device *d, uint8_t offset, uint16_t value)
{
    IPC_LOG(pci_log, "%02x:%02x.%u config write16 [%#04x] = %#x", d->bus, d->dev, d->fn, offset,
            (unsigned)value);
    trace_pci_config_write(d, offset, 2, value);
    pci_config_write16(d->bus, d->dev, d->fn, offset, value);
}

void pci_write32(const struct pci_device *d, uint8_t offset, uint32_t value)
{
    IPC_LOG(pci_log, "%02x:%02x.%u config write32 [%#04x] = %#x", d->bus, d->dev, d->fn, offset,
            (unsigned)value);
    trace_pci_config_write(d, offset, 4, value);
    pci_config_write32(d->bus, d->dev, d->fn, offset, value);
}

/* What an enable does to the command register besides decoding, as Linux's
 * do_pci_enable_device: a device with an INTx pin may interrupt again (a driver before,
 * uio_pci_generic's handler, may have left Interrupt Disable set). */
static uint16_t intx_enabled(const struct pci_device *d, uint16_t cmd)
{
    return d->irq_pin ? cmd & (uint16_t)~PCI_COMMAND_INTX_DISABLE : cmd;
}

void pci_enable_device(struct pci_device *d)
{
    d->enable_count++;
    uint16_t cmd = pci_read16(d, PCI_COMMAND);
    uint16_t want = intx_enabled(d, cmd) | PCI_COMMAND_IO | PCI_COMMAND_MEMORY |
                    PCI_COMMAND_MASTER;
    if (want != cmd)
        pci_write16(d, PCI_COMMAND, want);
}

void pci_enable_decoding(struct pci_device *d)
{
    if (d->enable_count++)
        return; /* enabled already: Linux does nothing more either */
    uint16_t cmd = pci_read16(d, PCI_COMMAND), want = intx_enabled(d, cmd);
    for (int i = 0; i < PCI_NUM_RESOURCES; i++) {
        const struct pci_resource *r = &d->resource[i];
        if (i == PCI_ROM_RESOURCE && !(r->flags & IORESOURCE_ROM_ENABLE))
            continue;
        if (r->flags & IORESOURCE_IO)
            want |= PCI_COMMAND_IO;
        if (r->flags & IORESOURCE_MEM)
            want |= PCI_COMMAND_MEMORY;
    }
    if (want != cmd)
        pci_write16(d, PCI_COMMAND, want);
}

void pci_disable_device(struct pci_device *d)
{
    if (!d->enable_count || --d->enable_count)
        return;
    uint16_t cmd = pci_read16(d, PCI_COMMAND);
    if (cmd & PCI_COMMAND_MASTER)
        pci_write16(d, PCI_COMMAND, cmd & ~PCI_COMMAND_MASTER);
}

struct pci_device *pci_find_slot(uint8_t bus, uint8_t dev, uint8_t fn)
{
    for (struct pci_device *d = device_list; d; d = d->next)
        if (d->bus == bus && d->dev == dev && d->fn == fn)
            return d;
    return NULL;
}

struct pci_device *pci_lookup(const char *name)
{
    uint8_t bus, dev, fn;
    if (pci_parse_slot(name, &bus, &dev, &fn))
        return pci_find_slot(bus, dev, fn);
    for (struct pci_device *d = device_list; d; d = d->next)
        if (d->driver && strcmp(d->driver->name, name) == 0)
            return d;
    return NULL;
}

/* --- enumeration ------------------------------------------------------------------------ */

/* Enumeration's own config writes: traced as every write is (the pci_config_write event),
 * but not logged one line each in the pci IPC log: add_function logs the device once, with
 * the number of writes sizing it took (a formatted line per write was most of the boot's
 * PCI cost, issue 24). */
static void enum_write16(const struct pci_device *d, uint8_t offset, uint16_t value,
                         unsigned *writes)
{
    trace_pci_config_write(d, offset, 2, value);
    pci_config_write16(d->bus, d->dev, d->fn, offset, value);
    (*writes)++;
}

/* Writes value to a register, reads back what stuck, and puts the original value back:
 * the probe that tells which address bits of a BAR or ROM register are implemented. The
 * four accesses run under one hold of the configuration lock (pci_config_probe32), not
 * four; both writes are traced as pci_config_write events, in their order. */
static uint32_t probe_register(const struct pci_device *d, uint8_t reg, uint32_t value,
                               unsigned *writes)
{
    uint32_t saved;
    trace_pci_config_write(d, reg, 4, value);
    uint32_t readback = pci_config_probe32(d->bus, d->dev, d->fn, reg, value, &saved);
    trace_pci_config_write(d, reg, 4, saved);
    *writes += 2;
    return readback;
}

/*
 * Sizes every BAR and the ROM. Memory and I/O decoding are off meanwhile, so that the
 * all-ones address a BAR briefly holds never claims anyone's cycles; host bridges keep
 * decoding, as on Linux, because some stop answering for RAM when told not to decode. A
 * BAR with no implemented address bits is not there: its slot is cleared. Returns the
 * config writes it made.
 */
static unsigned size_resources(struct pci_device *d)
{
    unsigned writes = 0;
    int slots = pci_bar_slots(d->header_type);
    uint8_t rom = pci_rom_register(d->header_type);
    bool host_bridge = d->class_code == 0x06 && d->subclass == 0x00;
    uint16_t cmd = pci_read16(d, PCI_COMMAND);
    if (!host_bridge)
        enum_write16(d, PCI_COMMAND, cmd & ~(PCI_COMMAND_IO | PCI_COMMAND_MEMORY), &writes);
    for (int i = 0; i < slots; i++) {
        struct pci_bar *b = &d->bar[i];
        uint8_t reg = (uint8_t)(PCI_BAR0 + 4 * i);
        uint64_t readback = probe_register(d, reg, 0xffffffffu, &writes);
        if (b->is64)
            readback |= (uint64_t)probe_register(d, (uint8_t)(reg + 4), 0xffffffffu, &writes)
                        << 32;
        b->size = pci_bar_size(readback, b->io);
        if (!b->size)
            memset(b, 0, sizeof *b);
        else if (b->is64)
            i++;
    }
    if (rom) {
        d->rom_size = pci_rom_size(probe_register(d, rom, PCI_ROM_ADDRESS_MASK, &writes));
        if (!d->rom_size)
            d->rom_base = 0;
    }
    if (!host_bridge)
        enum_write16(d, PCI_COMMAND, cmd, &writes);
    return writes;
}

/* Prints the boot lines Linux prints for a function: its ids, header type and class, then
 * each BAR and the ROM as a resource ("reg 0x10: [mem 0xfea00000-0xfeafffff]"). */
static void print_found(const struct pci_device *d)
{
    char slot[PCI_SLOT_NAME_MAX];
    pci_slot_name(d, slot);
    printk("pci 0000:%s: [%04x:%04x] type %02x class 0x%02x%02x%02x\n", slot, d->vendor,
           d->device, d->header_type, d->class_code, d->subclass, d->prog_if);
    for (int i = 0; i < PCI_MAX_BARS; i++) {
        const struct pci_bar *b = &d->bar[i];
        if (!b->size)
            continue;
        unsigned long long start = b->base, end = b->base + b->size - 1;
        if (b->io)
            printk("pci 0000:%s: reg 0x%x: [io  0x%04llx-0x%04llx]\n", slot, PCI_BAR0 + 4 * i,
                   start, end);
        else
            printk("pci 0000:%s: reg 0x%x: [mem 0x%08llx-0x%08llx%s%s]\n", slot,
                   PCI_BAR0 + 4 * i, start, end, b->is64 ? " 64bit" : "",
                   b->prefetchable ? " pref" : "");
    }
    if (d->rom_size)
        printk("pci 0000:%s: reg 0x%x: [mem 0x%08llx-0x%08llx pref]\n", slot,
               pci_rom_register(d->header_type), (unsigned long long)d->rom_base,
               (unsigned long long)(d->rom_base + d->rom_size - 1));
}

/* Whether legacy VGA reaches bus: bus 0 does; a bus behind a bridge does when the bridge
 * forwards VGA and VGA reaches the bridge's own bus (bridges are found before the buses
 * behind them: pci_init scans breadth first). */
static bool vga_reaches(uint8_t bus)
{
    for (int depth = 0; bus != 0 && depth < 256; depth++) {
        const struct pci_device *bridge = NULL;
        for (const struct pci_device *b = device_list; b; b = b->next)
            if (b->header_type == 1 && b->secondary_bus == bus)
                bridge = b;
        if (!bridge || !(pci_read16(bridge, PCI_BRIDGE_CONTROL) & PCI_BRIDGE_CTL_VGA))
            return false;
        bus = bridge->bus;
    }
    return bus == 0;
}

/*
 * Builds d's resource table (pci_resource.h) and prints what Linux prints when it differs
 * from the registers: the legacy IDE ports, the boot video device's shadowed ROM (whose
 * ROM BAR is turned off then, as Linux's pci_disable_rom does, so that only the shadow
 * answers at 0xc0000).
 */
static void setup_resources(struct pci_device *d, const uint8_t *config)
{
    char slot[PCI_SLOT_NAME_MAX];
    pci_slot_name(d, slot);
    uint16_t command = (uint16_t)(config[PCI_COMMAND] | config[PCI_COMMAND + 1] << 8);
    bool boot_video = pci_is_boot_video(d, command, vga_reaches(d->bus));
    uint8_t rom = pci_rom_register(d->header_type);
    if (boot_video && rom && (pci_read32(d, rom) & PCI_ROM_ENABLE))
        pci_write32(d, rom, pci_read32(d, rom) & ~PCI_ROM_ENABLE);
    pci_setup_resources(d, config, boot_video);
    for (int i = 0; i < 4; i++) {
        const struct pci_resource *r = &d->resource[i];
        if (!(r->flags & IORESOURCE_PCI_FIXED))
            continue;
        if (r->start == r->end)
            printk("pci 0000:%s: legacy IDE quirk: reg 0x%x: [io  0x%04llx]\n", slot,
                   PCI_BAR0 + 4 * i, (unsigned long long)r->start);
        else
            printk("pci 0000:%s: legacy IDE quirk: reg 0x%x: [io  0x%04llx-0x%04llx]\n", slot,
                   PCI_BAR0 + 4 * i, (unsigned long long)r->start, (unsigned long long)r->end);
    }
    if (boot_video)
        printk("pci 0000:%s: Video device with shadowed ROM at [mem 0x%08llx-0x%08llx]\n", slot,
               (unsigned long long)d->resource[PCI_ROM_RESOURCE].start,
               (unsigned long long)d->resource[PCI_ROM_RESOURCE].end);
}

/* Puts d into the device list, which stays in bus, device, function order. */
static void insert_sorted(struct pci_device *d)
{
    unsigned key = (unsigned)d->bus << 8 | (unsigned)d->dev << 3 | d->fn;
    struct pci_device **link = &device_list;
    while (*link && ((unsigned)(*link)->bus << 8 | (unsigned)(*link)->dev << 3 | (*link)->fn) < key)
        link = &(*link)->next;
    d->next = *link;
    *link = d;
}

/* Records the function at bus:dev.fn, known to be present. NULL if memory ran out. */
static struct pci_device *add_function(uint8_t bus, uint8_t dev, uint8_t fn)
{
    struct pci_device *d = kzalloc(sizeof *d);
    if (!d) {
        printk("pci: out of memory at %02x:%02x.%u; enumeration incomplete\n", bus, dev, fn);
        return NULL;
    }
    /* The header's snapshot, under one hold of the configuration lock; x86 is little
     * endian, so the dwords' bytes are the configuration bytes in order. */
    uint32_t dwords[PCI_CONFIG_SIZE / 4];
    pci_config_read_dwords(bus, dev, fn, 0, dwords, PCI_CONFIG_SIZE / 4);
    const uint8_t *config = (const uint8_t *)dwords;
    d->bus = bus;
    d->dev = dev;
    d->fn = fn;
    pci_decode_config(d, config);
    unsigned writes = size_resources(d);
    insert_sorted(d);
    print_found(d);
    setup_resources(d, config);
    unsigned bars = 0;
    for (int i = 0; i < PCI_MAX_BARS; i++)
        bars += d->bar[i].size != 0;
    IPC_LOG(pci_log, "%02x:%02x.%u [%04x:%04x] class %02x%02x%02x header %u: %u BAR%s%s, "
            "sized by %u config writes", bus, dev, fn, d->vendor, d->device, d->class_code,
            d->subclass, d->prog_if, d->header_type, bars, bars == 1 ? "" : "s",
            d->rom_size ? " and a ROM" : "", writes);
    return d;
}

/*
 * Scans bus 0 and every bus behind a bridge, breadth first, each bus once (a bridge that
 * names a bus already scanned, by misconfiguration, cannot make the walk loop). Function 0
 * tells whether a device has functions 1-7 (multifunction bit of its header type).
 */
void pci_init(void)
{
    pci_log = ipc_log_context_create(8, "pci", 0);
    static uint8_t queue[256];
    static bool queued[256];
    unsigned head = 0, tail = 0;
    queue[tail++] = 0;
    queued[0] = true;
    while (head < tail) {
        uint8_t bus = queue[head++];
        for (uint8_t dev = 0; dev < 32; dev++) {
            /* The vendor and device ids' dword, as Linux's pci_bus_read_dev_vendor_id. */
            if ((uint16_t)pci_config_read32(bus, dev, 0, PCI_VENDOR_ID) == 0xffff)
                continue;
            bool multi = pci_config_read8(bus, dev, 0, PCI_HEADER_TYPE) & PCI_HEADER_MULTIFUNCTION;
            for (uint8_t fn = 0; fn < (multi ? 8 : 1); fn++) {
                if (fn && pci_config_read16(bus, dev, fn, PCI_VENDOR_ID) == 0xffff)
                    continue;
                struct pci_device *d = add_function(bus, dev, fn);
                if (!d || d->header_type != 1)
                    continue;
                if (d->secondary_bus == 0 || d->secondary_bus <= bus)
                    printk("pci 0000:%02x:%02x.%u: bridge to bus %02x not numbered by the "
                           "firmware; not scanned\n", bus, dev, fn, d->secondary_bus);
                else if (!queued[d->secondary_bus]) {
                    queued[d->secondary_bus] = true;
                    queue[tail++] = d->secondary_bus;
                }
            }
        }
    }
    pci_sysfs_init();
}
