/*
 * boot_cost_bench.c - the kernel's own boot, for the curves boot_kernel_by_memory_mib and
 * pci_enum_per_device (issue 24, docs/scaling.md §7). tools/bench.sh boots the test kernel
 * with `bench=boot_cost` several times, with no modules, at several memory sizes and with
 * 1 to 16 extra PCI devices; each boot prints its points as `SCALE CURVE SIZE VALUE`:
 *
 *   boot_kernel_by_memory_mib: the cycles (guest instructions under -icount) from kmain's
 *   first instruction to this benchmark, at the RAM the firmware reports (the end of the
 *   highest usable region below 4 GiB, rounded up to a MiB: QEMU's -m);
 *   pci_enum_per_device: pci_init's cycles divided by the functions it found.
 *
 * Both are table rows too ("boot: kernel, ..."), of whichever boot ran the benchmark: make
 * bench's main boot has its modules, so its kernel boot is a little longer than the curve's.
 */
#include "drivers/pci/pci.h"
#include "kernel/arch.h"
#include "kernel/bench.h"
#include "kernel/boot_cost.h"
#include "kernel/boot_info.h"
#include "kernel/log/printk.h"

/* The RAM size in MiB, as QEMU's -m gave it: the end of the highest usable region. */
static uint32_t memory_mib(void)
{
    uint64_t top = 0;
    for (int i = 0; i < boot_info.region_count; i++) {
        const struct mem_region *r = &boot_info.regions[i];
        if (r->type == MEM_REGION_USABLE && r->base + r->length > top && r->base < (1ull << 32))
            top = r->base + r->length;
    }
    return (uint32_t)((top + (1u << 20) - 1) >> 20);
}

BENCHMARK(boot_cost)
{
    uint64_t now = arch_cycles();
    unsigned functions = 0;
    for (const struct pci_device *d = pci_devices(); d; d = d->next)
        functions++;
    uint64_t pci = boot_cost.pci_end - boot_cost.pci_start;
    bench_report("boot: kernel, hand-over to the benchmarks", now - boot_cost.entry, "cycles");
    bench_report("boot: PCI enumeration per function", functions ? pci / functions : 0,
                 "cycles");
    printk("SCALE boot_kernel_by_memory_mib %u %llu\n", memory_mib(),
           (unsigned long long)(now - boot_cost.entry));
    if (functions)
        printk("SCALE pci_enum_per_device %u %llu\n", functions,
               (unsigned long long)(pci / functions));
}
