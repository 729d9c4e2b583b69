/*
 * address_space.c - kernel/mm/vm.h on x86: one page directory per process.
 *
 * The directory's kernel entries (from USER_TOP up) are copied from the kernel's directory
 * when the process is created. That is enough for them to stay right forever, because the
 * kernel never adds a directory entry later: the direct map's page tables and the ioremap
 * window's are all created at boot (paging_init). User page tables are the process's own.
 *
 * Page tables hold physical addresses; the kernel reaches a table or a frame through the
 * direct map (phys_to_virt), and page_alloc's results go into entries as virt_to_phys. A
 * user entry is one of: a page of the process's own (present, or PROT_NONE: not present
 * with PTE_PROT_NONE and the frame kept), or a frame lent by someone else
 * (PTE_SHARED_FRAME, and PTE_SHARED_READ_ONLY when it was lent without write access), or
 * a MAP_SHARED anonymous page (PTE_SHARE_ON_FORK), which fork shares instead of copying. A
 * copy of the address space (vm_clone) keeps these bits, and struct vm_layout with them.
 *
 * Several CPUs may have a space loaded (issue 19): whatever removes or downgrades a user
 * entry flushes it on each of them (tlb_shootdown.h) before the call returns and before the
 * frame is freed. Adding an entry where none was needs no other CPU: a TLB never caches a
 * not-present entry.
 */
#include "kernel/mm/vm.h"
#include "arch/x86/address_space.h" /* struct addr_space */

#include "arch/x86/cpu.h"
#include "arch/x86/kmap.h"
#include "arch/x86/mmiotrace_user.h"
#include "arch/x86/paging.h"
#include "arch/x86/tlb_shootdown.h"
#include "kernel/arch.h"
#include "kernel/lib/errno.h"
#include "kernel/notrace.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/highmem.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/lib/string.h"
#include "kernel/spinlock.h"

/* An available PTE bit: the frame is not the process's to free. */
#define PTE_SHARED_FRAME 0x200u
/* An available PTE bit, on an entry whose present bit is clear: the page is the process's
 * (the frame is in the entry) but PROT_NONE, so every access faults. */
#define PTE_PROT_NONE 0x400u

/* The last available PTE bit says one more thing about the frame, read together with
 * PTE_SHARED_FRAME: with it, the frame was lent read-only (a file's page mapped without
 * write access), so no mprotect may make it writable (PTE_SHARED_READ_ONLY); without it,
 * the page is a MAP_SHARED anonymous one of the process, which fork shares instead of
 * copying and whose frame has a count of users in frame_users (PTE_SHARE_ON_FORK). */
#define PTE_FRAME_NOTE 0x800u
#define PTE_SHARED_READ_ONLY (PTE_SHARED_FRAME | PTE_FRAME_NOTE)
#define PTE_SHARE_ON_FORK PTE_FRAME_NOTE

/* In an entry whose present bit is clear the CPU reads no other bit: vm_unmap_range marks
 * the entries it took away with the global bit (keeping the frame and its notes) while the
 * other CPUs flush them, then frees the frames. Such an entry still counts as used, so
 * nothing is mapped over it meanwhile. */
#define PTE_UNMAPPING 0x100u

/* The dirty bit's place, in an entry whose present bit is clear: a device page armed by
 * mmiotrace (arch/x86/mmiotrace_user.c), so that every access the program makes to it
 * faults. The entry keeps its frame, PTE_SHARED_FRAME, PCD and PWT, and the page's rights
 * in PTE_USER (it may be read) and PTE_WRITE; PTE_PROT_NONE is set too, so that it counts
 * as used wherever a PROT_NONE page does (and vm_rights sees no access: a system call
 * given a pointer into it gets EFAULT). */
#define PTE_ARMED 0x040u
#define PTE_DEVICE (PTE_CACHE_DISABLE | PTE_WRITE_THROUGH)
static bool pte_armed(uint32_t pte) { return (pte & (PTE_PRESENT | PTE_ARMED)) == PTE_ARMED; }
/* mlock (issue 23): the page is locked (Linux's VM_LOCKED, kept per page here since there
 * are no VMAs). In a present entry it is bit 10, the available bit that means PROT_NONE
 * only when the present bit is clear; in a PROT_NONE entry (not present, so the CPU reads
 * no other bit) it is bit 7. Only the process's own pages are ever locked: a lent frame
 * is as Linux's VM_PFNMAP mappings, which mlock leaves alone. The lock moves with the
 * entry (mremap) and goes with it (munmap); fork's copy does not have it. */
#define PTE_LOCKED_PRESENT 0x400u
#define PTE_LOCKED_PROT_NONE 0x080u

/* The entry holds a page of the process, accessible or not (or one being unmapped). */
static bool pte_used(uint32_t pte) { return pte & (PTE_PRESENT | PTE_PROT_NONE | PTE_UNMAPPING); }
/* The frame was lent without write access. */
static bool pte_lent_read_only(uint32_t pte)
{
    return (pte & PTE_SHARED_READ_ONLY) == PTE_SHARED_READ_ONLY;
}
/* A MAP_SHARED anonymous page of the process's own (counted in frame_users). */
static bool pte_share_on_fork(uint32_t pte)
{
    return (pte & (PTE_SHARED_FRAME | PTE_FRAME_NOTE)) == PTE_SHARE_ON_FORK;
}

/* The entry (used) holds a locked page. */
static bool pte_locked(uint32_t pte)
{
    if (pte & PTE_PRESENT)
        return pte & PTE_LOCKED_PRESENT;
    return (pte & PTE_PROT_NONE) && (pte & PTE_LOCKED_PROT_NONE);
}

/* The used entry pte with its lock set or cleared, in the bit its present state uses. */
static uint32_t pte_with_lock(uint32_t pte, bool locked)
{
    uint32_t bit = (pte & PTE_PRESENT) ? PTE_LOCKED_PRESENT : PTE_LOCKED_PROT_NONE;
    return locked ? pte | bit : pte & ~bit;
}

#define PDE_INDEX(va) ((va) >> 22)
#define PTE_INDEX(va) (((va) >> 12) & 0x3ff)

/* For each frame of memory, how many address spaces beyond the first map it as a
 * PTE_SHARE_ON_FORK page (only such frames are counted). Made at boot (vm_init; 2 bytes
 * a frame: 64 KiB for 128 MiB), so that what a process's fork or exit takes and gives
 * back is only its own pages. */
static uint16_t *frame_users;
static struct spinlock frame_users_lock = SPINLOCK_INIT("frame_users");

/* Makes frame_users if it is not there yet; false without memory for it. */
static bool frame_users_ready(void)
{
    if (frame_users)
        return true;
    uint32_t frames = (uint32_t)(page_alloc_top() / PAGE_SIZE);
    uint32_t pages = (uint32_t)PAGE_ALIGN_UP(frames * sizeof *frame_users) / PAGE_SIZE;
    uintptr_t table = page_alloc(pages); /* zeroed: every frame has one user */
    if (!table)
        return false;
    unsigned long flags = spin_lock_irqsave(&frame_users_lock);
    if (!frame_users)
        frame_users = (uint16_t *)table, table = 0;
    spin_unlock_irqrestore(&frame_users_lock, flags);
    if (table)
        page_free(table, pages);
    return true;
}

/* One more address space maps the shared frame; false when its count is full (the fork
 * fails with ENOMEM rather than wrap it). */
static bool frame_get(uint32_t frame)
{
    unsigned long flags = spin_lock_irqsave(&frame_users_lock);
    uint16_t *n = &frame_users[frame / PAGE_SIZE];
    bool ok = *n != UINT16_MAX;
    *n += ok;
    spin_unlock_irqrestore(&frame_users_lock, flags);
    return ok;
}

/* One address space stops mapping a PTE_SHARE_ON_FORK frame: true when it was the last,
 * and the caller frees it. */
static bool frame_put(uint32_t frame)
{
    if (!frame_users)
        return true; /* never forked: its only user */
    unsigned long flags = spin_lock_irqsave(&frame_users_lock);
    uint16_t *n = &frame_users[frame / PAGE_SIZE];
    bool last = *n == 0;
    if (!last)
        (*n)--;
    spin_unlock_irqrestore(&frame_users_lock, flags);
    return last;
}

/*
 * A frame for a program's private page, zeroed: from high memory first, where there is any
 * (kernel/mm/highmem.h: the kernel needs none of it), as Linux's GFP_HIGHUSER; else from
 * page_alloc, never its reserve. 0 when memory is exhausted. A page shared on fork stays
 * low: frame_users counts the sharers of low frames only.
 */
static uint32_t alloc_user_frame(void)
{
    uint32_t frame = highmem_alloc();
    if (frame) {
        void *p = kmap_frame(frame);
        memset(p, 0, PAGE_SIZE);
        kunmap_frame(p);
        return frame;
    }
    uintptr_t page = page_alloc_user(1);
    return page ? (uint32_t)virt_to_phys((void *)page) : 0;
}

/* Gives back a frame alloc_user_frame (or page_alloc) gave. */
static void free_user_frame(uint32_t frame)
{
    if (highmem_frame(frame))
        highmem_free(frame);
    else
        page_free((uintptr_t)phys_to_virt(frame), 1);
}

/* Gives up the frame a used PTE (present or PROT_NONE) holds, as its owner: freed unless it belongs to someone
 * else (PTE_SHARED_FRAME) or another space still shares it. True when it counted among
 * the owner's pages. */
static bool release_frame(uint32_t pte)
{
    if (pte & PTE_SHARED_FRAME)
        return false;
    uint32_t frame = pte & PTE_ADDR_MASK;
    if (!pte_share_on_fork(pte) || frame_put(frame))
        free_user_frame(frame);
    return true;
}

void vm_init(void)
{
    frame_users_ready(); /* if this fails, the first fork of a shared page tries again */
}

struct addr_space *vm_create(void)
{
    struct addr_space *as = kzalloc(sizeof *as);
    if (!as)
        return 0;
    as->directory = (uint32_t *)page_alloc(1);
    if (!as->directory) {
        kfree(as);
        return 0;
    }
    paging_share_kernel_entries(&as->kernel_copy, as->directory);
    return as;
}

void vm_destroy(struct addr_space *as)
{
    tlb_unload_everywhere(&as->users); /* no CPU walks the tables from here on */
    if (mmiotrace_user_mappings)
        mmiotrace_user_unmapping(as, USER_BASE, (USER_TOP - USER_BASE) / PAGE_SIZE);
    for (uint32_t i = PDE_INDEX(USER_BASE); i < PDE_INDEX(USER_TOP); i++) {
        uint32_t pde = as->directory[i];
        if (!(pde & PTE_PRESENT))
            continue;
        uint32_t *table = phys_to_virt(pde & PTE_ADDR_MASK);
        for (int j = 0; j < 1024; j++)
            if (pte_used(table[j]))
                release_frame(table[j]);
        page_free((uintptr_t)table, 1);
    }
    paging_unshare_kernel_entries(&as->kernel_copy);
    page_free((uintptr_t)as->directory, 1);
    kfree(as);
}

void vm_activate(struct addr_space *as)
{
    unsigned long flags = arch_irq_save(); /* the CPU's mask bits and CR3 change together */
    vm_switch_to(as);
    arch_irq_restore(flags);
}

/* notrace: a part of every context switch, as switch_to itself (kernel/notrace.h). */
notrace void vm_switch_to(struct addr_space *as)
{
    if (as)
        tlb_load(&as->users, (uint32_t)virt_to_phys(as->directory));
    else
        tlb_load(0, vm_root(0));
}

uint32_t vm_root(const struct addr_space *as)
{
    return (uint32_t)virt_to_phys(as ? as->directory : paging_kernel_directory());
}

/* The PTE slot for a user address; NULL outside user space or where no page table is. */
static uint32_t *pte_find(const struct addr_space *as, uint32_t va)
{
    if (va < USER_BASE || va >= USER_TOP)
        return 0;
    uint32_t pde = as->directory[PDE_INDEX(va)];
    if (!(pde & PTE_PRESENT))
        return 0;
    return (uint32_t *)phys_to_virt(pde & PTE_ADDR_MASK) + PTE_INDEX(va);
}

/* pte_find, making the page table first if there is none; NULL without memory for it. A
 * page table is memory the process made the kernel take: it comes from the user pages
 * (never the kernel's reserve) and counts among the process's own. */
static uint32_t *pte_make(struct addr_space *as, uint32_t va)
{
    uint32_t *pte = pte_find(as, va);
    if (pte || va < USER_BASE || va >= USER_TOP)
        return pte;
    uintptr_t table = page_alloc_user(1);
    if (!table)
        return 0;
    as->owned_pages++;
    as->directory[PDE_INDEX(va)] =
        (uint32_t)virt_to_phys((void *)table) | PTE_PRESENT | PTE_WRITE | PTE_USER;
    return pte_find(as, va);
}

/* Puts the frame at physical address frame at va; the TLB entry is flushed in case as is
 * the current space. */
static int map_frame(struct addr_space *as, uint32_t va, uintptr_t frame, uint32_t extra)
{
    uint32_t *pte = pte_make(as, va);
    if (!pte)
        return -ENOMEM;
    if (pte_used(*pte))
        return -EEXIST;
    *pte = (uint32_t)frame | PTE_PRESENT | PTE_USER | extra;
    invlpg(va);
    return 0;
}

int vm_map_new(struct addr_space *as, uint32_t va, unsigned vm_flags)
{
    uint32_t frame;
    if (vm_flags & VM_SHARE_ON_FORK) {
        uintptr_t page = page_alloc_user(1); /* never the kernel's reserve */
        frame = page ? (uint32_t)virt_to_phys((void *)page) : 0;
    } else {
        frame = alloc_user_frame();
    }
    if (!frame)
        return -ENOMEM;
    int err = map_frame(as, va, frame,
                        ((vm_flags & VM_WRITE) ? PTE_WRITE : 0) |
                            ((vm_flags & VM_SHARE_ON_FORK) ? PTE_SHARE_ON_FORK : 0));
    if (err) {
        free_user_frame(frame);
        return err;
    }
    as->owned_pages++;
    return 0;
}

int vm_map_shared(struct addr_space *as, uint32_t va, uintptr_t phys, unsigned vm_flags)
{
    return map_frame(as, va, phys,
                     PTE_SHARED_FRAME | ((vm_flags & VM_DEVICE) ? PTE_DEVICE : 0) |
                         ((vm_flags & VM_WRITE) ? PTE_WRITE : PTE_SHARED_READ_ONLY));
}

void vm_unmap(struct addr_space *as, uint32_t va) { vm_unmap_range(as, va, 1); }

/* Three steps, so that a range costs one shootdown and no CPU can reach a freed frame: the
 * entries are made not present (marked PTE_UNMAPPING), every CPU with the space loaded
 * flushes the pages between the first and the last one taken, then the frames are given
 * back and the entries cleared. */
void vm_unmap_range(struct addr_space *as, uint32_t va, uint32_t pages)
{
    uint32_t first = 0, last = 0, taken = 0;
    if (mmiotrace_user_mappings)
        mmiotrace_user_unmapping(as, va, pages); /* UNMAP for a traced BAR among them */
    for (uint32_t i = 0; i < pages; i++) {
        uint32_t page = va + i * PAGE_SIZE, *pte = pte_find(as, page);
        if (!pte || !pte_used(*pte))
            continue;
        if (pte_locked(*pte))
            as->locked_pages--; /* munmap unlocks, as on Linux */
        *pte = (*pte & ~(PTE_PRESENT | PTE_PROT_NONE | PTE_LOCKED_PROT_NONE)) | PTE_UNMAPPING;
        if (!taken++)
            first = page;
        last = page;
    }
    if (!taken)
        return;
    tlb_flush_range(&as->users, first, (last - first) / PAGE_SIZE + 1);
    for (uint32_t page = first; page <= last && page >= first; page += PAGE_SIZE) {
        uint32_t *pte = pte_find(as, page);
        if (!pte || !(*pte & PTE_UNMAPPING))
            continue;
        if (release_frame(*pte))
            as->owned_pages--;
        *pte = 0;
    }
}

/* notrace: user_range_ok asks it for every page of every user pointer (notrace.h). */
notrace unsigned vm_rights(const struct addr_space *as, uint32_t va)
{
    uint32_t *pte = pte_find(as, va);
    if (!pte || (*pte & (PTE_PRESENT | PTE_USER)) != (PTE_PRESENT | PTE_USER))
        return 0;
    return VM_READ | ((*pte & PTE_WRITE) ? VM_WRITE : 0) |
           ((*pte & PTE_SHARED_FRAME) ? VM_SHARED : 0);
}

bool vm_page_private(const struct addr_space *as, uint32_t va)
{
    uint32_t *pte = pte_find(as, va);
    return pte && (*pte & (PTE_PRESENT | PTE_USER)) == (PTE_PRESENT | PTE_USER) &&
           !(*pte & (PTE_SHARED_FRAME | PTE_FRAME_NOTE));
}

void *vm_kmap(const struct addr_space *as, uint32_t va)
{
    uint32_t *pte = pte_find(as, va);
    if (!pte || !(*pte & PTE_PRESENT) || (*pte & PTE_DEVICE))
        return 0; /* (device memory is not in the direct map) */
    return (uint8_t *)kmap_frame(*pte & PTE_ADDR_MASK) + (va & (PAGE_SIZE - 1));
}

void vm_kunmap(void *p)
{
    if (p)
        kunmap_frame(p);
}

uint32_t vm_find_free(const struct addr_space *as, uint32_t npages, uint32_t from, uint32_t to)
{
    uint32_t run = 0;
    for (uint32_t va = from; va < to && va >= from; va += PAGE_SIZE) {
        uint32_t *pte = pte_find(as, va);
        run = (pte && pte_used(*pte)) ? 0 : run + 1;
        if (run == npages)
            return va - (npages - 1) * PAGE_SIZE;
    }
    return 0;
}

uint32_t vm_owned_pages(const struct addr_space *as) { return as->owned_pages; }

/* --- The calls of mprotect, madvise, mremap, brk and the stack (issue 16) --------------- */

struct vm_layout *vm_layout(struct addr_space *as) { return &as->layout; }

bool vm_page_used(const struct addr_space *as, uint32_t va)
{
    uint32_t *pte = pte_find(as, va);
    return pte && pte_used(*pte);
}

/* vm_protect of one page, without the flush; *changed says whether its entry changed. */
static int protect_page(struct addr_space *as, uint32_t va, unsigned vm_flags, bool *changed)
{
    uint32_t *pte = pte_find(as, va);
    if (!pte || !pte_used(*pte))
        return -ENOMEM;
    if ((vm_flags & VM_WRITE) && pte_lent_read_only(*pte))
        return -EACCES;
    uint32_t old = *pte,
             keep = old & (PTE_ADDR_MASK | PTE_SHARED_FRAME | PTE_FRAME_NOTE | PTE_DEVICE);
    if (!(vm_flags & (VM_READ | VM_WRITE)))
        *pte = keep | PTE_PROT_NONE;
    else
        *pte = keep | PTE_PRESENT | PTE_USER | ((vm_flags & VM_WRITE) ? PTE_WRITE : 0);
    *pte = pte_with_lock(*pte, pte_locked(old)); /* a locked page stays locked */
    if (pte_armed(old)) /* an armed page stays armed, with its new rights */
        *pte = (*pte & ~PTE_PRESENT) | PTE_PROT_NONE | PTE_ARMED;
    *changed = *pte != old;
    return 0;
}

int vm_protect(struct addr_space *as, uint32_t va, unsigned vm_flags)
{
    return vm_protect_range(as, va, 1, vm_flags);
}

/* Every changed entry is flushed, once for the range: an upgrade too, because a CPU still
 * holding the weaker entry would fault on the page, and a user fault here is a signal,
 * never a retry. */
int vm_protect_range(struct addr_space *as, uint32_t va, uint32_t pages, unsigned vm_flags)
{
    uint32_t first = 0, last = 0, changed_pages = 0;
    int err = 0;
    for (uint32_t i = 0; i < pages && !err; i++) {
        uint32_t page = va + i * PAGE_SIZE;
        bool changed = false;
        err = protect_page(as, page, vm_flags, &changed);
        if (changed) {
            if (!changed_pages++)
                first = page;
            last = page;
        }
    }
    if (changed_pages)
        tlb_flush_range(&as->users, first, (last - first) / PAGE_SIZE + 1);
    return err;
}

/* The entry stays as it is (the same frame, zeroed in place): no CPU needs a flush. */
int vm_zero_page(struct addr_space *as, uint32_t va)
{
    uint32_t *pte = pte_find(as, va);
    if (!pte || !pte_used(*pte))
        return -ENOMEM;
    /* A lent frame, or a MAP_SHARED one, keeps its contents: other users see them (Linux's
     * MADV_DONTNEED on a shared mapping drops only this mapping of the same memory). */
    if (!(*pte & PTE_SHARED_FRAME) && !pte_share_on_fork(*pte)) {
        void *p = kmap_frame(*pte & PTE_ADDR_MASK);
        memset(p, 0, PAGE_SIZE);
        kunmap_frame(p);
    }
    return 0;
}

/* Moves one page's entry from from to to, without the flush. */
static int move_page(struct addr_space *as, uint32_t from, uint32_t to)
{
    uint32_t *src = pte_find(as, from);
    if (!src || !pte_used(*src))
        return -EFAULT;
    uint32_t *dst = pte_make(as, to); /* may allocate: src is looked up again after */
    if (!dst)
        return -ENOMEM;
    if (pte_used(*dst))
        return -EEXIST;
    src = pte_find(as, from);
    *dst = *src;
    *src = 0;
    return 0;
}

/* One flush for the old range (the new one was not present: cached nowhere); after a
 * failure the pages went there and back, so both ranges are flushed. */
int vm_move_pages(struct addr_space *as, uint32_t from, uint32_t to, uint32_t pages)
{
    if (mmiotrace_user_mappings) /* a traced BAR that moves is no longer traced */
        mmiotrace_user_unmapping(as, from, pages);
    uint32_t moved = 0;
    int err = 0;
    while (moved < pages && !(err = move_page(as, from + moved * PAGE_SIZE, to + moved * PAGE_SIZE)))
        moved++;
    if (err)
        for (uint32_t back = 0; back < moved; back++)
            move_page(as, to + back * PAGE_SIZE, from + back * PAGE_SIZE);
    if (moved)
        tlb_flush_range(&as->users, from, moved);
    if (moved && err)
        tlb_flush_range(&as->users, to, moved);
    return err;
}

uint32_t vm_find_free_top_down(const struct addr_space *as, uint32_t npages, uint32_t from,
                               uint32_t to)
{
    uint32_t run = 0, run_top = to; /* free pages counted down from run_top */
    for (uint32_t va = to; va > from && va - from >= PAGE_SIZE;) {
        uint32_t pde = as->directory[PDE_INDEX(va - PAGE_SIZE)];
        if (!(pde & PTE_PRESENT) && (va & ((4u << 20) - 1)) == 0 && va - from >= (4u << 20)) {
            run += 1024, va -= 4u << 20; /* a whole 4 MiB without a page table: all free */
        } else {
            va -= PAGE_SIZE;
            uint32_t *pte = pte_find(as, va);
            if (pte && pte_used(*pte)) {
                run = 0, run_top = va;
                continue;
            }
            run++;
        }
        if (run >= npages)
            return run_top - npages * PAGE_SIZE;
    }
    return 0;
}

/* --- fork ---------------------------------------------------------------------------- */

/* Copies one used user PTE of the parent into the child at va, with the same bits
 * (present or PROT_NONE, writable, lent, shared): a lent frame is mapped again, a
 * MAP_SHARED anonymous one is shared and counted, a private page gets a fresh frame with
 * the same contents. */
static int clone_page(struct addr_space *child, uint32_t va, uint32_t pte)
{
    pte = pte_with_lock(pte, false); /* fork's copy is not locked (Linux's dup_mmap) */
    uint32_t frame = pte & PTE_ADDR_MASK, bits = pte & ~PTE_ADDR_MASK;
    if (pte_armed(pte)) /* the child's device pages are not traced: present, same rights */
        bits = (bits & ~(PTE_ARMED | PTE_PROT_NONE)) |
               ((bits & PTE_USER) ? PTE_PRESENT : PTE_PROT_NONE);
    bool own = !(pte & PTE_SHARED_FRAME), shared = pte_share_on_fork(pte);
    uint32_t copy = 0;
    if (shared && (!frame_users_ready() || !frame_get(frame)))
        return -ENOMEM;
    if (own && !shared) {
        copy = alloc_user_frame();
        if (!copy)
            return -ENOMEM;
        void *to = kmap_frame(copy), *from = kmap_frame(frame);
        memcpy(to, from, PAGE_SIZE);
        kunmap_frame(from);
        kunmap_frame(to);
        frame = copy;
    }
    uint32_t *slot = pte_make(child, va);
    if (!slot) {
        if (copy)
            free_user_frame(copy);
        if (shared)
            frame_put(frame);
        return -ENOMEM;
    }
    *slot = frame | bits;
    child->owned_pages += own;
    return 0;
}

struct addr_space *vm_clone(const struct addr_space *parent)
{
    struct addr_space *child = vm_create();
    if (!child)
        return 0;
    child->layout = parent->layout;
    child->layout.lock_future = false; /* mlockall(MCL_FUTURE) is not inherited */
    for (uint32_t i = PDE_INDEX(USER_BASE); i < PDE_INDEX(USER_TOP); i++) {
        uint32_t pde = parent->directory[i];
        if (!(pde & PTE_PRESENT))
            continue;
        const uint32_t *table = phys_to_virt(pde & PTE_ADDR_MASK);
        for (uint32_t j = 0; j < 1024; j++) {
            if (!pte_used(table[j]))
                continue;
            if (clone_page(child, (i << 22) | (j << 12), table[j]) != 0) {
                vm_destroy(child); /* gives back every page cloned so far */
                return 0;
            }
        }
    }
    return child;
}

/* --- mmiotrace of a program's device mappings (issue 23, arch/x86/mmiotrace_user.c) ---- */

void vm_arm_device_pages(struct addr_space *as, uint32_t va, uint32_t pages, bool arm)
{
    uint32_t changed = 0;
    for (uint32_t i = 0; i < pages; i++) {
        uint32_t *pte = pte_find(as, va + i * PAGE_SIZE);
        if (!pte || !pte_used(*pte) || (*pte & (PTE_SHARED_FRAME | PTE_DEVICE)) !=
                                           (PTE_SHARED_FRAME | PTE_DEVICE))
            continue;
        if (arm && !pte_armed(*pte)) {
            uint32_t rights = (*pte & PTE_PRESENT) ? (*pte & (PTE_USER | PTE_WRITE)) : 0;
            *pte = (*pte & ~(PTE_PRESENT | PTE_USER | PTE_WRITE | 0x020u /* accessed */ | PTE_ARMED /* dirty */)) |
                   rights | PTE_PROT_NONE | PTE_ARMED;
            changed++;
        } else if (!arm && pte_armed(*pte)) {
            *pte &= ~PTE_ARMED;
            if (*pte & PTE_USER)
                *pte = (*pte & ~PTE_PROT_NONE) | PTE_PRESENT;
        }
    }
    if (changed) /* present to armed: every CPU that may hold the entries forgets them */
        tlb_flush_range(&as->users, va, pages);
}

uint32_t *vm_armed_pte(const struct addr_space *as, uint32_t va)
{
    uint32_t *pte = pte_find(as, va);
    return pte && pte_armed(*pte) ? pte : 0;
}

uint32_t vm_step_pte(uint32_t armed, uintptr_t frame, bool device)
{
    return (uint32_t)frame | PTE_PRESENT | PTE_USER | (armed & PTE_WRITE) | PTE_SHARED_FRAME |
           (device ? PTE_DEVICE : 0);
}

/* --- mlock and /proc/PID/pagemap (issue 23) ------------------------------------------ */

/* Locks or unlocks one used entry (a lent frame stays as it is). The entry's bits change
 * by an atomic OR/AND: another CPU running a thread of the space may set the accessed or
 * dirty bit at the same time. The lock bit is the CPU's to ignore, so no TLB needs a
 * flush. */
static void lock_pte(struct addr_space *as, uint32_t *pte, void *lock)
{
    bool on = *(bool *)lock;
    if ((*pte & PTE_SHARED_FRAME) || pte_locked(*pte) == on)
        return;
    uint32_t bit = (*pte & PTE_PRESENT) ? PTE_LOCKED_PRESENT : PTE_LOCKED_PROT_NONE;
    if (on)
        __atomic_or_fetch(pte, bit, __ATOMIC_RELAXED);
    else
        __atomic_and_fetch(pte, ~bit, __ATOMIC_RELAXED);
    as->locked_pages += on ? 1 : (uint32_t)-1;
}

int vm_lock_range(struct addr_space *as, uint32_t va, uint32_t pages, bool lock)
{
    for (uint32_t i = 0; i < pages; i++) {
        uint32_t *pte = pte_find(as, va + i * PAGE_SIZE);
        if (!pte || !pte_used(*pte))
            return -ENOMEM;
        lock_pte(as, pte, &lock);
    }
    return 0;
}

bool vm_page_locked(const struct addr_space *as, uint32_t va)
{
    uint32_t *pte = pte_find(as, va);
    return pte && pte_used(*pte) && pte_locked(*pte);
}

uint32_t vm_locked_pages(const struct addr_space *as) { return as->locked_pages; }

uint32_t vm_pages_locked_in(const struct addr_space *as, uint32_t va, uint32_t pages)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < pages; i++)
        n += vm_page_locked(as, va + i * PAGE_SIZE);
    return n;
}

/* Linux's pte_to_pagemap_entry for what a page here can be: every used entry is present
 * (PROT_NONE too: Linux's pte_present is true for it); a page of the process's own is an
 * anonymous page, exclusive while no other space maps it; a MAP_SHARED anonymous page is
 * shmem, a file page to Linux (PM_FILE), exclusive while it is the only mapping; a lent
 * frame is as Linux's VM_PFNMAP (no struct page): neither. */
uint64_t vm_pagemap_entry(const struct addr_space *as, uint32_t va, bool show_pfn)
{
    uint32_t *pte = pte_find(as, va);
    if (!pte || !pte_used(*pte) || (*pte & PTE_UNMAPPING))
        return 0;
    uint32_t frame = *pte & PTE_ADDR_MASK;
    uint64_t entry = PAGEMAP_PRESENT | (show_pfn ? frame / PAGE_SIZE : 0);
    if (*pte & PTE_SHARED_FRAME)
        return entry;
    bool alone = true;
    if (pte_share_on_fork(*pte)) {
        entry |= PAGEMAP_FILE;
        if (frame_users) {
            unsigned long flags = spin_lock_irqsave(&frame_users_lock);
            alone = frame_users[frame / PAGE_SIZE] == 0;
            spin_unlock_irqrestore(&frame_users_lock, flags);
        }
    }
    return alone ? entry | PAGEMAP_EXCLUSIVE : entry;
}

/* Calls fn for the entry of every used user page (present, PROT_NONE), table by table. */
static void for_each_used_pte(const struct addr_space *as, void (*fn)(struct addr_space *,
                                                                      uint32_t *, void *),
                              void *arg)
{
    for (uint32_t i = PDE_INDEX(USER_BASE); i < PDE_INDEX(USER_TOP); i++) {
        uint32_t pde = as->directory[i];
        if (!(pde & PTE_PRESENT))
            continue;
        uint32_t *table = phys_to_virt(pde & PTE_ADDR_MASK);
        for (uint32_t j = 0; j < 1024; j++)
            if (pte_used(table[j]) && !(table[j] & PTE_UNMAPPING))
                fn((struct addr_space *)as, &table[j], arg);
    }
}

static void count_pte(struct addr_space *as, uint32_t *pte, void *count)
{
    (void)as, (void)pte;
    (*(uint32_t *)count)++;
}

uint32_t vm_mapped_pages(const struct addr_space *as)
{
    uint32_t count = 0;
    for_each_used_pte(as, count_pte, &count);
    return count;
}

void vm_lock_all(struct addr_space *as, bool lock)
{
    for_each_used_pte(as, lock_pte, &lock);
}
