/*
 * sys_mem.c - mmap2 (Linux i386 calls its handler mmap_pgoff) and munmap.
 *
 * Anonymous private memory is zeroed pages of the process's own; anonymous MAP_SHARED
 * memory too, but fork shares it with the child instead of copying it. A file mapping asks the
 * file for the physical page at each offset (user_events_status hands out its one status
 * page): the process shares that page and unmapping never frees it.
 */
#include "kernel/lib/errno.h"
#include "kernel/proc/exec.h"
#include "kernel/fs/file.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/proc/task_internal.h"
#include "kernel/syscall/syscall_handlers.h"
#include "kernel/mm/vm.h"

#define MMAP_BASE 0x80000000u /* where mmap looks for room first */

/* Unmaps [va, va+len), page-aligned, user range checked by the caller. */
static void unmap_range(uint32_t va, uint32_t len)
{
    for (uint32_t off = 0; off < len; off += PAGE_SIZE)
        vm_unmap(current->as, va + off);
}

/* Maps page i of the mapping at va: a zeroed page, or the file's page. */
static int map_one(uint32_t va, struct file *f, uint32_t offset, unsigned rights)
{
    if (!f)
        return vm_map_new(current->as, va, rights);
    uintptr_t phys;
    bool writable;
    int err = f->node->ops->mmap(f, offset, &phys, &writable);
    if (err)
        return err;
    if ((rights & VM_WRITE) && !writable)
        return -EACCES;
    return vm_map_shared(current->as, va, phys, rights);
}

/* Where the mapping goes: the fixed address asked for (whatever is there is unmapped
 * first, as Linux does), or the first free range. 0 when nothing fits. */
static uint32_t place_mapping(uint32_t addr, uint32_t len, bool fixed)
{
    if (fixed) {
        unmap_range(addr, len);
        return addr;
    }
    uint32_t va = vm_find_free(current->as, len / PAGE_SIZE, MMAP_BASE, USER_IMAGE_TOP);
    return va ? va : vm_find_free(current->as, len / PAGE_SIZE, USER_BASE, MMAP_BASE);
}

SYSCALL_HANDLER(mmap_pgoff)
{
    uint32_t addr = a[0], len = a[1], prot = a[2], flags = a[3], fd = a[4], pgoff = a[5];
    uint32_t type = flags & (MAP_SHARED | MAP_PRIVATE);
    bool fixed = flags & MAP_FIXED, anonymous = flags & MAP_ANONYMOUS;
    if (type == (MAP_SHARED | MAP_PRIVATE)) { /* MAP_SHARED_VALIDATE */
        if (flags & ~(MAP_SHARED | MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS))
            return -EOPNOTSUPP; /* a flag this kernel does not implement */
        type = MAP_SHARED;
    }
    if (len == 0 || type == 0 || (prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC)) ||
        prot == PROT_NONE)
        return -EINVAL;
    if (len > USER_IMAGE_TOP - USER_BASE)
        return -ENOMEM; /* more than the address space holds, as Linux answers */
    len = PAGE_ALIGN_UP(len);
    if (fixed && ((addr & (PAGE_SIZE - 1)) || addr < USER_BASE || addr > USER_IMAGE_TOP - len))
        return -EINVAL;
    struct file *f = 0;
    if (!anonymous) {
        f = fd < TASK_FILES_MAX ? current->files[fd] : 0;
        if (!f)
            return -EBADF;
        if (!f->node->ops->mmap)
            return -ENODEV;
        /* Linux's do_mmap: a file mapping needs the file open for reading, a shared
         * writable one for writing too (so neither O_WRONLY nor access mode 3 maps). */
        if (!file_readable(f) || (type == MAP_SHARED && (prot & PROT_WRITE) && !file_writable(f)))
            return -EACCES;
        if (pgoff + len / PAGE_SIZE < pgoff)
            return -EOVERFLOW; /* the page offset wraps: Linux's check */
        if ((uint64_t)pgoff * PAGE_SIZE + len > UINT32_MAX + 1ull)
            return -EINVAL; /* past 4 GiB: past the end of every file here, which is what
                             * their mmap answers EINVAL to (and 32-bit offsets would wrap) */
    }
    uint32_t va = place_mapping(addr, len, fixed);
    if (!va)
        return -ENOMEM;
    unsigned rights = VM_READ | ((prot & PROT_WRITE) ? VM_WRITE : 0) |
                      ((anonymous && type == MAP_SHARED) ? VM_SHARE_ON_FORK : 0);
    for (uint32_t off = 0; off < len; off += PAGE_SIZE) {
        int err = map_one(va + off, f, pgoff * PAGE_SIZE + off, rights);
        if (err) {
            unmap_range(va, off);
            return err;
        }
    }
    return (int32_t)va;
}

SYSCALL_HANDLER(munmap)
{
    uint32_t addr = a[0], len = a[1];
    if ((addr & (PAGE_SIZE - 1)) || len == 0 || addr < USER_BASE || addr >= USER_TOP ||
        len > USER_TOP - addr || PAGE_ALIGN_UP(len) > USER_TOP - addr)
        return -EINVAL;
    unmap_range(addr, PAGE_ALIGN_UP(len));
    return 0;
}
