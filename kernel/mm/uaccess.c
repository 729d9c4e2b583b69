/*
 * uaccess.c - user memory checked page by page against the current process's page tables.
 *
 * On one CPU, with processes of one thread, nothing can unmap a page between the check and
 * the copy (the copy does not sleep), so a checked range stays valid while it is copied.
 */
#include "kernel/mm/uaccess.h"

#include "kernel/lib/errno.h"
#include "kernel/notrace.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/user_mem.h"
#include "kernel/proc/task_internal.h"
#include "kernel/lib/string.h"
#include "kernel/mm/vm.h"

/* notrace: the check every system call makes of each user pointer, as Linux's access_ok,
 * which is inline and never traced; the copies around it keep their hooks. */
notrace bool user_range_ok(uint32_t addr, uint32_t len, bool write)
{
    struct addr_space *as = current->as;
    if (!as || addr > USER_TOP)
        return false;
    if (len == 0)
        return true;
    if (addr < USER_BASE || addr == USER_TOP || len > USER_TOP - addr)
        return false;
    unsigned need = write ? VM_WRITE : VM_READ;
    for (uint32_t page = PAGE_ALIGN_DOWN(addr); page < addr + len; page += PAGE_SIZE)
        if (!(vm_rights(as, page) & need) &&
            !(user_stack_grow(as, page) && (vm_rights(as, page) & need)))
            return false; /* (the stack grows for the kernel's accesses too, as on Linux) */
    return true;
}

int copy_from_user(void *dst, uint32_t user_src, uint32_t len)
{
    if (!user_range_ok(user_src, len, false))
        return -EFAULT;
    memcpy(dst, (const void *)(uintptr_t)user_src, len);
    return 0;
}

int copy_to_user(uint32_t user_dst, const void *src, uint32_t len)
{
    if (!user_range_ok(user_dst, len, true))
        return -EFAULT;
    memcpy((void *)(uintptr_t)user_dst, src, len);
    return 0;
}

int user_strnlen(uint32_t user_src, uint32_t size)
{
    for (uint32_t i = 0; i < size; i++) {
        uint32_t addr = user_src + i;
        if ((i == 0 || (addr & (PAGE_SIZE - 1)) == 0) && !user_range_ok(addr, 1, false))
            return -EFAULT;
        if (*(const char *)(uintptr_t)addr == 0)
            return (int)i;
    }
    return -E2BIG;
}

int copy_string_from_user(char *dst, uint32_t user_src, uint32_t size)
{
    for (uint32_t i = 0; i < size; i++) {
        uint32_t addr = user_src + i;
        if ((i == 0 || (addr & (PAGE_SIZE - 1)) == 0) && !user_range_ok(addr, 1, false))
            return -EFAULT;
        dst[i] = *(const char *)(uintptr_t)addr;
        if (dst[i] == 0)
            return (int)i;
    }
    return -E2BIG;
}
