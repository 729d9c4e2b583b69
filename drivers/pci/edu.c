/*
 * edu.c - driver for QEMU's educational PCI device "edu" (PCI 1234:11e8).
 *
 * The edu device (QEMU hw/misc/edu.c, docs/specs/edu.rst) is a teaching device with one
 * 1 MiB memory BAR. Its registers, 32 bits wide (below 0x80 QEMU ignores anything but 4-byte
 * accesses):
 *
 *   0x00  identification: 0xMMmm00ed, major and minor version
 *   0x04  liveness: reads back the complement of what was written
 *   0x08  factorial: write n, wait until status bit 0 clears, read n!; QEMU computes it in
 *         another thread, so the wait really is needed
 *   0x20  status: bit 0 computing, bit 7 raise an interrupt when the factorial is done
 *   0x24  interrupt status: the bits raised and not yet acknowledged
 *   0x60  interrupt raise: ORs the value into the interrupt status and asserts INTx
 *   0x64  interrupt acknowledge: clears those bits; INTx drops when none remain
 *   0x80  DMA source, 0x88 destination, 0x90 byte count, 0x98 command (bit 0 start/busy,
 *         bit 1 direction: 0 RAM to device, 1 device to RAM; bit 2 interrupt when done).
 *         These are 64-bit registers, but a 4-byte write at 0x80 replaces the whole
 *         register (zero-extended) and QEMU ignores writes at 0x84: the driver writes the
 *         low half only, and hands the device addresses below its 28-bit DMA mask.
 *         The device's own buffer is 4 KiB at device address 0x40000. A transfer starts
 *         100 ms (QEMU virtual time) after the command is written. QEMU 7.2's range check
 *         is off by one: a transfer that reaches the buffer's last byte stops the whole VM
 *         ("DMA range ... out of bounds" and abort), so the driver moves half the buffer.
 *
 * `modprobe edu` maps BAR0 and checks each function in turn, one console line per check
 * ("edu: ... ok" or "edu: ... FAILED (...)") and a summary line: the identification, the
 * liveness register, a factorial (counting the status polls, a number that changes from run
 * to run), a raised interrupt that the handler acknowledges, and DMA from a RAM page into the
 * device and back into a second page. The device stays bound only if every check passed;
 * `rmmod edu` (or a failed check) releases the interrupt handler, the mapping and the pages.
 *
 * One edu device is bound at a time: the kernel's interrupt handlers take no argument, so
 * the handler finds its device through edu_bound.
 */
#include "arch/x86/trap.h"
#include "drivers/pci/pci.h"
#include "drivers/pci/pci_resource.h"
#include "kernel/arch.h"
#include "kernel/kernel_lock.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/ioremap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/log/printk.h"
#include "kernel/lib/string.h"
#include "kernel/time.h"
#include "trace/snapshot/snapshot.h"

#define EDU_REG_ID 0x00
#define EDU_REG_LIVENESS 0x04
#define EDU_REG_FACTORIAL 0x08
#define EDU_REG_STATUS 0x20
#define EDU_REG_IRQ_STATUS 0x24
#define EDU_REG_IRQ_RAISE 0x60
#define EDU_REG_IRQ_ACK 0x64
#define EDU_REG_DMA_SRC 0x80
#define EDU_REG_DMA_DST 0x88
#define EDU_REG_DMA_COUNT 0x90
#define EDU_REG_DMA_CMD 0x98
#define EDU_REGS_END 0xa0

#define EDU_ID_EXPECTED 0x010000edu
#define EDU_STATUS_COMPUTING 0x01
#define EDU_DMA_CMD_START 0x01      /* reads 1 while the transfer is pending */
#define EDU_DMA_CMD_TO_RAM 0x02     /* direction: device buffer to RAM */
#define EDU_DMA_BUFFER 0x40000u     /* the device's 4 KiB buffer, in its own address space */
#define EDU_DMA_LENGTH 2048u        /* half of the 4 KiB buffer: see the head comment */
#define EDU_DMA_LIMIT (1u << 28)    /* QEMU's default DMA mask for edu: 28 address bits */

#define LIVENESS_PATTERN 0x12345678u
#define FACTORIAL_INPUT 12u         /* the largest n whose n! fits in 32 bits */
#define IRQ_TEST_VALUE 0x00c0ffeeu  /* bits raised through 0x60; any nonzero value will do */
#define ALL_IRQ_BITS 0xffffffffu

#define FACTORIAL_TIMEOUT_NS 100000000ull   /* 100 ms; QEMU needs microseconds */
#define IRQ_TIMEOUT_NS 100000000ull
#define DMA_TIMEOUT_NS 1000000000ull        /* 1 s; QEMU starts a transfer after 100 ms */

/* One bound edu device. */
struct edu {
    struct pci_device *pci;
    volatile uint8_t *regs;          /* BAR0, mapped */
    int irq;                         /* the legacy line whose handler we own, or -1 */
    volatile bool irq_handled;       /* set by the handler once it acknowledged something */
    volatile uint32_t irq_status_seen; /* what the handler found in the interrupt status */
    uintptr_t dma_pages;             /* two pages (kernel address): the source, then the
                                      * destination; the device gets virt_to_phys of them */
    bool dma_pending;                /* a transfer timed out: the device may still write */
    unsigned checks_run, checks_passed;
};

static struct edu *edu_bound;

/* Reads a device register: exactly one 4-byte load, as QEMU requires. */
static uint32_t edu_read(struct edu *e, uint32_t reg) { return mmio_read32(e->regs + reg); }

/* Writes a device register: exactly one 4-byte store. */
static void edu_write(struct edu *e, uint32_t reg, uint32_t value)
{
    mmio_write32(e->regs + reg, value);
}

/*
 * Counts one check and prints its line: "edu: WHAT ok DETAIL" or "edu: WHAT FAILED (got ...,
 * expected ...) DETAIL". What varies from run to run (poll counts, addresses) goes in detail,
 * after the verdict, so that tests can match the rest of the line.
 */
static void edu_report(struct edu *e, bool ok, const char *what, uint32_t got, uint32_t expected,
                       const char *detail)
{
    e->checks_run++;
    if (ok) {
        e->checks_passed++;
        printk("edu: %s ok%s\n", what, detail);
    } else {
        printk("edu: %s FAILED (got 0x%08x, expected 0x%08x)%s\n", what, got, expected, detail);
    }
}

/* Counts one check that gave up waiting for the device; last is the register it polled. */
static void edu_report_timeout(struct edu *e, const char *what, uint32_t last, const char *detail)
{
    e->checks_run++;
    printk("edu: %s FAILED (timed out, register still 0x%08x)%s\n", what, last, detail);
}

/* The identification register: tells an edu device and its version. */
static bool check_identification(struct edu *e)
{
    uint32_t id = edu_read(e, EDU_REG_ID);
    char what[64];
    ksnprintf(what, sizeof what, "identification 0x%08x (version %u.%u)", id, id >> 24,
              (id >> 16) & 0xff);
    edu_report(e, id == EDU_ID_EXPECTED, what, id, EDU_ID_EXPECTED, "");
    return id == EDU_ID_EXPECTED;
}

/* The liveness register: what we write must come back inverted. */
static void check_liveness(struct edu *e)
{
    edu_write(e, EDU_REG_LIVENESS, LIVENESS_PATTERN);
    uint32_t got = edu_read(e, EDU_REG_LIVENESS);
    char what[64];
    ksnprintf(what, sizeof what, "liveness: wrote 0x%08x, read back 0x%08x", LIVENESS_PATTERN,
              got);
    edu_report(e, got == ~LIVENESS_PATTERN, what, got, ~LIVENESS_PATTERN, "");
}

/* The factorial unit: start it, poll the status until it is done (bounded), check n!. */
static void check_factorial(struct edu *e)
{
    uint32_t expected = 1;
    for (uint32_t k = 2; k <= FACTORIAL_INPUT; k++)
        expected *= k;

    /* Two snapshots time the computation, as Chuck Ebbert's 2003 patch "Debugging i386
     * using hardware task" times __ide_dma_end: with the
     * snapshot tracer current, the second one's delta is the factorial's cycles (plus one
     * snapshot's own cost). */
    TRACE_SNAPSHOT();
    edu_write(e, EDU_REG_FACTORIAL, FACTORIAL_INPUT);
    uint64_t deadline = time_ns() + FACTORIAL_TIMEOUT_NS;
    unsigned polls = 0;
    uint32_t status;
    do {
        status = edu_read(e, EDU_REG_STATUS);
        polls++;
    } while ((status & EDU_STATUS_COMPUTING) && time_ns() < deadline);
    TRACE_SNAPSHOT();

    char what[64], detail[32];
    ksnprintf(detail, sizeof detail, " (%u status poll%s)", polls, polls == 1 ? "" : "s");
    if (status & EDU_STATUS_COMPUTING) {
        ksnprintf(what, sizeof what, "factorial %u!", FACTORIAL_INPUT);
        edu_report_timeout(e, what, status, detail);
        return;
    }
    uint32_t got = edu_read(e, EDU_REG_FACTORIAL);
    ksnprintf(what, sizeof what, "factorial %u! = %u", FACTORIAL_INPUT, got);
    edu_report(e, got == expected, what, got, expected, detail);
}

/*
 * The INTx handler. The line may be shared with other devices, so it acknowledges only what
 * the edu's interrupt status says is ours, and does nothing when that is 0.
 */
static void edu_interrupt(void)
{
    struct edu *e = edu_bound;
    if (!e)
        return;
    uint32_t status = edu_read(e, EDU_REG_IRQ_STATUS);
    if (status == 0)
        return;
    edu_write(e, EDU_REG_IRQ_ACK, status);
    e->irq_status_seen = status;
    e->irq_handled = true;
}

/* True when the BIOS routed the device's interrupt pin to a line of the PIC. */
static bool has_irq_line(const struct pci_device *dev)
{
    return dev->irq_pin != 0 && dev->irq_line < IRQ_COUNT;
}

/*
 * Interrupts: takes the device's line (kept until the driver is unbound), raises an
 * interrupt through the raise register and waits (bounded) for the handler. It passes when
 * the handler saw exactly the raised bits and the status reads 0 after its acknowledgement.
 */
static void check_interrupt(struct edu *e)
{
    char what[64], detail[32];
    if (!has_irq_line(e->pci)) {
        /* No line to listen on is the platform's doing, not the device's: not a failure. */
        printk("edu: interrupt: skipped (pin %u, line %#x: no IRQ line assigned)\n",
               e->pci->irq_pin, e->pci->irq_line);
        return;
    }
    e->irq = e->pci->irq_line;
    irq_set_handler(e->irq, edu_interrupt);
    e->irq_handled = false;
    e->irq_status_seen = 0;
    edu_write(e, EDU_REG_IRQ_RAISE, IRQ_TEST_VALUE);

    /* Test the flag with interrupts off, then sti;hlt: an interrupt between the two cannot
     * be missed. The timer tick wakes us at worst every 10 ms. The line may be routed to
     * another CPU (a program on CPU 2 binding through sysfs, the IO-APIC sending to CPU 0),
     * whose handler waits for the big kernel lock this probe holds: each round lets a
     * waiting CPU have it first (kernel_lock_break), else the handler could never run. */
    uint64_t deadline = time_ns() + IRQ_TIMEOUT_NS;
    unsigned long flags = arch_irq_save();
    while (!e->irq_handled && time_ns() < deadline) {
        kernel_lock_break();
        if (e->irq_handled)
            break;
        arch_wait_for_interrupt();
        arch_irq_save();
    }
    arch_irq_restore(flags);

    ksnprintf(detail, sizeof detail, " (IRQ %d)", e->irq);
    ksnprintf(what, sizeof what, "interrupt: raised 0x%08x", IRQ_TEST_VALUE);
    if (!e->irq_handled) {
        edu_report_timeout(e, what, edu_read(e, EDU_REG_IRQ_STATUS), detail);
        edu_write(e, EDU_REG_IRQ_ACK, ALL_IRQ_BITS); /* leave the line quiet */
        return;
    }
    if (e->irq_status_seen != IRQ_TEST_VALUE) {
        ksnprintf(what, sizeof what, "interrupt: handler's interrupt status");
        edu_report(e, false, what, e->irq_status_seen, IRQ_TEST_VALUE, detail);
        return;
    }
    uint32_t after = edu_read(e, EDU_REG_IRQ_STATUS);
    ksnprintf(what, sizeof what, "interrupt: handler saw 0x%08x and acknowledged it",
              e->irq_status_seen);
    edu_report(e, after == 0, what, after, 0, detail);
}

/*
 * Runs one DMA transfer and waits (bounded) for the command register to say it is done.
 * Between polls the CPU sleeps until the next interrupt, since QEMU takes 100 ms to start.
 * True when it finished; *polls counts the command-register reads, *last_cmd is the last.
 */
static bool run_dma(struct edu *e, uint32_t src, uint32_t dst, uint32_t count,
                    uint32_t direction, unsigned *polls, uint32_t *last_cmd)
{
    edu_write(e, EDU_REG_DMA_SRC, src);
    edu_write(e, EDU_REG_DMA_DST, dst);
    edu_write(e, EDU_REG_DMA_COUNT, count);
    edu_write(e, EDU_REG_DMA_CMD, EDU_DMA_CMD_START | direction);

    uint64_t deadline = time_ns() + DMA_TIMEOUT_NS;
    *polls = 0;
    for (;;) {
        *last_cmd = edu_read(e, EDU_REG_DMA_CMD);
        ++*polls;
        if (!(*last_cmd & EDU_DMA_CMD_START))
            return true;
        if (time_ns() >= deadline) {
            e->dma_pending = true;
            return false;
        }
        arch_wait_for_interrupt();
    }
}

/* Fills a page with a pattern that differs in every 32-bit word. */
static void fill_pattern(uint32_t *words, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        words[i] = 0xed000000u ^ (i * 0x9e3779b9u);
}

/*
 * DMA both ways: a patterned RAM page into the device's buffer, then the buffer into a
 * zeroed second page, which must then equal the first. pci_enable_device turned on bus
 * mastering; the device's DMA completion interrupt is not used.
 */
static void check_dma(struct edu *e)
{
    uint32_t *src = (uint32_t *)e->dma_pages;
    uint32_t *dst = (uint32_t *)(e->dma_pages + PAGE_SIZE);
    uint32_t src_bus = (uint32_t)virt_to_phys(src), dst_bus = (uint32_t)virt_to_phys(dst);
    uint32_t words = EDU_DMA_LENGTH / 4;
    uint32_t last_cmd;
    char what[64], detail[48];

    fill_pattern(src, words);
    memset(dst, 0, EDU_DMA_LENGTH);

    unsigned polls;
    bool done = run_dma(e, src_bus, EDU_DMA_BUFFER, EDU_DMA_LENGTH, 0,
                        &polls, &last_cmd);
    ksnprintf(what, sizeof what, "DMA RAM -> device buffer: %u bytes", EDU_DMA_LENGTH);
    ksnprintf(detail, sizeof detail, " (from %#x, %u command polls)", src_bus,
              polls);
    if (!done) {
        edu_report_timeout(e, what, last_cmd, detail);
        return;
    }
    edu_report(e, true, what, 0, 0, detail);

    done = run_dma(e, EDU_DMA_BUFFER, dst_bus, EDU_DMA_LENGTH,
                   EDU_DMA_CMD_TO_RAM, &polls, &last_cmd);
    ksnprintf(what, sizeof what, "DMA device buffer -> RAM: %u bytes, equal to the source",
              EDU_DMA_LENGTH);
    ksnprintf(detail, sizeof detail, " (to %#x, %u command polls)", dst_bus,
              polls);
    if (!done) {
        edu_report_timeout(e, what, last_cmd, detail);
        return;
    }
    uint32_t first_bad = 0;
    while (first_bad < words && dst[first_bad] == src[first_bad])
        first_bad++;
    if (first_bad < words)
        ksnprintf(what, sizeof what, "DMA device buffer -> RAM: word at byte %u", first_bad * 4);
    edu_report(e, first_bad == words, what, first_bad < words ? dst[first_bad] : 0,
               first_bad < words ? src[first_bad] : 0, detail);
}

/*
 * Undoes edu_probe: quiets the device's interrupt and lets go of the line, turns bus
 * mastering off (pci_disable_device), unmaps BAR0 and frees the DMA pages, unless a
 * transfer is still pending: then the pages stay allocated (leaked) rather than be handed
 * out while the device may still write into them.
 */
static void edu_release(struct edu *e)
{
    if (e->irq >= 0) {
        edu_write(e, EDU_REG_IRQ_ACK, ALL_IRQ_BITS);
        irq_set_handler(e->irq, NULL);
    }
    edu_bound = NULL;
    pci_disable_device(e->pci); /* bus mastering off: no DMA into pages given back */
    if (e->dma_pending)
        printk("edu: a DMA transfer timed out: its 2 pages stay allocated\n");
    else
        page_free(e->dma_pages, 2);
    iounmap((void *)e->regs);
    kfree(e);
}

/*
 * Binds an edu device: maps BAR0, takes two pages for DMA, turns on decoding and bus
 * mastering, and runs the checks (the rest only if the identification is right). The device
 * stays bound only if every check passed; otherwise everything is given back.
 */
static int edu_probe(struct pci_device *dev)
{
    const struct pci_resource *bar = &dev->resource[0];
    if (edu_bound) {
        printk("edu: %02x:%02x.%u: another edu is bound already (one at a time)\n", dev->bus,
               dev->dev, dev->fn);
        return -EBUSY;
    }
    if (!(bar->flags & IORESOURCE_MEM) || pci_resource_len(bar) < EDU_REGS_END) {
        printk("edu: %02x:%02x.%u: BAR0 is not a memory BAR of at least %#x bytes\n",
               dev->bus, dev->dev, dev->fn, EDU_REGS_END);
        return -ENODEV;
    }
    struct edu *e = kzalloc(sizeof *e);
    if (!e)
        return -ENOMEM;
    e->pci = dev;
    e->irq = -1;
    e->regs = ioremap(bar->start, (size_t)pci_resource_len(bar));
    e->dma_pages = page_alloc(2);
    if (!e->regs || !e->dma_pages || virt_to_phys((void *)e->dma_pages) + 2 * PAGE_SIZE > EDU_DMA_LIMIT) {
        printk("edu: %02x:%02x.%u: cannot map BAR0 or get 2 pages below %#x for DMA\n",
               dev->bus, dev->dev, dev->fn, EDU_DMA_LIMIT);
        if (e->dma_pages)
            page_free(e->dma_pages, 2);
        if (e->regs)
            iounmap((void *)e->regs);
        kfree(e);
        return -ENOMEM;
    }
    pci_enable_device(dev);
    edu_bound = e;

    printk("edu: %02x:%02x.%u: BAR0 %#llx (%llu KiB) mapped at %p, interrupt pin %u line %u\n",
           dev->bus, dev->dev, dev->fn, (unsigned long long)bar->start,
           (unsigned long long)(pci_resource_len(bar) >> 10), (void *)e->regs, dev->irq_pin, dev->irq_line);
    if (check_identification(e)) {
        check_liveness(e);
        check_factorial(e);
        check_interrupt(e);
        check_dma(e);
    }

    if (e->checks_passed < e->checks_run) {
        printk("edu: %u of %u checks ok: not binding\n", e->checks_passed, e->checks_run);
        edu_release(e);
        return -EIO;
    }
    printk("edu: all %u checks ok\n", e->checks_run);
    dev->driver_data = e;
    return 0;
}

/* Unbinds: gives back everything edu_probe took. */
static void edu_remove(struct pci_device *dev)
{
    edu_release(dev->driver_data);
    dev->driver_data = NULL;
}

static const struct pci_id edu_ids[] = { { 0x1234, 0x11e8 }, { 0, 0 } };

static const struct pci_driver edu_driver = {
    .name = "edu",
    .ids = edu_ids,
    .probe = edu_probe,
    .remove = edu_remove,
};
PCI_DRIVER(edu_driver);
