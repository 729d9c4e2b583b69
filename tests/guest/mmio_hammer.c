/*
 * mmio_hammer.c - `mmio_hammer DEVICE BAR ITERATIONS`: every online CPU hammers the first
 * page of one memory BAR of QEMU's edu device at once, so mmiotrace can be checked with all CPUs online
 * (tests/mmio_smp/mmio_smp.sh compares what it recorded with QEMU's device-side log).
 *
 * Each CPU, ITERATIONS times, with k the iteration and c the CPU:
 *
 *   write BAR+0x04 = c<<24 | k, read BAR+0x04        the same register on every CPU
 *   orl $(1 << c), BAR+0x80; andl $~(1 << c), BAR+0x80  read-modify-writes, one
 *                                                    instruction each, of one register
 *   write own = c<<24 | k, read own, addl $1, own    a register of its own
 *
 * ten device accesses per iteration. The offsets suit QEMU's edu (0x04 inverts what is
 * written, 0x80 holds the DMA source address; the DMA destination 0x88 and count 0x90 are
 * CPU 0's and 1's own registers); further CPUs' own registers are 0x100 + 4*c, which edu
 * does not implement: writes are dropped, reads give all ones, and the device still sees
 * each access. All CPUs start together (they wait for one flag), and the command returns
 * when every CPU is done. Test kernel only.
 */
#include "drivers/pci/pci.h"
#include "drivers/pci/pci_resource.h"
#include "kernel/arch.h"
#include "kernel/mm/ioremap.h"
#include "kernel/lib/parse.h"
#include "kernel/lib/string.h"
#include "kernel/log/printk.h"
#include "kernel/shell/shell.h"
#include "kernel/smp.h"

#define EDU_VENDOR 0x1234
#define EDU_DEVICE 0x11e8
/* 20,000 iterations are 200,000 traced accesses a CPU, about a minute of QEMU: the command
 * has no ^C, so a typo cannot tie the shell up for hours. */
#define MAX_ITERATIONS 20000
#define SAME_REGISTER 0x04
#define RMW_REGISTER 0x80

struct hammer {
    volatile uint8_t *base;
    uint32_t iterations;
    volatile bool go;
};

/* The register only CPU c uses. */
static uint32_t own_register(unsigned c)
{
    return c == 0 ? 0x88 : c == 1 ? 0x90 : 0x100 + 4 * c;
}

/* One CPU's share; every access is one instruction, so the trace has one record (two for
 * a read-modify-write) for each. */
static void hammer_cpu(void *arg)
{
    struct hammer *h = arg;
    while (!h->go)
        arch_cpu_relax();
    unsigned c = arch_cpu_id();
    volatile uint32_t *same = (volatile uint32_t *)(h->base + SAME_REGISTER);
    volatile uint32_t *rmw = (volatile uint32_t *)(h->base + RMW_REGISTER);
    volatile uint32_t *own = (volatile uint32_t *)(h->base + own_register(c));
    for (uint32_t k = 0; k < h->iterations; k++) {
        mmio_write32((void *)same, c << 24 | k);
        (void)mmio_read32((void *)same);
        __asm__ volatile("orl %1, %0" : "+m"(*rmw) : "ri"(1u << c));
        __asm__ volatile("andl %1, %0" : "+m"(*rmw) : "ri"(~(1u << c)));
        mmio_write32((void *)own, c << 24 | k);
        (void)mmio_read32((void *)own);
        __asm__ volatile("addl $1, %0" : "+m"(*own));
    }
}

static int cmd_mmio_hammer(int argc, char **argv, struct fs_writer *out)
{
    uint64_t bar, iterations;
    if (argc != 4 || parse_uint(argv[2], strlen(argv[2]), &bar) != 0 || bar >= PCI_MAX_BARS ||
        parse_uint(argv[3], strlen(argv[3]), &iterations) != 0 || iterations > MAX_ITERATIONS)
        return SHELL_USAGE;
    const struct pci_device *dev = pci_lookup(argv[1]);
    /* The offsets are edu's registers: on another device they could be anything
     * (a NIC's DMA engine), so no other device is hammered. */
    if (dev && (dev->vendor != EDU_VENDOR || dev->device != EDU_DEVICE)) {
        printk("mmio_hammer: %s is not QEMU's edu device (1234:11e8)\n", argv[1]);
        return -1;
    }
    const struct pci_resource *r = dev ? &dev->resource[bar] : NULL;
    if (!r || !(r->flags & IORESOURCE_MEM) || pci_resource_len(r) < 0x1000) {
        printk("mmio_hammer: %s has no memory BAR %u of a page or more\n", argv[1],
               (unsigned)bar);
        return -1;
    }
    struct hammer h = { .iterations = (uint32_t)iterations, .go = false };
    h.base = ioremap(r->start, 0x1000);
    if (!h.base) {
        printk("mmio_hammer: cannot map BAR %u\n", (unsigned)bar);
        return -1;
    }
    unsigned self = arch_cpu_id(), ncpus = arch_cpu_count();
    bool started[MAX_CPUS] = { false };
    for (unsigned c = 0; c < ncpus && c < MAX_CPUS; c++)
        if (c != self && !(started[c] = smp_run_on(c, hammer_cpu, &h)))
            printk("mmio_hammer: CPU %u is busy or offline; it does not take part\n", c);
    h.go = true;
    hammer_cpu(&h);
    unsigned ran = 1;
    for (unsigned c = 0; c < ncpus && c < MAX_CPUS; c++)
        if (started[c]) {
            smp_wait(c);
            ran++;
        }
    iounmap((void *)h.base);
    fs_printf(out, "mmio_hammer: %u CPUs x %u iterations: %u accesses\n", ran,
              (unsigned)iterations, ran * (unsigned)iterations * 10);
    return 0;
}
SHELL_COMMAND("mmio_hammer", "mmio_hammer DEVICE BAR ITERATIONS",
              "every CPU hammers one page of edu's BAR at once, up to 20000 iterations "
              "(mmiotrace's SMP test)",
              cmd_mmio_hammer);
