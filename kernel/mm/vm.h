/*
 * vm.h - address spaces of user processes.
 *
 * Every process has its own page directory. Its kernel half is shared: the directory
 * entries below USER_BASE (the kernel's identity-mapped low memory) and from USER_TOP up
 * (the ioremap window) point at the kernel's own page tables, so the kernel is mapped the
 * same way in every process, for the kernel only. Between USER_BASE and USER_TOP each
 * process has pages of its own, mapped for ring 3. Portable code sees only this interface;
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

/* The VM_* rights of the page holding va, 0 when it is not mapped for the user. */
unsigned vm_rights(const struct addr_space *as, uint32_t va);
/* A kernel pointer to the byte at user address va (of any process), or NULL when the page is
 * not mapped. Low memory is identity-mapped, so this is the frame's physical address. */
void *vm_kernel_ptr(const struct addr_space *as, uint32_t va);

/* Finds npages consecutive unmapped pages in [from, to); returns the first's address or 0. */
uint32_t vm_find_free(const struct addr_space *as, uint32_t npages, uint32_t from, uint32_t to);

/* How many pages the process owns (not counting shared ones): for `ps` and leak tests. */
uint32_t vm_owned_pages(const struct addr_space *as);

#endif
