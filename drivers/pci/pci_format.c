/*
 * pci_format.c - decoding configuration space, and lspci, /proc/bus/pci/devices and
 * mmiotrace PCIDEV text about it. See pci_format.h.
 *
 * The lspci text follows pciutils 3.x at verbosity 1 (`lspci -v`), as it prints when the
 * kernel gives it no extra sysfs information: what it would print, line for line, reading
 * the same 256 configuration bytes. Extended configuration space (0x100 and up) is not
 * reachable through mechanism #1, so, as for lspci when it cannot read there, no extended
 * capabilities are listed.
 */
#include "drivers/pci/pci_format.h"

#include "drivers/pci/pci_resource.h"

#include "kernel/lib/string.h"

/* --- names ------------------------------------------------------------------------------- */

struct pci_name {
    uint32_t code;
    const char *name;
};

/* Base classes (pci.ids "C xx"). */
static const struct pci_name class_names[] = {
    { 0x00, "Unclassified device" },
    { 0x01, "Mass storage controller" },
    { 0x02, "Network controller" },
    { 0x03, "Display controller" },
    { 0x04, "Multimedia controller" },
    { 0x05, "Memory controller" },
    { 0x06, "Bridge" },
    { 0x07, "Communication controller" },
    { 0x08, "Generic system peripheral" },
    { 0x09, "Input device controller" },
    { 0x0a, "Docking station" },
    { 0x0b, "Processor" },
    { 0x0c, "Serial bus controller" },
    { 0x0d, "Wireless controller" },
    { 0x0e, "Intelligent controller" },
    { 0x0f, "Satellite communications controller" },
    { 0x10, "Encryption controller" },
    { 0x11, "Signal processing controller" },
    { 0x12, "Processing accelerators" },
    { 0x13, "Non-Essential Instrumentation" },
    { 0x40, "Coprocessor" },
    { 0xff, "Unassigned class" },
};

/* Subclasses (class << 8 | subclass) of the devices people meet, QEMU's first. */
static const struct pci_name subclass_names[] = {
    { 0x0000, "Non-VGA unclassified device" },
    { 0x0001, "VGA compatible unclassified device" },
    { 0x0005, "Image coprocessor" },
    { 0x0100, "SCSI storage controller" },
    { 0x0101, "IDE interface" },
    { 0x0102, "Floppy disk controller" },
    { 0x0104, "RAID bus controller" },
    { 0x0105, "ATA controller" },
    { 0x0106, "SATA controller" },
    { 0x0107, "Serial Attached SCSI controller" },
    { 0x0108, "Non-Volatile memory controller" },
    { 0x0180, "Mass storage controller" },
    { 0x0200, "Ethernet controller" },
    { 0x0280, "Network controller" },
    { 0x0300, "VGA compatible controller" },
    { 0x0301, "XGA compatible controller" },
    { 0x0302, "3D controller" },
    { 0x0380, "Display controller" },
    { 0x0400, "Multimedia video controller" },
    { 0x0401, "Multimedia audio controller" },
    { 0x0403, "Audio device" },
    { 0x0480, "Multimedia controller" },
    { 0x0500, "RAM memory" },
    { 0x0580, "Memory controller" },
    { 0x0600, "Host bridge" },
    { 0x0601, "ISA bridge" },
    { 0x0604, "PCI bridge" },
    { 0x0607, "CardBus bridge" },
    { 0x0680, "Bridge" },
    { 0x0700, "Serial controller" },
    { 0x0701, "Parallel controller" },
    { 0x0780, "Communication controller" },
    { 0x0800, "PIC" },
    { 0x0880, "System peripheral" },
    { 0x0c03, "USB controller" },
    { 0x0c05, "SMBus" },
    { 0x0c80, "Serial bus controller" },
};

/* Programming interfaces (class << 16 | subclass << 8 | prog-if) that lspci -v names. */
static const struct pci_name prog_if_names[] = {
    { 0x010100, "ISA Compatibility mode-only controller" },
    { 0x010105, "PCI native mode-only controller" },
    { 0x01010a, "ISA Compatibility mode controller, supports both channels switched to PCI native mode" },
    { 0x01010f, "PCI native mode controller, supports both channels switched to ISA compatibility mode" },
    { 0x010180, "ISA Compatibility mode-only controller, supports bus mastering" },
    { 0x010185, "PCI native mode-only controller, supports bus mastering" },
    { 0x01018a, "ISA Compatibility mode controller, supports both channels switched to PCI native mode, supports bus mastering" },
    { 0x01018f, "PCI native mode controller, supports both channels switched to ISA compatibility mode, supports bus mastering" },
    { 0x010600, "Vendor specific" },
    { 0x010601, "AHCI 1.0" },
    { 0x010602, "Serial Storage Bus" },
    { 0x010801, "NVMHCI" },
    { 0x010802, "NVM Express" },
    { 0x030000, "VGA controller" },
    { 0x030001, "8514 controller" },
    { 0x060400, "Normal decode" },
    { 0x060401, "Subtractive decode" },
    { 0x070000, "8250" },
    { 0x070001, "16450" },
    { 0x070002, "16550" },
    { 0x0c0300, "UHCI" },
    { 0x0c0310, "OHCI" },
    { 0x0c0320, "EHCI" },
    { 0x0c0330, "XHCI" },
    { 0x0c0380, "Unspecified" },
    { 0x0c03fe, "USB Device" },
};

/* Vendors (pci.ids spelling). */
static const struct pci_name vendor_names[] = {
    { 0x1002, "Advanced Micro Devices, Inc. [AMD/ATI]" },
    { 0x1013, "Cirrus Logic" },
    { 0x1022, "Advanced Micro Devices, Inc. [AMD]" },
    { 0x10de, "NVIDIA Corporation" },
    { 0x10ec, "Realtek Semiconductor Co., Ltd." },
    { 0x15ad, "VMware" },
    { 0x1af4, "Red Hat, Inc." },
    { 0x1b36, "Red Hat, Inc." },
    { 0x8086, "Intel Corporation" },
};

/* The name for code in a table, or NULL. */
static const char *lookup(const struct pci_name *table, size_t n, uint32_t code)
{
    for (size_t i = 0; i < n; i++)
        if (table[i].code == code)
            return table[i].name;
    return NULL;
}

#define LOOKUP(table, code) lookup(table, sizeof table / sizeof table[0], code)

/* The class as lspci names it: the subclass's name; else the base class's with the number
 * ("Unclassified device [00ff]"); else "Class 00ff". */
static void print_class(struct fs_writer *out, uint8_t class_code, uint8_t subclass)
{
    uint16_t code = (uint16_t)(class_code << 8 | subclass);
    const char *name = LOOKUP(subclass_names, code);
    if (name)
        fs_puts(out, name);
    else if ((name = LOOKUP(class_names, class_code)))
        fs_printf(out, "%s [%04x]", name, code);
    else
        fs_printf(out, "Class %04x", code);
}

/* A vendor:device pair as lspci names it when its database knows no device names:
 * "Intel Corporation Device 1237" for a known vendor, else "Device 1234:11e8". A subsystem
 * pair is named the same way ("Red Hat, Inc. Device 1100"). */
static void print_device_name(struct fs_writer *out, uint16_t vendor, uint16_t device)
{
    const char *v = LOOKUP(vendor_names, vendor);
    if (v)
        fs_printf(out, "%s Device %04x", v, device);
    else
        fs_printf(out, "Device %04x:%04x", vendor, device);
}

/* --- decoding ---------------------------------------------------------------------------- */

/* Little-endian 16- and 32-bit registers of a configuration snapshot. */
static uint16_t cfg16(const uint8_t *c, unsigned offset)
{
    return (uint16_t)(c[offset] | c[offset + 1] << 8);
}

static uint32_t cfg32(const uint8_t *c, unsigned offset)
{
    return (uint32_t)cfg16(c, offset) | (uint32_t)cfg16(c, offset + 2) << 16;
}

int pci_bar_slots(uint8_t header_type)
{
    return header_type == 0 ? 6 : header_type == 1 ? 2 : header_type == 2 ? 1 : 0;
}

uint8_t pci_rom_register(uint8_t header_type)
{
    return header_type == 0 ? PCI_ROM_ADDRESS : header_type == 1 ? PCI_ROM_ADDRESS1 : 0;
}

/* Decodes the BAR registers (kinds, flags, bases) of a header with `slots` of them. */
static void decode_bars(struct pci_device *d, const uint8_t *c, int slots)
{
    memset(d->bar, 0, sizeof d->bar);
    for (int i = 0; i < slots; i++) {
        uint32_t raw = cfg32(c, PCI_BAR0 + 4 * i);
        struct pci_bar *b = &d->bar[i];
        if (raw & 1) {
            b->io = true;
            b->base = raw & ~3u;
            continue;
        }
        b->base = raw & ~0xfu;
        b->prefetchable = (raw & 8) != 0;
        if ((raw & 6) == 4 && i + 1 < slots) {
            b->is64 = true;
            b->base |= (uint64_t)cfg32(c, PCI_BAR0 + 4 * (i + 1)) << 32;
            i++; /* the high half's slot stays empty */
        }
    }
}

void pci_decode_config(struct pci_device *d, const uint8_t *c)
{
    d->vendor = cfg16(c, PCI_VENDOR_ID);
    d->device = cfg16(c, PCI_DEVICE_ID);
    d->revision = c[PCI_REVISION_ID];
    d->prog_if = c[0x09];
    d->subclass = c[0x0a];
    d->class_code = c[0x0b];
    d->header_type = c[PCI_HEADER_TYPE] & ~PCI_HEADER_MULTIFUNCTION;
    d->irq_line = c[0x3c];
    d->irq_pin = c[0x3d];
    d->subsystem_vendor = d->subsystem_device = 0;
    d->secondary_bus = d->subordinate_bus = 0;
    if (d->header_type == 0) {
        d->subsystem_vendor = cfg16(c, 0x2c);
        d->subsystem_device = cfg16(c, 0x2e);
    } else if (d->header_type == 1) {
        d->secondary_bus = c[PCI_SECONDARY_BUS];
        d->subordinate_bus = c[0x1a];
    }
    decode_bars(d, c, pci_bar_slots(d->header_type));
    uint8_t rom = pci_rom_register(d->header_type);
    d->rom_base = rom ? cfg32(c, rom) & PCI_ROM_ADDRESS_MASK : 0;
}

/* The lowest set bit of v: a BAR decodes a naturally aligned power of two, so the lowest
 * address bit that can be set is its size. */
static uint64_t lowest_bit(uint64_t v)
{
    return v & (~v + 1);
}

uint64_t pci_bar_size(uint64_t readback, bool io)
{
    return lowest_bit(readback & (io ? ~(uint64_t)3 : ~(uint64_t)0xf));
}

uint64_t pci_rom_size(uint32_t readback)
{
    return lowest_bit(readback & PCI_ROM_ADDRESS_MASK);
}

uint32_t pci_bar_flags(const struct pci_bar *b)
{
    if (b->io)
        return 1;
    return (b->is64 ? 4u : 0u) | (b->prefetchable ? 8u : 0u);
}

unsigned pci_irq(const struct pci_device *d)
{
    return d->irq_pin != 0 && d->irq_line != 0xff ? d->irq_line : 0;
}

void pci_slot_name(const struct pci_device *d, char buf[PCI_SLOT_NAME_MAX])
{
    static const char hex[] = "0123456789abcdef";
    buf[0] = hex[d->bus >> 4];
    buf[1] = hex[d->bus & 15];
    buf[2] = ':';
    buf[3] = hex[(d->dev >> 4) & 1];
    buf[4] = hex[d->dev & 15];
    buf[5] = '.';
    buf[6] = (char)('0' + (d->fn & 7));
    buf[7] = '\0';
}

/* Parses exactly `digits` hex digits at text; -1 if they are not. */
static int parse_hex(const char *text, int digits)
{
    int v = 0;
    for (int i = 0; i < digits; i++) {
        char c = text[i];
        int d = c >= '0' && c <= '9' ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

bool pci_parse_slot(const char *text, uint8_t *bus, uint8_t *dev, uint8_t *fn)
{
    size_t len = strlen(text);
    if (len == 12) {
        if (parse_hex(text, 4) != 0 || text[4] != ':')
            return false;
        text += 5;
        len -= 5;
    }
    if (len != 7 || text[2] != ':' || text[5] != '.' || text[6] < '0' || text[6] > '7')
        return false;
    int b = parse_hex(text, 2), d = parse_hex(text + 3, 2);
    if (b < 0 || d < 0 || d > 31)
        return false;
    *bus = (uint8_t)b;
    *dev = (uint8_t)d;
    *fn = (uint8_t)(text[6] - '0');
    return true;
}

/* --- lspci ------------------------------------------------------------------------------- */

/* '+' or '-' for a flag, as lspci writes them. */
static char flag(uint32_t value, uint32_t bit)
{
    return (value & bit) ? '+' : '-';
}

/* " [size=4K]": the largest of K, M, G, T that divides the size exactly. */
static void print_size(struct fs_writer *out, uint64_t size)
{
    static const char *const suffix[] = { "", "K", "M", "G", "T" };
    unsigned i = 0;
    if (!size)
        return;
    while (i < 4 && size % 1024 == 0) {
        size /= 1024;
        i++;
    }
    fs_printf(out, " [size=%u%s]", (unsigned)size, suffix[i]);
}

/* The terse line; with verbose also the programming interface, as lspci -v adds it. */
static void print_terse(struct fs_writer *out, const struct pci_device *d, bool verbose)
{
    char slot[PCI_SLOT_NAME_MAX];
    pci_slot_name(d, slot);
    fs_printf(out, "%s ", slot);
    print_class(out, d->class_code, d->subclass);
    fs_puts(out, ": ");
    print_device_name(out, d->vendor, d->device);
    if (d->revision)
        fs_printf(out, " (rev %02x)", d->revision);
    if (verbose) {
        uint32_t code = (uint32_t)d->class_code << 16 | (uint32_t)d->subclass << 8 | d->prog_if;
        const char *name = LOOKUP(prog_if_names, code);
        if (d->prog_if || name) {
            fs_printf(out, " (prog-if %02x", d->prog_if);
            if (name)
                fs_printf(out, " [%s]", name);
            fs_puts(out, ")");
        }
    }
    fs_puts(out, "\n");
}

/* "\tFlags: bus master, fast devsel, latency 0, IRQ 11": the command and status bits that
 * lspci -v summarizes. */
static void print_flags(struct fs_writer *out, const struct pci_device *d, const uint8_t *c)
{
    static const char *const devsel[] = { "fast", "medium", "slow", "??" };
    uint16_t cmd = cfg16(c, PCI_COMMAND), status = cfg16(c, PCI_STATUS);
    fs_puts(out, "\tFlags: ");
    if (cmd & PCI_COMMAND_MASTER)
        fs_puts(out, "bus master, ");
    if (cmd & 0x0020)
        fs_puts(out, "VGA palette snoop, ");
    if (cmd & 0x0080)
        fs_puts(out, "stepping, ");
    if (cmd & 0x0200)
        fs_puts(out, "fast Back2Back, ");
    if (status & 0x0020)
        fs_puts(out, "66MHz, ");
    if (status & 0x0040)
        fs_puts(out, "user-definable features, ");
    fs_printf(out, "%s devsel", devsel[(status >> 9) & 3]);
    if (cmd & PCI_COMMAND_MASTER)
        fs_printf(out, ", latency %d", c[0x0d]);
    if (pci_irq(d))
        fs_printf(out, ", IRQ %u", pci_irq(d));
    fs_puts(out, "\n");
}

/* One line per BAR in use, as pciutils' show_bases prints it when the kernel's sysfs gives
 * it the resources: the address and size come from the resource table (pci_resource.h:
 * the legacy IDE ports, for one), the kind and the "hardware" values from the registers
 * as they are now. A resource the registers do not hold shows [virtual]. */
static void print_bars(struct fs_writer *out, const struct pci_device *d, const uint8_t *c,
                       int slots)
{
    uint16_t cmd = cfg16(c, PCI_COMMAND);
    for (int i = 0; i < slots; i++) {
        const struct pci_resource *r = &d->resource[i];
        uint64_t pos = r->start | (r->flags & PCI_REGION_FLAG_MASK), len = pci_resource_size(r);
        uint32_t flg = cfg32(c, PCI_BAR0 + 4 * i), hw_lower, hw_upper = 0;
        bool broken = false, virtual = false;
        if (flg == 0xffffffffu)
            flg = 0;
        if (!pos && !flg && !len)
            continue;
        if (flg & 1) {
            hw_lower = flg & ~3u;
        } else {
            hw_lower = flg & ~0xfu;
            if ((flg & 6) == 4) {
                if (i >= slots - 1)
                    broken = true;
                else
                    hw_upper = cfg32(c, PCI_BAR0 + 4 * ++i);
            }
        }
        if (pos && !hw_lower && !hw_upper) {
            flg = (uint32_t)pos;
            virtual = true;
        }
        fs_puts(out, "\t");
        if (flg & 1) {
            uint64_t a = pos & ~(uint64_t)3;
            fs_puts(out, "I/O ports at ");
            if (a || (cmd & PCI_COMMAND_IO))
                fs_printf(out, "%04llx", (unsigned long long)a);
            else
                fs_puts(out, hw_lower ? "<ignored>" : "<unassigned>");
            if (virtual)
                fs_puts(out, " [virtual]");
            else if (!(cmd & PCI_COMMAND_IO))
                fs_puts(out, " [disabled]");
        } else {
            static const char *const type[] = { "32-bit", "low-1M", "64-bit", "type 3" };
            uint64_t a = pos & ~(uint64_t)0xf;
            fs_puts(out, "Memory at ");
            if (broken)
                fs_puts(out, "<broken-64-bit-slot>");
            else if (a)
                fs_printf(out, "%08llx", (unsigned long long)a);
            else
                fs_puts(out, (hw_lower || hw_upper) ? "<ignored>" : "<unassigned>");
            fs_printf(out, " (%s, %sprefetchable)", type[(flg >> 1) & 3],
                      (flg & 8) ? "" : "non-");
            if (virtual)
                fs_puts(out, " [virtual]");
            else if (!(cmd & PCI_COMMAND_MEMORY))
                fs_puts(out, " [disabled]");
        }
        print_size(out, len);
        fs_puts(out, "\n");
    }
}

/* "\tExpansion ROM at feb80000 [disabled] [size=256K]". */
static void print_rom(struct fs_writer *out, const struct pci_device *d, const uint8_t *c,
                      uint8_t reg)
{
    uint32_t flg = cfg32(c, reg);
    uint16_t cmd = cfg16(c, PCI_COMMAND);
    const struct pci_resource *r = &d->resource[PCI_ROM_RESOURCE];
    uint64_t rom = r->start;
    bool virtual = false;
    if (!rom && !flg && !pci_resource_size(r))
        return;
    if ((rom & PCI_ROM_ADDRESS_MASK) && !(flg & PCI_ROM_ADDRESS_MASK)) {
        flg = (uint32_t)rom;
        virtual = true;
    }
    fs_puts(out, "\tExpansion ROM at ");
    if (rom & PCI_ROM_ADDRESS_MASK)
        fs_printf(out, "%08llx", (unsigned long long)(rom & PCI_ROM_ADDRESS_MASK));
    else
        fs_puts(out, (flg & PCI_ROM_ADDRESS_MASK) ? "<ignored>" : "<unassigned>");
    if (virtual)
        fs_puts(out, " [virtual]");
    if (!(flg & PCI_ROM_ENABLE))
        fs_puts(out, " [disabled]");
    else if (!virtual && !(cmd & PCI_COMMAND_MEMORY))
        fs_puts(out, " [disabled by cmd]");
    print_size(out, pci_resource_size(r));
    fs_puts(out, "\n");
}

/* "\tI/O behind bridge: e000-efff [size=4K] [16-bit]", or "[disabled]" when the window is
 * closed (base above limit). */
static void print_range(struct fs_writer *out, const char *what, uint64_t base, uint64_t limit,
                        int bits)
{
    fs_printf(out, "\t%s behind bridge:", what);
    if (base <= limit) {
        fs_printf(out, " %0*llx-%0*llx", (bits + 3) / 4, (unsigned long long)base,
                  (bits + 3) / 4, (unsigned long long)limit);
        print_size(out, limit - base + 1);
    } else {
        fs_puts(out, " [disabled]");
    }
    fs_printf(out, " [%d-bit]\n", bits);
}

/* What a PCI-to-PCI bridge forwards: its bus numbers and its three windows. */
static void print_bridge(struct fs_writer *out, const uint8_t *c)
{
    fs_printf(out, "\tBus: primary=%02x, secondary=%02x, subordinate=%02x, sec-latency=%d\n",
              c[0x18], c[0x19], c[0x1a], c[0x1b]);

    uint32_t io_base = c[0x1c], io_limit = c[0x1d], io_type = io_base & 0xf;
    if (io_type != (io_limit & 0xf) || io_type > 1) {
        fs_printf(out, "\t!!! Unknown I/O range types %x/%x\n", io_base, io_limit);
    } else {
        io_base = (io_base & 0xf0) << 8;
        io_limit = (io_limit & 0xf0) << 8;
        if (io_type == 1) {
            io_base |= (uint32_t)cfg16(c, 0x30) << 16;
            io_limit |= (uint32_t)cfg16(c, 0x32) << 16;
        }
        print_range(out, "I/O", io_base, io_limit + 0xfff, io_type == 1 ? 32 : 16);
    }

    uint32_t mem_base = cfg16(c, 0x20), mem_limit = cfg16(c, 0x22);
    if ((mem_base & 0xf) != (mem_limit & 0xf) || (mem_base & 0xf)) {
        fs_printf(out, "\t!!! Unknown memory range types %x/%x\n", mem_base, mem_limit);
    } else {
        print_range(out, "Memory", (mem_base & ~0xfu) << 16,
                    ((mem_limit & ~0xfu) << 16) + 0xfffff, 32);
    }

    uint32_t pref_base = cfg16(c, 0x24), pref_limit = cfg16(c, 0x26), pref_type = pref_base & 0xf;
    if (pref_type != (pref_limit & 0xf) || pref_type > 1) {
        fs_printf(out, "\t!!! Unknown prefetchable memory range types %x/%x\n", pref_base,
                  pref_limit);
    } else {
        uint64_t base = (uint64_t)(pref_base & ~0xfu) << 16;
        uint64_t limit = (uint64_t)(pref_limit & ~0xfu) << 16;
        if (pref_type == 1) {
            base |= (uint64_t)cfg32(c, 0x28) << 32;
            limit |= (uint64_t)cfg32(c, 0x2c) << 32;
        }
        print_range(out, "Prefetchable memory", base, limit + 0xfffff, pref_type == 1 ? 64 : 32);
    }
}

/* The PCI Express capability's one line at -v: the port type and its MSI message number. */
static void print_express(struct fs_writer *out, uint16_t cap)
{
    static const char *const types[] = {
        "Endpoint", "Legacy Endpoint", NULL, NULL, "Root Port", "Upstream Port",
        "Downstream Port", "PCI-Express to PCI/PCI-X Bridge",
        "PCI/PCI-X to PCI-Express Bridge", "Root Complex Integrated Endpoint",
        "Root Complex Event Collector",
    };
    unsigned type = (cap >> 4) & 0xf;
    bool has_slot = type == 4 || type == 6 || type == 8;
    fs_puts(out, "Express ");
    if (type < sizeof types / sizeof types[0] && types[type])
        fs_puts(out, types[type]);
    else
        fs_printf(out, "Unknown type %u", type);
    if (has_slot)
        fs_printf(out, " (Slot%c)", flag(cap, 0x0100));
    fs_printf(out, ", MSI %02x\n", (cap >> 9) & 0x1f);
}

/* HyperTransport capabilities: the type in the command word's top bits. */
static void print_hypertransport(struct fs_writer *out, uint16_t cmd)
{
    static const struct pci_name types[] = {
        { 0x4000, "Switch" },
        { 0x8000, "Interrupt Discovery and Configuration" },
        { 0x9000, "UnitID Clumping" },
        { 0x9800, "Extended Configuration Space Access" },
        { 0xa000, "Address Mapping" },
        { 0xb000, "DirectRoute" },
        { 0xb800, "VCSet" },
        { 0xc000, "Retry Mode" },
        { 0xc800, "X86 (reserved)" },
    };
    fs_puts(out, "HyperTransport: ");
    if ((cmd & 0xe000) == 0x0000) {
        fs_puts(out, "Slave or Primary Interface\n");
    } else if ((cmd & 0xe000) == 0x2000) {
        fs_puts(out, "Host or Secondary Interface\n");
    } else if ((cmd & 0xf800) == 0x8800) {
        fs_printf(out, "Revision ID: %u.%02u\n", (cmd & 0xe0) >> 5, cmd & 0x1f);
    } else if ((cmd & 0xf800) == 0xa800) {
        fs_printf(out, "MSI Mapping Enable%c Fixed%c\n", flag(cmd, 1), flag(cmd, 2));
    } else {
        const char *name = LOOKUP(types, cmd & 0xf800u);
        if (name)
            fs_printf(out, "%s\n", name);
        else
            fs_printf(out, "#%02x\n", (cmd & 0xf800) >> 11);
    }
}

/* Vendor-specific capabilities: virtio's structure types and Intel's kinds are named,
 * anything else shows its length. */
static void print_vendor_cap(struct fs_writer *out, const struct pci_device *d, unsigned where,
                             uint16_t cap)
{
    unsigned length = cap & 0xff, type = cap >> 8;
    fs_puts(out, "Vendor Specific Information: ");
    if (d->vendor == 0x1af4 && d->device >= 0x1000 && d->device <= 0x107f && length >= 16 &&
        where + length <= PCI_CONFIG_SIZE) {
        static const char *const names[] = { NULL, "CommonCfg", "Notify", "ISR", "DeviceCfg",
                                             NULL, NULL, NULL, "SharedMemory" };
        const char *name = type < 9 && names[type] ? names[type] : "<unknown>";
        fs_printf(out, "VirtIO: %s\n", name);
        return;
    }
    if (d->vendor == 0x8086) {
        unsigned kind = (cap >> 12) & 0xf;
        if (kind == 0)
            fs_printf(out, "Intel Capabilities v%u\n", (cap >> 8) & 0xf);
        else if (kind == 1)
            fs_puts(out, "Intel Feature Detection\n");
        else
            fs_puts(out, "Intel <unknown>\n");
        return;
    }
    fs_printf(out, "Len=%02x <?>\n", length);
}

/* One capability's text after "\tCapabilities: [xx] ". */
static void print_capability(struct fs_writer *out, const struct pci_device *d,
                             const uint8_t *c, unsigned where, uint8_t id, uint16_t cap)
{
    switch (id) {
    case 0x01:
        fs_printf(out, "Power Management version %d\n", cap & 7);
        break;
    case 0x02:
        fs_printf(out, "AGP version %x.%x\n", (cap >> 4) & 0xf, cap & 0xf);
        break;
    case 0x03:
        fs_puts(out, "Vital Product Data\n");
        break;
    case 0x04:
        fs_printf(out, "Slot ID: %d slots, First%c, chassis %02x\n", cap & 0x1f,
                  flag(cap, 0x20), cap >> 8);
        break;
    case 0x05:
        fs_printf(out, "MSI: Enable%c Count=%d/%d Maskable%c 64bit%c\n", flag(cap, 0x0001),
                  1 << ((cap & 0x70) >> 4), 1 << ((cap & 0x0e) >> 1), flag(cap, 0x0100),
                  flag(cap, 0x0080));
        break;
    case 0x06:
        fs_puts(out, "CompactPCI hot-swap <?>\n");
        break;
    case 0x07:
        if (d->header_type == 0)
            fs_puts(out, "PCI-X non-bridge device\n");
        else if (d->header_type == 1)
            fs_puts(out, "PCI-X bridge device\n");
        break;
    case 0x08:
        print_hypertransport(out, cap);
        break;
    case 0x09:
        print_vendor_cap(out, d, where, cap);
        break;
    case 0x0a:
        fs_printf(out, "Debug port: BAR=%d offset=%04x\n", cap >> 13, cap & 0x1fff);
        break;
    case 0x0b:
        fs_puts(out, "CompactPCI central resource control <?>\n");
        break;
    case 0x0c:
        fs_puts(out, "Hot-plug capable\n");
        break;
    case 0x0d:
        if (where + 8 <= PCI_CONFIG_SIZE) {
            fs_puts(out, "Subsystem: ");
            print_device_name(out, cfg16(c, where + 4), cfg16(c, where + 6));
            fs_puts(out, "\n");
        }
        break;
    case 0x0e:
        fs_puts(out, "AGP3 <?>\n");
        break;
    case 0x0f:
        fs_puts(out, "Secure device <?>\n");
        break;
    case 0x10:
        print_express(out, cap);
        break;
    case 0x11:
        fs_printf(out, "MSI-X: Enable%c Count=%d Masked%c\n", flag(cap, 0x8000),
                  (cap & 0x07ff) + 1, flag(cap, 0x4000));
        break;
    case 0x12:
        fs_printf(out, "SATA HBA v%d.%d\n", (cap >> 4) & 0xf, cap & 0xf);
        break;
    case 0x13:
        fs_puts(out, "PCI Advanced Features\n");
        break;
    case 0x14:
        fs_printf(out, "Enhanced Allocation (EA): NumEntries=%u", cap & 0x3f);
        if (d->header_type == 1 && where + 6 <= PCI_CONFIG_SIZE)
            fs_printf(out, ", secondary=%d, subordinate=%d", c[where + 4], c[where + 5]);
        fs_puts(out, "\n");
        break;
    default:
        fs_printf(out, "#%02x [%04x]\n", id, cap);
        break;
    }
}

/* The capability list, one line each, in list order. The list lives in the device, so it
 * is walked with care: a pointer seen twice ends it ("<chain looped>"), as does an ID of
 * 0xff ("<chain broken>", what an absent device reads as). */
static void print_capabilities(struct fs_writer *out, const struct pci_device *d,
                               const uint8_t *c)
{
    bool seen[PCI_CONFIG_SIZE / 4] = { false };
    if (!(cfg16(c, PCI_STATUS) & PCI_STATUS_CAP_LIST))
        return;
    for (unsigned where = c[PCI_CAPABILITY_LIST] & ~3u; where; ) {
        uint8_t id = c[where];
        unsigned next = c[where + 1] & ~3u;
        uint16_t cap = cfg16(c, where + 2);
        fs_printf(out, "\tCapabilities: [%02x] ", where);
        if (seen[where / 4]) {
            fs_puts(out, "<chain looped>\n");
            break;
        }
        seen[where / 4] = true;
        if (id == 0xff) {
            fs_puts(out, "<chain broken>\n");
            break;
        }
        print_capability(out, d, c, where, id, cap);
        where = next;
    }
}

/* The whole `lspci -v` block for d from its configuration bytes c. */
static void print_verbose(struct fs_writer *out, const struct pci_device *d, const uint8_t *c)
{
    uint16_t class = (uint16_t)(d->class_code << 8 | d->subclass);
    print_terse(out, d, true);
    if (d->subsystem_vendor && d->subsystem_vendor != 0xffff) {
        fs_puts(out, "\tSubsystem: ");
        print_device_name(out, d->subsystem_vendor, d->subsystem_device);
        fs_puts(out, "\n");
    }
    if (d->header_type > 1) {
        fs_printf(out, "\t!!! Unknown header type %02x\n", d->header_type);
    } else {
        if ((d->header_type == 0 && class == 0x0604) ||
            (d->header_type == 1 && d->class_code != 0x06))
            fs_printf(out, "\t!!! Invalid class %04x for header type %02x\n", class,
                      d->header_type);
        print_flags(out, d, c);
        uint8_t bist = c[0x0f];
        if (bist & 0x80) {
            if (bist & 0x40)
                fs_puts(out, "\tBIST is running\n");
            else
                fs_printf(out, "\tBIST result: %02x\n", bist & 0x0f);
        }
        print_bars(out, d, c, pci_bar_slots(d->header_type));
        if (d->header_type == 1)
            print_bridge(out, c);
        print_rom(out, d, c, pci_rom_register(d->header_type));
        print_capabilities(out, d, c);
    }
    if (d->driver)
        fs_printf(out, "\tKernel driver in use: %s\n", d->driver->name);
    fs_puts(out, "\n");
}

void pci_print_lspci(struct fs_writer *out, const struct pci_device *d, bool verbose)
{
    if (!verbose) {
        print_terse(out, d, false);
        return;
    }
    uint8_t config[PCI_CONFIG_SIZE];
    for (unsigned offset = 0; offset < PCI_CONFIG_SIZE; offset += 4) {
        uint32_t v = pci_read32(d, (uint8_t)offset);
        for (unsigned i = 0; i < 4; i++)
            config[offset + i] = (uint8_t)(v >> (8 * i));
    }
    print_verbose(out, d, config);
}

/* --- Linux's resource view: /proc/bus/pci/devices and mmiotrace's PCIDEV ------------------ */

/* The 7 resources Linux lists (6 BARs, then the ROM) from the resource table
 * (pci_resource.h): the start with the flags' low bits, and the size. */
static void resource(const struct pci_device *d, int i, uint64_t *start, uint64_t *size)
{
    const struct pci_resource *r = &d->resource[i];
    *start = r->start | (r->flags & PCI_REGION_FLAG_MASK);
    *size = pci_resource_size(r);
}

void pci_print_proc_device(struct fs_writer *out, const struct pci_device *d)
{
    uint64_t start, size;
    fs_printf(out, "%02x%02x\t%04x%04x\t%x", d->bus, (d->dev << 3) | d->fn, d->vendor,
              d->device, pci_irq(d));
    for (int i = 0; i <= PCI_MAX_BARS; i++) {
        resource(d, i, &start, &size);
        fs_printf(out, "\t%08llx", (unsigned long long)start);
    }
    for (int i = 0; i <= PCI_MAX_BARS; i++) {
        resource(d, i, &start, &size);
        fs_printf(out, "\t%08llx", (unsigned long long)size);
    }
    fs_printf(out, "\t%s\n", d->driver ? d->driver->name : "");
}

void pci_print_pcidev(struct fs_writer *out, const struct pci_device *d)
{
    uint64_t start, size;
    fs_printf(out, "PCIDEV %02x%02x %04x%04x %x", d->bus, (d->dev << 3) | d->fn, d->vendor,
              d->device, pci_irq(d));
    for (int i = 0; i <= PCI_MAX_BARS; i++) {
        resource(d, i, &start, &size);
        fs_printf(out, " %llx", (unsigned long long)start);
    }
    for (int i = 0; i <= PCI_MAX_BARS; i++) {
        resource(d, i, &start, &size);
        fs_printf(out, " %llx", (unsigned long long)size);
    }
    fs_printf(out, " %s\n", d->driver ? d->driver->name : "");
}
