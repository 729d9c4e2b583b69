/*
 * address_space.h - what an x86 address space is (kernel/mm/vm.h's struct addr_space,
 * opaque to the portable kernel): its own page directory and the CPUs that have it loaded.
 * address_space.c keeps it; the task switch (task_arch.c) reads the directory and the mask
 * itself, so that the switch between two processes is one function without calls.
 */
#ifndef ARCH_X86_ADDRESS_SPACE_H
#define ARCH_X86_ADDRESS_SPACE_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/x86/paging.h"
#include "arch/x86/tlb_shootdown.h"
#include "kernel/mm/vm.h"

struct addr_space {
    uint32_t *directory; /* its kernel address (direct map); CR3 gets virt_to_phys of it */
    uint32_t owned_pages;
    uint32_t locked_pages; /* pages whose entry is locked (pte_locked): VmLck, mlock's limit */
    struct vm_layout layout; /* brk and stack bookkeeping (kernel/mm/vm.h) */
    struct tlb_users users;  /* the CPUs that have directory loaded */
    struct kernel_entries_copy kernel_copy; /* its kernel entries, kept the kernel's (paging.h) */
};

/* mmiotrace of a program's mapping of a BAR (arch/x86/mmiotrace_user.c). */
/* Arms (not present, frame and rights kept: address_space.c's PTE_ARMED) or disarms the
 * device pages (vm_map_shared with VM_DEVICE) of [va, va + pages * PAGE_SIZE); other
 * pages are left alone. Arming flushes the range on every CPU with as loaded. */
void vm_arm_device_pages(struct addr_space *as, uint32_t va, uint32_t pages, bool arm);
/* The entry of the armed page holding va, or NULL. */
uint32_t *vm_armed_pte(const struct addr_space *as, uint32_t va);
/* The present entry a step shows instead of armed entry armed: frame (the shadow's RAM,
 * or the device page itself with device true, uncached), ring 3, writable when the page
 * is, and never freed. */
uint32_t vm_step_pte(uint32_t armed, uintptr_t frame, bool device);

#endif
