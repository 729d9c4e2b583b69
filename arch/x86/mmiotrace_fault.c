/*
 * mmiotrace_fault.c - how mmiotrace sees every access to a traced mapping.
 *
 * The pages of a traced mapping are armed: their page-table entries are not present, so any
 * access faults. On the fault we decode the instruction (arch/x86/mmio_decode.c) and find each
 * memory operand it touches in a traced mapping. Then, instead of letting the instruction
 * reach the device directly, we
 *
 *   1. map a RAM "shadow" page at each traced page the instruction touches, in a view of
 *      the page tables only this CPU uses (see SMP below);
 *   2. perform the reads ourselves, through a second uncached view of the device page (the
 *      "alias"), exactly as wide as the instruction's operand, record each one (R), and put
 *      the value in the shadow where the instruction will look for it;
 *   3. single-step the instruction (EFLAGS.TF, interrupts held off): it runs against the
 *      shadow, and the CPU itself computes results and flags, whatever the instruction is;
 *   4. on the debug trap after it, perform the writes it made to the shadow on the device
 *      through the alias, record each (W), and re-arm the pages.
 *
 * So the device sees exactly the accesses the instruction would have made (a read-modify-
 * write such as `orl $1, (%eax)` becomes one R and one W, `rep movsl` one pair per element),
 * and we know every value without reading anything twice. An instruction the decoder does
 * not know is logged as UNKNOWN and single-stepped against the real device pages, so it
 * still runs correctly; only its values are not recorded.
 *
 * Linux's mmiotrace (arch/x86/mm/kmmio.c) instead makes the real page present for the step
 * and reads registers afterwards, which cannot give the value of a read-modify-write.
 *
 * SMP: every CPU online, nothing lost. Linux makes the page present in the page tables all
 * CPUs share, so while one CPU steps, another touching the page is not trapped; it takes
 * the other CPUs offline. Here the shared tables never change for a step: the traced pages
 * stay not present for every CPU, always. The stepping CPU alone sees them, because for the
 * one instruction it runs on a page directory of its own (its "view": the kernel half is
 * the kernel directory's, the ioremap window's regions the step touches get page tables of
 * its own holding the shadow pages, anything else the instruction touches is borrowed from
 * the real tables on demand, view_fault). A CR3 load is private to the CPU and so is the
 * TLB it flushes, so no other CPU needs telling. Every piece of a step's state (the step,
 * the view, the shadow and alias pages, the decode cache) is per CPU, cpus[arch_cpu_id()],
 * and a CPU's records are made by that CPU in the order its device accesses happen.
 *
 * Why not emulate the access instead (decode, access through the alias, write registers and
 * flags back, advance EIP)? That removes the step but makes the decoder the CPU: every
 * flag of every arithmetic form drivers use, exactly, or a wrong result. Stepping keeps the
 * CPU computing results, so the decoder only needs to know addresses and widths, and an
 * instruction it does not know still runs correctly. The view costs two CR3 loads per
 * access, which (with no global pages) flush this CPU's TLB; in guest instructions the
 * traced access costs about what it did with one CPU (docs/mmiotrace.md).
 *
 * What the device then sees from a locked instruction (xchg, lock or) is a read and a
 * separate write, as for any traced read-modify-write: another CPU's access can come in
 * between, which the native locked instruction would have excluded.
 */
#include "arch/x86/arch_inline.h"
#include "arch/x86/cpu.h"
#include "arch/x86/kprobe_arch.h"
#include "arch/x86/mmio.h"
#include "arch/x86/paging.h"
#include "arch/x86/trap.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/ioremap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/lib/string.h"
#include "kernel/smp.h"
#include "arch/x86/mmio_decode.h"

#define MAX_STEP_PAGES 4    /* pages one step may touch: two operands, each on two pages */
#define MAX_VIEW_EXTRA 8    /* entries a step may borrow from the real tables (see view_fault) */
#define PDE_INDEX(va) ((uint32_t)(va) >> 22)
#define PTE_INDEX(va) (((uint32_t)(va) >> 12) & 0x3ff)
#define DECODE_CACHE 16

/* What one single-step has changed and must put back or finish on the debug trap. */
struct step {
    bool active;
    uint32_t saved_if_tf;   /* the stepped code's own IF and TF */
    int nshadow;
    uintptr_t shadow_va[MAX_STEP_PAGES];   /* traced pages shown as shadow page i */
    int nwrites;
    struct pending_write {
        uintptr_t va;        /* where the instruction wrote (in the shadow) */
        uintptr_t alias;     /* the same bytes on the device */
        uint8_t width;
        uint32_t map_id;
        uint64_t phys;
    } writes[2];
    uint32_t pc;
};

/*
 * A CPU's private view (see "SMP" in the comment at the top): a page directory of its own,
 * whose kernel half is the kernel directory's, and up to MAX_STEP_PAGES page tables of its
 * own that stand in for the shared ones of the 4 MiB regions the step touches. Between
 * steps the private tables are all zero and the directory is the kernel directory's (user
 * half empty); a step fills what it needs and view_reset undoes exactly that.
 */
struct view {
    uint32_t *dir;                         /* the private directory (kernel address) */
    uint32_t *table[MAX_STEP_PAGES];       /* private page tables (kernel addresses) */
    uint32_t table_pde[MAX_STEP_PAGES];    /* the directory slot each serves this step */
    int ntables;
    uint32_t *entries[MAX_STEP_PAGES + MAX_VIEW_EXTRA]; /* entries set in private tables */
    int nentries;
    uint32_t borrowed_pde[MAX_VIEW_EXTRA]; /* directory slots copied from the real one */
    int nborrowed;
    uint32_t real_cr3;                     /* the interrupted context's directory */
    struct kernel_entries_copy kernel_copy; /* dir's kernel half, kept the kernel's (paging.h) */
};

/* Everything one CPU's traced accesses use, so CPUs never share a step, a shadow, an alias
 * or a decode-cache slot. Aligned so two CPUs' state never shares a cache line. */
struct mmio_cpu {
    struct step step;
    struct view view;
    uintptr_t shadow[MAX_STEP_PAGES];      /* physical RAM pages, one per step page */
    uintptr_t alias;                       /* 4 window pages: 2 per operand, the device view */
    struct {
        uint32_t eip;
        int result;
        struct mmio_insn insn;
    } decode_cache[DECODE_CACHE];
} __attribute__((aligned(64)));

static struct mmio_cpu cpus[MAX_CPUS];
static unsigned prepared_cpus;        /* cpus[0 .. prepared_cpus) have their pages (kept) */
static uint32_t view_cr3[MAX_CPUS];   /* what CR3 holds while CPU i runs on its view */
static const uint32_t *kernel_dir;     /* paging_kernel_directory(), what a view starts as */
static uintptr_t alias_window;        /* 4 pages per CPU */
static bool installed;
static mmio_access_sink sink; /* where each access is reported while installed */

/* --- page-table edits ------------------------------------------------------------------ */

/* The physical address backing va inside mapping m. */
static uint64_t phys_of(const struct io_mapping *m, uintptr_t va)
{
    return m->phys + (va - m->virt);
}

/*
 * Arms (every page not present in the shared tables) or disarms a mapping. Only this CPU's
 * TLB is flushed: arming happens in ioremap before the address is handed out, so no other
 * CPU can hold a translation of it (iounmap made every CPU forget the pages before they
 * could be mapped again); disarming makes pages present, which x86 never
 * caches as absent, and a CPU that faulted just before finds the page present
 * (mmiotrace_page_fault retries it).
 */
void mmiotrace_arm(struct io_mapping *m, bool arm)
{
    uintptr_t first = ioremap_first_page(m);
    uint64_t phys_first = m->phys - (m->virt - first);
    for (uint32_t i = 0; i < ioremap_page_count(m); i++) {
        uintptr_t va = first + i * PAGE_SIZE;
        if (arm)
            paging_set_pte(va, 0, 0);
        else
            paging_set_pte(va, (uintptr_t)(phys_first + i * PAGE_SIZE), PTE_IO_FLAGS);
    }
    m->traced = arm;
}

/* The directory the interrupted context runs on (its user half is a process's). */
static const uint32_t *real_directory(const struct view *v)
{
    return phys_to_virt(v->real_cr3 & PTE_ADDR_MASK);
}

/* The private table standing in for directory slot pde this step, or -1. */
static int view_table_index(const struct view *v, uint32_t pde)
{
    for (int i = 0; i < v->ntables; i++)
        if (v->table_pde[i] == pde)
            return i;
    return -1;
}

/* Makes page va present in this CPU's view only, backed by pa, with a private table for
 * its region (taken on first use in the step). False if the step would need more private
 * tables or pages than it has. */
static bool view_map(struct view *v, uintptr_t va, uintptr_t pa, uint32_t flags)
{
    uint32_t pde = PDE_INDEX(va);
    int t = view_table_index(v, pde);
    if (t < 0) {
        if (v->ntables == MAX_STEP_PAGES)
            return false;
        t = v->ntables++;
        v->table_pde[t] = pde;
        v->dir[pde] = (uint32_t)virt_to_phys(v->table[t]) | PTE_PRESENT | PTE_WRITE;
    }
    uint32_t *entry = &v->table[t][PTE_INDEX(va)];
    if (!*entry) {
        if (v->nentries == MAX_STEP_PAGES + MAX_VIEW_EXTRA)
            return false;
        v->entries[v->nentries++] = entry;
    }
    *entry = ((uint32_t)pa & PTE_ADDR_MASK) | flags;
    return true;
}

/* Puts the view back to its between-steps state: private tables empty, directory the
 * kernel directory's. Called on the real directory, so no TLB entry of the view survives
 * (loading CR3 flushed them; the kernel uses no global pages). */
static void view_reset(struct view *v)
{
    for (int i = 0; i < v->nentries; i++)
        *v->entries[i] = 0;
    for (int t = 0; t < v->ntables; t++)
        v->dir[v->table_pde[t]] = kernel_dir[v->table_pde[t]];
    for (int i = 0; i < v->nborrowed; i++)
        v->dir[v->borrowed_pde[i]] = kernel_dir[v->borrowed_pde[i]];
    v->nentries = v->ntables = v->nborrowed = 0;
}

/* Points this CPU's alias page va at device page pa, unless it already does. The alias
 * pages are this CPU's alone, so only its own TLB entry needs flushing. */
static void alias_map(uintptr_t va, uintptr_t pa)
{
    if (paging_get_pte(va) != ((uint32_t)pa | PTE_IO_FLAGS))
        paging_set_pte(va, pa, PTE_IO_FLAGS);
}

/* --- the tracer's own accesses, to the device and to the shadow ------------------------- */

/* Where byte va of a traced page is in its shadow, through the direct map: the handlers
 * run on the real directory, where the traced page itself is not present. NULL if va is on
 * no page of this step. */
static volatile uint8_t *shadow_byte(const struct mmio_cpu *c, uintptr_t va)
{
    for (int i = 0; i < c->step.nshadow; i++)
        if (c->step.shadow_va[i] == PAGE_ALIGN_DOWN(va))
            return (volatile uint8_t *)phys_to_virt(c->shadow[i]) + (va & (PAGE_SIZE - 1));
    return 0;
}

/* The width bytes at traced address va as the shadow holds them (little-endian). */
static uint32_t shadow_read(const struct mmio_cpu *c, uintptr_t va, uint8_t width)
{
    if (PAGE_ALIGN_DOWN(va) == PAGE_ALIGN_DOWN(va + width - 1))
        return mmio_read_sized(shadow_byte(c, va), width);
    uint32_t value = 0; /* straddling two pages, two shadows: byte by byte */
    for (int i = 0; i < width; i++)
        value |= (uint32_t)*shadow_byte(c, va + i) << (8 * i);
    return value;
}

/* Puts value's low width bytes at traced address va in the shadow. */
static void shadow_write(const struct mmio_cpu *c, uintptr_t va, uint8_t width, uint32_t value)
{
    if (PAGE_ALIGN_DOWN(va) == PAGE_ALIGN_DOWN(va + width - 1)) {
        mmio_write_sized(shadow_byte(c, va), width, value);
        return;
    }
    for (int i = 0; i < width; i++)
        *shadow_byte(c, va + i) = (uint8_t)(value >> (8 * i));
}

/* --- the fault ------------------------------------------------------------------------- */

/* The 8 general registers as the decoder indexes them (EAX, ECX, EDX, EBX, ESP, EBP, ESI,
 * EDI), from the interrupted context. */
static void frame_registers(const struct trap_frame *tf, uint32_t regs[8])
{
    regs[0] = tf->eax, regs[1] = tf->ecx, regs[2] = tf->edx, regs[3] = tf->ebx;
    regs[4] = trap_frame_esp(tf), regs[5] = tf->ebp, regs[6] = tf->esi, regs[7] = tf->edi;
}

/* Switches this CPU to its view and sets TF and clears IF in the interrupted context,
 * remembering its own values: exactly one instruction runs, on the view, with no interrupt
 * handler in between (and so no task switch away from the view). */
static void step_begin(struct mmio_cpu *c, struct trap_frame *tf)
{
    c->step.active = true;
    c->step.saved_if_tf = tf->eflags & (EFLAGS_IF | EFLAGS_TF);
    tf->eflags = (tf->eflags | EFLAGS_TF) & ~EFLAGS_IF;
    write_cr3(view_cr3[c - cpus]);
}

/* Shows traced page va as a shadow page in this CPU's view (once per step). */
static bool shadow_page(struct mmio_cpu *c, uintptr_t va)
{
    for (int i = 0; i < c->step.nshadow; i++)
        if (c->step.shadow_va[i] == va)
            return true; /* two operands on one page share it */
    if (c->step.nshadow == MAX_STEP_PAGES ||
        !view_map(&c->view, va, c->shadow[c->step.nshadow], PTE_PRESENT | PTE_WRITE))
        return false;
    c->step.shadow_va[c->step.nshadow++] = va;
    return true;
}

/* Prepares one traced operand: shadow pages in this CPU's view, reads done and recorded,
 * writes noted for the trap. False if it cannot be handled (too many pages). */
static bool prepare_operand(struct mmio_cpu *c, const struct io_mapping *m, uintptr_t addr,
                            uint8_t width, bool read, bool write, int slot)
{
    uintptr_t first = PAGE_ALIGN_DOWN(addr), last = PAGE_ALIGN_DOWN(addr + width - 1);
    uintptr_t alias = c->alias + (uintptr_t)slot * 2 * PAGE_SIZE;
    uint64_t phys = phys_of(m, addr);
    uintptr_t phys_page = (uintptr_t)PAGE_ALIGN_DOWN(phys);
    /* The alias: the device page(s) at a second address, uncached, always present. A driver
     * mostly hits the same page again, so an alias already in place is kept. */
    alias_map(alias, phys_page);
    if (last != first)
        alias_map(alias + PAGE_SIZE, phys_page + PAGE_SIZE);
    for (uintptr_t va = first; va <= last; va += PAGE_SIZE)
        if (!shadow_page(c, va))
            return false;
    uintptr_t device = alias + (addr - first);
    if (read) {
        uint32_t value = mmio_read_sized((void *)device, width);
        shadow_write(c, addr, width, value); /* where the instruction will read it */
        sink(MMIO_OP_READ, width, m->id, phys, value, c->step.pc, 0);
    }
    if (write)
        c->step.writes[c->step.nwrites++] = (struct pending_write){ addr, device, width, m->id, phys };
    return true;
}

/* True when [addr, addr+width) lies in the pages of mapping m. */
static bool within(const struct io_mapping *m, uintptr_t addr, uint8_t width)
{
    uintptr_t first = ioremap_first_page(m);
    return addr >= first && addr + width <= first + ioremap_page_count(m) * PAGE_SIZE;
}

/* The mapping holding [addr, addr+width) if it is traced, else NULL. The faulting mapping
 * is tried first: most instructions touch only it. */
static const struct io_mapping *traced_mapping(const struct io_mapping *faulting, uintptr_t addr,
                                               uint8_t width)
{
    if (within(faulting, addr, width))
        return faulting;
    const struct io_mapping *m = ioremap_find(addr);
    return m && m->traced && within(m, addr, width) ? m : 0;
}

/*
 * Decodes the instruction at eip, remembering the last few results (this CPU's cache): a
 * driver accesses its registers from a handful of places, again and again, and kernel code
 * does not change while it runs (the function tracer's patching only touches call sites,
 * never an MMIO access).
 */
static int decode_cached(struct mmio_cpu *c, uint32_t eip, const struct mmio_insn **insn)
{
    unsigned slot = (eip ^ (eip >> 4)) % DECODE_CACHE;
    if (c->decode_cache[slot].eip != eip) {
        c->decode_cache[slot].result = mmio_decode((const uint8_t *)eip, MMIO_INSN_MAX,
                                                   &c->decode_cache[slot].insn);
        c->decode_cache[slot].eip = eip;
    }
    *insn = &c->decode_cache[slot].insn;
    return c->decode_cache[slot].result;
}

/* The decoded path. False if the instruction's operands do not explain the fault (then it
 * is handled as unknown). */
static bool step_with_shadow(struct mmio_cpu *c, const struct mmio_insn *insn,
                             struct trap_frame *tf, uintptr_t cr2,
                             const struct io_mapping *faulting)
{
    uint32_t regs[8];
    frame_registers(tf, regs);
    bool explains_fault = false;
    for (int i = 0; i < insn->noperands; i++) {
        uintptr_t addr = mmio_operand_address(insn, i, regs);
        const struct mmio_operand *op = &insn->op[i];
        if (cr2 >= PAGE_ALIGN_DOWN(addr) && cr2 <= addr + op->width - 1)
            explains_fault = true;
        const struct io_mapping *m = traced_mapping(faulting, addr, op->width);
        if (m && !prepare_operand(c, m, addr, op->width, op->read, op->write, i))
            return false;
    }
    return explains_fault;
}

/* The unknown path: the page of va is made present as it really is in this CPU's view, the
 * instruction runs natively, and the log says an access happened that we could not
 * decode. False if the view has no room left. */
static bool step_native(struct mmio_cpu *c, const struct io_mapping *m, uintptr_t va,
                        const uint8_t opcode[3])
{
    uintptr_t page = PAGE_ALIGN_DOWN(va);
    if (!view_map(&c->view, page, (uintptr_t)PAGE_ALIGN_DOWN(phys_of(m, page)), PTE_IO_FLAGS))
        return false;
    sink(MMIO_OP_UNKNOWN, 0, m->id, phys_of(m, va), 0, c->step.pc, opcode);
    return true;
}

/*
 * A fault of the stepped instruction itself, on this CPU's view. The view starts with only
 * the kernel half and the traced pages, so an instruction that also touches user memory
 * (a copy from a user buffer), an untraced window page in a region the view has its own
 * table for, or a second traced page the decoder did not foresee faults here: the first two
 * are borrowed from the real tables for the rest of the step, the last is let through
 * natively and logged UNKNOWN. Anything else is a real fault, for the kernel's handler.
 */
static bool view_fault(struct mmio_cpu *c, uintptr_t cr2)
{
    struct view *v = &c->view;
    const uint32_t *real = real_directory(v);
    uint32_t pde = PDE_INDEX(cr2);
    int t = view_table_index(v, pde);
    if (t < 0 && v->dir[pde] != real[pde] && (real[pde] & PTE_PRESENT)) {
        if (v->nborrowed == MAX_VIEW_EXTRA)
            return false;
        v->borrowed_pde[v->nborrowed++] = pde;
        v->dir[pde] = real[pde];
        return true;
    }
    if (cr2 < IOREMAP_BASE || cr2 >= IOREMAP_BASE + IOREMAP_SIZE)
        return false;
    uint32_t shared = paging_get_pte(cr2);
    if (t >= 0 && (shared & PTE_PRESENT))
        return view_map(v, PAGE_ALIGN_DOWN(cr2), shared & PTE_ADDR_MASK, shared & ~PTE_ADDR_MASK);
    const struct io_mapping *m = ioremap_find(cr2);
    if (!m || !m->traced)
        return false;
    uint8_t none[3] = { 0 };
    return step_native(c, m, cr2, none);
}

/* Undoes a half-prepared shadow step so the instruction can be run natively instead. Reads
 * already recorded were real device accesses and stay in the log. */
static void abandon_shadow(struct mmio_cpu *c)
{
    view_reset(&c->view);
    c->step.nshadow = c->step.nwrites = 0;
}

static bool mmiotrace_page_fault(struct trap_frame *tf)
{
    uintptr_t cr2 = read_cr2();
    if (trap_from_user(tf))
        return false;
    struct mmio_cpu *c = &cpus[arch_cpu_id()]; /* prepared for every CPU while installed */
    if (c->step.active)
        return view_fault(c, cr2);
    if (cr2 < IOREMAP_BASE || cr2 >= IOREMAP_BASE + IOREMAP_SIZE)
        return false;
    const struct io_mapping *m = ioremap_find(cr2);
    if (!m || !m->traced) {
        /* Disarmed between the access and here (mmiotrace_arm makes the pages present
         * before it clears traced): the access just runs again. */
        return m && !(tf->error_code & 1) && (paging_get_pte(cr2) & PTE_PRESENT);
    }

    c->step.nshadow = c->step.nwrites = 0;
    c->step.pc = tf->eip;
    c->view.real_cr3 = read_cr3();
    const struct mmio_insn *insn;
    int decoded = decode_cached(c, tf->eip, &insn);
    if (!(decoded == 0 && step_with_shadow(c, insn, tf, cr2, m))) {
        abandon_shadow(c);
        step_native(c, m, cr2, insn->opcode);
    }
    step_begin(c, tf);
    return true;
}

/* --- the debug trap after the step ----------------------------------------------------- */

/* The CPU whose view is loaded, found from CR3, or NULL when this CPU is on a real
 * directory (then the trap is not the end of our step): the CR3 the trap arrived on says
 * both whether it ends a step and whose; the views are looked for in CPU order. */
static struct mmio_cpu *cpu_on_view(uint32_t cr3)
{
    for (unsigned i = 0; i < prepared_cpus; i++)
        if (view_cr3[i] == cr3)
            return &cpus[i];
    return 0;
}

/* The step is over: back to the real directory, the instruction's writes made on the
 * device and recorded, the view emptied, the interrupted code's flags restored. */
static bool mmiotrace_debug_trap(struct trap_frame *tf)
{
    struct mmio_cpu *c = cpu_on_view(read_cr3());
    if (!c || !c->step.active || !(read_dr6() & DR6_SINGLE_STEP))
        return false;
    write_cr3(c->view.real_cr3);
    for (int i = 0; i < c->step.nwrites; i++) {
        const struct pending_write *w = &c->step.writes[i];
        uint32_t value = shadow_read(c, w->va, w->width);
        mmio_write_sized((void *)w->alias, w->width, value);
        sink(MMIO_OP_WRITE, w->width, w->map_id, w->phys, value, c->step.pc, 0);
    }
    view_reset(&c->view);
    c->step.nshadow = c->step.nwrites = 0;
    tf->eflags = (tf->eflags & ~(EFLAGS_IF | EFLAGS_TF)) | c->step.saved_if_tf;
    write_dr6(0);
    c->step.active = false;
    return true;
}

bool mmiotrace_arch_active(void) { return installed; }

/* Gives CPU cpu its view, shadows and alias pages (kept for good once made: each is mapped
 * by a page table or a view of the next run). 0 or -ENOMEM. */
static int prepare_cpu(unsigned cpu)
{
    struct mmio_cpu *c = &cpus[cpu];
    uintptr_t page;
    if (!c->view.dir) {
        if (!(page = page_alloc(1)))
            return -ENOMEM;
        c->view.dir = (uint32_t *)page; /* zeroed: the user half is empty, as the kernel's */
        paging_share_kernel_entries(&c->view.kernel_copy, c->view.dir);
        view_cr3[cpu] = (uint32_t)virt_to_phys(c->view.dir);
    }
    for (int i = 0; i < MAX_STEP_PAGES; i++) {
        if (!c->view.table[i]) {
            if (!(page = page_alloc(1))) /* zeroed: no page present */
                return -ENOMEM;
            c->view.table[i] = (uint32_t *)page;
        }
        if (!c->shadow[i]) {
            if (!(page = page_alloc(1)))
                return -ENOMEM;
            c->shadow[i] = virt_to_phys((void *)page);
        }
    }
    c->alias = alias_window + (uintptr_t)cpu * 4 * PAGE_SIZE;
    return 0;
}

/* Waits for nothing: its return on every other CPU is what the caller waits for. */
static void nothing(void *arg) { (void)arg; }

int mmiotrace_arch_enable(mmio_access_sink new_sink)
{
    bool on = new_sink != 0;
    if (on && !installed && kprobe_arch_int3_armed())
        return -EBUSY; /* see kprobe_arch_int3_armed */
    if (on && !installed) {
        if (!alias_window && !(alias_window = ioremap_reserve_window(4 * MAX_CPUS)))
            return -ENOMEM;
        /* Every CPU there can be, not just those online: tracing may start at boot
         * (ftrace=mmiotrace) before the others are started. 9 pages each. */
        for (unsigned cpu = prepared_cpus; cpu < MAX_CPUS; cpu++) {
            int err = prepare_cpu(cpu);
            if (err)
                return err;
            prepared_cpus = cpu + 1;
        }
        kernel_dir = paging_kernel_directory();
        sink = new_sink;
        trap_set_handler(VEC_PAGE_FAULT, mmiotrace_page_fault);
        trap_set_handler(VEC_DEBUG, mmiotrace_debug_trap);
        installed = true;
    } else if (!on && installed) {
        /* The caller disarmed every mapping. A CPU may still be inside a fault it took
         * before that, or in the middle of a step: both run with interrupts off, so once
         * every other CPU has taken an interrupt (this call), none is, and the handlers
         * can go. */
        smp_call_others(nothing, 0);
        trap_set_handler(VEC_PAGE_FAULT, 0);
        trap_set_handler(VEC_DEBUG, 0);
        sink = 0;
        installed = false;
    }
    return 0;
}
