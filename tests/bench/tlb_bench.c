/*
 * tlb_bench.c - what a TLB shootdown costs the CPU that unmaps (issue 19, `make bench`;
 * tools/bench.sh runs it with 1, 2 and 4 CPUs under -icount).
 *
 * CPU 0 maps a page of an address space and unmaps it again, ITERATIONS times. First no
 * other CPU has the space loaded: the unmap flushes this CPU only (the first row, on any
 * CPU count). Then every other CPU loads the space and spins with interrupts on, as a CPU
 * running a thread of the process would, and the same map and unmap now shoots each of
 * them down: the second row is the difference, per unmap. The third is a munmap of
 * RANGE_PAGES pages (above TLB_FLUSH_ALL_ABOVE: one IPI, a whole flush on each CPU) over
 * the same munmap with nobody else loaded. Under -icount one QEMU thread runs the CPUs in
 * turn and the clock counts the instructions of all of them, so a row is the guest
 * instructions that pass, on every CPU, from the unmap's start until each target flushed
 * and the unmapping CPU saw it.
 */
#include "kernel/arch.h"
#include "kernel/bench.h"
#include "kernel/lib/format.h"
#include "kernel/log/printk.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/vm.h"
#include "kernel/smp.h"

#define ITERATIONS 200
#define RANGE_PAGES 40
#define VA (USER_BASE + 0x100000u)

static struct addr_space *bench_as;
static volatile bool release;
static volatile unsigned loaded_cpus;

/* Maps a page and unmaps it: the unmap is what needs the shootdown. */
static void map_unmap_page(void *unused)
{
    (void)unused;
    if (vm_map_new(bench_as, VA, VM_READ | VM_WRITE) == 0)
        vm_unmap(bench_as, VA);
}

/* Maps RANGE_PAGES pages and unmaps them in one call (munmap). */
static void map_unmap_range(void *unused)
{
    (void)unused;
    for (uint32_t i = 0; i < RANGE_PAGES; i++)
        vm_map_new(bench_as, VA + i * PAGE_SIZE, VM_READ | VM_WRITE);
    vm_unmap_range(bench_as, VA, RANGE_PAGES);
}

/* Another CPU's part: have the space loaded until CPU 0 is done. */
static void hold_space(void *unused)
{
    (void)unused;
    vm_activate(bench_as);
    __atomic_add_fetch(&loaded_cpus, 1, __ATOMIC_ACQ_REL);
    while (!__atomic_load_n(&release, __ATOMIC_ACQUIRE))
        arch_cpu_relax();
    vm_activate(0);
}

/* "what, N CPU(s)": a row name that says how many CPUs ran. */
static const char *row_name(char *buf, size_t size, const char *what)
{
    unsigned n = arch_cpu_count();
    ksnprintf(buf, size, "%s, %u CPU%s", what, n, n == 1 ? "" : "s");
    return buf;
}

BENCHMARK(tlb_shootdown)
{
    static char rows[3][80];
    unsigned n = arch_cpu_count();
    bench_as = vm_create();
    if (!bench_as) {
        printk("bench: tlb_shootdown: no memory for an address space\n");
        return;
    }
    uint64_t alone = bench_cost(map_unmap_page, 0, ITERATIONS);
    uint64_t range_alone = bench_cost(map_unmap_range, 0, ITERATIONS / 10);
    bench_report(row_name(rows[0], sizeof rows[0], "tlb: map+unmap a page, no other CPU has it"),
                 alone, "instructions");
    if (n > 1) {
        release = false;
        loaded_cpus = 0;
        for (unsigned cpu = 1; cpu < n; cpu++)
            smp_run_on(cpu, hold_space, 0);
        while (__atomic_load_n(&loaded_cpus, __ATOMIC_ACQUIRE) < n - 1)
            arch_cpu_relax();
        uint64_t shot = bench_cost(map_unmap_page, 0, ITERATIONS);
        uint64_t range_shot = bench_cost(map_unmap_range, 0, ITERATIONS / 10);
        __atomic_store_n(&release, true, __ATOMIC_RELEASE);
        for (unsigned cpu = 1; cpu < n; cpu++)
            smp_wait(cpu);
        bench_report(row_name(rows[1], sizeof rows[1], "tlb: shootdown cost, unmap of 1 page"),
                     shot > alone ? shot - alone : 0, "instructions over no other CPU");
        bench_report(row_name(rows[2], sizeof rows[2], "tlb: shootdown cost, munmap of 40 pages"),
                     range_shot > range_alone ? range_shot - range_alone : 0,
                     "instructions over no other CPU");
    }
    vm_destroy(bench_as);
    bench_as = 0;
}
