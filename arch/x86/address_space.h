/*
 * address_space.h - what an x86 address space is (kernel/mm/vm.h's struct addr_space,
 * opaque to the portable kernel): its own page directory and the CPUs that have it loaded.
 * address_space.c keeps it; the task switch (task_arch.c) reads the directory and the mask
 * itself, so that the switch between two processes is one function without calls.
 */
#ifndef ARCH_X86_ADDRESS_SPACE_H
#define ARCH_X86_ADDRESS_SPACE_H

#include <stdint.h>

#include "arch/x86/tlb_shootdown.h"
#include "kernel/mm/vm.h"

struct addr_space {
    uint32_t *directory; /* its kernel address (direct map); CR3 gets virt_to_phys of it */
    uint32_t owned_pages;
    uint32_t locked_pages; /* pages whose entry is locked (pte_locked): VmLck, mlock's limit */
    struct vm_layout layout; /* brk and stack bookkeeping (kernel/mm/vm.h) */
    struct tlb_users users;  /* the CPUs that have directory loaded */
};

#endif
