/*
 * user_mem.c - the stack's growth and the free-range test the memory calls share.
 *
 * There are no VMAs: a page belongs to a process when its page table says so
 * (vm_page_used), and the only shape kept besides is vm_layout (brk, the stack's lowest
 * page). On one CPU, with processes of one thread, nothing changes a page table while a
 * system call or a fault of that process looks at it.
 */
#include "kernel/mm/user_mem.h"

#include "kernel/mm/page_alloc.h"
#include "kernel/mm/vm.h"
#include "uapi/syscall.h"

bool user_range_free(struct addr_space *as, uint32_t va, uint32_t len)
{
    for (uint32_t off = 0; off < len; off += PAGE_SIZE)
        if (vm_page_used(as, va + off))
            return false;
    return true;
}

uint32_t user_stack_floor(void) { return USER_STACK_TOP - USER_STACK_MAX - USER_STACK_GUARD_GAP; }

bool user_stack_grow(struct addr_space *as, uint32_t addr)
{
    struct vm_layout *layout = vm_layout(as);
    uint32_t low = layout->stack_low;
    if (!low || addr >= low || addr < USER_STACK_TOP - USER_STACK_MAX)
        return false;
    uint32_t new_low = PAGE_ALIGN_DOWN(addr);
    /* The pages to add, and the guard gap under them, must be free (a MAP_FIXED mapping
     * may sit in the stack's reach: the stack stops short of it, as on Linux). */
    uint32_t gap_low = new_low - USER_STACK_GUARD_GAP;
    if (gap_low < USER_BASE || !user_range_free(as, gap_low, low - gap_low))
        return false;
    if (!page_alloc_leaves_reserve((low - new_low) / PAGE_SIZE))
        return false;
    for (uint32_t va = new_low; va < low; va += PAGE_SIZE) {
        if (vm_map_new(as, va, VM_READ | VM_WRITE) != 0) {
            for (uint32_t undo = new_low; undo < va; undo += PAGE_SIZE)
                vm_unmap(as, undo);
            return false;
        }
    }
    if (vm_page_locked(as, low) || layout->lock_future) /* a locked stack grows locked */
        vm_lock_range(as, new_low, (low - new_low) / PAGE_SIZE, true);
    layout->stack_low = new_low;
    return true;
}
