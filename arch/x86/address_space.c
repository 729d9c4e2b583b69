/*
 * address_space.c - kernel/mm/vm.h on x86: one page directory per process.
 *
 * The directory's kernel entries are copied from the kernel's directory when the process is
 * created. That is enough for them to stay right forever, because the kernel never adds a
 * directory entry later: low memory's page tables and the ioremap window's are all created
 * at boot (paging_init). User page tables are the process's own.
 */
#include "kernel/mm/vm.h"

#include "arch/x86/cpu.h"
#include "arch/x86/gdt.h"
#include "arch/x86/paging.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/lib/string.h"
#include "kernel/spinlock.h"

/* An available PTE bit: the frame is not the process's to free. */
#define PTE_SHARED_FRAME 0x200u
/* Another: a MAP_SHARED anonymous page, which fork shares instead of copying. Its frame
 * has a count of users in frame_users; the last one to unmap it frees it. */
#define PTE_SHARE_ON_FORK 0x400u

#define PDE_INDEX(va) ((va) >> 22)
#define PTE_INDEX(va) (((va) >> 12) & 0x3ff)

struct addr_space {
    uint32_t *directory; /* physical == virtual (identity-mapped low memory) */
    uint32_t owned_pages;
};

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

/* Gives up the frame a present PTE maps, as its owner: freed unless it belongs to someone
 * else (PTE_SHARED_FRAME) or another space still shares it. True when it counted among
 * the owner's pages. */
static bool release_frame(uint32_t pte)
{
    if (pte & PTE_SHARED_FRAME)
        return false;
    uint32_t frame = pte & PTE_ADDR_MASK;
    if (!(pte & PTE_SHARE_ON_FORK) || frame_put(frame))
        page_free(frame, 1);
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
    const uint32_t *kernel = paging_kernel_directory();
    for (uint32_t i = 0; i < 1024; i++)
        if (i < PDE_INDEX(USER_BASE) || i >= PDE_INDEX(USER_TOP))
            as->directory[i] = kernel[i];
    return as;
}

void vm_destroy(struct addr_space *as)
{
    for (uint32_t i = PDE_INDEX(USER_BASE); i < PDE_INDEX(USER_TOP); i++) {
        uint32_t pde = as->directory[i];
        if (!(pde & PTE_PRESENT))
            continue;
        uint32_t *table = (uint32_t *)(uintptr_t)(pde & PTE_ADDR_MASK);
        for (int j = 0; j < 1024; j++)
            if (table[j] & PTE_PRESENT)
                release_frame(table[j]);
        page_free((uintptr_t)table, 1);
    }
    page_free((uintptr_t)as->directory, 1);
    kfree(as);
}

void vm_activate(struct addr_space *as)
{
    uint32_t root = vm_root(as);
    if (read_cr3() != root)
        write_cr3(root);
    /* A hardware task switch back from the int3 snapshot task loads CR3 from the main TSS
     * (the CPU never saves it there): keep that copy equal to the real one. */
    main_tss.cr3 = root;
}

uint32_t vm_root(const struct addr_space *as)
{
    return (uint32_t)(uintptr_t)(as ? as->directory : paging_kernel_directory());
}

/* The PTE slot for a user address; NULL outside user space or where no page table is. */
static uint32_t *pte_find(const struct addr_space *as, uint32_t va)
{
    if (va < USER_BASE || va >= USER_TOP)
        return 0;
    uint32_t pde = as->directory[PDE_INDEX(va)];
    if (!(pde & PTE_PRESENT))
        return 0;
    return (uint32_t *)(uintptr_t)(pde & PTE_ADDR_MASK) + PTE_INDEX(va);
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
    as->directory[PDE_INDEX(va)] = (uint32_t)table | PTE_PRESENT | PTE_WRITE | PTE_USER;
    return pte_find(as, va);
}

/* Puts frame at va; the TLB entry is flushed in case as is the current space. */
static int map_frame(struct addr_space *as, uint32_t va, uintptr_t frame, uint32_t extra)
{
    uint32_t *pte = pte_make(as, va);
    if (!pte)
        return -ENOMEM;
    if (*pte & PTE_PRESENT)
        return -EEXIST;
    *pte = (uint32_t)frame | PTE_PRESENT | PTE_USER | extra;
    invlpg(va);
    return 0;
}

int vm_map_new(struct addr_space *as, uint32_t va, unsigned vm_flags)
{
    uintptr_t frame = page_alloc_user(1); /* never the kernel's reserve */
    if (!frame)
        return -ENOMEM;
    int err = map_frame(as, va, frame, ((vm_flags & VM_WRITE) ? PTE_WRITE : 0) |
                                       ((vm_flags & VM_SHARE_ON_FORK) ? PTE_SHARE_ON_FORK : 0));
    if (err) {
        page_free(frame, 1);
        return err;
    }
    as->owned_pages++;
    return 0;
}

int vm_map_shared(struct addr_space *as, uint32_t va, uintptr_t phys, unsigned vm_flags)
{
    return map_frame(as, va, phys,
                     PTE_SHARED_FRAME | ((vm_flags & VM_WRITE) ? PTE_WRITE : 0));
}

void vm_unmap(struct addr_space *as, uint32_t va)
{
    uint32_t *pte = pte_find(as, va);
    if (!pte || !(*pte & PTE_PRESENT))
        return;
    if (release_frame(*pte))
        as->owned_pages--;
    *pte = 0;
    invlpg(va);
}

unsigned vm_rights(const struct addr_space *as, uint32_t va)
{
    uint32_t *pte = pte_find(as, va);
    if (!pte || (*pte & (PTE_PRESENT | PTE_USER)) != (PTE_PRESENT | PTE_USER))
        return 0;
    return VM_READ | ((*pte & PTE_WRITE) ? VM_WRITE : 0) |
           ((*pte & PTE_SHARED_FRAME) ? VM_SHARED : 0);
}

void *vm_kernel_ptr(const struct addr_space *as, uint32_t va)
{
    uint32_t *pte = pte_find(as, va);
    if (!pte || !(*pte & PTE_PRESENT))
        return 0;
    return (void *)(uintptr_t)((*pte & PTE_ADDR_MASK) | (va & (PAGE_SIZE - 1)));
}

uint32_t vm_find_free(const struct addr_space *as, uint32_t npages, uint32_t from, uint32_t to)
{
    uint32_t run = 0;
    for (uint32_t va = from; va < to && va >= from; va += PAGE_SIZE) {
        uint32_t *pte = pte_find(as, va);
        run = (pte && (*pte & PTE_PRESENT)) ? 0 : run + 1;
        if (run == npages)
            return va - (npages - 1) * PAGE_SIZE;
    }
    return 0;
}

uint32_t vm_owned_pages(const struct addr_space *as) { return as->owned_pages; }

/* Copies one present user PTE of the parent into the child's table at va: a page shared
 * with the file or another space stays shared (counted for PTE_SHARE_ON_FORK), a private
 * page gets a fresh frame with the same contents. */
static int clone_page(struct addr_space *child, uint32_t va, uint32_t pte)
{
    uint32_t rights = pte & (PTE_WRITE | PTE_SHARED_FRAME | PTE_SHARE_ON_FORK);
    uint32_t frame = pte & PTE_ADDR_MASK;
    if (pte & PTE_SHARED_FRAME)
        return map_frame(child, va, frame, rights);
    if (pte & PTE_SHARE_ON_FORK) {
        if (!frame_users_ready() || !frame_get(frame))
            return -ENOMEM;
        int err = map_frame(child, va, frame, rights);
        if (err)
            frame_put(frame);
        else
            child->owned_pages++;
        return err;
    }
    uintptr_t copy = page_alloc_user(1);
    if (!copy)
        return -ENOMEM;
    memcpy((void *)copy, (const void *)(uintptr_t)frame, PAGE_SIZE);
    int err = map_frame(child, va, copy, rights);
    if (err) {
        page_free(copy, 1);
        return err;
    }
    child->owned_pages++;
    return 0;
}

struct addr_space *vm_clone(const struct addr_space *parent)
{
    struct addr_space *child = vm_create();
    if (!child)
        return 0;
    for (uint32_t i = PDE_INDEX(USER_BASE); i < PDE_INDEX(USER_TOP); i++) {
        uint32_t pde = parent->directory[i];
        if (!(pde & PTE_PRESENT))
            continue;
        const uint32_t *table = (const uint32_t *)(uintptr_t)(pde & PTE_ADDR_MASK);
        for (uint32_t j = 0; j < 1024; j++) {
            if (!(table[j] & PTE_PRESENT))
                continue;
            if (clone_page(child, (i << 22) | (j << 12), table[j]) != 0) {
                vm_destroy(child); /* gives back every page cloned so far */
                return 0;
            }
        }
    }
    return child;
}
