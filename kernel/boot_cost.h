/*
 * boot_cost.h - the cycle counter at the boot's milestones (kernel/main.c), kept so that
 * the boot benchmarks (tests/bench/scale_boot_bench.c, issue 24) can say what the kernel's
 * own boot cost, from the loader's hand-over to the benchmarks, and what PCI enumeration
 * cost within it. Written once by the boot CPU before any other CPU runs; read only after.
 */
#ifndef KERNEL_BOOT_COST_H
#define KERNEL_BOOT_COST_H

#include <stdint.h>

struct boot_cost {
    uint64_t entry;       /* kmain's first reading: the loader has handed over */
    uint64_t pci_start;   /* pci_init called */
    uint64_t pci_end;     /* pci_init returned */
};

extern struct boot_cost boot_cost;

#endif
