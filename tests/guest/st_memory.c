/*
 * st_memory.c - self-tests of physical pages, the heap, paging and ioremap.
 */
#include "arch/x86/paging.h"
#include "kernel/arch.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/ioremap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/vm.h"
#include "arch/x86/address_space.h"
#include "kernel/proc/task_internal.h"
#include "kernel/selftest.h"
#include "kernel/lib/string.h"

extern char boot_stack_guard[];

SELFTEST(page_alloc)
{
    uint32_t free_before = page_alloc_free_pages();
    uintptr_t one = page_alloc(1);
    uintptr_t four = page_alloc(4);
    ST_CHECK(one && four);
    ST_CHECK(one % PAGE_SIZE == 0 && four % PAGE_SIZE == 0);
    ST_CHECK(one != four);
    ST_CHECK(page_alloc_free_pages() == free_before - 5);
    /* Pages come zeroed and are ours: fill them, and the other allocation stays intact. */
    bool zero = true;
    for (uint32_t i = 0; i < 4 * PAGE_SIZE; i++)
        zero &= ((uint8_t *)four)[i] == 0;
    ST_CHECK(zero);
    memset((void *)one, 0xa5, PAGE_SIZE);
    memset((void *)four, 0x5a, 4 * PAGE_SIZE);
    ST_CHECK(((uint8_t *)one)[PAGE_SIZE - 1] == 0xa5);
    page_free(one, 1);
    page_free(four, 4);
    ST_CHECK(page_alloc_free_pages() == free_before);
    ST_CHECK(page_alloc(page_alloc_free_pages() + 1) == 0); /* more than exists: refused */
    ST_CHECK(page_alloc_free_pages() == free_before);
    /* A program's request may take everything but the reserve, never part of it. */
    uint32_t spare = free_before - PAGE_KERNEL_RESERVE;
    ST_CHECK(page_alloc_leaves_reserve(spare));
    ST_CHECK(!page_alloc_leaves_reserve(spare + 1));
    ST_CHECK(!page_alloc_leaves_reserve((uint64_t)1 << 32));
    ST_CHECK(page_alloc_user(spare + 1) == 0);
    ST_CHECK(page_alloc_free_pages() == free_before);
}

SELFTEST(heap)
{
    struct heap_stats before, after;
    heap_get_stats(&before);
    void *ptrs[64];
    for (int i = 0; i < 64; i++) {
        ptrs[i] = kmalloc((size_t)(1 + i * 37));
        ST_CHECK(ptrs[i] != 0);
        ST_CHECK(((uintptr_t)ptrs[i] & (HEAP_ALIGN - 1)) == 0);
        memset(ptrs[i], i, (size_t)(1 + i * 37));
    }
    for (int i = 0; i < 64; i++) {
        bool intact = true;
        for (int j = 0; j < 1 + i * 37; j++)
            intact &= ((uint8_t *)ptrs[i])[j] == (uint8_t)i;
        ST_CHECK(intact);
    }
    for (int i = 0; i < 64; i += 2)
        kfree(ptrs[i]);
    for (int i = 1; i < 64; i += 2)
        kfree(ptrs[i]);
    heap_check();
    heap_get_stats(&after);
    ST_CHECK(after.allocations == before.allocations);
    ST_CHECK(after.used_bytes == before.used_bytes);
    /* A large allocation grows the heap with a chunk of its own. */
    void *big = kzalloc(300 * 1024);
    ST_CHECK(big != 0);
    kfree(big);
    ST_CHECK(kmalloc(0) == 0);
}

/* The layout paging_init promises: NULL and the stack guard unmapped, the kernel mapped. */
SELFTEST(paging_layout)
{
    ST_CHECK(!paging_is_mapped(0));
    ST_CHECK(!paging_is_mapped(KERNEL_BASE)); /* phys_to_virt(0) */
    ST_CHECK(!paging_is_mapped(0x100000)); /* the kernel's physical address is user space */
    ST_CHECK((uintptr_t)&paging_init >= KERNEL_BASE);
    ST_CHECK(virt_to_phys(phys_to_virt(0x123000)) == 0x123000);
    ST_CHECK(!paging_is_mapped((uintptr_t)boot_stack_guard));
    ST_CHECK(paging_is_mapped((uintptr_t)boot_stack_guard + PAGE_SIZE));
    ST_CHECK(paging_is_mapped((uintptr_t)&paging_init));
    ST_CHECK((paging_get_pte((uintptr_t)&paging_init) & PTE_USER) == 0);
}

/* The direct map's 4 MiB pages (paging.c): the entry a page table would hold is read
 * through one; unmapping a page splits it into a page table in the kernel's directory and
 * in an address space made before (a registered copy), the other 1,023 pages keep their
 * frames, and mapping the page again maps it. Interrupts stay off while the page is
 * unmapped: it is a free page near the top of RAM, but a handler must not meet the hole. */
SELFTEST(direct_map_large_pages)
{
    const uint32_t *kernel = paging_kernel_directory();
    uint32_t slot = 0;
    for (uint32_t i = (KERNEL_BASE >> 22) + 1; i < ((KERNEL_BASE + LOWMEM_LIMIT) >> 22); i++)
        if (kernel[i] & PDE_LARGE)
            slot = i; /* the highest: the least likely to hold anything */
    if (!(arch_hwcap() & (1u << 3))) {
        ST_CHECK(slot == 0); /* no PSE: page tables only */
        return;
    }
    ST_CHECK(slot != 0);
    if (!slot)
        return;
    uintptr_t va = ((uintptr_t)slot << 22) + 1023 * PAGE_SIZE; /* its last page */
    uintptr_t below = va - PAGE_SIZE;
    ST_CHECK(paging_get_pte(below) == ((uint32_t)virt_to_phys((void *)below) | PTE_PRESENT |
                                       PTE_WRITE | (paging_get_pte(below) & 0x60u)));
    struct addr_space *as = vm_create();
    ST_CHECK(as && as->directory[slot] == kernel[slot]);
    if (!as)
        return;
    unsigned long flags = arch_irq_save();
    paging_set_pte(va, 0, 0);
    bool split = !(kernel[slot] & PDE_LARGE) && (kernel[slot] & PTE_PRESENT);
    bool copied = as->directory[slot] == kernel[slot];
    bool hole = !paging_is_mapped(va);
    uint32_t neighbour = paging_get_pte(below) & PTE_ADDR_MASK;
    uint32_t first = paging_get_pte((uintptr_t)slot << 22) & PTE_ADDR_MASK;
    paging_set_pte(va, virt_to_phys((void *)va), PTE_PRESENT | PTE_WRITE);
    arch_irq_restore(flags);
    ST_CHECK(split && copied && hole);
    ST_CHECK(neighbour == virt_to_phys((void *)below));
    ST_CHECK(first == virt_to_phys((void *)((uintptr_t)slot << 22)));
    ST_CHECK(paging_is_mapped(va));
    vm_destroy(as);
}

/* A task's kernel stack has its lowest page unmapped, in the kernel's directory and in
 * every address space: a split 4 MiB page leaves no mapping of the guard behind. */
SELFTEST(kernel_stack_guard)
{
    struct task *t = task_alloc("st_guard");
    ST_CHECK(t != 0);
    if (!t)
        return;
    struct addr_space *as = vm_create();
    ST_CHECK(!paging_is_mapped(t->kstack));
    ST_CHECK(paging_is_mapped(t->kstack + PAGE_SIZE));
    uint32_t slot = t->kstack >> 22;
    ST_CHECK(as && as->directory[slot] == paging_kernel_directory()[slot]);
    ST_CHECK(!(paging_kernel_directory()[slot] & PDE_LARGE));
    if (as)
        vm_destroy(as);
    uintptr_t kstack = t->kstack;
    task_free(t);
    ST_CHECK(paging_is_mapped(kstack)); /* a freed stack's guard page is mapped again */
}

static void read_byte(void *addr) { (void)*(volatile uint8_t *)addr; }

SELFTEST(ioremap)
{
    /* Map an ordinary RAM page as if it were a device: writes through the uncached mapping
     * must land in the page, the PTE must say uncached, and after iounmap the address must
     * fault. */
    uintptr_t page = page_alloc(1);
    ST_CHECK(page != 0);
    volatile uint32_t *regs = ioremap(virt_to_phys((void *)page) + 0x10, 8);
    ST_CHECK(regs != 0);
    ST_CHECK(((uintptr_t)regs & (PAGE_SIZE - 1)) == 0x10);
    ST_CHECK((uintptr_t)regs >= IOREMAP_BASE && (uintptr_t)regs < IOREMAP_BASE + IOREMAP_SIZE);
    uint32_t pte = paging_get_pte((uintptr_t)regs);
    ST_CHECK((pte & PTE_CACHE_DISABLE) && (pte & PTE_WRITE_THROUGH) && (pte & PTE_PRESENT));
    regs[0] = 0x12345678;
    ST_CHECK(*(uint32_t *)(page + 0x10) == 0x12345678);
    const struct io_mapping *m = ioremap_find((uintptr_t)regs);
    ST_CHECK(m && m->phys == virt_to_phys((void *)page) + 0x10 && m->size == 8);

    /* Two mappings get different ids and different pages. */
    void *second = ioremap(virt_to_phys((void *)page), PAGE_SIZE);
    ST_CHECK(second && (PAGE_ALIGN_DOWN((uintptr_t)second) != PAGE_ALIGN_DOWN((uintptr_t)regs)));
    ST_CHECK(ioremap_find((uintptr_t)second)->id != m->id);
    iounmap(second);

    /* The page table of owners (issue 24): every page of a three-page mapping finds it, the
     * byte after it does not, and unmapping the oldest of three (the middle of the list)
     * leaves the other two found and the list whole. */
    uintptr_t three = page_alloc(3);
    ST_CHECK(three != 0);
    char *big = ioremap(virt_to_phys((void *)three) + 0x800, 2 * PAGE_SIZE);
    void *newer = ioremap(virt_to_phys((void *)page), PAGE_SIZE);
    ST_CHECK(big && newer);
    const struct io_mapping *bm = ioremap_find((uintptr_t)big);
    ST_CHECK(bm && ioremap_page_count(bm) == 3);
    ST_CHECK(ioremap_find(ioremap_first_page(bm) + 2 * PAGE_SIZE + 0xfff) == bm);
    ST_CHECK(ioremap_find(ioremap_first_page(bm) + 3 * PAGE_SIZE) != bm);
    ST_CHECK(ioremap_find(IOREMAP_BASE - 1) == 0 && ioremap_find(IOREMAP_BASE + IOREMAP_SIZE) == 0);
    iounmap(big);
    ST_CHECK(ioremap_find((uintptr_t)big) == 0);
    ST_CHECK(ioremap_find((uintptr_t)newer) && ioremap_find((uintptr_t)regs) == m);
    int live = 0;
    for (const struct io_mapping *l = ioremap_list(); l; l = l->next)
        live += l == m || l == ioremap_find((uintptr_t)newer);
    ST_CHECK(live == 2);
    iounmap(newer);
    page_free(three, 3);

    iounmap((void *)regs);
    ST_CHECK(ioremap_find((uintptr_t)regs) == 0);
    struct caught_fault f;
    ST_CHECK(arch_call_catching_faults(read_byte, (void *)regs, &f));
    ST_CHECK(f.vector == 14 && f.cr2 == (uintptr_t)regs);
    ST_CHECK(ioremap(0, 0) == 0);
    ST_CHECK(ioremap(0xfffff000ull, 0x2000) == 0); /* beyond 4 GiB */
    page_free(page, 1);
}
