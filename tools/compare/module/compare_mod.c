// SPDX-License-Identifier: GPL-2.0
/*
 * compare_mod.c - the Linux side of the two `make compare` rows that only kernel code can
 * measure, built against Debian's linux-headers of the image make compare boots
 * (tools/compare/build-module.sh) and loaded by the initramfs's /init. Each cost is
 * measured as tracekern's kernel/bench.c measures its own rows: a loop of N calls of the
 * work through a function pointer with interrupts off, timed with rdtsc, minus the same
 * loop calling an empty function, divided by N (under -icount shift=0 the TSC counts guest
 * instructions). Prints "COMPARE NAME VALUE" lines to the kernel log, which /init copies
 * to the console.
 *
 *   traced=0  ring_buffer_reserve_commit_8: ring_buffer_lock_reserve of an 8-byte payload
 *             on a buffer of its own, the payload written, ring_buffer_unlock_commit;
 *             mmio_read_untraced: a 4-byte readl of the edu device's BAR 0 (its ID
 *             register), mapped while mmiotrace is off.
 *   traced=1  mmio_read_traced: the same readl through a mapping made while mmiotrace is
 *             the current tracer (/init sets it before loading), so each access faults,
 *             is single-stepped and recorded.
 */
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/ring_buffer.h>
#include <linux/io.h>
#include <asm/msr.h>

#define ITERATIONS 5000
#define EDU_VENDOR 0x1234
#define EDU_DEVICE 0x11e8

static int traced;
module_param(traced, int, 0444);
MODULE_PARM_DESC(traced, "1: measure the traced read (mmiotrace on before loading)");

static struct trace_buffer *buffer;
static void __iomem *edu_regs;

static noinline void empty_iteration(void) { }

static noinline void reserve_commit(void)
{
	struct ring_buffer_event *event = ring_buffer_lock_reserve(buffer, 8);

	if (event) {
		*(u64 *)ring_buffer_event_data(event) = 0x1122334455667788ull;
		ring_buffer_unlock_commit(buffer, event);
	}
}

static noinline void read32(void) { (void)readl(edu_regs); }

static u64 cycles_for(void (*fn)(void))
{
	unsigned long flags;
	u64 start, cycles;
	int i;

	local_irq_save(flags);
	start = rdtsc_ordered();
	for (i = 0; i < ITERATIONS; i++)
		fn();
	cycles = rdtsc_ordered() - start;
	local_irq_restore(flags);
	return cycles;
}

/* Prints fn's cost per call over the empty loop's, in hundredths, as bench rows do. */
static void report(const char *row, void (*fn)(void))
{
	u64 empty = cycles_for(empty_iteration);
	u64 full = cycles_for(fn);
	u64 hundredths = full > empty ? div_u64((full - empty) * 100, ITERATIONS) : 0;

	pr_info("COMPARE %s %llu.%02llu\n", row, div_u64(hundredths, 100),
		hundredths - div_u64(hundredths, 100) * 100);
}

static int __init compare_mod_init(void)
{
	struct pci_dev *edu = pci_get_device(EDU_VENDOR, EDU_DEVICE, NULL);

	if (!traced) {
		buffer = ring_buffer_alloc(1 << 20, RB_FL_OVERWRITE);
		if (!buffer) {
			pr_info("COMPARE-SKIP ring_buffer_reserve_commit_8: ring_buffer_alloc failed\n");
		} else {
			report("ring_buffer_reserve_commit_8", reserve_commit);
			ring_buffer_free(buffer);
		}
	}
	if (!edu) {
		pr_info("COMPARE-SKIP mmio_read_%s: no edu device (QEMU -device edu)\n",
			traced ? "traced" : "untraced");
		return 0;
	}
	if (pci_enable_device_mem(edu) == 0) {
		edu_regs = ioremap(pci_resource_start(edu, 0), PAGE_SIZE);
		if (edu_regs) {
			report(traced ? "mmio_read_traced" : "mmio_read_untraced", read32);
			iounmap(edu_regs);
		}
		pci_disable_device(edu);
	}
	if (!edu_regs)
		pr_info("COMPARE-SKIP mmio_read_%s: cannot map the edu device's BAR 0\n",
			traced ? "traced" : "untraced");
	pci_dev_put(edu);
	return 0;
}

static void __exit compare_mod_exit(void) { }

module_init(compare_mod_init);
module_exit(compare_mod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("make compare: ring buffer and mmiotrace costs on Linux");
