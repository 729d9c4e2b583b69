/*
 * mmiotrace_user.c - mmiotrace of a program's own accesses to a device (issue 23): a
 * user-space driver that mapped a BAR through sysfs's resourceN.
 *
 * Linux's mmiotrace sees only ioremap. Here a program's mapping made while the tracer is
 * current is traced the way mmiotrace_fault.c traces the kernel's, for that process only:
 *
 *   mmap     sys_mem.c maps the BAR's pages uncached and calls trace_user_iomap; this file
 *            records MAP (map id, BAR address, the user address, length, pc 0: the
 *            program's call site is not known to the kernel, pid) and arms the pages:
 *            their entries become not present (address_space.c's PTE_ARMED), keeping the
 *            frame and the rights.
 *   access   the program's load or store page-faults. The instruction is read from the
 *            program's page and decoded (mmio_decode.c; remembered per CPU by its bytes).
 *            A plain mov is done here (emulate_mov: it changes no flags, so this is exact):
 *            the access through an uncached kernel alias of the device page, recorded (R or
 *            W, pc the user EIP, the process's pid), the register written, EIP moved on.
 *            Any other instruction is stepped: the reads are done through the alias,
 *            recorded, and put in a RAM shadow page that is mapped, in the process's own
 *            page table, at the user page; the instruction is single-stepped in ring 3 (TF
 *            set, IF clear), so the CPU computes its result against the shadow.
 *   #DB      after the one instruction: the writes it made to the shadow are done on the
 *            device through the alias and recorded (W); the entries go back to armed.
 *   munmap / exit / exec / mremap   UNMAP (address_space.c calls mmiotrace_user_unmapping
 *            from vm_unmap_range, vm_destroy and vm_move_pages); pages left are disarmed.
 *
 * An instruction the decoder does not know (or one with an FS/GS override, whose base it
 * does not add) is recorded UNKNOWN and stepped against the real device page, mapped for
 * the step. One that could end the step itself or that pushes or pops the flags (popf,
 * pushf, iret, int, mov/pop to SS: only a stack inside the BAR makes them touch it) is
 * recorded UNKNOWN and its page is left untraced from then on: stepping it safely would
 * need an emulator.
 *
 * Why the shadow can live in the process's own page table: tracekern has no threads, so
 * no other CPU runs this address space while it steps (a vfork parent sleeps while its
 * child runs), and between the fault and the #DB interrupts are off on this CPU, so the
 * process neither moves nor lets anything else run here. For the same reason the step's
 * state is per CPU (steps[arch_cpu_id()]). Every entry made present for a step is
 * flushed by this CPU when it goes back, and no other CPU ever loaded it.
 *
 * A hostile program: a fault inside the step (an operand elsewhere not mapped, a #GP)
 * ends the step first (entries back, flags back, the pending writes dropped: the
 * instruction did not complete) and is then handled as it would have been; a second armed
 * page the decoder did not foresee is mapped natively for the rest of the step (UNKNOWN);
 * signals and a kill wait for the #DB (trap_exit_to_user asks mmiotrace_user_stepping);
 * fork gives the child untraced present pages (clone_page); a tracer stopped mid-step
 * finds the step's pages disarmed at its #DB.
 */
#include "arch/x86/mmiotrace_user.h"

#include "arch/x86/address_space.h"
#include "arch/x86/cpu.h"
#include "arch/x86/mmio.h"
#include "arch/x86/mmio_decode.h"
#include "arch/x86/paging.h"
#include "arch/x86/trap.h"
#include "arch/x86/uprobe_arch.h"
#include "kernel/lib/string.h"
#include "kernel/log/printk.h"
#include "kernel/mm/ioremap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/task_internal.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"

#define USER_MAPS_MAX 32  /* traced program mappings at once */
#define STEP_PAGES 4      /* pages one step may show: two operands, each on two pages */

/* One program's traced mapping of a BAR. */
struct user_map {
    struct addr_space *as; /* NULL: the slot is free */
    uint32_t va, len;      /* page-aligned user range */
    uint64_t phys;         /* the device address at va */
    uint32_t id;           /* its map id */
};

static struct user_map maps[USER_MAPS_MAX];
static int maps_end;               /* maps[maps_end..] are all free */
static uint32_t maps_generation;   /* changes whenever a mapping is forgotten */
static struct spinlock maps_lock = SPINLOCK_INIT("mmiotrace user maps");
volatile uint32_t mmiotrace_user_mappings;

/* What one single-step has changed and must finish or undo. */
struct user_step {
    bool active;
    struct task *task;
    struct addr_space *as;
    uint32_t saved_if_tf;  /* the program's IF and TF */
    uint32_t pc;
    struct user_map map;   /* the faulting page's mapping, as it was at the fault */
    uint32_t generation;   /* maps_generation then: unchanged, no mapping was forgotten */
    int npages;
    uint32_t page_va[STEP_PAGES];
    uint32_t *pte[STEP_PAGES];
    uint32_t saved_pte[STEP_PAGES]; /* the armed entries */
    uintptr_t page_frame[STEP_PAGES]; /* the shadow's frame, or 0 for the real page */
    int nwrites;
    struct {
        uint32_t va;       /* the user address written (in the shadow) */
        uintptr_t alias;   /* the same bytes on the device */
        uint8_t width;
        uint32_t map_id;
        uint64_t phys;
    } writes[2];
};

/* A mov between a register (or an immediate) and memory, which the fault emulates instead
 * of stepping: it changes no flags, so doing it here is exact (classify_mov). */
enum mov_kind { MOV_NONE, MOV_LOAD, MOV_LOAD_ZX, MOV_LOAD_SX, MOV_STORE_REG, MOV_STORE_IMM };
struct mov_form {
    uint8_t kind;   /* enum mov_kind */
    uint8_t reg;    /* the register (ModRM reg field; 0 for the moffs forms) */
    uint32_t imm;   /* MOV_STORE_IMM's value */
};

/* Per CPU: its step, its shadow pages (RAM) and alias pages (kernel, uncached). */
struct user_cpu {
    struct user_step step;
    struct {                       /* the last instruction decoded here, by its bytes */
        uint32_t eip;
        uint8_t len;               /* the bytes that decided (0: nothing cached) */
        uint8_t code[MMIO_INSN_MAX];
        int8_t screened;           /* screen()'s answer */
        int result;                /* mmio_decode's */
        struct mmio_insn insn;
        struct mov_form mov;       /* a plain mov: emulated (see emulate_mov) */
    } decoded;
    struct user_map last_map;      /* the last mapping a fault here found, */
    uint32_t last_generation;      /* valid while maps_generation is this */
    uint32_t alias_pa[STEP_PAGES]; /* what each alias page maps now (0: unknown) */
    uintptr_t shadow[STEP_PAGES];  /* physical */
    uintptr_t alias;               /* STEP_PAGES window pages */
} __attribute__((aligned(64)));
static struct user_cpu cpus[MAX_CPUS];
static bool prepared;

/* Shadow and alias pages for every CPU, once (process context: the first traced mmap). */
static bool prepare(void)
{
    if (prepared)
        return true;
    uintptr_t window = ioremap_reserve_window(STEP_PAGES * MAX_CPUS);
    if (!window)
        return false;
    for (unsigned c = 0; c < MAX_CPUS; c++) {
        for (int i = 0; i < STEP_PAGES; i++) {
            uintptr_t page = page_alloc(1);
            if (!page)
                return false; /* (what was taken stays for the next try) */
            cpus[c].shadow[i] = virt_to_phys((void *)page);
        }
        cpus[c].alias = window + (uintptr_t)c * STEP_PAGES * PAGE_SIZE;
    }
    prepared = true;
    return true;
}

/* The live mapping of as holding user address va, or NULL. maps_lock held. */
static struct user_map *find_map(const struct addr_space *as, uint32_t va)
{
    for (int i = 0; i < maps_end; i++)
        if (maps[i].as == as && va - maps[i].va < maps[i].len)
            return &maps[i];
    return 0;
}

void mmiotrace_user_map(uint32_t va, uint32_t len, uint64_t phys, uint32_t pc)
{
    struct addr_space *as = current->as;
    if (!as || !prepare())
        return;
    unsigned long flags = spin_lock_irqsave(&maps_lock);
    struct user_map *m = 0;
    uint32_t id = 0;
    for (int i = 0; i < USER_MAPS_MAX && !m; i++)
        if (!maps[i].as)
            m = &maps[i];
    if (m) {
        *m = (struct user_map){ as, va, PAGE_ALIGN_UP(len), phys, id = ioremap_take_id() };
        if (m - maps >= maps_end)
            maps_end = (int)(m - maps) + 1;
        mmiotrace_user_mappings++;
    }
    spin_unlock_irqrestore(&maps_lock, flags);
    if (!m) {
        printk("mmiotrace: %u program mappings traced already: 0x%x not traced\n",
               USER_MAPS_MAX, va);
        return;
    }
    mmiotrace_record_user_map(MMIO_OP_MAP, id, phys, va, len, pc);
    /* Armed outside the lock: arming flushes the range where the space is loaded (only
     * here: the process is in this system call, and nothing else runs its space). */
    vm_arm_device_pages(as, va, PAGE_ALIGN_UP(len) / PAGE_SIZE, true);
}

/* Forgets m after recording its UNMAP, disarming what is left of it. maps_lock held. */
static void drop_map(struct user_map *m)
{
    mmiotrace_record_user_map(MMIO_OP_UNMAP, m->id, m->phys, m->va, m->len, 0);
    vm_arm_device_pages(m->as, m->va, m->len / PAGE_SIZE, false);
    m->as = 0;
    maps_generation++;
    mmiotrace_user_mappings--;
}

void mmiotrace_user_unmapping(struct addr_space *as, uint32_t va, uint32_t pages)
{
    unsigned long flags = spin_lock_irqsave(&maps_lock);
    uint64_t end = (uint64_t)va + (uint64_t)pages * PAGE_SIZE;
    for (int i = 0; i < USER_MAPS_MAX; i++)
        if (maps[i].as == as && maps[i].va < end && va < maps[i].va + maps[i].len)
            drop_map(&maps[i]);
    spin_unlock_irqrestore(&maps_lock, flags);
}

void mmiotrace_user_disarm_all(void)
{
    unsigned long flags = spin_lock_irqsave(&maps_lock);
    for (int i = 0; i < USER_MAPS_MAX; i++)
        if (maps[i].as) {
            vm_arm_device_pages(maps[i].as, maps[i].va, maps[i].len / PAGE_SIZE, false);
            maps[i].as = 0;
        }
    maps_generation++;
    mmiotrace_user_mappings = 0;
    spin_unlock_irqrestore(&maps_lock, flags);
}

/* --- the step ------------------------------------------------------------------------- */

/* Where user byte va is in this step's shadow, through the direct map (NULL if va is on
 * no shadow page of the step). */
static volatile uint8_t *shadow_byte(const struct user_step *s, uint32_t va)
{
    for (int i = 0; i < s->npages; i++)
        if (s->page_va[i] == PAGE_ALIGN_DOWN(va) && s->page_frame[i])
            return (volatile uint8_t *)phys_to_virt(s->page_frame[i]) + (va & (PAGE_SIZE - 1));
    return 0;
}

/* The width bytes at user address va in the shadow, byte by byte (they may straddle two
 * shadow pages), little-endian; or writes them. */
static uint32_t shadow_get(const struct user_step *s, uint32_t va, uint8_t width)
{
    uint32_t v = 0;
    for (int i = 0; i < width; i++)
        v |= (uint32_t)*shadow_byte(s, va + i) << (8 * i);
    return v;
}

static void shadow_put(const struct user_step *s, uint32_t va, uint8_t width, uint32_t v)
{
    for (int i = 0; i < width; i++)
        *shadow_byte(s, va + i) = (uint8_t)(v >> (8 * i));
}

/* Shows armed user page va for the step: the shadow (frame != 0) or the real device page.
 * False when the step has no room left or the page is not armed. */
static bool step_show(struct user_step *s, uint32_t va, uintptr_t frame)
{
    for (int i = 0; i < s->npages; i++)
        if (s->page_va[i] == va)
            return true;
    uint32_t *pte = vm_armed_pte(s->as, va);
    if (!pte || s->npages == STEP_PAGES)
        return false;
    int i = s->npages++;
    s->page_va[i] = va, s->pte[i] = pte, s->saved_pte[i] = *pte, s->page_frame[i] = frame;
    *pte = vm_step_pte(*pte, frame ? frame : (*pte & PTE_ADDR_MASK), frame == 0);
    invlpg(va);
    return true;
}

/* Puts every page of the step back: armed while its mapping is traced, else present. */
static void step_restore(struct user_step *s)
{
    for (int i = 0; i < s->npages; i++) {
        *s->pte[i] = s->saved_pte[i];
        invlpg(s->page_va[i]);
    }
    /* A mapping forgotten meanwhile (munmap elsewhere cannot be: the tracer stopped) left
     * its pages disarmed but for ours: disarm those too. One that goes after this check
     * disarms them itself; one that went unseen leaves an armed page without a mapping,
     * which the next fault on it disarms (step_begin_on_fault). */
    if (__atomic_load_n(&maps_generation, __ATOMIC_ACQUIRE) != s->generation) {
        unsigned long flags = spin_lock_irqsave(&maps_lock);
        for (int i = 0; i < s->npages; i++)
            if (!find_map(s->as, s->page_va[i]))
                vm_arm_device_pages(s->as, s->page_va[i], 1, false);
        spin_unlock_irqrestore(&maps_lock, flags);
    }
    s->npages = s->nwrites = 0;
}

/* Ends the step (done or abandoned): pages back, the program's IF and TF back. */
static void step_end(struct user_step *s, struct trap_frame *tf)
{
    step_restore(s);
    tf->eflags = (tf->eflags & ~(EFLAGS_IF | EFLAGS_TF)) | s->saved_if_tf;
    s->active = false;
}

/* The traced mapping holding all of [addr, addr+width) in this step's process, copied
 * out (maps_lock taken and let go here), or false. */
static bool traced_operand(const struct user_step *s, uint32_t addr, uint8_t width,
                           struct user_map *out)
{
    if (s->map.as && addr - s->map.va < s->map.len) { /* the faulting mapping: most often */
        *out = s->map;
        return addr + width - 1 - s->map.va < s->map.len;
    }
    unsigned long flags = spin_lock_irqsave(&maps_lock);
    struct user_map *m = find_map(s->as, addr);
    bool ok = m && addr + width - 1 - m->va < m->len;
    if (ok)
        *out = *m;
    spin_unlock_irqrestore(&maps_lock, flags);
    return ok;
}

/* The alias (kernel, uncached) of device page pa in this CPU's alias page index: mapped
 * there unless it already is (the next access is most often to the same page). */
static uintptr_t alias_page(struct user_cpu *c, int index, uint32_t pa)
{
    uintptr_t alias = c->alias + (uintptr_t)index * PAGE_SIZE;
    if (c->alias_pa[index] != pa) {
        paging_set_pte(alias, pa, PTE_IO_FLAGS);
        c->alias_pa[index] = pa;
    }
    return alias;
}

/* Prepares one traced operand: shadow pages shown, reads done on the device through the
 * alias and recorded, writes noted for the #DB. */
static bool prepare_operand(struct user_cpu *c, const struct user_map *m, uint32_t addr,
                            const struct mmio_operand *op, int slot)
{
    struct user_step *s = &c->step;
    uint32_t first = PAGE_ALIGN_DOWN(addr), last = PAGE_ALIGN_DOWN(addr + op->width - 1);
    uintptr_t alias = c->alias + (uintptr_t)slot * 2 * PAGE_SIZE;
    uint64_t phys = m->phys + (addr - m->va);
    for (uint32_t va = first, n = 0; va <= last; va += PAGE_SIZE, n++) {
        alias_page(c, slot * 2 + (int)n, (uint32_t)(m->phys + (va - m->va)));
        if (!step_show(s, va, c->shadow[s->npages < STEP_PAGES ? s->npages : 0]))
            return false;
    }
    uintptr_t device = alias + (addr - first);
    if (op->read) {
        uint32_t value = first == last ? mmio_read_sized((void *)device, op->width) : 0;
        for (int i = 0; first != last && i < op->width; i++) /* straddling: byte by byte */
            value |= (uint32_t)mmio_read8((void *)(device + i)) << (8 * i);
        shadow_put(s, addr, op->width, value);
        mmiotrace_record_user_rw(MMIO_OP_READ, op->width, m->id, phys, value, s->pc, 0);
    }
    if (op->write)
        s->writes[s->nwrites++] = (typeof(s->writes[0])){ addr, device, op->width, m->id, phys };
    return true;
}

/* Which mov, if any, the decoded instruction code (len bytes) is: the forms mmio_decode
 * knows as one plain memory operand (no string, no rep), with only an operand-size or a
 * flat segment prefix. */
static struct mov_form classify_mov(const uint8_t *code, uint32_t len, const struct mmio_insn *insn)
{
    struct mov_form f = { MOV_NONE, 0, 0 };
    uint32_t i = 0;
    bool size16 = false;
    while (i < len && (code[i] == 0x66 || code[i] == 0x26 || code[i] == 0x2e || code[i] == 0x36 ||
                       code[i] == 0x3e))
        size16 |= code[i++] == 0x66;
    if (insn->string || insn->noperands != 1 || i + 1 >= len)
        return f;
    uint8_t op = code[i], reg = (code[i + 1] >> 3) & 7;
    if (op == 0x8a || op == 0x8b)
        f = (struct mov_form){ MOV_LOAD, reg, 0 };
    else if (op == 0x88 || op == 0x89)
        f = (struct mov_form){ MOV_STORE_REG, reg, 0 };
    else if (op == 0xa0 || op == 0xa1)
        f = (struct mov_form){ MOV_LOAD, 0, 0 };
    else if (op == 0xa2 || op == 0xa3)
        f = (struct mov_form){ MOV_STORE_REG, 0, 0 };
    else if (op == 0xc6)
        f = (struct mov_form){ MOV_STORE_IMM, 0, code[len - 1] };
    else if (op == 0xc7 && size16)
        f = (struct mov_form){ MOV_STORE_IMM, 0, (uint32_t)code[len - 2] | (uint32_t)code[len - 1] << 8 };
    else if (op == 0xc7)
        f = (struct mov_form){ MOV_STORE_IMM, 0,
                               (uint32_t)code[len - 4] | (uint32_t)code[len - 3] << 8 |
                                   (uint32_t)code[len - 2] << 16 | (uint32_t)code[len - 1] << 24 };
    else if (op == 0x0f && !size16 && i + 2 < len && (code[i + 1] == 0xb6 || code[i + 1] == 0xb7))
        f = (struct mov_form){ MOV_LOAD_ZX, (code[i + 2] >> 3) & 7, 0 };
    else if (op == 0x0f && !size16 && i + 2 < len && (code[i + 1] == 0xbe || code[i + 1] == 0xbf))
        f = (struct mov_form){ MOV_LOAD_SX, (code[i + 2] >> 3) & 7, 0 };
    return f;
}

/* The frame's slot of general register r (decoder order: EAX ECX EDX EBX ESP EBP ESI EDI). */
static uint32_t *frame_reg(struct trap_frame *tf, int r)
{
    uint32_t *slots[8] = { &tf->eax, &tf->ecx, &tf->edx, &tf->ebx, &tf->user_esp, &tf->ebp,
                           &tf->esi, &tf->edi };
    return slots[r];
}

/*
 * A plain mov to or from the traced page, done here instead of stepped: one access on the
 * device through the alias, recorded, the register or the immediate as the CPU would
 * use it, EIP past the instruction. A mov changes no flags, so nothing is left for the CPU
 * to compute, and this saves the step (its #DB, the shadow). False when it does not apply
 * (the operand on two pages, or not in the faulting mapping): then it is stepped.
 */
static bool emulate_mov(struct user_cpu *c, const struct user_map *m, struct trap_frame *tf,
                        uint32_t cr2)
{
    const struct mmio_insn *insn = &c->decoded.insn;
    const struct mov_form *f = &c->decoded.mov;
    uint32_t regs[8] = { tf->eax, tf->ecx, tf->edx, tf->ebx, tf->user_esp, tf->ebp,
                         tf->esi, tf->edi };
    uint32_t addr = mmio_operand_address(insn, 0, regs);
    uint8_t width = insn->op[0].width;
    if (PAGE_ALIGN_DOWN(addr) != PAGE_ALIGN_DOWN(cr2) ||
        PAGE_ALIGN_DOWN(addr + width - 1) != PAGE_ALIGN_DOWN(addr) || addr - m->va >= m->len)
        return false;
    uint64_t phys = m->phys + (addr - m->va);
    uintptr_t device = alias_page(c, 0, (uint32_t)(phys & ~(uint64_t)(PAGE_SIZE - 1))) +
                       (addr & (PAGE_SIZE - 1));
    uint32_t mask = width == 4 ? 0xffffffffu : (1u << (8 * width)) - 1;
    bool high_byte = width == 1 && f->reg >= 4; /* AH CH DH BH */
    uint32_t *reg = frame_reg(tf, width == 1 && f->kind != MOV_LOAD_ZX && f->kind != MOV_LOAD_SX
                                      ? f->reg & 3 : f->reg);
    if (f->kind == MOV_STORE_REG || f->kind == MOV_STORE_IMM) {
        uint32_t value = f->kind == MOV_STORE_IMM ? f->imm & mask
                         : high_byte              ? (*reg >> 8) & 0xff
                                                  : *reg & mask;
        mmio_write_sized((void *)device, width, value);
        mmiotrace_record_user_rw(MMIO_OP_WRITE, width, m->id, phys, value, tf->eip, 0);
    } else {
        uint32_t value = mmio_read_sized((void *)device, width);
        mmiotrace_record_user_rw(MMIO_OP_READ, width, m->id, phys, value, tf->eip, 0);
        if (f->kind == MOV_LOAD_ZX)
            *reg = value;
        else if (f->kind == MOV_LOAD_SX)
            *reg = width == 1 ? (uint32_t)(int32_t)(int8_t)value : (uint32_t)(int32_t)(int16_t)value;
        else if (high_byte)
            *reg = (*reg & ~0xff00u) | value << 8;
        else
            *reg = (*reg & ~mask) | value;
    }
    tf->eip += insn->length;
    return true;
}

/* The instruction's bytes at eip as far as they can be read (up to MMIO_INSN_MAX), from
 * the program's pages (vm_kmap: a page it may not read, or a device page, gives none). */
static size_t fetch(const struct addr_space *as, uint32_t eip, uint8_t code[MMIO_INSN_MAX])
{
    size_t first = PAGE_SIZE - (eip & (PAGE_SIZE - 1)), avail = 0;
    if (first > MMIO_INSN_MAX)
        first = MMIO_INSN_MAX;
    uint8_t *p = vm_rights(as, eip) ? vm_kmap(as, eip) : 0;
    if (!p)
        return 0;
    memcpy(code, p, first);
    vm_kunmap(p);
    avail = first;
    if (first < MMIO_INSN_MAX) {
        p = vm_rights(as, eip + (uint32_t)first) ? vm_kmap(as, eip + (uint32_t)first) : 0;
        if (p) {
            memcpy(code + first, p, MMIO_INSN_MAX - first);
            vm_kunmap(p);
            avail = MMIO_INSN_MAX;
        }
    }
    return avail;
}



/*
 * The instruction at eip screened and decoded into c->decoded, which remembers the last
 * one: a program accesses its registers from a few places, again and again. The bytes
 * that decided are the key (with the address): they are compared in place, through the
 * direct map, so code that changed, or another program's at the same address, is decoded
 * anew.
 */
static int screen(const uint8_t *code, size_t avail);

static void decode_user(struct user_cpu *c, const struct addr_space *as, uint32_t eip)
{
    uint32_t len = c->decoded.len;
    if (c->decoded.eip == eip && len && (eip & (PAGE_SIZE - 1)) + len <= PAGE_SIZE) {
        uint8_t *p = vm_kmap(as, eip);
        bool same = p && memcmp(p, c->decoded.code, len) == 0;
        vm_kunmap(p);
        if (same)
            return;
    }
    uint8_t code[MMIO_INSN_MAX];
    size_t avail = fetch(as, eip, code);
    int screened = screen(code, avail);
    int result = screened ? -1 : mmio_decode(code, avail, &c->decoded.insn);
    if (screened) {
        memset(c->decoded.insn.opcode, 0, 3);
        memcpy(c->decoded.insn.opcode, code, avail < 3 ? avail : 3);
    }
    /* The bytes that decided: the instruction's own when it decoded, else all there were. */
    len = result == 0 ? c->decoded.insn.length : (uint32_t)avail;
    memcpy(c->decoded.code, code, len);
    c->decoded.eip = eip, c->decoded.len = (uint8_t)len;
    c->decoded.mov = result == 0 ? classify_mov(code, len, &c->decoded.insn)
                                 : (struct mov_form){ MOV_NONE, 0, 0 };
    c->decoded.screened = (int8_t)screened, c->decoded.result = result;
}

/* What the bytes say before decoding: 1 for an FS/GS override (the decoder assumes flat
 * segments), 2 for an instruction that must not be stepped here (see the top), else 0. */
static int screen(const uint8_t *code, size_t avail)
{
    size_t i = 0;
    int fsgs = 0;
    for (; i < avail; i++) {
        uint8_t b = code[i];
        if (b == 0x64 || b == 0x65)
            fsgs = 1;
        else if (!(b == 0x26 || b == 0x2e || b == 0x36 || b == 0x3e || b == 0x66 ||
                   b == 0x67 || b == 0xf0 || b == 0xf2 || b == 0xf3))
            break;
    }
    if (i == avail)
        return 2; /* no opcode in sight: nothing known to step */
    uint8_t op = code[i];
    if (op == 0x9c || op == 0x9d || op == 0xcf || op == 0xcc || op == 0xcd || op == 0xce ||
        op == 0xf1 || op == 0x8e || op == 0x17 || op == 0xfa || op == 0xfb)
        return 2;
    if (op == 0x0f && i + 1 < avail &&
        (code[i + 1] == 0x05 || code[i + 1] == 0x34 || code[i + 1] == 0x35 || code[i + 1] == 0xa1 ||
         code[i + 1] == 0xa9))
        return 2; /* syscall, sysenter, sysexit, pop fs, pop gs */
    return fsgs;
}

/* The decoded path: every traced operand prepared. False if the operands do not explain
 * the fault or cannot be shown (then the instruction is stepped natively). */
static bool step_decoded(struct user_cpu *c, const struct mmio_insn *insn,
                         const struct trap_frame *tf, uint32_t cr2)
{
    uint32_t regs[8] = { tf->eax, tf->ecx, tf->edx, tf->ebx, tf->user_esp, tf->ebp,
                         tf->esi, tf->edi };
    bool explains = false;
    for (int i = 0; i < insn->noperands; i++) {
        const struct mmio_operand *op = &insn->op[i];
        uint32_t addr = mmio_operand_address(insn, i, regs);
        if (cr2 >= PAGE_ALIGN_DOWN(addr) && cr2 <= addr + op->width - 1)
            explains = true;
        struct user_map m;
        if (traced_operand(&c->step, addr, op->width, &m) && !prepare_operand(c, &m, addr, op, i))
            return false;
    }
    return explains;
}

/* The unknown path for page va: the real device page shown for the step, UNKNOWN
 * recorded. */
static bool step_native(struct user_step *s, uint32_t va, const uint8_t opcode[3])
{
    struct user_map m;
    if (!traced_operand(s, va, 1, &m) || !step_show(s, PAGE_ALIGN_DOWN(va), 0))
        return false;
    mmiotrace_record_user_rw(MMIO_OP_UNKNOWN, 0, m.id, m.phys + (va - m.va), 0, s->pc, opcode);
    return true;
}

/* A page fault in ring 3 on an armed page of the current process: begins a step. False
 * when it is not ours (then it is the program's fault, a signal). */
static bool step_begin_on_fault(struct trap_frame *tf)
{
    uint32_t cr2 = read_cr2();
    struct addr_space *as = current->as;
    uint32_t *pte = as && !(tf->error_code & 1) ? vm_armed_pte(as, cr2) : 0;
    if (!pte)
        return false;
    if (!(*pte & PTE_USER) || ((tf->error_code & 2) && !(*pte & PTE_WRITE)))
        return false; /* PROT_NONE, or a write to a read-only mapping: SIGSEGV */
    struct user_cpu *c = &cpus[arch_cpu_id()];
    struct user_step *s = &c->step;
    struct user_map m;
    uint32_t generation = __atomic_load_n(&maps_generation, __ATOMIC_ACQUIRE);
    if (c->last_generation == generation && c->last_map.as == as && cr2 - c->last_map.va < c->last_map.len) {
        m = c->last_map; /* no mapping was forgotten since: still live */
    } else {
        s->as = as, s->map.as = 0; /* (what traced_operand reads) */
        if (!prepared || !traced_operand(s, cr2, 1, &m)) {
            vm_arm_device_pages(as, PAGE_ALIGN_DOWN(cr2), 1, false); /* armed, not traced */
            return true; /* (moved by mremap, or the tracer went): the access runs again */
        }
        c->last_map = m, c->last_generation = generation;
    }
    decode_user(c, as, tf->eip);
    int screened = c->decoded.screened, decoded = c->decoded.result;
    const struct mmio_insn *insn = &c->decoded.insn;
    uint8_t opcode[3];
    memcpy(opcode, insn->opcode, 3);
    /* A plain mov, the program not single-stepping itself: done here, no step. */
    if (!screened && decoded == 0 && c->decoded.mov.kind != MOV_NONE && !(tf->eflags & EFLAGS_TF) &&
        emulate_mov(c, &m, tf, cr2))
        return true;
    *s = (struct user_step){ .task = current, .as = as, .pc = tf->eip, .map = m,
                             .generation = generation };
    if (screened == 2) {
        /* Not steppable: recorded, and its page is the program's directly from now on. */
        mmiotrace_record_user_rw(MMIO_OP_UNKNOWN, 0, m.id, m.phys + (cr2 - m.va), 0, s->pc,
                            opcode);
        vm_arm_device_pages(as, PAGE_ALIGN_DOWN(cr2), 1, false);
        return true;
    }
    if (!(decoded == 0 && step_decoded(c, insn, tf, cr2))) {
        step_restore(s); /* reads already made stay in the log: they reached the device */
        if (!step_native(s, cr2, opcode)) {
            step_restore(s);
            vm_arm_device_pages(as, PAGE_ALIGN_DOWN(cr2), 1, false);
            return true;
        }
    }
    s->saved_if_tf = tf->eflags & (EFLAGS_IF | EFLAGS_TF);
    tf->eflags = (tf->eflags | EFLAGS_TF) & ~EFLAGS_IF;
    s->active = true;
    return true;
}

/* The #DB after the one instruction: its writes done on the device and recorded. */
static void step_done(struct user_step *s, struct trap_frame *tf)
{
    for (int i = 0; i < s->nwrites; i++) {
        uint32_t v = shadow_get(s, s->writes[i].va, s->writes[i].width);
        if (PAGE_ALIGN_DOWN(s->writes[i].va) ==
            PAGE_ALIGN_DOWN(s->writes[i].va + s->writes[i].width - 1))
            mmio_write_sized((void *)s->writes[i].alias, s->writes[i].width, v);
        else
            for (int b = 0; b < s->writes[i].width; b++)
                mmio_write8((void *)(s->writes[i].alias + b), (uint8_t)(v >> (8 * b)));
        mmiotrace_record_user_rw(MMIO_OP_WRITE, s->writes[i].width, s->writes[i].map_id,
                            s->writes[i].phys, v, s->pc, 0);
    }
    step_end(s, tf);
}

bool mmiotrace_user_stepping(void) { return cpus[arch_cpu_id()].step.active; }

bool mmiotrace_user_trap(struct trap_frame *tf)
{
    struct user_step *s = &cpus[arch_cpu_id()].step;
    if (s->active && s->task == current) {
        if (tf->vector == VEC_DEBUG && (read_dr6() & DR6_SINGLE_STEP)) {
            step_done(s, tf);
            if (uprobe_arch_stepping())
                return false; /* a uprobe's step was on too: its #DB as well */
            write_dr6(0);
            return true;
        }
        uint32_t cr2 = tf->vector == VEC_PAGE_FAULT ? read_cr2() : 0;
        bool armed = tf->vector == VEC_PAGE_FAULT && !(tf->error_code & 1) &&
                     vm_armed_pte(s->as, cr2);
        if (armed && step_native(s, cr2, (const uint8_t[3]){ 0 }))
            return true; /* a traced page the decoder did not foresee: natively, retried */
        /* The instruction faulted: it did not complete, its writes are dropped, and the
         * fault is the program's as if nothing were traced. An armed page the step had no
         * room for is left untraced, so that the instruction can complete. */
        step_end(s, tf);
        if (armed)
            vm_arm_device_pages(s->as, PAGE_ALIGN_DOWN(cr2), 1, false);
        return armed;
    }
    return tf->vector == VEC_PAGE_FAULT && step_begin_on_fault(tf);
}
