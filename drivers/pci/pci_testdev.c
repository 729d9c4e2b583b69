/*
 * pci_testdev.c - driver for QEMU's PCI test device "pci-testdev" (PCI 1b36:0005).
 *
 * The device (QEMU hw/misc/pci-testdev.c) exists to test how writes reach a device model.
 * It offers numbered tests in each of two BARs: BAR0 (memory, 4 KiB) and BAR1 (I/O ports,
 * 256). Writing a test's number to byte 0 of a BAR selects that BAR's test, and the BAR then
 * reads as the test's header, one byte register per address (little-endian fields):
 *
 *   0   test    the test's index among all of them
 *   1   width   bytes per write
 *   4   offset  where in the BAR to write (32 bits)
 *   8   data    the value to write
 *   12  count   how many writes the device counted (32 bits)
 *   16  name    NUL-terminated: "mmio-no-eventfd", "portio-wildcard-eventfd", ...
 *
 * An unknown number deselects every test, after which the BAR reads as zeros. A test counts
 * a write of `width` bytes of `data` at `offset` (selecting resets the count to 0), except
 * that the "-eventfd" tests attach an ioeventfd to their offset: QEMU then signals that file
 * descriptor on the host instead of calling the device (QEMU 7.2 does so under TCG too), so
 * the device never sees the write and its count stays 0. Only "no-eventfd" tests count.
 *
 * `modprobe pci-testdev` walks the tests of both BARs (memory through ioremap and the mmio.h
 * accessors, I/O through in/out), performs each test's write once and checks the count moved
 * as QEMU says it must, printing one line per test and a summary. The header is read a byte
 * at a time, which is what the device model implements, so the device receives exactly the
 * accesses the driver (and mmiotrace) see. The device stays bound only if every test passed.
 */
#include "arch/x86/cpu.h"
#include "kernel/arch.h"
#include "drivers/pci/pci.h"
#include "drivers/pci/pci_port.h"
#include "drivers/pci/pci_resource.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/ioremap.h"
#include "kernel/log/printk.h"
#include "kernel/lib/string.h"

#define TESTDEV_SELECT 0             /* write a test number here; the header's test byte */
#define TESTDEV_HDR_WIDTH 1
#define TESTDEV_HDR_OFFSET 4
#define TESTDEV_HDR_DATA 8
#define TESTDEV_HDR_COUNT 12
#define TESTDEV_HDR_NAME 16
#define TESTDEV_NAME_MAX 32          /* QEMU's names are at most 22 bytes */
#define TESTDEV_HEADER_END (TESTDEV_HDR_NAME + TESTDEV_NAME_MAX) /* a BAR holds at least this */
#define TESTDEV_MAX_TESTS 16         /* per BAR; QEMU has 3: the walk stops at the first gap */
#define TESTDEV_DESELECT 0xff        /* a test number no BAR has */
#define TESTDEV_COUNTING_KIND "no-eventfd"

/* One BAR of the device: memory (mapped) or I/O ports. */
struct testdev_bar {
    const char *label;       /* "BAR0" or "BAR1" */
    volatile uint8_t *mem;   /* the mapping, or NULL for an I/O BAR */
    uint16_t port;           /* first port of an I/O BAR */
    uint32_t size;
};

/* One bound pci-testdev. */
struct pci_testdev {
    struct testdev_bar bars[2];
    unsigned tests_run, tests_passed;
};

/* A test's header as the device presents it. */
struct testdev_header {
    uint8_t width;
    uint32_t offset;
    uint8_t data;
    uint32_t count;
    char name[TESTDEV_NAME_MAX + 1];
};

/* Reads one byte register of a BAR: a single 1-byte access. */
static uint8_t bar_read8(const struct testdev_bar *b, uint32_t offset)
{
    return b->mem ? mmio_read8(b->mem + offset)
                  : (uint8_t)pci_port_read((uint16_t)(b->port + offset), 1);
}

/* Reads a little-endian 32-bit header field as four byte accesses, as the device serves it. */
static uint32_t bar_read_le32(const struct testdev_bar *b, uint32_t offset)
{
    uint32_t v = 0;
    for (uint32_t i = 0; i < 4; i++)
        v |= (uint32_t)bar_read8(b, offset + i) << (8 * i);
    return v;
}

/* Writes value at offset with a single access of width bytes (1, 2 or 4). */
static void bar_write(const struct testdev_bar *b, uint32_t offset, uint8_t width, uint32_t value)
{
    if (b->mem)
        mmio_write_sized(b->mem + offset, width, value);
    else
        pci_port_write((uint16_t)(b->port + offset), width, value);
}

/* Selects test number n of a BAR and reads its header. False when the BAR has no test n. */
static bool read_header(const struct testdev_bar *b, uint8_t n, struct testdev_header *h)
{
    bar_write(b, TESTDEV_SELECT, 1, n);
    h->width = bar_read8(b, TESTDEV_HDR_WIDTH);
    if (h->width == 0)
        return false;
    h->offset = bar_read_le32(b, TESTDEV_HDR_OFFSET);
    h->data = bar_read8(b, TESTDEV_HDR_DATA);
    h->count = bar_read_le32(b, TESTDEV_HDR_COUNT);
    size_t i = 0;
    while (i < TESTDEV_NAME_MAX) {
        char c = (char)bar_read8(b, TESTDEV_HDR_NAME + (uint32_t)i);
        if (c == '\0')
            break;
        h->name[i++] = (c >= ' ' && c <= '~') ? c : '?';
    }
    h->name[i] = '\0';
    return true;
}

/* True when QEMU delivers the test's write to the device, which counts it: the "no-eventfd"
 * kind. The name is "<type>-<kind>", type being "mmio" or "portio". */
static bool test_counts_writes(const char *name)
{
    const char *kind = strchr(name, '-');
    return kind && strcmp(kind + 1, TESTDEV_COUNTING_KIND) == 0;
}

/* Runs the selected test: one write as its header describes, then the count must have moved
 * by one (or stayed, for an ioeventfd test). Prints the test's line. */
static void run_test(struct pci_testdev *t, const struct testdev_bar *b,
                     const struct testdev_header *h)
{
    t->tests_run++;
    if ((h->width != 1 && h->width != 2 && h->width != 4) || h->offset < TESTDEV_HEADER_END ||
        h->offset > b->size - h->width) {
        printk("pci-testdev: %s: FAILED (width %u at %s+%#x does not fit the BAR)\n", h->name,
               h->width, b->label, h->offset);
        return;
    }
    bool counts = test_counts_writes(h->name);
    bar_write(b, h->offset, h->width, h->data);
    uint32_t after = bar_read_le32(b, TESTDEV_HDR_COUNT);
    uint32_t expected = h->count + (counts ? 1 : 0);

    char what[128];
    ksnprintf(what, sizeof what, "%s: wrote %#x to %s+%#x, hit count %u -> %u%s", h->name,
              h->data, b->label, h->offset, h->count, after,
              counts ? "" : " (taken by QEMU's ioeventfd)");
    if (after == expected) {
        t->tests_passed++;
        printk("pci-testdev: %s ok\n", what);
    } else {
        printk("pci-testdev: %s FAILED (got 0x%08x, expected 0x%08x)\n", what, after, expected);
    }
}

/*
 * Runs every test a BAR offers and returns how many there were. The walk ends by selecting
 * a number the BAR does not have, which deselects every test; only when it stops at the
 * bound does it deselect explicitly.
 */
static unsigned run_bar_tests(struct pci_testdev *t, const struct testdev_bar *b)
{
    struct testdev_header h;
    unsigned found = 0;
    while (found < TESTDEV_MAX_TESTS && read_header(b, (uint8_t)found, &h)) {
        run_test(t, b, &h);
        found++;
    }
    if (found == TESTDEV_MAX_TESTS)
        bar_write(b, TESTDEV_SELECT, 1, TESTDEV_DESELECT);
    return found;
}

/* Binds a pci-testdev: maps BAR0, runs the tests of both BARs, keeps it if all passed. */
static int pci_testdev_probe(struct pci_device *dev)
{
    const struct pci_resource *mem = &dev->resource[0], *io = &dev->resource[1];
    uint64_t mem_size = pci_resource_len(mem), io_size = pci_resource_len(io);
    if (!(mem->flags & IORESOURCE_MEM) || mem_size < TESTDEV_HEADER_END ||
        !(io->flags & IORESOURCE_IO) || io_size < TESTDEV_HEADER_END || io->end >= 0x10000) {
        printk("pci-testdev: %02x:%02x.%u: expected a memory BAR0 and an I/O BAR1\n", dev->bus,
               dev->dev, dev->fn);
        return -ENODEV;
    }
    struct pci_testdev *t = kzalloc(sizeof *t);
    if (!t)
        return -ENOMEM;
    t->bars[0] = (struct testdev_bar){ "BAR0", ioremap(mem->start, (size_t)mem_size), 0,
                                       (uint32_t)mem_size };
    t->bars[1] = (struct testdev_bar){ "BAR1", NULL, (uint16_t)io->start, (uint32_t)io_size };
    if (!t->bars[0].mem) {
        printk("pci-testdev: %02x:%02x.%u: cannot map BAR0 (%llu bytes at %#llx)\n", dev->bus,
               dev->dev, dev->fn, (unsigned long long)mem_size, (unsigned long long)mem->start);
        kfree(t);
        return -ENOMEM;
    }
    pci_enable_device(dev);
    printk("pci-testdev: %02x:%02x.%u: BAR0 %#llx (%llu bytes) mapped at %p, BAR1 ports "
           "%#x-%#x\n", dev->bus, dev->dev, dev->fn, (unsigned long long)mem->start,
           (unsigned long long)mem_size, (void *)t->bars[0].mem, t->bars[1].port,
           t->bars[1].port + t->bars[1].size - 1);

    bool found_all = true;
    for (int i = 0; i < 2; i++) {
        if (run_bar_tests(t, &t->bars[i]) == 0) {
            printk("pci-testdev: %s tests FAILED (the BAR offers none)\n", t->bars[i].label);
            found_all = false;
        }
    }
    if (!found_all || t->tests_passed < t->tests_run) {
        printk("pci-testdev: %u of %u tests ok: not binding\n", t->tests_passed, t->tests_run);
        pci_disable_device(dev);
        iounmap((void *)t->bars[0].mem);
        kfree(t);
        return -EIO;
    }
    printk("pci-testdev: all %u tests ok\n", t->tests_run);
    dev->driver_data = t;
    return 0;
}

/* Unbinds: gives back the enable, unmaps BAR0 and frees the state (probe left every test
 * deselected). */
static void pci_testdev_remove(struct pci_device *dev)
{
    struct pci_testdev *t = dev->driver_data;
    pci_disable_device(dev);
    iounmap((void *)t->bars[0].mem);
    kfree(t);
    dev->driver_data = NULL;
}

static const struct pci_id pci_testdev_ids[] = { { 0x1b36, 0x0005 }, { 0, 0 } };

static const struct pci_driver pci_testdev_driver = {
    .name = "pci-testdev",
    .ids = pci_testdev_ids,
    .probe = pci_testdev_probe,
    .remove = pci_testdev_remove,
};
PCI_DRIVER(pci_testdev_driver);
