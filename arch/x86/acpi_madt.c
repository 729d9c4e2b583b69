/*
 * acpi_madt.c - finds the MADT in the firmware's ACPI tables and keeps what it says about
 * CPUs, I/O APICs and ISA interrupt wiring (arch/x86/acpi_madt.h).
 *
 * The search follows the ACPI spec (section 5.2.5.1, "Finding the RSDP on IA-PC systems"):
 * the signature "RSD PTR " on a 16-byte boundary in the first KiB of the Extended BIOS Data
 * Area (whose segment the BIOS keeps at 0x40E), else in the BIOS ROM area 0xE0000-0xFFFFF.
 * Those addresses lie in the direct map (but for page 0). The RSDT and the tables it lists
 * lie wherever the firmware put them (SeaBIOS: the top of RAM, a region the memory map
 * calls reserved), so they are copied out through a temporary mapping instead.
 */
#include "arch/x86/acpi_madt.h"

#include "kernel/lib/string.h"
#include "kernel/log/printk.h"
#include "arch/x86/paging.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/ioremap.h"
#include "kernel/mm/page_alloc.h"

struct madt_info madt;

/* Every ACPI table starts with this header (ACPI spec 5.2.6). */
struct acpi_header {
    char signature[4];
    uint32_t length; /* of the whole table, header included */
    uint8_t revision, checksum;
    char oem_id[6], oem_table_id[8];
    uint32_t oem_revision, creator_id, creator_revision;
} __attribute__((packed));

struct acpi_rsdp {
    char signature[8]; /* "RSD PTR " */
    uint8_t checksum;  /* over the first 20 bytes (the ACPI 1.0 part) */
    char oem_id[6];
    uint8_t revision;  /* 0: ACPI 1.0 (RSDT only); 2: also the XSDT fields below */
    uint32_t rsdt_address;
    uint32_t length;
    uint64_t xsdt_address;
    uint8_t extended_checksum, reserved[3];
} __attribute__((packed));

#define MADT_FLAG_PCAT_COMPAT 1u
#define MADT_LAPIC 0
#define MADT_IOAPIC 1
#define MADT_OVERRIDE 2
#define MADT_LAPIC_NMI 4
#define MADT_LAPIC_ADDRESS 5
#define MADT_CPU_ENABLED 1u
#define TABLE_MAX_BYTES (64u << 10) /* a sanity bound: QEMU's MADT is a few hundred bytes */

static bool copy_phys(void *dst, uint32_t pa, uint32_t len);

/* ACPI's checksum rule: all bytes of the structure add up to 0 (mod 256). */
static bool checksum_ok(const void *p, uint32_t len)
{
    uint8_t sum = 0;
    for (uint32_t i = 0; i < len; i++)
        sum += ((const uint8_t *)p)[i];
    return sum == 0;
}

/* The first valid RSDP in [start, start + len) of low physical memory, or NULL. */
static const struct acpi_rsdp *scan_rsdp(uint32_t start, uint32_t len)
{
    for (uint32_t pa = start; pa + sizeof(struct acpi_rsdp) <= start + len; pa += 16) {
        const struct acpi_rsdp *r = phys_to_virt(pa);
        if (memcmp(r->signature, "RSD PTR ", 8) == 0 && checksum_ok(r, 20))
            return r;
    }
    return 0;
}

static const struct acpi_rsdp *find_rsdp(void)
{
    /* Physical page 0 is left out of the direct map (a NULL catcher): copy_phys reads it. */
    uint16_t ebda_segment = 0;
    copy_phys(&ebda_segment, 0x40e, 2);
    uint32_t ebda = (uint32_t)ebda_segment << 4;
    const struct acpi_rsdp *r = 0;
    if (ebda >= 0x80000 && ebda < 0xa0000)
        r = scan_rsdp(ebda, 1024);
    return r ? r : scan_rsdp(0xe0000, 0x20000);
}

/*
 * Reading physical memory outside the direct map: a few pages of the ioremap window kept
 * for this (not ioremap itself, whose mappings are numbered and shown to mmiotrace: the
 * firmware's tables are no device). copy_phys maps the pages under [pa, pa + len), copies
 * the bytes out and unmaps them again.
 */
#define WINDOW_PAGES (TABLE_MAX_BYTES / PAGE_SIZE + 1)
static uintptr_t window;

static bool copy_phys(void *dst, uint32_t pa, uint32_t len)
{
    if (!window)
        window = ioremap_reserve_window(WINDOW_PAGES);
    uint32_t first = pa & ~(PAGE_SIZE - 1), pages = (pa + len - first + PAGE_SIZE - 1) / PAGE_SIZE;
    if (!window || len > TABLE_MAX_BYTES || pages > WINDOW_PAGES)
        return false;
    for (uint32_t i = 0; i < pages; i++)
        paging_set_pte(window + i * PAGE_SIZE, first + i * PAGE_SIZE, PTE_PRESENT);
    memcpy(dst, (const void *)(window + (pa - first)), len);
    for (uint32_t i = 0; i < pages; i++)
        paging_set_pte(window + i * PAGE_SIZE, 0, 0);
    return true;
}

/* A copy (kmalloc'd: kfree it) of the whole table at physical pa, read header first to
 * learn its length, if its checksum holds and its signature is the one asked for (NULL:
 * any); else NULL. */
static struct acpi_header *copy_table(uint32_t pa, const char *signature)
{
    struct acpi_header h;
    if (!copy_phys(&h, pa, sizeof h))
        return 0;
    if ((signature && memcmp(h.signature, signature, 4) != 0) || h.length < sizeof h ||
        h.length > TABLE_MAX_BYTES)
        return 0;
    struct acpi_header *t = kmalloc(h.length);
    if (!t)
        return 0;
    if (!copy_phys(t, pa, h.length) || !checksum_ok(t, t->length)) {
        printk("ACPI: %.4s at %#x is unreadable or has a bad checksum; ignored\n", h.signature,
               pa);
        kfree(t);
        return 0;
    }
    return t;
}

static void add_cpu(struct madt_info *m, uint8_t acpi_id, uint8_t apic_id, uint32_t flags)
{
    bool enabled = flags & MADT_CPU_ENABLED;
    printk("ACPI: LAPIC (acpi_id[0x%02x] lapic_id[0x%02x] %s)\n", acpi_id, apic_id,
           enabled ? "enabled" : "disabled");
    if (m->cpu_count == MAX_CPUS) {
        m->cpus_ignored++;
        return;
    }
    m->cpus[m->cpu_count++] = (struct madt_cpu){ acpi_id, apic_id, enabled };
}

static void add_ioapic(struct madt_info *m, uint8_t id, uint32_t address, uint32_t gsi_base)
{
    printk("ACPI: IOAPIC (id[0x%02x] address[%#010x] gsi_base[%u])\n", id, address, gsi_base);
    if (m->ioapic_count < MADT_MAX_IOAPICS)
        m->ioapics[m->ioapic_count++] = (struct madt_ioapic){ id, address, gsi_base };
}

static const char *const polarity_names[4] = { "dfl", "high", "res", "low" };
static const char *const trigger_names[4] = { "dfl", "edge", "res", "level" };

static void add_override(struct madt_info *m, uint8_t bus, uint8_t source, uint32_t gsi,
                         uint16_t flags)
{
    printk("ACPI: INT_SRC_OVR (bus %u bus_irq %u global_irq %u %s %s)\n", bus, source, gsi,
           polarity_names[flags & 3], trigger_names[(flags >> 2) & 3]);
    if (m->override_count < MADT_MAX_OVERRIDES)
        m->overrides[m->override_count++] = (struct madt_override){ source, gsi, flags };
}

/* The bytes each entry type this parser reads must have (ACPI spec 5.2.12.2-5.2.12.8):
 * an entry shorter than that would be read past its end, into the next one. */
static unsigned entry_min_length(uint8_t type)
{
    switch (type) {
    case MADT_LAPIC: return 8;
    case MADT_IOAPIC: return 12;
    case MADT_OVERRIDE: return 10;
    case MADT_LAPIC_NMI: return 6;
    case MADT_LAPIC_ADDRESS: return 12;
    default: return 2; /* not read: only its type and length */
    }
}

#define MADT_HEADER_BYTES (sizeof(struct acpi_header) + 8) /* + local APIC address, flags */

bool acpi_madt_parse(const void *table, struct madt_info *m)
{
    const struct acpi_header *h = table;
    if (h->length < MADT_HEADER_BYTES) {
        printk("ACPI: MADT of %u bytes is shorter than its %u-byte header: ignored\n",
               h->length, (unsigned)MADT_HEADER_BYTES);
        return false;
    }
    const uint8_t *p = (const uint8_t *)h + sizeof *h;
    const uint8_t *end = (const uint8_t *)h + h->length;
    uint32_t flags;
    memcpy(&m->lapic_address, p, 4);
    memcpy(&flags, p + 4, 4);
    m->has_8259 = flags & MADT_FLAG_PCAT_COMPAT;
    printk("ACPI: MADT: local APIC at %#x%s\n", m->lapic_address,
           m->has_8259 ? ", 8259 PICs present" : "");
    for (p += 8; p + 2 <= end && p[1] >= 2 && p + p[1] <= end; p += p[1]) {
        uint32_t a, b;
        uint16_t f;
        if (p[1] < entry_min_length(p[0])) {
            printk("ACPI: MADT entry type %u of %u bytes (at least %u expected): skipped\n",
                   p[0], p[1], entry_min_length(p[0]));
            continue;
        }
        switch (p[0]) {
        case MADT_LAPIC:
            memcpy(&a, p + 4, 4);
            add_cpu(m, p[2], p[3], a);
            break;
        case MADT_IOAPIC:
            memcpy(&a, p + 4, 4);
            memcpy(&b, p + 8, 4);
            add_ioapic(m, p[2], a, b);
            break;
        case MADT_OVERRIDE:
            memcpy(&a, p + 4, 4);
            memcpy(&f, p + 8, 2);
            add_override(m, p[2], p[3], a, f);
            break;
        case MADT_LAPIC_NMI:
            memcpy(&f, p + 3, 2);
            printk("ACPI: LAPIC_NMI (acpi_id[0x%02x] %s %s lint[%u])\n", p[2],
                   polarity_names[f & 3], trigger_names[(f >> 2) & 3], p[5]);
            break;
        case MADT_LAPIC_ADDRESS: {
            uint64_t address;
            memcpy(&address, p + 4, 8);
            if (address >> 32)
                printk("ACPI: local APIC override above 4 GiB ignored\n");
            else
                m->lapic_address = (uint32_t)address;
            break;
        }
        default:
            break; /* x2APIC and other entries: nothing QEMU's i386 machine gives */
        }
    }
    return true;
}

void acpi_madt_init(void)
{
    const struct acpi_rsdp *rsdp = find_rsdp();
    if (!rsdp) {
        printk("ACPI: no RSDP found: one CPU, no I/O APIC\n");
        return;
    }
    printk("ACPI: RSDP %#x (v%02u %.6s)\n", (uint32_t)virt_to_phys((void *)rsdp),
           rsdp->revision, rsdp->oem_id);
    /* The XSDT lists 64-bit addresses; the RSDT 32-bit ones. Both name the same tables. */
    bool xsdt = rsdp->revision >= 2 && rsdp->xsdt_address && !(rsdp->xsdt_address >> 32) &&
                !rsdp->rsdt_address;
    uint32_t root_pa = xsdt ? (uint32_t)rsdp->xsdt_address : rsdp->rsdt_address;
    struct acpi_header *root = copy_table(root_pa, xsdt ? "XSDT" : "RSDT");
    if (!root) {
        printk("ACPI: no valid %s at %#x\n", xsdt ? "XSDT" : "RSDT", root_pa);
        return;
    }
    unsigned size = xsdt ? 8 : 4;
    unsigned entries = (root->length - sizeof *root) / size;
    for (unsigned i = 0; i < entries && !madt.found; i++) {
        uint64_t pa = 0;
        memcpy(&pa, (const uint8_t *)root + sizeof *root + i * size, size);
        if (pa >> 32) { /* out of a 32-bit kernel's reach; its low half is another address */
            printk("ACPI: XSDT entry %u at %#x%08x is above 4 GiB: skipped\n", i,
                   (uint32_t)(pa >> 32), (uint32_t)pa);
            continue;
        }
        struct acpi_header *h = copy_table((uint32_t)pa, "APIC");
        if (h) {
            madt.found = acpi_madt_parse(h, &madt);
            kfree(h);
        }
    }
    kfree(root);
    if (!madt.found)
        printk("ACPI: no MADT: one CPU, no I/O APIC\n");
    else if (madt.cpus_ignored)
        printk("ACPI: %u CPUs past MAX_CPUS (%d) are not started\n", madt.cpus_ignored,
               MAX_CPUS);
}

uint32_t madt_isa_irq_gsi(unsigned isa_irq, uint16_t *flags)
{
    for (unsigned i = 0; i < madt.override_count; i++)
        if (madt.overrides[i].isa_irq == isa_irq) {
            if (flags)
                *flags = madt.overrides[i].flags;
            return madt.overrides[i].gsi;
        }
    if (flags)
        *flags = 0;
    return isa_irq;
}
