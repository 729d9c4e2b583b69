/*
 * vm.h - address spaces of user processes.
 *
 * Every process has its own page directory. Its kernel half is shared: the directory
 * entries from USER_TOP (0xC0000000) up, the kernel's direct map of RAM and the ioremap
 * window, point at the kernel's own page tables, so the kernel is mapped the same way in
 * every process, for the kernel only (Linux i386's 3G/1G split, docs/memory.md). Below
 * USER_TOP each process has pages of its own, mapped for ring 3 from USER_BASE up; nothing
 * is ever mapped below USER_BASE. Portable code sees only this interface;
 * arch/x86/address_space.c implements it with x86 page tables.
 */
#ifndef KERNEL_MM_VM_H
#define KERNEL_MM_VM_H

#include <stdbool.h>
#include <stdint.h>

#include "uapi/syscall.h"

struct addr_space;

/* What a process may do with one of its pages. */
#define VM_READ 0x1
#define VM_WRITE 0x2
#define VM_SHARED 0x4 /* the frame belongs to someone else: unmapping does not free it */
#define VM_SHARE_ON_FORK 0x8 /* vm_map_new: a MAP_SHARED anonymous page, which fork's
                              * copy shares; its frame is freed when the last space that
                              * maps it unmaps it */
#define VM_DEVICE 0x10 /* vm_map_shared: device memory (a PCI BAR), mapped uncached */

/* Once at boot, when memory is known (arch_tasks_ready): the table of shared frames. */
void vm_init(void);
/* A new address space with no user pages (NULL when out of memory). */
struct addr_space *vm_create(void);
/* Frees every page the process owns, its page tables and its directory. The caller must
 * not be running on it (vm_activate(NULL) first). */
void vm_destroy(struct addr_space *as);
/* fork: a new address space with a copy of every user page of parent: private pages are
 * copied, VM_SHARE_ON_FORK pages and pages owned elsewhere (file mappings) are mapped to
 * the same frames. NULL when memory runs out (nothing is left allocated). */
struct addr_space *vm_clone(const struct addr_space *parent);
/* Makes as the current address space (NULL: the kernel's alone). */
void vm_activate(struct addr_space *as);
/* vm_activate for a task switch, which runs with interrupts off already: without saving
 * and restoring them. Interrupts must be off. */
void vm_switch_to(struct addr_space *as);
/* The value the CPU's page-directory register holds for as (NULL: the kernel's). */
uint32_t vm_root(const struct addr_space *as);

/* Maps a fresh zeroed page at the page-aligned user address va: 0, -ENOMEM (also when only
 * the kernel's reserve of free pages is left), or -EEXIST when something is mapped there
 * already. */
int vm_map_new(struct addr_space *as, uint32_t va, unsigned vm_flags);
/* Maps the physical page phys (owned elsewhere: never freed here) at va. Same results. */
int vm_map_shared(struct addr_space *as, uint32_t va, uintptr_t phys, unsigned vm_flags);
/* Unmaps the page at va (nothing if none), freeing the frame unless it is shared. */
void vm_unmap(struct addr_space *as, uint32_t va);
/* vm_unmap of the pages [va, va + pages * PAGE_SIZE), with one TLB shootdown for them all
 * (munmap): when it returns, no CPU can reach any of them. */
void vm_unmap_range(struct addr_space *as, uint32_t va, uint32_t pages);

/* The VM_* rights of the page holding va, 0 when it is not mapped for the user (or is
 * PROT_NONE). */
unsigned vm_rights(const struct addr_space *as, uint32_t va);
/* uprobes (issue 18): true when the page holding va is mapped for the user and is the
 * process's alone (not a frame lent by someone else, not a MAP_SHARED page): what the
 * kernel may change for this process without touching anyone else's memory. */
bool vm_page_private(const struct addr_space *as, uint32_t va);
/* A kernel pointer to the byte at user address va (of any process), or NULL when the page is
 * not mapped: the frame's address in the direct map, or in a temporary mapping for a frame
 * in high memory (arch/x86/kmap.h: its rules hold until vm_kunmap). Valid within that one
 * page; give it back with vm_kunmap (of any pointer into the page) before mapping another
 * that is not nested in it, sleeping, or returning to user space. */
void *vm_kmap(const struct addr_space *as, uint32_t va);
/* Ends what vm_kmap gave (NULL: nothing). */
void vm_kunmap(void *p);

/* Finds npages consecutive free pages (not used, see vm_page_used) in [from, to); returns
 * the first's address or 0. */
uint32_t vm_find_free(const struct addr_space *as, uint32_t npages, uint32_t from, uint32_t to);

/* How many pages the process owns (not counting shared ones): for `ps` and leak tests. */
uint32_t vm_owned_pages(const struct addr_space *as);

/* --- mprotect, madvise, mremap, brk and the stack (issue 16) ---------------------------- */

/* Where the program's heap and stack are, as Linux's mm_struct keeps it: the loader sets it
 * (kernel/proc/exec.c), brk and stack growth (kernel/mm/user_layout.c) change it. A copy of
 * an address space (fork) copies it too. */
struct vm_layout {
    uint32_t start_brk; /* the page-aligned end of the image: the heap starts here */
    uint32_t brk;       /* the break as the program last set it (not page-aligned) */
    uint32_t stack_low; /* the lowest page of the stack mapped so far */
    /* busybox (issue 16): where the loader put the argument and environment strings, as
     * Linux's mm->arg_start ... env_end (/proc/PID/cmdline and stat read them). */
    uint32_t arg_start, arg_end, env_start, env_end;
    /* mlockall(MCL_FUTURE) (issue 23): every page mapped from now on is locked (Linux's
     * mm->def_flags VM_LOCKED). Neither fork (vm_clone clears it) nor exec keeps it. */
    bool lock_future;
};
struct vm_layout *vm_layout(struct addr_space *as);

/* True when the page at va belongs to the process, accessible or not (PROT_NONE). */
bool vm_page_used(const struct addr_space *as, uint32_t va);
/* Gives the page at va new rights: VM_READ and/or VM_WRITE, or neither (PROT_NONE: the page
 * stays the process's, but every access faults). 0, -ENOMEM when nothing is there, or
 * -EACCES for write on a frame vm_map_shared lent read-only (whatever rights it had since). */
int vm_protect(struct addr_space *as, uint32_t va, unsigned vm_flags);
/* vm_protect of the pages [va, va + pages * PAGE_SIZE) in order, with one TLB shootdown for
 * them all (mprotect); it stops at the first page that fails, with that page's error: the
 * pages before it keep their new rights. */
int vm_protect_range(struct addr_space *as, uint32_t va, uint32_t pages, unsigned vm_flags);
/* Zero-fills the process's own page at va (MADV_DONTNEED on private anonymous memory);
 * a shared frame is left alone. 0, or -ENOMEM when nothing is there. */
int vm_zero_page(struct addr_space *as, uint32_t va);
/* Moves the pages at [from, from + pages * PAGE_SIZE) (frames and rights) to the same
 * number at to, which must be free, with one TLB shootdown for them all (mremap): 0, or
 * all of them stay where they were and the result is -EFAULT (nothing at a page of from),
 * -EEXIST (something at a page of to) or -ENOMEM (no memory for a page table). */
int vm_move_pages(struct addr_space *as, uint32_t from, uint32_t to, uint32_t pages);
/* vm_find_free from the top: the highest npages free pages in [from, to), or 0. */
uint32_t vm_find_free_top_down(const struct addr_space *as, uint32_t npages, uint32_t from,
                               uint32_t to);

/* --- mlock and /proc/PID/pagemap (issue 23) ------------------------------------------ */

/* Locks (lock: true) or unlocks the pages [va, va + pages * PAGE_SIZE) in order, each as
 * Linux's VM_LOCKED: tracekern never swaps, migrates or drops a page, so a locked page
 * differs only in what the calls below, madvise and mremap do with it. A frame lent by
 * someone else (a file's page) is left as it is, as Linux leaves VM_PFNMAP/VM_IO
 * mappings. 0, or -ENOMEM at the first page that is not the process's: the pages before
 * it keep their new state (Linux's apply_vma_lock_flags). Unmapping a page unlocks it; a
 * moved page (vm_move_pages) stays locked; fork's copy has no locked page. */
int vm_lock_range(struct addr_space *as, uint32_t va, uint32_t pages, bool lock);
/* True when the page at va is the process's and locked. */
bool vm_page_locked(const struct addr_space *as, uint32_t va);
/* How many of the process's pages are locked (Linux's mm->locked_vm): /proc/PID/status's
 * VmLck, and what RLIMIT_MEMLOCK bounds. */
uint32_t vm_locked_pages(const struct addr_space *as);
/* How many of the pages [va, va + pages * PAGE_SIZE) are locked already. */
uint32_t vm_pages_locked_in(const struct addr_space *as, uint32_t va, uint32_t pages);

/* vm_lock_range of every page the process has (mlockall, munlockall). */
void vm_lock_all(struct addr_space *as, bool lock);
/* How many pages are mapped in the process, its own and lent ones (Linux's total_vm,
 * which mlockall(MCL_CURRENT) checks against RLIMIT_MEMLOCK). */
uint32_t vm_mapped_pages(const struct addr_space *as);

/* /proc/PID/pagemap's 64-bit entry for the page at va, in Linux's layout
 * (Documentation/admin-guide/mm/pagemap.rst): bit 63 present, 62 swapped (never here), 61
 * a file page or shared anonymous memory, 56 mapped by this process alone, 55 soft-dirty
 * (never on i386, which has no soft-dirty bit), 0-54 the frame number, 0 unless show_pfn.
 * 0 when nothing is mapped there. */
#define PAGEMAP_PRESENT (1ull << 63)
#define PAGEMAP_SWAPPED (1ull << 62)
#define PAGEMAP_FILE (1ull << 61)
#define PAGEMAP_EXCLUSIVE (1ull << 56)
#define PAGEMAP_SOFT_DIRTY (1ull << 55)
#define PAGEMAP_PFN_MASK ((1ull << 55) - 1)
uint64_t vm_pagemap_entry(const struct addr_space *as, uint32_t va, bool show_pfn);

#endif
