/* test_pci_format.c - PCI config decoding, and lspci, /proc/bus/pci/devices and PCIDEV text
 * to the character, for canned devices modelled on what QEMU presents. */
#include "unit.h"

#include "collect_writer.h"
#include "drivers/pci/pci_format.h"
#include "drivers/pci/pci_resource.h"

/* A device and its configuration space: pci_read32 below serves the bytes, as the kernel's
 * reads the live registers. */
struct canned {
    struct pci_device d; /* first, so a device pointer is a canned pointer */
    uint8_t config[PCI_CONFIG_SIZE];
    unsigned last_cap;
};

uint32_t pci_read32(const struct pci_device *d, uint8_t offset)
{
    const uint8_t *c = ((const struct canned *)d)->config + offset;
    return (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 | (uint32_t)c[3] << 24;
}

static void put16(struct canned *k, unsigned offset, uint16_t v)
{
    k->config[offset] = (uint8_t)v;
    k->config[offset + 1] = (uint8_t)(v >> 8);
}

static void put32(struct canned *k, unsigned offset, uint32_t v)
{
    put16(k, offset, (uint16_t)v);
    put16(k, offset + 2, (uint16_t)(v >> 16));
}

/* A function with ids, class (24 bits), revision, header type, command and status. */
static void canned_init(struct canned *k, uint8_t bus, uint8_t dev, uint8_t fn, uint16_t vendor,
                        uint16_t device, uint32_t class24, uint8_t rev, uint8_t header,
                        uint16_t command, uint16_t status)
{
    memset(k, 0, sizeof *k);
    k->d.bus = bus;
    k->d.dev = dev;
    k->d.fn = fn;
    put16(k, 0x00, vendor);
    put16(k, 0x02, device);
    put16(k, 0x04, command);
    put16(k, 0x06, status);
    put32(k, 0x08, class24 << 8 | rev);
    k->config[0x0e] = header;
}

/* Appends a capability (id, 16-bit flags word) at offset where to the list. */
static void add_cap(struct canned *k, unsigned where, uint8_t id, uint16_t flags)
{
    put16(k, 0x06, (uint16_t)(k->config[0x06] | k->config[0x07] << 8 | 0x10));
    k->config[k->last_cap ? k->last_cap + 1 : 0x34] = (uint8_t)where;
    k->config[where] = id;
    k->config[where + 1] = 0;
    put16(k, where + 2, flags);
    k->last_cap = where;
}

/* Decodes the canned bytes into the device, as enumeration does. */
static void decode(struct canned *k)
{
    pci_decode_config(&k->d, k->config);
}

static const struct pci_driver edu_driver = { "edu", NULL, NULL, NULL };

/* QEMU's edu at 00:04.0: BAR0 1 MiB of 32-bit memory, INTA on line 11, one MSI vector. */
static void make_edu(struct canned *k, uint16_t command)
{
    canned_init(k, 0, 4, 0, 0x1234, 0x11e8, 0x00ff00, 0x10, 0, command, 0);
    put32(k, 0x10, 0xfea00000);
    put16(k, 0x2c, 0x1af4);
    put16(k, 0x2e, 0x1100);
    k->config[0x3c] = 11;
    k->config[0x3d] = 1;
    add_cap(k, 0x40, 0x05, 0x0080);
    decode(k);
    k->d.bar[0].size = 0x100000;
}

/* QEMU's pci-testdev at 00:05.0: BAR0 4 KiB of memory, BAR1 256 I/O ports, no interrupt. */
static void make_testdev(struct canned *k)
{
    canned_init(k, 0, 5, 0, 0x1b36, 0x0005, 0x00ff00, 0, 0, 0x0003, 0);
    put32(k, 0x10, 0xfeb71000);
    put32(k, 0x14, 0x0000c001);
    put16(k, 0x2c, 0x1af4);
    put16(k, 0x2e, 0x1100);
    decode(k);
    k->d.bar[0].size = 0x1000;
    k->d.bar[1].size = 0x100;
}

/* The i440FX host bridge at 00:00.0: no BARs, no interrupt. */
static void make_host_bridge(struct canned *k)
{
    canned_init(k, 0, 0, 0, 0x8086, 0x1237, 0x060000, 0x02, 0, 0x0106, 0);
    put16(k, 0x2c, 0x1af4);
    put16(k, 0x2e, 0x1100);
    decode(k);
}

/* A virtio-net (modern) function: a 64-bit prefetchable BAR above 4 GiB in slots 4-5, an
 * MSI-X table, virtio's vendor capabilities, PCI Express and power management. */
static void make_virtio(struct canned *k)
{
    canned_init(k, 1, 0, 0, 0x1af4, 0x1041, 0x020000, 0x01, 0, 0x0507, 0);
    k->config[0x0d] = 0x40;
    put32(k, 0x14, 0xfe800000);
    put32(k, 0x20, 0x0000000c);
    put32(k, 0x24, 0x00000008);
    put32(k, 0x30, 0xfe840000);
    put16(k, 0x2c, 0x1af4);
    put16(k, 0x2e, 0x1100);
    k->config[0x3c] = 10;
    k->config[0x3d] = 1;
    add_cap(k, 0x98, 0x11, 0x8002);
    add_cap(k, 0x84, 0x09, 0x0214);
    add_cap(k, 0x70, 0x09, 0x0110);
    add_cap(k, 0x60, 0x09, 0x0710); /* a structure type virtio does not define */
    add_cap(k, 0x40, 0x10, 0x0002);
    add_cap(k, 0x50, 0x01, 0x0003);
    decode(k);
    k->d.bar[1].size = 0x1000;
    k->d.bar[4].size = 0x4000;
    k->d.rom_size = 0x40000;
}

/* A PCI-to-PCI bridge (QEMU's pcie-root-port) at 00:1c.0 leading to bus 01. */
static void make_bridge(struct canned *k)
{
    canned_init(k, 0, 0x1c, 0, 0x1b36, 0x000c, 0x060400, 0, 0x81, 0x0107, 0);
    put32(k, 0x10, 0xfeb72000);
    put32(k, 0x18, 0x00010100); /* primary 00, secondary 01, subordinate 01 */
    k->config[0x1c] = 0xc0;     /* I/O c000-cfff */
    k->config[0x1d] = 0xc0;
    put16(k, 0x20, 0xfe80);     /* memory fe800000-fe9fffff */
    put16(k, 0x22, 0xfe90);
    put16(k, 0x24, 0xfff1);     /* 64-bit prefetchable window, closed */
    put16(k, 0x26, 0x0001);
    k->config[0x3c] = 10;
    k->config[0x3d] = 1;
    add_cap(k, 0x54, 0x10, 0x0142);
    add_cap(k, 0x48, 0x11, 0x0000);
    add_cap(k, 0x40, 0x0d, 0x0000);
    put16(k, 0x44, 0x1af4);
    put16(k, 0x46, 0x1100);
    decode(k);
    k->d.bar[0].size = 0x1000;
}

/* The resource table from the canned bytes and the sizes set, as enumeration builds it
 * once sizing is done; every printer below reads it. */
static void resources(struct canned *k)
{
    pci_setup_resources(&k->d, k->config, false);
}

/* Each printer run on k into the collector; returns what it printed. */
static const char *lspci(struct canned *k, bool verbose)
{
    resources(k);
    collect_reset();
    pci_print_lspci(&collect_writer, &k->d, verbose);
    return collected;
}

static const char *proc_line(struct canned *k)
{
    resources(k);
    collect_reset();
    pci_print_proc_device(&collect_writer, &k->d);
    return collected;
}

static const char *pcidev(struct canned *k)
{
    resources(k);
    collect_reset();
    pci_print_pcidev(&collect_writer, &k->d);
    return collected;
}

/* --- decoding ---------------------------------------------------------------------------- */

TEST(decodes_a_type0_header)
{
    struct canned k;
    make_edu(&k, 0x0002);
    CHECK_EQ_INT(k.d.vendor, 0x1234);
    CHECK_EQ_INT(k.d.device, 0x11e8);
    CHECK_EQ_INT(k.d.class_code, 0x00);
    CHECK_EQ_INT(k.d.subclass, 0xff);
    CHECK_EQ_INT(k.d.prog_if, 0x00);
    CHECK_EQ_INT(k.d.revision, 0x10);
    CHECK_EQ_INT(k.d.header_type, 0);
    CHECK_EQ_INT(k.d.subsystem_vendor, 0x1af4);
    CHECK_EQ_INT(k.d.subsystem_device, 0x1100);
    CHECK_EQ_INT(k.d.irq_line, 11);
    CHECK_EQ_INT(k.d.irq_pin, 1);
    CHECK_EQ_INT(k.d.bar[0].base, 0xfea00000);
    CHECK(!k.d.bar[0].io && !k.d.bar[0].is64 && !k.d.bar[0].prefetchable);
    CHECK_EQ_INT(pci_irq(&k.d), 11);
}

TEST(decodes_io_and_64bit_bars_and_the_rom)
{
    struct canned k;
    make_virtio(&k);
    CHECK_EQ_INT(k.d.bar[1].base, 0xfe800000);
    CHECK(k.d.bar[4].is64 && k.d.bar[4].prefetchable && !k.d.bar[4].io);
    CHECK_EQ_INT(k.d.bar[4].base, 0x80000000cull & ~0xfull);
    CHECK_EQ_INT(k.d.bar[5].base, 0); /* the high half's slot */
    CHECK(!k.d.bar[5].is64 && !k.d.bar[5].io);
    CHECK_EQ_INT(pci_bar_flags(&k.d.bar[4]), 0xc);
    CHECK_EQ_INT(k.d.rom_base, 0xfe840000);

    struct canned t;
    make_testdev(&t);
    CHECK(t.d.bar[1].io);
    CHECK_EQ_INT(t.d.bar[1].base, 0xc000);
    CHECK_EQ_INT(pci_bar_flags(&t.d.bar[1]), 1);
    CHECK_EQ_INT(pci_irq(&t.d), 0);
}

TEST(decodes_a_bridge_and_clears_the_multifunction_bit)
{
    struct canned k;
    make_bridge(&k);
    CHECK_EQ_INT(k.d.header_type, 1);
    CHECK_EQ_INT(k.d.secondary_bus, 1);
    CHECK_EQ_INT(k.d.subordinate_bus, 1);
    CHECK_EQ_INT(k.d.subsystem_vendor, 0);
    CHECK_EQ_INT(pci_bar_slots(1), 2);
    CHECK_EQ_INT(pci_rom_register(1), 0x38);
    CHECK_EQ_INT(pci_rom_register(0), 0x30);
}

TEST(bar_sizes_from_the_readback)
{
    CHECK_EQ_INT(pci_bar_size(0xfff00000, false), 0x100000);
    CHECK_EQ_INT(pci_bar_size(0xfffff008, false), 0x1000);
    CHECK_EQ_INT(pci_bar_size(0x0000ff01, true), 0x100);    /* upper I/O bits read 0 */
    CHECK_EQ_INT(pci_bar_size(0xffffff01, true), 0x100);
    CHECK_EQ_INT(pci_bar_size(0xffffffffffffc00cull, false), 0x4000);
    CHECK_EQ_INT(pci_bar_size(0xfffffffe0000000cull, false), 0x200000000ull);
    CHECK_EQ_INT(pci_bar_size(0, false), 0);                /* not implemented */
    CHECK_EQ_INT(pci_bar_size(0x1, true), 0);
    CHECK_EQ_INT(pci_rom_size(0xfffc0000), 0x40000);
    CHECK_EQ_INT(pci_rom_size(0x000007fe), 0);
}

TEST(slot_names_parse_and_print)
{
    uint8_t b = 9, d = 9, f = 9;
    CHECK(pci_parse_slot("00:04.0", &b, &d, &f));
    CHECK(b == 0 && d == 4 && f == 0);
    CHECK(pci_parse_slot("0000:1f:1F.7", &b, &d, &f));
    CHECK(b == 0x1f && d == 0x1f && f == 7);
    CHECK(!pci_parse_slot("00:20.0", &b, &d, &f));  /* device 32 */
    CHECK(!pci_parse_slot("00:04.8", &b, &d, &f));
    CHECK(!pci_parse_slot("0:4.0", &b, &d, &f));
    CHECK(!pci_parse_slot("0001:00:04.0", &b, &d, &f));
    CHECK(!pci_parse_slot("00:04.0x", &b, &d, &f));
    CHECK(!pci_parse_slot("edu", &b, &d, &f));
    CHECK(!pci_parse_slot("", &b, &d, &f));
    struct canned k;
    make_bridge(&k);
    char name[PCI_SLOT_NAME_MAX];
    pci_slot_name(&k.d, name);
    CHECK_EQ_STR(name, "00:1c.0");
}

/* --- lspci -------------------------------------------------------------------------------- */

TEST(lspci_lines)
{
    struct canned k;
    make_edu(&k, 0x0002);
    CHECK_EQ_STR(lspci(&k, false), "00:04.0 Unclassified device [00ff]: Device 1234:11e8 (rev 10)\n");
    make_testdev(&k);
    CHECK_EQ_STR(lspci(&k, false), "00:05.0 Unclassified device [00ff]: Red Hat, Inc. Device 0005\n");
    make_host_bridge(&k);
    CHECK_EQ_STR(lspci(&k, false), "00:00.0 Host bridge: Intel Corporation Device 1237 (rev 02)\n");
    make_virtio(&k);
    CHECK_EQ_STR(lspci(&k, false), "01:00.0 Ethernet controller: Red Hat, Inc. Device 1041 (rev 01)\n");
    make_bridge(&k);
    CHECK_EQ_STR(lspci(&k, false), "00:1c.0 PCI bridge: Red Hat, Inc. Device 000c\n");
}

TEST(lspci_class_names_fall_back_like_pciutils)
{
    struct canned k;
    canned_init(&k, 0, 3, 0, 0x8086, 0x7113, 0x068000, 3, 0, 0, 0);
    decode(&k);
    CHECK_EQ_STR(lspci(&k, false), "00:03.0 Bridge: Intel Corporation Device 7113 (rev 03)\n");
    canned_init(&k, 0, 3, 0, 0x8086, 0x1234, 0x0c7700, 0, 0, 0, 0);
    decode(&k);
    CHECK_EQ_STR(lspci(&k, false), "00:03.0 Serial bus controller [0c77]: Intel Corporation Device 1234\n");
    canned_init(&k, 0, 3, 0, 0xabcd, 0x0001, 0x420100, 0, 0, 0, 0);
    decode(&k);
    CHECK_EQ_STR(lspci(&k, false), "00:03.0 Class 4201: Device abcd:0001\n");
}

TEST(lspci_v_edu)
{
    struct canned k;
    make_edu(&k, 0x0002);
    CHECK_EQ_STR(lspci(&k, true),
                 "00:04.0 Unclassified device [00ff]: Device 1234:11e8 (rev 10)\n"
                 "\tSubsystem: Red Hat, Inc. Device 1100\n"
                 "\tFlags: fast devsel, IRQ 11\n"
                 "\tMemory at fea00000 (32-bit, non-prefetchable) [size=1M]\n"
                 "\tCapabilities: [40] MSI: Enable- Count=1/1 Maskable- 64bit+\n"
                 "\n");
}

TEST(lspci_v_edu_bound_and_mastering)
{
    struct canned k;
    make_edu(&k, 0x0006);
    k.config[0x0d] = 0;
    k.d.driver = &edu_driver;
    CHECK_EQ_STR(lspci(&k, true),
                 "00:04.0 Unclassified device [00ff]: Device 1234:11e8 (rev 10)\n"
                 "\tSubsystem: Red Hat, Inc. Device 1100\n"
                 "\tFlags: bus master, fast devsel, latency 0, IRQ 11\n"
                 "\tMemory at fea00000 (32-bit, non-prefetchable) [size=1M]\n"
                 "\tCapabilities: [40] MSI: Enable- Count=1/1 Maskable- 64bit+\n"
                 "\tKernel driver in use: edu\n"
                 "\n");
}

TEST(lspci_v_testdev_memory_and_io)
{
    struct canned k;
    make_testdev(&k);
    CHECK_EQ_STR(lspci(&k, true),
                 "00:05.0 Unclassified device [00ff]: Red Hat, Inc. Device 0005\n"
                 "\tSubsystem: Red Hat, Inc. Device 1100\n"
                 "\tFlags: fast devsel\n"
                 "\tMemory at feb71000 (32-bit, non-prefetchable) [size=4K]\n"
                 "\tI/O ports at c000 [size=256]\n"
                 "\n");
}

TEST(lspci_v_decoding_off_shows_disabled)
{
    struct canned k;
    make_testdev(&k);
    put16(&k, 0x04, 0);
    put16(&k, 0x06, 0x0200);
    CHECK_EQ_STR(lspci(&k, true),
                 "00:05.0 Unclassified device [00ff]: Red Hat, Inc. Device 0005\n"
                 "\tSubsystem: Red Hat, Inc. Device 1100\n"
                 "\tFlags: medium devsel\n"
                 "\tMemory at feb71000 (32-bit, non-prefetchable) [disabled] [size=4K]\n"
                 "\tI/O ports at c000 [disabled] [size=256]\n"
                 "\n");
}

TEST(lspci_v_host_bridge)
{
    struct canned k;
    make_host_bridge(&k);
    CHECK_EQ_STR(lspci(&k, true),
                 "00:00.0 Host bridge: Intel Corporation Device 1237 (rev 02)\n"
                 "\tSubsystem: Red Hat, Inc. Device 1100\n"
                 "\tFlags: bus master, fast devsel, latency 0\n"
                 "\n");
}

TEST(lspci_v_64bit_prefetchable_bar_rom_and_capabilities)
{
    struct canned k;
    make_virtio(&k);
    CHECK_EQ_STR(lspci(&k, true),
                 "01:00.0 Ethernet controller: Red Hat, Inc. Device 1041 (rev 01)\n"
                 "\tSubsystem: Red Hat, Inc. Device 1100\n"
                 "\tFlags: bus master, fast devsel, latency 64, IRQ 10\n"
                 "\tMemory at fe800000 (32-bit, non-prefetchable) [size=4K]\n"
                 "\tMemory at 800000000 (64-bit, prefetchable) [size=16K]\n"
                 "\tExpansion ROM at fe840000 [disabled] [size=256K]\n"
                 "\tCapabilities: [98] MSI-X: Enable+ Count=3 Masked-\n"
                 "\tCapabilities: [84] Vendor Specific Information: VirtIO: Notify\n"
                 "\tCapabilities: [70] Vendor Specific Information: VirtIO: CommonCfg\n"
                 "\tCapabilities: [60] Vendor Specific Information: VirtIO: <unknown>\n"
                 "\tCapabilities: [40] Express Endpoint, MSI 00\n"
                 "\tCapabilities: [50] Power Management version 3\n"
                 "\n");
}

TEST(lspci_v_rom_states)
{
    struct canned k;
    make_edu(&k, 0x0000);
    put32(&k, 0x30, 0x00000000);
    k.d.rom_size = 0x10000;
    const char *out = lspci(&k, true);
    CHECK(strstr(out, "\tMemory at fea00000 (32-bit, non-prefetchable) [disabled] [size=1M]\n"
                      "\tExpansion ROM at <unassigned> [disabled] [size=64K]\n"));
    put32(&k, 0x30, 0xfeb60001);
    decode(&k);
    k.d.bar[0].size = 0x100000;
    k.d.rom_size = 0x10000;
    out = lspci(&k, true);
    CHECK(strstr(out, "\tExpansion ROM at feb60000 [disabled by cmd] [size=64K]\n"));
    put16(&k, 0x04, 0x0002);
    out = lspci(&k, true);
    CHECK(strstr(out, "\tExpansion ROM at feb60000 [size=64K]\n"));
}

TEST(lspci_v_bridge)
{
    struct canned k;
    make_bridge(&k);
    CHECK_EQ_STR(lspci(&k, true),
                 "00:1c.0 PCI bridge: Red Hat, Inc. Device 000c (prog-if 00 [Normal decode])\n"
                 "\tFlags: bus master, fast devsel, latency 0, IRQ 10\n"
                 "\tMemory at feb72000 (32-bit, non-prefetchable) [size=4K]\n"
                 "\tBus: primary=00, secondary=01, subordinate=01, sec-latency=0\n"
                 "\tI/O behind bridge: c000-cfff [size=4K] [16-bit]\n"
                 "\tMemory behind bridge: fe800000-fe9fffff [size=2M] [32-bit]\n"
                 "\tPrefetchable memory behind bridge: [disabled] [64-bit]\n"
                 "\tCapabilities: [54] Express Root Port (Slot+), MSI 00\n"
                 "\tCapabilities: [48] MSI-X: Enable- Count=1 Masked-\n"
                 "\tCapabilities: [40] Subsystem: Red Hat, Inc. Device 1100\n"
                 "\n");
}

TEST(lspci_v_capability_chain_loop_and_break)
{
    struct canned k;
    make_edu(&k, 0x0002);
    add_cap(&k, 0x50, 0x01, 0x0002);
    k.config[0x51] = 0x40; /* back to the first: a loop */
    CHECK(strstr(lspci(&k, true),
                 "\tCapabilities: [40] MSI: Enable- Count=1/1 Maskable- 64bit+\n"
                 "\tCapabilities: [50] Power Management version 2\n"
                 "\tCapabilities: [40] <chain looped>\n\n"));
    k.config[0x51] = 0xfc;
    k.config[0xfc] = 0xff;
    CHECK(strstr(lspci(&k, true), "\tCapabilities: [fc] <chain broken>\n\n"));
    put16(&k, 0x06, 0); /* no list at all */
    CHECK(!strstr(lspci(&k, true), "Capabilities"));
}

TEST(lspci_v_names_every_capability_id)
{
    static const struct {
        uint8_t id;
        uint16_t flags;
        const char *text;
    } caps[] = {
        { 0x02, 0x0030, "AGP version 3.0\n" },
        { 0x03, 0x0000, "Vital Product Data\n" },
        { 0x04, 0x0123, "Slot ID: 3 slots, First+, chassis 01\n" },
        { 0x05, 0x01b5, "MSI: Enable+ Count=8/4 Maskable+ 64bit+\n" },
        { 0x06, 0x0000, "CompactPCI hot-swap <?>\n" },
        { 0x07, 0x0000, "PCI-X non-bridge device\n" },
        { 0x08, 0xa801, "HyperTransport: MSI Mapping Enable+ Fixed-\n" },
        { 0x09, 0x0408, "Vendor Specific Information: Len=08 <?>\n" },
        { 0x0a, 0x2010, "Debug port: BAR=1 offset=0010\n" },
        { 0x0b, 0x0000, "CompactPCI central resource control <?>\n" },
        { 0x0c, 0x0000, "Hot-plug capable\n" },
        { 0x0e, 0x0000, "AGP3 <?>\n" },
        { 0x0f, 0x0000, "Secure device <?>\n" },
        { 0x12, 0x0010, "SATA HBA v1.0\n" },
        { 0x13, 0x0006, "PCI Advanced Features\n" },
        { 0x14, 0x0002, "Enhanced Allocation (EA): NumEntries=2\n" },
        { 0x15, 0xabcd, "#15 [abcd]\n" },
    };
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        struct canned k;
        char want[128];
        make_testdev(&k);
        add_cap(&k, 0x40, caps[i].id, caps[i].flags);
        snprintf(want, sizeof want, "\tCapabilities: [40] %s", caps[i].text);
        const char *out = lspci(&k, true);
        if (!strstr(out, want))
            unit_fail(__FILE__, __LINE__, want);
    }
}

/* --- /proc/bus/pci/devices and PCIDEV -------------------------------------------------------- */

TEST(proc_bus_pci_devices_lines)
{
    struct canned k;
    make_edu(&k, 0x0002);
    CHECK_EQ_STR(proc_line(&k),
                 "0020\t123411e8\tb"
                 "\tfea00000\t00000000\t00000000\t00000000\t00000000\t00000000\t00000000"
                 "\t00100000\t00000000\t00000000\t00000000\t00000000\t00000000\t00000000"
                 "\t\n");
    k.d.driver = &edu_driver;
    CHECK(strstr(proc_line(&k), "\t00000000\tedu\n"));
    make_testdev(&k);
    CHECK_EQ_STR(proc_line(&k),
                 "0028\t1b360005\t0"
                 "\tfeb71000\t0000c001\t00000000\t00000000\t00000000\t00000000\t00000000"
                 "\t00001000\t00000100\t00000000\t00000000\t00000000\t00000000\t00000000"
                 "\t\n");
    make_virtio(&k);
    CHECK_EQ_STR(proc_line(&k),
                 "0100\t1af41041\ta"
                 "\t00000000\tfe800000\t00000000\t00000000\t80000000c\t00000000\tfe840000"
                 "\t00000000\t00001000\t00000000\t00000000\t00004000\t00000000\t00040000"
                 "\t\n");
}

TEST(pcidev_records)
{
    struct canned k;
    make_edu(&k, 0x0002);
    CHECK_EQ_STR(pcidev(&k), "PCIDEV 0020 123411e8 b fea00000 0 0 0 0 0 0 100000 0 0 0 0 0 0 \n");
    k.d.driver = &edu_driver;
    CHECK_EQ_STR(pcidev(&k), "PCIDEV 0020 123411e8 b fea00000 0 0 0 0 0 0 100000 0 0 0 0 0 0 edu\n");
    make_testdev(&k);
    CHECK_EQ_STR(pcidev(&k), "PCIDEV 0028 1b360005 0 feb71000 c001 0 0 0 0 0 1000 100 0 0 0 0 0 \n");
    make_host_bridge(&k);
    CHECK_EQ_STR(pcidev(&k), "PCIDEV 0000 80861237 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \n");
    make_virtio(&k);
    CHECK_EQ_STR(pcidev(&k),
                 "PCIDEV 0100 1af41041 a 0 fe800000 0 0 80000000c 0 fe840000 0 1000 0 0 4000 0 40000 \n");
    make_bridge(&k);
    k.d.fn = 3;
    CHECK(strncmp(pcidev(&k), "PCIDEV 00e3 1b36000c a ", 23) == 0);
}

/* --- the resource table (pci_resource.c) and sysfs's resource file ------------------------ */

/* QEMU's PIIX3 IDE at 00:01.1: compatibility mode on both channels (prog-if 80), BARs 0-3
 * unassigned, the bus-master BAR4 at c140. */
static void make_ide(struct canned *k, uint8_t prog_if)
{
    canned_init(k, 0, 1, 1, 0x8086, 0x7010, 0x010100 | prog_if, 0, 0, 0x0103, 0);
    put32(k, 0x20, 0x0000c141);
    decode(k);
    k->d.bar[4].size = 0x10;
}

static const char *resource_file(struct canned *k)
{
    resources(k);
    collect_reset();
    pci_print_resource_file(&collect_writer, &k->d);
    return collected;
}

TEST(resource_file_of_edu_has_13_lines_as_linux)
{
    struct canned k;
    make_edu(&k, 0x0002);
    const char *zero = "0x0000000000000000 0x0000000000000000 0x0000000000000000\n";
    char want[64 * 13 + 1] = "0x00000000fea00000 0x00000000feafffff 0x0000000000040200\n";
    for (int i = 1; i < 13; i++)
        strcat(want, zero);
    CHECK_EQ_STR(resource_file(&k), want);
    make_testdev(&k);
    CHECK(strncmp(resource_file(&k),
                  "0x00000000feb71000 0x00000000feb71fff 0x0000000000040200\n"
                  "0x000000000000c000 0x000000000000c0ff 0x0000000000040101\n", 114) == 0);
}

TEST(resource_flags_of_64bit_prefetchable_bar_and_rom)
{
    struct canned k;
    make_virtio(&k);
    resources(&k);
    CHECK_EQ_INT(k.d.resource[4].start, 0x800000000ull);
    CHECK_EQ_INT(k.d.resource[4].end, 0x800003fffull);
    CHECK_EQ_INT(k.d.resource[4].flags, 0x0014220c); /* MEM_64|SIZEALIGN|PREFETCH|MEM + bits */
    CHECK_EQ_INT(k.d.resource[5].flags, 0);          /* the high half's slot */
    CHECK_EQ_INT(k.d.resource[PCI_ROM_RESOURCE].flags, 0x00046200);
    put32(&k, 0x30, 0xfe840001);
    resources(&k);
    CHECK_EQ_INT(k.d.resource[PCI_ROM_RESOURCE].flags, 0x00046201); /* ROM_ENABLE */
}

TEST(legacy_ide_ports_in_compatibility_mode)
{
    struct canned k;
    make_ide(&k, 0x80);
    CHECK_EQ_STR(pcidev(&k),
                 "PCIDEV 0009 80867010 0 1f0 3f6 170 376 c141 0 0 8 0 8 0 10 0 0 \n");
    CHECK(strncmp(resource_file(&k),
                  "0x00000000000001f0 0x00000000000001f7 0x0000000000000110\n"
                  "0x00000000000003f6 0x00000000000003f6 0x0000000000000110\n"
                  "0x0000000000000170 0x0000000000000177 0x0000000000000110\n"
                  "0x0000000000000376 0x0000000000000376 0x0000000000000110\n"
                  "0x000000000000c140 0x000000000000c14f 0x0000000000040101\n", 57 * 5) == 0);
    /* As pciutils prints Linux's sysfs: the regions the registers do not hold are virtual. */
    CHECK(strstr(lspci(&k, true), "\tMemory at 000001f0 (32-bit, non-prefetchable) [virtual] [size=8]\n"
                                  "\tMemory at 000003f0 (type 3, non-prefetchable) [virtual]\n"
                                  "\tMemory at 00000170 (32-bit, non-prefetchable) [virtual] [size=8]\n"
                                  "\tMemory at 00000370 (type 3, non-prefetchable) [virtual]\n"
                                  "\tI/O ports at c140 [size=16]\n"));
    make_ide(&k, 0x85); /* both channels native: their BARs, none here */
    CHECK_EQ_STR(pcidev(&k), "PCIDEV 0009 80867010 0 0 0 0 0 c141 0 0 0 0 0 0 10 0 0 \n");
    make_ide(&k, 0x81); /* primary native, secondary legacy */
    CHECK_EQ_STR(pcidev(&k), "PCIDEV 0009 80867010 0 0 0 170 376 c141 0 0 0 0 8 0 10 0 0 \n");
}

TEST(boot_video_rom_is_the_shadow)
{
    struct canned k;
    canned_init(&k, 0, 2, 0, 0x1234, 0x1111, 0x030000, 0x02, 0, 0x0003, 0);
    put32(&k, 0x10, 0xfd000008);
    put32(&k, 0x18, 0xfeb70000);
    put32(&k, 0x30, 0xfeb60000);
    decode(&k);
    k.d.bar[0].size = 0x1000000;
    k.d.bar[2].size = 0x1000;
    k.d.rom_size = 0x10000;
    CHECK_EQ_STR(pcidev(&k), "PCIDEV 0010 12341111 0 fd000008 0 feb70000 0 0 0 feb60000 "
                             "1000000 0 1000 0 0 0 10000 \n");
    CHECK(pci_is_boot_video(&k.d, 0x0003, true));
    CHECK(!pci_is_boot_video(&k.d, 0x0003, false)); /* a bridge above does not route VGA */
    CHECK(!pci_is_boot_video(&k.d, 0x0000, true));  /* not decoding */
    pci_setup_resources(&k.d, k.config, true);
    collect_reset();
    pci_print_pcidev(&collect_writer, &k.d);
    CHECK_EQ_STR(collected, "PCIDEV 0010 12341111 0 fd000008 0 feb70000 0 0 0 c0002 "
                            "1000000 0 1000 0 0 0 20000 \n");
    CHECK_EQ_INT(k.d.resource[PCI_ROM_RESOURCE].flags, 0x212);
    collect_reset();
    pci_print_lspci(&collect_writer, &k.d, true);
    CHECK(strstr(collected, "\tExpansion ROM at 000c0000 [disabled] [size=128K]\n"));
    make_edu(&k, 0x0003);
    CHECK(!pci_is_boot_video(&k.d, 0x0003, true)); /* not a VGA device */
}

TEST(bridge_resource_file_has_its_windows)
{
    struct canned k;
    make_bridge(&k);
    const char *out = resource_file(&k);
    int lines = 0;
    for (const char *p = out; *p; p++)
        lines += *p == '\n';
    CHECK_EQ_INT(lines, 17);
    CHECK(strstr(out, "0x000000000000c000 0x000000000000cfff 0x0000000000000100\n"
                      "0x00000000fe800000 0x00000000fe9fffff 0x0000000000000200\n"
                      "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
                      "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"));
}
