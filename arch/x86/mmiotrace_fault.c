/*
 * mmiotrace_fault.c - how mmiotrace sees every access to a traced mapping.
 *
 * The pages of a traced mapping are armed: their page-table entries are not present, so any
 * access faults. On the fault we decode the instruction (arch/x86/mmio_decode.c) and find each
 * memory operand it touches in a traced mapping. Then, instead of letting the instruction
 * reach the device directly, we
 *
 *   1. map a RAM "shadow" page at each traced page the instruction touches;
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
 */
#include "arch/x86/cpu.h"
#include "arch/x86/kprobe_arch.h"
#include "arch/x86/mmio.h"
#include "arch/x86/paging.h"
#include "arch/x86/trap.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/ioremap.h"
#include "kernel/mm/page_alloc.h"
#include "arch/x86/mmio_decode.h"

#define MAX_STEP_PAGES 4    /* pages one step may touch: two operands, each on two pages */
#define DR6_SINGLE_STEP (1u << 14)

/* What one single-step has changed and must put back or finish on the debug trap. */
struct step {
    bool active;
    uint32_t saved_if_tf;   /* the stepped code's own IF and TF */
    int npages;
    uintptr_t pages[MAX_STEP_PAGES];       /* virtual pages made present for the step */
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

static struct step step;             /* one CPU; an SMP kernel makes this per CPU */
static uintptr_t shadow_pages[MAX_STEP_PAGES]; /* physical RAM pages */
static uintptr_t alias_window;       /* 2 pages per operand: the device view */
static bool installed;
static mmio_access_sink sink; /* where each access is reported while installed */

/* --- page-table edits ------------------------------------------------------------------ */

/* The physical address backing va inside mapping m. */
static uint64_t phys_of(const struct io_mapping *m, uintptr_t va)
{
    return m->phys + (va - m->virt);
}

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

/* Makes virtual page va present for this step, backed by pa; remembered for re-arming. */
static bool step_map_page(uintptr_t va, uintptr_t pa, uint32_t flags)
{
    for (int i = 0; i < step.npages; i++)
        if (step.pages[i] == va)
            return true; /* two operands on one page share it */
    if (step.npages == MAX_STEP_PAGES)
        return false;
    paging_set_pte(va, pa, flags);
    step.pages[step.npages++] = va;
    return true;
}

/* Re-arms every page the step made present. */
static void step_rearm(void)
{
    for (int i = 0; i < step.npages; i++)
        paging_set_pte(step.pages[i], 0, 0);
    step.npages = 0;
}

/* Points alias page va at device page pa, unless it already does. */
static void alias_map(uintptr_t va, uintptr_t pa)
{
    if (paging_get_pte(va) != ((uint32_t)pa | PTE_IO_FLAGS))
        paging_set_pte(va, pa, PTE_IO_FLAGS);
}

/* --- the tracer's own accesses, to the device and to the shadow ------------------------- */

/* Reads width bytes (1, 2 or 4) at va with one mov of that width: a device register through
 * its alias sees exactly the access the traced instruction made, and the shadow (RAM, where
 * any alignment will do on x86) is read the same way. */
static uint32_t read_sized(uintptr_t va, uint8_t width)
{
    if (width == 1)
        return mmio_read8((void *)va);
    if (width == 2)
        return mmio_read16((void *)va);
    return mmio_read32((void *)va);
}

/* Writes the low width bytes of value at va with one mov of that width (see read_sized). */
static void write_sized(uintptr_t va, uint8_t width, uint32_t value)
{
    if (width == 1)
        mmio_write8((void *)va, (uint8_t)value);
    else if (width == 2)
        mmio_write16((void *)va, (uint16_t)value);
    else
        mmio_write32((void *)va, value);
}

/* --- the fault ------------------------------------------------------------------------- */

/* The 8 general registers as the decoder indexes them (EAX, ECX, EDX, EBX, ESP, EBP, ESI,
 * EDI), from the interrupted context. */
static void frame_registers(const struct trap_frame *tf, uint32_t regs[8])
{
    regs[0] = tf->eax, regs[1] = tf->ecx, regs[2] = tf->edx, regs[3] = tf->ebx;
    regs[4] = trap_frame_esp(tf), regs[5] = tf->ebp, regs[6] = tf->esi, regs[7] = tf->edi;
}

/* Sets TF and clears IF in the interrupted context, remembering its own values: exactly one
 * instruction runs, with no interrupt handler in between. */
static void step_begin(struct trap_frame *tf)
{
    step.active = true;
    step.saved_if_tf = tf->eflags & (EFLAGS_IF | EFLAGS_TF);
    step.pc = tf->eip;
    tf->eflags = (tf->eflags | EFLAGS_TF) & ~EFLAGS_IF;
}

/* Prepares one traced operand: shadow pages in place, reads done and recorded, writes
 * noted for the trap. False if it cannot be handled (too many pages). */
static bool prepare_operand(const struct io_mapping *m, uintptr_t addr, uint8_t width,
                            bool read, bool write, int slot)
{
    uintptr_t first = PAGE_ALIGN_DOWN(addr), last = PAGE_ALIGN_DOWN(addr + width - 1);
    uintptr_t alias = alias_window + (uintptr_t)slot * 2 * PAGE_SIZE;
    uint64_t phys = phys_of(m, addr);
    uintptr_t phys_page = (uintptr_t)PAGE_ALIGN_DOWN(phys);
    /* The alias: the device page(s) at a second address, uncached, always present. A driver
     * mostly hits the same page again, so an alias already in place is kept. */
    alias_map(alias, phys_page);
    if (last != first)
        alias_map(alias + PAGE_SIZE, phys_page + PAGE_SIZE);
    for (uintptr_t va = first; va <= last; va += PAGE_SIZE)
        if (!step_map_page(va, shadow_pages[step.npages], PTE_PRESENT | PTE_WRITE))
            return false;
    uintptr_t device = alias + (addr - first);
    if (read) {
        uint32_t value = read_sized(device, width);
        write_sized(addr, width, value); /* where the instruction will read it */
        sink(MMIO_OP_READ, width, m->id, phys, value, step.pc, 0);
    }
    if (write)
        step.writes[step.nwrites++] = (struct pending_write){ addr, device, width, m->id, phys };
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
 * Decodes the instruction at eip, remembering the last few results: a driver accesses its
 * registers from a handful of places, again and again, and kernel code does not change
 * while it runs (the function tracer's patching only touches call sites, never an MMIO
 * access).
 */
#define DECODE_CACHE 16
static struct {
    uint32_t eip;
    int result;
    struct mmio_insn insn;
} decode_cache[DECODE_CACHE];

static int decode_cached(uint32_t eip, const struct mmio_insn **insn)
{
    unsigned slot = (eip ^ (eip >> 4)) % DECODE_CACHE;
    if (decode_cache[slot].eip != eip) {
        decode_cache[slot].result = mmio_decode((const uint8_t *)eip, MMIO_INSN_MAX,
                                                &decode_cache[slot].insn);
        decode_cache[slot].eip = eip;
    }
    *insn = &decode_cache[slot].insn;
    return decode_cache[slot].result;
}

/* The decoded path. False if the instruction's operands do not explain the fault (then it
 * is handled as unknown). */
static bool step_with_shadow(const struct mmio_insn *insn, struct trap_frame *tf, uintptr_t cr2,
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
        if (m && !prepare_operand(m, addr, op->width, op->read, op->write, i))
            return false;
    }
    return explains_fault;
}

/* The unknown path: the faulting page is made present as it really is, the instruction runs
 * natively, and the log says an access happened that we could not decode. */
static void step_native(const struct io_mapping *m, uintptr_t cr2, const uint8_t opcode[3])
{
    uintptr_t va = PAGE_ALIGN_DOWN(cr2);
    step_map_page(va, (uintptr_t)PAGE_ALIGN_DOWN(phys_of(m, va)), PTE_IO_FLAGS);
    sink(MMIO_OP_UNKNOWN, 0, m->id, phys_of(m, cr2), 0, step.pc, opcode);
}

/* Undoes a half-prepared shadow step so the instruction can be run natively instead. Reads
 * already recorded were real device accesses and stay in the log. */
static void abandon_shadow(void)
{
    step_rearm();
    step.nwrites = 0;
}

static bool mmiotrace_page_fault(struct trap_frame *tf)
{
    uintptr_t cr2 = read_cr2();
    if (trap_from_user(tf) || cr2 < IOREMAP_BASE || cr2 >= IOREMAP_BASE + IOREMAP_SIZE)
        return false;
    const struct io_mapping *m = ioremap_find(cr2);
    if (!m || !m->traced)
        return false;

    if (step.active) {
        /* The stepped instruction touched another armed page we did not expect: let it
         * through natively, and say so. */
        uint8_t none[3] = { 0 };
        step_native(m, cr2, none);
        return true;
    }
    step.npages = step.nwrites = 0;
    step.pc = tf->eip;
    const struct mmio_insn *insn;
    int decoded = decode_cached(tf->eip, &insn);
    if (decoded == 0 && step_with_shadow(insn, tf, cr2, m)) {
        step_begin(tf);
        return true;
    }
    abandon_shadow();
    step_native(m, cr2, insn->opcode);
    step_begin(tf);
    return true;
}

/* --- the debug trap after the step ----------------------------------------------------- */

static inline uint32_t read_dr6(void)
{
    uint32_t v;
    __asm__ volatile("mov %%dr6, %0" : "=r"(v));
    return v;
}

static inline void clear_dr6(void) { __asm__ volatile("mov %0, %%dr6" ::"r"(0u)); }

static bool mmiotrace_debug_trap(struct trap_frame *tf)
{
    if (!step.active || !(read_dr6() & DR6_SINGLE_STEP))
        return false;
    for (int i = 0; i < step.nwrites; i++) {
        const struct pending_write *w = &step.writes[i];
        uint32_t value = read_sized(w->va, w->width);
        write_sized(w->alias, w->width, value);
        sink(MMIO_OP_WRITE, w->width, w->map_id, w->phys, value, step.pc, 0);
    }
    step_rearm();
    step.nwrites = 0;
    tf->eflags = (tf->eflags & ~(EFLAGS_IF | EFLAGS_TF)) | step.saved_if_tf;
    clear_dr6();
    step.active = false;
    return true;
}

bool mmiotrace_arch_active(void) { return installed; }

int mmiotrace_arch_enable(mmio_access_sink new_sink)
{
    bool on = new_sink != 0;
    if (on && !installed && kprobe_arch_int3_armed())
        return -EBUSY; /* see kprobe_arch_int3_armed */
    if (on && !installed) {
        for (int i = 0; i < MAX_STEP_PAGES; i++)
            if (!shadow_pages[i]) {
                uintptr_t page = page_alloc(1); /* kept for good: mapped by frame below */
                if (!page)
                    return -ENOMEM;
                shadow_pages[i] = virt_to_phys((void *)page);
            }
        if (!alias_window && !(alias_window = ioremap_reserve_window(4)))
            return -ENOMEM;
        sink = new_sink;
        trap_set_handler(VEC_PAGE_FAULT, mmiotrace_page_fault);
        trap_set_handler(VEC_DEBUG, mmiotrace_debug_trap);
        installed = true;
    } else if (!on && installed) {
        trap_set_handler(VEC_PAGE_FAULT, 0);
        trap_set_handler(VEC_DEBUG, 0);
        sink = 0;
        installed = false;
    }
    return 0;
}
