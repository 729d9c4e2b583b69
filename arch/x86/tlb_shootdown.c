/*
 * tlb_shootdown.c - tlb_shootdown.h: the mask of CPUs each directory is loaded on, kept by
 * tlb_load and tlb_load_on (the task switch's, inline: tlb_shootdown.h), and the flush IPIs
 * sent to them.
 *
 * Memory order, so that no CPU can miss a flush it needs. A CPU joins a mask with a locked
 * OR before it writes CR3 (serializing): from then on its page walks read the entries as
 * they are after the join. The flushing CPU changes the entries, then a full fence, then
 * reads the mask. If the read misses a joining CPU, the join came after the fence in the
 * one order of locked operations and fences, so that CPU's CR3 write, and every walk after
 * it, sees the new entries; it needs no flush. A CPU leaves a mask only after its CR3
 * write, which dropped every entry of the space it left. A shootdown that reaches a CPU
 * after it left the space (the mask was read just before) finds it on another directory
 * and flushes nothing.
 */
#include "arch/x86/tlb_shootdown.h"

#include "arch/x86/cpu.h"
#include "arch/x86/gdt.h"
#include "arch/x86/paging.h"
#include "arch/x86/trap.h"
#include "kernel/arch.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/notrace.h"
#include "kernel/smp.h"
#include "kernel/trace_hooks.h"

struct tlb_users *tlb_loaded[MAX_CPUS];

/* One flush request: the space and the pages (pages > TLB_FLUSH_ALL_ABOVE: all). */
struct tlb_flush {
    struct tlb_users *users;
    uint32_t start, pages;
};

/* notrace: a part of every context switch, as switch_to itself (kernel/notrace.h). */
notrace void tlb_load(struct tlb_users *next, uint32_t root)
{
    if (tlb_load_on(arch_cpu_id(), next, root))
        trace_tlb_flush(TLB_FLUSH_ON_TASK_SWITCH, TRACE_TLB_FLUSH_ALL);
}

/* Drops this CPU's TLB entries for the request's pages, if it has the space loaded; reason
 * is the trace's (a local or a remote shootdown). */
static void flush_here(const struct tlb_flush *f, int reason)
{
    if (tlb_loaded[arch_cpu_id()] != f->users)
        return; /* its CR3 write since then dropped them all */
    if (f->pages > TLB_FLUSH_ALL_ABOVE) {
        write_cr3(read_cr3());
        trace_tlb_flush(reason, TRACE_TLB_FLUSH_ALL);
        return;
    }
    for (uint32_t i = 0; i < f->pages; i++)
        invlpg(f->start + i * PAGE_SIZE);
    trace_tlb_flush(reason, f->pages);
}

/* The shootdown on a receiving CPU (a call IPI, interrupts off). */
static void shootdown(void *arg)
{
    irq_stat_count(IRQ_STAT_TLB);
    flush_here(arg, TLB_REMOTE_SHOOTDOWN);
}

void tlb_flush_range(struct tlb_users *users, uint32_t start, uint32_t pages)
{
    struct tlb_flush f = { users, start, pages };
    unsigned long flags = arch_irq_save(); /* stay on this CPU: its own bit is left out */
    __atomic_thread_fence(__ATOMIC_SEQ_CST); /* the changed entries before the mask */
    flush_here(&f, TLB_LOCAL_SHOOTDOWN);
    uint32_t others = __atomic_load_n(&users->cpus, __ATOMIC_RELAXED) & ~(1u << arch_cpu_id());
    if (others) {
        trace_tlb_flush(TLB_REMOTE_SEND_IPI, pages > TLB_FLUSH_ALL_ABOVE ? TRACE_TLB_FLUSH_ALL : pages);
        smp_call_mask(others, shootdown, &f);
    }
    arch_irq_restore(flags);
}

/* The kernel's directory, for CR3. */
static uint32_t kernel_root(void) { return (uint32_t)virt_to_phys((void *)paging_kernel_directory()); }

/* Teardown on a receiving CPU: off the dying space, onto the kernel's directory. */
static void unload_here(void *arg)
{
    irq_stat_count(IRQ_STAT_TLB);
    if (tlb_loaded[arch_cpu_id()] == arg && tlb_load_on(arch_cpu_id(), 0, kernel_root()))
        trace_tlb_flush(TLB_REMOTE_SHOOTDOWN, TRACE_TLB_FLUSH_ALL);
}

void tlb_unload_everywhere(struct tlb_users *users)
{
    unsigned long flags = arch_irq_save();
    if (tlb_loaded[arch_cpu_id()] == users && tlb_load_on(arch_cpu_id(), 0, kernel_root()))
        trace_tlb_flush(TLB_LOCAL_SHOOTDOWN, TRACE_TLB_FLUSH_ALL);
    uint32_t others = __atomic_load_n(&users->cpus, __ATOMIC_ACQUIRE);
    if (others)
        smp_call_mask(others, unload_here, users);
    arch_irq_restore(flags);
}
