/*
 * sys_mlock.c - mlock, munlock, mlock2, mlockall and munlockall, with Linux 6.1's checks
 * and errno values (mm/mlock.c), for user-space drivers that hand pages to a device.
 *
 * Every page here is in memory from the moment it is mapped (there is no demand paging,
 * no swap, no page migration, no reclaim), so a lock changes nothing about where a page
 * is: it is recorded per page (kernel/mm/vm.h vm_lock_range) for what Linux's VM_LOCKED
 * changes that a program can see: /proc/PID/status's VmLck, RLIMIT_MEMLOCK for non-root
 * processes, MADV_DONTNEED/MADV_FREE/MADV_COLD/MADV_PAGEOUT refused (EINVAL), a grown
 * mremap locked too. MLOCK_ONFAULT and MCL_ONFAULT are accepted and lock at once (a page
 * is always "faulted in" here). "Root" is Linux's CAP_IPC_LOCK: effective uid 0.
 */
#include "kernel/lib/errno.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/user_mem.h"
#include "kernel/mm/vm.h"
#include "kernel/proc/task_internal.h"
#include "kernel/syscall/mlock.h"
#include "kernel/syscall/syscall_handlers.h"

#define MLOCK_LIMIT_PAGES (MLOCK_LIMIT_BYTES / PAGE_SIZE)

bool mlock_may_add(uint32_t pages)
{
    if (cred_privileged(&current->cred))
        return true;
    uint32_t locked = vm_locked_pages(current->as);
    return pages <= MLOCK_LIMIT_PAGES && locked <= MLOCK_LIMIT_PAGES - pages;
}

void mlock_new_pages(uint32_t va, uint32_t pages, bool asked)
{
    if (asked || vm_layout(current->as)->lock_future)
        vm_lock_range(current->as, va, pages, true); /* the pages were just mapped: 0 */
}

/* Linux's do_mlock and do_munlock: the range grows to whole pages (in 32-bit arithmetic,
 * as Linux's: a length that wraps to 0 is an empty range); a non-root mlock beyond
 * RLIMIT_MEMLOCK, not counting the pages of the range locked already, is ENOMEM before
 * anything else is checked; a range that wraps is EINVAL; one that meets a page the process
 * does not have is ENOMEM, the pages before it locked (or unlocked) all the same. A lock
 * that is not MLOCK_ONFAULT over a PROT_NONE page is ENOMEM too, the lock kept: Linux's
 * __mm_populate cannot fault such a page in (EFAULT, which mlock reports as ENOMEM). */
static int32_t lock_range(uint32_t start, uint32_t len, bool lock, bool on_fault)
{
    struct addr_space *as = current->as;
    len = PAGE_ALIGN_UP(len + (start & (PAGE_SIZE - 1)));
    start = PAGE_ALIGN_DOWN(start);
    uint32_t pages = len / PAGE_SIZE;
    if (lock && !cred_privileged(&current->cred)) {
        uint64_t locked = (uint64_t)pages + vm_locked_pages(as);
        if (locked > MLOCK_LIMIT_PAGES && start < USER_TOP) {
            uint32_t in_user = (USER_TOP - start) / PAGE_SIZE;
            locked -= vm_pages_locked_in(as, start, pages < in_user ? pages : in_user);
        }
        if (locked > MLOCK_LIMIT_PAGES)
            return -ENOMEM;
    }
    if (start + len < start)
        return -EINVAL;
    if (len == 0)
        return 0;
    int err = vm_lock_range(as, start, pages, lock);
    for (uint32_t i = 0; !err && lock && !on_fault && i < pages; i++)
        if (!vm_rights(as, start + i * PAGE_SIZE))
            err = -ENOMEM; /* PROT_NONE: mapped (vm_lock_range found it) but inaccessible */
    return err;
}

SYSCALL_HANDLER(mlock) { return lock_range(a[0], a[1], true, false); }

/* mlock2: mlock with flags; MLOCK_ONFAULT is the only one (it locks at once here, but
 * without the populate, so a PROT_NONE page is no error). */
SYSCALL_HANDLER(mlock2)
{
    if (a[2] & ~MLOCK_ONFAULT)
        return -EINVAL;
    return lock_range(a[0], a[1], true, a[2] & MLOCK_ONFAULT);
}

SYSCALL_HANDLER(munlock) { return lock_range(a[0], a[1], false, false); }

/* Linux's mlockall: MCL_CURRENT locks every page the process has now (a non-root process
 * whose pages exceed RLIMIT_MEMLOCK: ENOMEM, nothing changed), MCL_FUTURE every page it
 * maps from now on; MCL_FUTURE alone leaves the current locks as they are, while a call
 * without MCL_FUTURE ends an earlier one. MCL_ONFAULT needs one of the other two. */
SYSCALL_HANDLER(mlockall)
{
    uint32_t flags = a[0];
    if (!flags || (flags & ~(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)) || flags == MCL_ONFAULT)
        return -EINVAL;
    struct addr_space *as = current->as;
    if ((flags & MCL_CURRENT) && !cred_privileged(&current->cred) &&
        vm_mapped_pages(as) > MLOCK_LIMIT_PAGES)
        return -ENOMEM;
    vm_layout(as)->lock_future = flags & MCL_FUTURE;
    if (flags & MCL_CURRENT)
        vm_lock_all(as, true);
    return 0;
}

/* munlockall: every page unlocked, and MCL_FUTURE ended. */
SYSCALL_HANDLER(munlockall)
{
    (void)a;
    vm_layout(current->as)->lock_future = false;
    vm_lock_all(current->as, false);
    return 0;
}
