/*
 * snapshot.c - int3 through a task gate: the CPU saves the whole context for us.
 *
 * Vector 3 is a task gate (DPL 3, so user code may use it too) to the debug task's TSS. On
 * int3 the CPU writes every register of the running context into the running task's TSS
 * (main_tss), marks the debug TSS busy, sets NT in the debug task's EFLAGS, puts the old
 * task's selector in the debug TSS's back link, and starts the debug task where it last
 * stopped: in the loop below, just after its iret. The loop takes the snapshot and irets,
 * which switches back through the back link: the interrupted code continues after its int3
 * with every register as it was.
 *
 * What the CPU does not do, and we must:
 *   - CR3 is not saved on a switch away, but is loaded on the switch back: main_tss.cr3
 *     holds the kernel's page directory, or the return would load garbage;
 *   - a switch sets CR0.TS; the first FPU instruction after it raises #NM, whose handler
 *     (arch/x86/fpu.c) only clears TS when the interrupted task owns the FPU, and hands
 *     the FPU over otherwise;
 *   - the segment registers are reloaded from the TSS on the way back, and one that became
 *     invalid since it was loaded (the "known bug" of Chuck Ebbert's 2003 patch "Debugging
 *     i386 using hardware task") would fault in the middle of the
 *     task switch: the debug task checks DS, ES, FS and GS first and replaces an invalid
 *     one with the null selector, recording that it did.
 */
#include "arch/x86/snapshot.h"

#include "arch/x86/cpu.h"
#include "arch/x86/ftrace_arch.h"
#include "arch/x86/gdt.h"
#include "arch/x86/trap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/panic.h"
#include "kernel/smp.h"
#include "kernel/lib/string.h"

#define RING_RECORDS ((PAGE_SIZE - 16) / sizeof(struct snapshot_record))

void (*snapshot_sink)(const struct snapshot_regs *, uint32_t, uint64_t);

/* Everything per CPU, as in Ebbert's patch: each CPU's GDT names its own debug TSS at
 * SEL_TSS_DEBUG, so an int3 on any CPU enters that CPU's debug task, on its own stack,
 * and records into its own page. */
static struct tss debug_tss[MAX_CPUS];
static uint8_t debug_stack[MAX_CPUS][8192] __attribute__((aligned(16)));

/* The per-CPU page of Ebbert's 2003 patch: a 16-byte work area, then a ring of records. */
struct snapshot_page {
    uint32_t count;        /* snapshots taken */
    uint32_t pad;
    uint64_t last_tsc;     /* TSC at the previous snapshot */
    struct snapshot_record ring[RING_RECORDS];
};
_Static_assert(sizeof(struct snapshot_page) <= PAGE_SIZE, "one page per CPU");
static struct snapshot_page *pages[MAX_CPUS];

/* True when a data segment selector can be loaded now: null, or a present data/code
 * segment descriptor within the GDT that the selector's privilege may use. */
static bool selector_loadable(uint16_t sel)
{
    if ((sel & ~3u) == 0)
        return true;
    return gdt_data_selector_ok(sel);
}

/* Copies the interrupted context out of its TSS, repairing segment registers that could
 * not be reloaded. */
static void read_context(struct tss *t, struct snapshot_regs *r, uint16_t link)
{
    r->eax = t->eax, r->ebx = t->ebx, r->ecx = t->ecx, r->edx = t->edx;
    r->esi = t->esi, r->edi = t->edi, r->ebp = t->ebp, r->esp = t->esp;
    r->eip = t->eip, r->eflags = t->eflags, r->cr3 = t->cr3;
    r->cs = t->cs, r->ss = t->ss, r->ds = t->ds, r->es = t->es, r->fs = t->fs, r->gs = t->gs;
    r->back_link = link;
    r->bad_segments = 0;
    if (!selector_loadable(t->ds))
        t->ds = 0, r->bad_segments |= SNAPSHOT_BAD_DS;
    if (!selector_loadable(t->es))
        t->es = 0, r->bad_segments |= SNAPSHOT_BAD_ES;
    if (!selector_loadable(t->fs))
        t->fs = 0, r->bad_segments |= SNAPSHOT_BAD_FS;
    if (!selector_loadable(t->gs))
        t->gs = 0, r->bad_segments |= SNAPSHOT_BAD_GS;
}

/* Starts a snapshot record in the ring page: count and time. */
static struct snapshot_record *begin_record(uint64_t now, uint64_t *delta)
{
    struct snapshot_page *p = pages[arch_cpu_id()];
    *delta = p->count ? now - p->last_tsc : 0;
    p->last_tsc = now;
    p->count++;
    struct snapshot_record *rec = &p->ring[(p->count - 1) % RING_RECORDS];
    rec->number = p->count;
    rec->tsc = now;
    return rec;
}

/* One snapshot from the task gate: count, time, ring page, sink. */
static void take_snapshot(struct tss *t, uint16_t link)
{
    uint64_t delta;
    struct snapshot_record *rec = begin_record(rdtsc(), &delta);
    read_context(t, &rec->regs, link);
    if (snapshot_sink)
        snapshot_sink(&rec->regs, rec->number, delta);
}

/* The same snapshot taken by an ordinary interrupt-gate int3 handler, from its trap frame:
 * the comparison `make bench` makes against the task gate. */
static bool snapshot_from_frame(struct trap_frame *tf)
{
    uint64_t delta;
    struct snapshot_record *rec = begin_record(rdtsc(), &delta);
    struct snapshot_regs *r = &rec->regs;
    r->eax = tf->eax, r->ebx = tf->ebx, r->ecx = tf->ecx, r->edx = tf->edx;
    r->esi = tf->esi, r->edi = tf->edi, r->ebp = tf->ebp, r->esp = trap_frame_esp(tf);
    r->eip = tf->eip, r->eflags = tf->eflags, r->cr3 = read_cr3();
    r->cs = (uint16_t)tf->cs, r->ss = SEL_KERNEL_DATA, r->ds = (uint16_t)tf->ds;
    r->es = (uint16_t)tf->es, r->fs = (uint16_t)tf->fs, r->gs = (uint16_t)tf->gs;
    r->back_link = 0;
    r->bad_segments = 0;
    if (snapshot_sink)
        snapshot_sink(r, rec->number, delta);
    return true;
}

void snapshot_use_task_gate(bool task_gate)
{
    if (task_gate) {
        idt_route_to_task(VEC_BREAKPOINT, SEL_TSS_DEBUG, 3);
        ftrace_arch_init(); /* vector 3's handler is the patcher's again */
    } else {
        trap_set_handler(VEC_BREAKPOINT, snapshot_from_frame);
        idt_route_to_handler(VEC_BREAKPOINT, 3);
    }
}

/* The debug task. Entered by the task gate, left by iret; each entry resumes after the
 * iret, so the loop runs once per int3. Interrupts are off throughout (its EFLAGS). */
static void __attribute__((noreturn)) debug_task(void)
{
    for (;;) {
        uint16_t link = debug_tss[arch_cpu_id()].back_link;
        struct tss *t = gdt_tss_of(link);
        if (!t)
            panic("snapshot: int3 from a task whose TSS is unknown (back link %#x)", link);
        /* int3 has other users: a call site being patched by ftrace is one. Such an int3
         * is no snapshot: the CPU continues after the site, as the patcher's handler would. */
        uint32_t eip = t->eip;
        if (ftrace_patching_int3(&eip))
            t->eip = eip;
        else
            take_snapshot(t, link);
        __asm__ volatile("iret" ::: "memory");
    }
}

const struct snapshot_record *snapshot_ring_get(uint32_t back, uint32_t *count)
{
    const struct snapshot_page *page = pages[arch_cpu_id()];
    *count = page ? page->count : 0;
    if (!page || back >= page->count || back >= RING_RECORDS)
        return 0;
    return &page->ring[(page->count - 1 - back) % RING_RECORDS];
}

/* Puts this CPU's debug TSS into its GDT; the kernel's directory is what a switch back to
 * the main TSS loads. Runs on each CPU (smp_call_others for the others). */
static void install_on_this_cpu(void *unused)
{
    (void)unused;
    unsigned cpu = arch_cpu_id();
    main_tss.cr3 = read_cr3(); /* loaded on every switch back to the kernel */
    gdt_set_tss(SEL_TSS_DEBUG >> 3, &debug_tss[cpu]);
}

void snapshot_arch_init(void)
{
    for (unsigned cpu = 0; cpu < arch_cpu_count(); cpu++) {
        pages[cpu] = (struct snapshot_page *)page_alloc(1);
        if (!pages[cpu])
            panic("snapshot: no memory for CPU %u's page", cpu);
        memset(pages[cpu], 0, PAGE_SIZE);
        tss_prepare_kernel_task(&debug_tss[cpu], debug_task,
                                debug_stack[cpu] + sizeof debug_stack[cpu]);
    }
    install_on_this_cpu(0);
    smp_call_others(install_on_this_cpu, 0);
    idt_route_to_task(VEC_BREAKPOINT, SEL_TSS_DEBUG, 3);
}
