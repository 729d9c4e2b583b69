/*
 * procfs_pagemap.c - /proc/PID/pagemap (issue 23): for each virtual page of a process, a
 * 64-bit entry in Linux's layout (kernel/mm/vm.h vm_pagemap_entry), the entry for the page
 * at address A at offset A / 4096 * 8. A user-space driver reads its own locked buffer's
 * entries to learn the frames it hands to a device (DMA).
 *
 * As Linux's fs/proc/task_mmu.c pagemap_open and pagemap_read:
 *   - open: the task must be there (ESRCH) and be the opener or one it could ptrace
 *     (Linux's mm_access with PTRACE_MODE_READ|FSCREDS: root, or the same real, effective
 *     and saved uid and gid as the opener's effective ones), else EACCES. The node is
 *     readable by all (Linux: 0400, owned by the task's user): the open decides, from the
 *     task's credentials as they are then, since the node's owner is fixed when the task
 *     is made. Whether frame numbers are shown is decided at open too: only to an opener
 *     with CAP_SYS_ADMIN (root here), 0 to anyone else (Linux since 4.2).
 *   - read: the offset and the count must be multiples of 8 (EINVAL); only the offset's
 *     low 32 bits count (Linux i386 takes it into an unsigned long: a read at 2^40 reads
 *     page 0's entry); entries run up to the end of user space (USER_TOP), and a read at
 *     or past it returns 0; a task gone
 *     since the open (or a kernel thread, which has no memory) reads as empty, as Linux's
 *     mm reference then gives nothing.
 */
#include "kernel/fs/file.h"
#include "kernel/fs/fs_tree.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/user_mem.h"
#include "kernel/mm/vm.h"
#include "kernel/proc/task_internal.h"
#include "kernel/trace_hooks.h"

#define PAGEMAP_ENTRY_BYTES 8u
#define PAGEMAP_CHUNK 64u /* entries copied to the program at once, from the kernel stack */

/* What an open of pagemap keeps (in f->private_data): the task it was
 * opened for and whether the opener may see frame numbers; the task's start time tells
 * it from a later task that got the same pid. */
struct pagemap_open {
    int pid;
    bool show_pfn;
    uint64_t start_ns;
};

/* Linux's __ptrace_may_access for PTRACE_MODE_READ with the opener's fs ids (here the
 * effective ones): root, the task itself, or a task whose three uids and three gids are
 * all the opener's. */
static bool may_read_memory_of(const struct task *t)
{
    const struct cred *me = &current->cred, *them = &t->cred;
    if (t == current || cred_privileged(me))
        return true;
    return me->euid == them->uid && me->euid == them->euid && me->euid == them->suid &&
           me->egid == them->gid && me->egid == them->egid && me->egid == them->sgid;
}

static int pagemap_open(struct fs_node *node, struct file *f)
{
    int pid = (int)(uintptr_t)node->data;
    struct task *t = task_find(pid);
    if (!t)
        return -ESRCH;
    if (!may_read_memory_of(t))
        return -EACCES;
    struct pagemap_open *o = kmalloc(sizeof *o);
    if (!o)
        return -ENOMEM;
    *o = (struct pagemap_open){ .pid = pid, .show_pfn = cred_privileged(&current->cred),
                                .start_ns = t->start_ns };
    f->private_data = o;
    return 0;
}

static void pagemap_release(struct file *f) { kfree(f->private_data); }

/* The address space the open was for, NULL when its task is gone (or is a zombie, or a
 * kernel thread). */
static struct addr_space *pagemap_space(const struct pagemap_open *o)
{
    struct task *t = task_find(o->pid);
    if (!t || t->start_ns != o->start_ns || t->state == TASK_ZOMBIE)
        return 0;
    return t->as;
}

static int32_t pagemap_read_at(struct file *f, uint32_t ubuf, uint32_t count, uint64_t pos)
{
    const struct pagemap_open *o = f->private_data;
    struct addr_space *as = pagemap_space(o);
    if (!as)
        return 0;
    if ((pos % PAGEMAP_ENTRY_BYTES) || (count % PAGEMAP_ENTRY_BYTES))
        return -EINVAL;
    uint64_t page = (uint32_t)pos / PAGEMAP_ENTRY_BYTES; /* Linux's unsigned long src */
    uint32_t copied = 0;
    uint64_t chunk[PAGEMAP_CHUNK];
    while (count > copied && page < USER_TOP / PAGE_SIZE) {
        uint32_t n = 0;
        while (n < PAGEMAP_CHUNK && (count - copied) / PAGEMAP_ENTRY_BYTES > n &&
               page + n < USER_TOP / PAGE_SIZE) {
            uint32_t va = (uint32_t)(page + n) * PAGE_SIZE;
            chunk[n] = vm_pagemap_entry(as, va, o->show_pfn);
            /* A frame shown to a program is what a user-space driver gives its device for
             * DMA: mmiotrace's extension records it (a DMA line). */
            if (o->show_pfn && (chunk[n] & PAGEMAP_PRESENT))
                trace_dma_frame((chunk[n] & PAGEMAP_PFN_MASK) * PAGE_SIZE, va, PAGE_SIZE);
            n++;
        }
        if (copy_to_user(ubuf + copied, chunk, n * PAGEMAP_ENTRY_BYTES) != 0)
            return -EFAULT; /* as Linux: the whole read fails, the offset stays */
        copied += n * PAGEMAP_ENTRY_BYTES;
        page += n;
    }
    return (int32_t)copied;
}

static const struct fs_file_ops pagemap_ops = {
    .open = pagemap_open, .release = pagemap_release, .read_at = pagemap_read_at,
};

struct fs_node *procfs_pagemap_create(struct fs_node *pid_dir)
{
    return fs_set_mode(fs_create(pid_dir, "pagemap", &pagemap_ops, pid_dir->data), 0444, 0, 0);
}
