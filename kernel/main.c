/*
 * main.c - the order in which the kernel brings itself up.
 *
 * Each step relies only on the ones before it:
 *   1. read the boot loader's information before anything can overwrite it;
 *   2. segments, interrupt table, interrupt controller, console: from here on every fault
 *      produces a report on COM1;
 *   3. physical memory, paging (with the stack guard page), the double-fault task, the heap;
 *   4. the timer and the clock; interrupts on; the other CPUs started (kernel/smp.c);
 *   5. subsystems' initcalls (files in the tree, drivers, tracers; tracing itself last);
 *   6. PCI, then tasks: from here on the boot context is the shell task (pid 1);
 *      ELF modules become programs;
 *   7. self-tests if asked, else boot scripts, else the interactive shell.
 */
#include "drivers/pci/pci.h"
#include "kernel/arch.h"
#include "kernel/bench.h"
#include "kernel/boot_info.h"
#include "kernel/boot_cost.h"
#include "kernel/lib/cmdline.h"
#include "kernel/shell/console.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/highmem.h"
#include "kernel/init.h"
#include "kernel/ipc/ipc.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/panic.h"
#include "kernel/params.h"
#include "kernel/log/printk.h"
#include "kernel/proc/task_internal.h"
#include "kernel/proc/programs.h"
#include "kernel/selftest.h"
#include "kernel/shell/shell.h"
#include "kernel/smp.h"
#include "kernel/lib/symbols.h"
#include "kernel/time.h"

extern char kernel_start[], kernel_end[];
extern const struct initcall initcalls_start[], initcalls_end[];

static struct cmdline kernel_cmdline;

struct boot_cost boot_cost;

const char *kernel_param(const char *key) { return cmdline_get(&kernel_cmdline, key); }
const char *kernel_cmdline_text(void) { return boot_info.cmdline; }

/* The levels must come in order: linker.ld sorts .initcall.* by name, and this stops a
 * boot whose table is out of order instead of running it so. */
void run_initcalls(void)
{
    bool debug = kernel_param("initcall_debug") != NULL;
    unsigned level = 0;
    for (const struct initcall *c = initcalls_start; c < initcalls_end; c++) {
        if (c->level < level)
            panic("initcall table out of level order at %s (linker.ld: SORT .initcall.*)",
                  c->level_name);
        level = c->level;
        uint64_t start = arch_cycles();
        c->fn();
        if (debug) { /* as Linux's "initcall ... returned after N usecs", in cycles */
            uint64_t cycles = arch_cycles() - start;
            uint32_t offset, size;
            const char *name = symbol_lookup(kernel_symbols(), (uint32_t)c->fn, &offset, &size);
            if (name)
                printk("initcall: %s %s done after %llu cycles\n", c->level_name, name, cycles);
            else
                printk("initcall: %s %p done after %llu cycles\n", c->level_name, (void *)c->fn,
                       cycles);
        }
    }
}

/* Frees what the firmware calls usable, then takes back what is already in use. */
static void memory_init(void)
{
    for (int i = 0; i < boot_info.region_count; i++)
        if (boot_info.regions[i].type == MEM_REGION_USABLE) {
            page_alloc_add_free(boot_info.regions[i].base, boot_info.regions[i].length);
            if (boot_info.regions[i].base + boot_info.regions[i].length > LOWMEM_LIMIT)
                highmem_add_free(boot_info.regions[i].base, boot_info.regions[i].length);
        }
    page_alloc_reserve(0, 0x100000); /* real-mode structures, BIOS, VGA */
    page_alloc_reserve(virt_to_phys(kernel_start), (uintptr_t)(kernel_end - kernel_start));
    for (int i = 0; i < boot_info.module_count; i++)
        page_alloc_reserve(boot_info.modules[i].start,
                           boot_info.modules[i].end - boot_info.modules[i].start);
    if (page_alloc_free_pages() == 0)
        panic("no usable memory in the boot loader's memory map");
}

static void *heap_grow(size_t size)
{
    return (void *)page_alloc((uint32_t)(PAGE_ALIGN_UP(size) / PAGE_SIZE));
}

static void heap_corrupted(const char *message, const void *ptr)
{
    panic("heap: %s (%p)", message, ptr);
}

/* A module is a boot script when it is plain text: printable ASCII, tabs and newlines. */
static bool is_text(const char *data, size_t len)
{
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)data[i];
        if (!(c == '\n' || c == '\r' || c == '\t' || (c >= 0x20 && c < 0x7f)))
            return false;
    }
    return true;
}

/* Where the kernel sees a boot module (the loader gives physical addresses), or NULL when
 * it lies beyond the direct map. */
static const char *module_data(const struct boot_module *m)
{
    if (m->end < m->start || m->end > LOWMEM_LIMIT)
        return NULL;
    return phys_to_virt(m->start);
}

/* ELF modules become the programs of /bin (before any script runs, so scripts can run
 * them); anything else that is not a script is reported and ignored, as are modules past
 * the number the kernel keeps. */
static void add_programs(void)
{
    if (boot_info.modules_dropped)
        printk("boot: %d modules past the first %d ignored (BOOT_MAX_MODULES)\n",
               boot_info.modules_dropped, BOOT_MAX_MODULES);
    for (int i = 0; i < boot_info.module_count; i++) {
        const struct boot_module *m = &boot_info.modules[i];
        const char *data = module_data(m);
        size_t len = m->end - m->start;
        if (!data)
            printk("boot: module '%s' lies above the %u MiB the kernel maps; ignored\n",
                   m->args, LOWMEM_LIMIT >> 20);
        else if (program_is_elf(data, len))
            program_add(m->args, data, len);
        else if (!is_text(data, len))
            printk("boot: module '%s' (%u bytes) is neither a script nor an ELF program; "
                   "ignored\n", m->args, (unsigned)len);
    }
}

static void run_boot_scripts(void)
{
    for (int i = 0; i < boot_info.module_count; i++) {
        const struct boot_module *m = &boot_info.modules[i];
        const char *data = module_data(m);
        size_t len = m->end - m->start;
        if (data && is_text(data, len))
            shell_run_script(m->args, data, len);
    }
}

/* Prints the options nobody asked for, as Linux does: likely typos. */
static void warn_unknown_params(void)
{
    char unused[256];
    if (cmdline_unused(&kernel_cmdline, unused, sizeof unused) > 0)
        printk("Unknown kernel command line parameters \"%s\", ignored.\n", unused);
    if (kernel_cmdline.truncated)
        printk("kernel command line too long: the end was dropped\n");
}

void kmain(uint32_t magic, uint32_t multiboot_info)
{
    boot_cost.entry = arch_cycles();
    bool multiboot_ok = arch_early_init(magic, multiboot_info);
    console_init();
    printk("tracekern: booting (%s)\n", boot_info.loader[0] ? boot_info.loader : "unknown loader");
    if (!multiboot_ok)
        panic("not started by a multiboot loader (magic %#x)", magic);
    cmdline_parse(&kernel_cmdline, boot_info.cmdline);
    printk("Command line: %s\n", boot_info.cmdline);

    memory_init();
    arch_memory_init(page_alloc_top());
    heap_init(heap_grow, heap_corrupted);
    printk("memory: %u KiB usable, %u KiB free, paging on\n",
           page_alloc_total_pages() * 4, page_alloc_free_pages() * 4);
    if (highmem_total_pages())
        printk("memory: %u KiB more above %u MiB, for programs' pages (high memory)\n",
               highmem_total_pages() * 4, LOWMEM_LIMIT >> 20);

    arch_timer_init();
    time_init(arch_cycles_khz());
    arch_irq_enable();
    printk("clock: TSC %u.%03u MHz (%s), tick %d Hz\n", arch_cycles_khz() / 1000,
           arch_cycles_khz() % 1000, arch_cycles_source(), TICK_HZ);
    smp_init(); /* every CPU online before the initcalls size their per-CPU state */

    run_initcalls(); /* the last, trace_init (late), starts tracing */
    boot_cost.pci_start = arch_cycles();
    pci_init();   /* after tracing is up, so `ftrace=` can trace enumeration */
    boot_cost.pci_end = arch_cycles();
    tasks_init(); /* the boot context becomes the shell task; the idle task starts */
    arch_tasks_ready(); /* FPU switching, the system call gate */
    nameserver_start();
    add_programs();
    const char *selftests = kernel_param("selftest");
    const char *benchmarks = kernel_param("bench");
    warn_unknown_params();
    if (selftests)
        selftest_run(selftests);
    if (benchmarks)
        bench_run(benchmarks);
    run_boot_scripts();
    printk("tracekern: ready. Type 'help' for commands.\n");
    shell_loop();
}
