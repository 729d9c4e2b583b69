/*
 * sys_mem.c - the memory calls, with Linux's semantics and errno values: brk, mmap2 (Linux
 * i386 calls its handler mmap_pgoff) and old_mmap, munmap, mprotect, madvise, mremap.
 *
 * Anonymous memory is zeroed pages of the process's own (MAP_SHARED ones too, but fork
 * shares those with the child instead of copying them), allocated when mapped (there is no
 * demand paging: every mapping is what MAP_POPULATE asks for, MAP_NORESERVE changes
 * nothing, and a mapping larger than the free memory is ENOMEM at once). MAP_LOCKED, and
 * mlockall(MCL_FUTURE), lock the new pages as mlock does (sys_mlock.c): beyond
 * RLIMIT_MEMLOCK for a non-root process that is EAGAIN, as Linux's mlock_future_check.
 * A file mapping asks the file for the physical page at each offset (user_events_status hands out its one status page): the process shares
 * that page and unmapping never frees it (a device's, sysfs's resourceN, is mapped uncached
 * and announced to mmiotrace); a program's image in /bin maps MAP_PRIVATE only,
 * as copies of its bytes in pages of the process's own (map_file_copy). Mappings without MAP_FIXED are placed top-down
 * below USER_MMAP_BASE, as Linux's mmap_base layout (kernel/mm/user_mem.h). Nothing is ever
 * mapped below USER_BASE (Debian's vm.mmap_min_addr): asking for it is EPERM, for root as
 * well (no capability lifts it here).
 */
#include "kernel/fs/file.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/user_mem.h"
#include "kernel/mm/vm.h"
#include "kernel/proc/task_internal.h"
#include "kernel/syscall/mlock.h"
#include "kernel/syscall/syscall_handlers.h"
#include "kernel/trace_hooks.h"

/* The flags mmap knows; MAP_SHARED_VALIDATE refuses any other (Linux's LEGACY_MAP_MASK
 * less what is not implemented: MAP_HUGETLB, MAP_SYNC). */
#define MAP_KNOWN_FLAGS (MAP_TYPE | MAP_FIXED | MAP_ANONYMOUS | MAP_GROWSDOWN | MAP_DENYWRITE | \
                         MAP_EXECUTABLE | MAP_LOCKED | MAP_NORESERVE | MAP_POPULATE |           \
                         MAP_NONBLOCK | MAP_STACK | MAP_FIXED_NOREPLACE)

/* Unmaps [va, va+len), page-aligned, user range checked by the caller. */
static void unmap_range(uint32_t va, uint32_t len)
{
    vm_unmap_range(current->as, va, len / PAGE_SIZE);
}

/* The VM_* rights of PROT_* bits (PROT_EXEC reads: no NX here). 0 is PROT_NONE. */
static unsigned rights_of(uint32_t prot)
{
    if (prot & PROT_WRITE)
        return VM_READ | VM_WRITE;
    return (prot & (PROT_READ | PROT_EXEC)) ? VM_READ : 0;
}

/* One page of a private mapping of a file of fixed bytes (a program in /bin): a page of
 * the process's own holding the file's bytes at offset, zero past their end, as Linux's
 * MAP_PRIVATE file page reads before the process writes it (after which it is the
 * process's copy there too). The image itself is never mapped, so nothing reaches it. */
static int map_file_copy(uint32_t va, struct file *f, uint32_t offset, unsigned rights)
{
    uint32_t size;
    const char *bytes = f->node->ops->bytes(f->node, &size);
    int err = vm_map_new(current->as, va, VM_READ | VM_WRITE);
    if (!err && offset < size)
        err = copy_to_user(va, bytes + offset, size - offset < PAGE_SIZE ? size - offset : PAGE_SIZE);
    if (!err)
        err = vm_protect(current->as, va, rights);
    return err;
}

/* Maps one page of a mapping at va: a zeroed page, the file's page, or a copy of a fixed
 * file's bytes; then its rights. A PROT_NONE page (neither VM_READ nor VM_WRITE, whatever
 * else rights says, such as VM_SHARE_ON_FORK) is mapped readable with its other bits and
 * then made inaccessible, so it never answers a read. */
static int map_one(uint32_t va, struct file *f, uint32_t offset, unsigned rights)
{
    int err;
    bool prot_none = !(rights & (VM_READ | VM_WRITE));
    if (prot_none)
        rights |= VM_READ; /* for the mapping; vm_protect below takes it away */
    if (!f) {
        err = vm_map_new(current->as, va, rights);
    } else if (!f->node->ops->mmap) {
        err = map_file_copy(va, f, offset, rights);
    } else {
        uintptr_t phys;
        bool writable;
        err = f->node->ops->mmap(f, offset, &phys, &writable);
        if (err)
            return err;
        if ((rights & VM_WRITE) && !writable)
            return -EACCES;
        err = vm_map_shared(current->as, va, phys,
                            rights | (f->node->ops->mmap_device ? VM_DEVICE : 0));
    }
    if (!err && prot_none)
        err = vm_protect(current->as, va, 0);
    return err;
}

/* Tells mmiotrace (kernel/trace_hooks.h) that the process mapped device memory: the
 * first page's physical address, asked of the file again (its pages are contiguous). */
static void announce_device_mapping(struct file *f, uint32_t va, uint32_t len, uint32_t pgoff)
{
    uintptr_t phys;
    bool writable;
    if (trace_hook_user_iomap && f->node->ops->mmap(f, pgoff * PAGE_SIZE, &phys, &writable) == 0)
        trace_user_iomap(va, len, phys, 0);
}

/* True when a mapping may go at [va, va+len) without MAP_FIXED: inside user space, below
 * the stack's reach, and over nothing. */
static bool fits_at(uint32_t va, uint32_t len)
{
    return va >= USER_BASE && va <= user_stack_floor() && len <= user_stack_floor() - va &&
           user_range_free(current->as, va, len);
}

/* Where a mapping without MAP_FIXED goes: the hint if the range is free there (Linux
 * rounds it to a page and takes it then), else the highest free range below
 * USER_MMAP_BASE, else the highest below the stack's reach. 0 when nothing fits. */
static uint32_t place_mapping(uint32_t hint, uint32_t len)
{
    hint = PAGE_ALIGN_UP(hint);
    if (hint && fits_at(hint, len))
        return hint;
    uint32_t va = vm_find_free_top_down(current->as, len / PAGE_SIZE, USER_BASE, USER_MMAP_BASE);
    if (!va)
        va = vm_find_free_top_down(current->as, len / PAGE_SIZE, USER_MMAP_BASE,
                                   user_stack_floor());
    return va;
}

/* Linux's do_mmap, in its order of checks; pgoff counts pages. */
static int32_t do_mmap(uint32_t addr, uint32_t len, uint32_t prot, uint32_t flags, uint32_t fd,
                       uint32_t pgoff)
{
    struct file *f = 0;
    if (!(flags & MAP_ANONYMOUS)) {
        f = fd < TASK_FILES_MAX ? current->files[fd] : 0;
        if (!f)
            return -EBADF;
    }
    if (len == 0 || (prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC)))
        return -EINVAL;
    if (flags & MAP_FIXED_NOREPLACE)
        flags |= MAP_FIXED;
    bool fixed = flags & MAP_FIXED;
    if (PAGE_ALIGN_UP(len) == 0 || PAGE_ALIGN_UP(len) > USER_TOP - USER_BASE)
        return -ENOMEM; /* more than the address space holds, as Linux answers */
    len = PAGE_ALIGN_UP(len);
    if (pgoff + len / PAGE_SIZE < pgoff)
        return -EOVERFLOW;
    if (fixed) {
        if (addr > USER_TOP - len)
            return -ENOMEM;
        if (addr & (PAGE_SIZE - 1))
            return -EINVAL;
        if (addr < USER_BASE)
            return -EPERM; /* below mmap_min_addr */
    }
    uint32_t type = flags & MAP_TYPE;
    if (type == MAP_SHARED_VALIDATE && (flags & ~MAP_KNOWN_FLAGS))
        return -EOPNOTSUPP;
    if (type != MAP_SHARED && type != MAP_PRIVATE && type != MAP_SHARED_VALIDATE)
        return -EINVAL;
    if (flags & (MAP_HUGETLB | MAP_SYNC))
        return -EINVAL; /* no huge pages, no DAX here */
    if (f) {
        /* A directory has no operations at all; a program's image maps as private copies
         * only (map_file_copy): sharing would need the module's pages to be the file's. */
        bool copies = f->node->ops && f->node->ops->bytes && type == MAP_PRIVATE;
        if (!f->node->ops || (!f->node->ops->mmap && !copies))
            return -ENODEV;
        /* A file mapping needs the file open for reading, a shared writable one for
         * writing too (so neither O_WRONLY nor access mode 3 maps). */
        if (!file_readable(f) || (type != MAP_PRIVATE && (prot & PROT_WRITE) && !file_writable(f)))
            return -EACCES;
        if ((uint64_t)pgoff * PAGE_SIZE + len > UINT32_MAX + 1ull)
            return -EINVAL; /* past 4 GiB: past the end of every file here, which is what
                             * their mmap answers EINVAL to (and 32-bit offsets would wrap) */
    }
    if ((!f || !f->node->ops->mmap) && !page_alloc_leaves_reserve(len / PAGE_SIZE))
        return -ENOMEM; /* the pages are not there: fail before taking any */
    if (fixed && (flags & MAP_FIXED_NOREPLACE) && !user_range_free(current->as, addr, len))
        return -EEXIST;
    bool lock = (flags & MAP_LOCKED) || vm_layout(current->as)->lock_future;
    if (lock && !mlock_may_add(len / PAGE_SIZE))
        return -EAGAIN;
    uint32_t va;
    if (fixed) {
        unmap_range(addr, len); /* whatever was there goes first, as on Linux */
        va = addr;
    } else if (!(va = place_mapping(addr, len))) {
        return -ENOMEM;
    }
    unsigned rights = rights_of(prot) | ((!f && type != MAP_PRIVATE) ? VM_SHARE_ON_FORK : 0);
    for (uint32_t off = 0; off < len; off += PAGE_SIZE) {
        int err = map_one(va + off, f, pgoff * PAGE_SIZE + off, rights);
        if (err) {
            unmap_range(va, off);
            return err;
        }
    }
    mlock_new_pages(va, len / PAGE_SIZE, flags & MAP_LOCKED);
    if (f && f->node->ops->mmap_device) /* a BAR: mmiotrace traces it while current */
        announce_device_mapping(f, va, len, pgoff);
    return (int32_t)va;
}

SYSCALL_HANDLER(mmap_pgoff) { return do_mmap(a[0], a[1], a[2], a[3], a[4], a[5]); }

/* The first i386 mmap: its six arguments in a block in user memory, the offset in bytes. */
SYSCALL_HANDLER(old_mmap)
{
    struct mmap_arg_struct m;
    if (copy_from_user(&m, a[0], sizeof m))
        return -EFAULT;
    if (m.offset & (PAGE_SIZE - 1))
        return -EINVAL;
    return do_mmap(m.addr, m.len, m.prot, m.flags, m.fd, m.offset / PAGE_SIZE);
}

/* A page-aligned start and a length in pages that stay inside [0, USER_TOP): Linux's
 * checks of munmap. */
SYSCALL_HANDLER(munmap)
{
    uint32_t addr = a[0], len = PAGE_ALIGN_UP(a[1]);
    if ((addr & (PAGE_SIZE - 1)) || len == 0 || addr > USER_TOP || len > USER_TOP - addr)
        return -EINVAL;
    unmap_range(addr, len);
    return 0;
}

/*
 * brk: the break moves to addr when the pages between the old and the new break can be
 * had: above the image (start_brk), over nothing (one free page above it, as Linux keeps),
 * below the stack's reach. Returns the new break, or the old one when it cannot move:
 * never an errno, as Linux's. brk(0) asks where it is.
 */
SYSCALL_HANDLER(brk)
{
    struct vm_layout *layout = vm_layout(current->as);
    uint32_t want = a[0], old_top = PAGE_ALIGN_UP(layout->brk);
    if (want < layout->start_brk || want > user_stack_floor())
        return (int32_t)layout->brk;
    uint32_t new_top = PAGE_ALIGN_UP(want);
    if (new_top < old_top) {
        unmap_range(new_top, old_top - new_top);
    } else if (new_top > old_top) {
        uint32_t grow = new_top - old_top;
        if (new_top + PAGE_SIZE > user_stack_floor() ||
            !page_alloc_leaves_reserve(grow / PAGE_SIZE) ||
            (layout->lock_future && !mlock_may_add(grow / PAGE_SIZE)) ||
            !user_range_free(current->as, old_top, grow + PAGE_SIZE))
            return (int32_t)layout->brk;
        for (uint32_t va = old_top; va < new_top; va += PAGE_SIZE) {
            if (vm_map_new(current->as, va, VM_READ | VM_WRITE) != 0) {
                unmap_range(old_top, va - old_top);
                return (int32_t)layout->brk;
            }
        }
        mlock_new_pages(old_top, grow / PAGE_SIZE, false);
    }
    layout->brk = want;
    return (int32_t)want;
}

/* mprotect: new rights for every page of the range, which must all be mapped (the pages
 * before the first hole keep their new rights, as on Linux, and the result is ENOMEM). A
 * file's page mapped without write access cannot be made writable, even by way of
 * PROT_NONE: EACCES (Linux: no VM_MAYWRITE). */
SYSCALL_HANDLER(mprotect)
{
    uint32_t start = a[0], len = a[1], prot = a[2];
    uint32_t grows = prot & (PROT_GROWSDOWN | PROT_GROWSUP);
    if ((prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC | PROT_GROWSDOWN | PROT_GROWSUP)) ||
        grows == (PROT_GROWSDOWN | PROT_GROWSUP) || (start & (PAGE_SIZE - 1)))
        return -EINVAL;
    if (len == 0)
        return 0;
    len = PAGE_ALIGN_UP(len);
    if (len == 0 || start + len <= start)
        return -ENOMEM;
    if (grows)
        return -EINVAL; /* no mapping here grows (Linux: only a VM_GROWSDOWN/UP one may) */
    if (start + len > USER_TOP)
        return -ENOMEM;
    /* -ENOMEM at a hole, -EACCES at a file's read-only page; the pages before keep theirs */
    return vm_protect_range(current->as, start, len / PAGE_SIZE, rights_of(prot));
}

/* The advice madvise takes; the rest is EINVAL. Only MADV_DONTNEED and MADV_FREE change
 * anything here (no readahead, no swap, no core dumps). */
static bool advice_known(uint32_t advice)
{
    switch (advice) {
    case MADV_NORMAL: case MADV_RANDOM: case MADV_SEQUENTIAL: case MADV_WILLNEED:
    case MADV_DONTNEED: case MADV_FREE: case MADV_DONTDUMP: case MADV_DODUMP:
    case MADV_COLD: case MADV_PAGEOUT:
        return true;
    default:
        return false;
    }
}

/* madvise: MADV_DONTNEED (and MADV_FREE) make private anonymous pages read back as zero,
 * as after Linux drops them; a file's shared page refuses it (EINVAL), and so does a
 * locked page (mlock) to those two and to MADV_COLD and MADV_PAGEOUT (Linux's
 * can_madv_lru_vma). Unmapped pages in the range: ENOMEM, after the advice is applied to
 * the mapped ones. */
SYSCALL_HANDLER(madvise)
{
    uint32_t start = a[0], len_in = a[1], advice = a[2];
    if (!advice_known(advice) || (start & (PAGE_SIZE - 1)))
        return -EINVAL;
    uint32_t len = PAGE_ALIGN_UP(len_in);
    if ((len_in && !len) || start + len < start)
        return -EINVAL;
    if (len == 0)
        return 0;
    bool drop = advice == MADV_DONTNEED || advice == MADV_FREE;
    bool not_locked = drop || advice == MADV_COLD || advice == MADV_PAGEOUT;
    int result = 0;
    for (uint32_t va = start; va < start + len; va += PAGE_SIZE) {
        if (va >= USER_TOP || !vm_page_used(current->as, va)) {
            result = -ENOMEM;
            continue;
        }
        if (not_locked && vm_page_locked(current->as, va))
            return -EINVAL;
        if (drop && (vm_rights(current->as, va) & VM_SHARED))
            return -EINVAL;
        if (drop)
            vm_zero_page(current->as, va);
    }
    return result;
}

/* The rights a grown mapping's new pages get: those of the page below them. */
static unsigned rights_at(uint32_t va)
{
    return vm_rights(current->as, va) & (VM_READ | VM_WRITE);
}

/* Maps fresh pages over [va, va+len) with the given rights (0: PROT_NONE); all or none. */
static int map_fresh(uint32_t va, uint32_t len, unsigned rights)
{
    for (uint32_t off = 0; off < len; off += PAGE_SIZE) {
        int err = map_one(va + off, 0, 0, rights);
        if (err) {
            unmap_range(va, off);
            return err;
        }
    }
    return 0;
}

/*
 * mremap: shrinks in place, grows in place when the pages above are free, else moves the
 * whole mapping (MREMAP_MAYMOVE; to new_addr with MREMAP_FIXED) and grows it there. The
 * old range must be all mapped (EFAULT), a file's pages cannot grow (EFAULT, as Linux's
 * VM_PFNMAP). MREMAP_DONTUNMAP is refused (EINVAL): it needs demand paging. A locked
 * mapping (mlock) stays locked where it goes, and what it grows by is locked too; growing
 * it beyond RLIMIT_MEMLOCK is EAGAIN for a non-root process (Linux's vma_to_resize); an
 * old range with locked and unlocked pages is EFAULT (two VMAs on Linux).
 */
SYSCALL_HANDLER(mremap)
{
    uint32_t addr = a[0], old_len = a[1], new_len = a[2], flags = a[3], new_addr = a[4];
    if ((flags & ~(MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP)) ||
        ((flags & MREMAP_FIXED) && !(flags & MREMAP_MAYMOVE)) || (flags & MREMAP_DONTUNMAP) ||
        (addr & (PAGE_SIZE - 1)))
        return -EINVAL;
    old_len = PAGE_ALIGN_UP(old_len);
    new_len = PAGE_ALIGN_UP(new_len);
    if (new_len == 0 || old_len == 0) /* old_len 0 duplicates shared mappings only */
        return -EINVAL;
    if (addr > USER_TOP || old_len > USER_TOP - addr)
        return -EFAULT;
    if (flags & MREMAP_FIXED) {
        if ((new_addr & (PAGE_SIZE - 1)) || new_len > USER_TOP || new_addr > USER_TOP - new_len)
            return -EINVAL;
        if (new_addr < addr + old_len && addr < new_addr + new_len)
            return -EINVAL; /* the two ranges overlap */
        if (new_addr < USER_BASE)
            return -EPERM;
    }
    struct addr_space *as = current->as;
    for (uint32_t off = 0; off < old_len; off += PAGE_SIZE)
        if (!vm_page_used(as, addr + off))
            return -EFAULT;
    bool shared = vm_rights(as, addr) & VM_SHARED;
    if (!(flags & MREMAP_FIXED) && new_len <= old_len) {
        unmap_range(addr + new_len, old_len - new_len);
        return (int32_t)addr;
    }
    if (new_len > old_len && shared)
        return -EFAULT;
    unsigned rights = rights_at(addr + old_len - PAGE_SIZE);
    bool locked = vm_page_locked(as, addr + old_len - PAGE_SIZE);
    uint32_t locked_pages = vm_pages_locked_in(as, addr, old_len / PAGE_SIZE);
    if (locked_pages && locked_pages != old_len / PAGE_SIZE)
        return -EFAULT; /* locked and unlocked pages: on Linux two VMAs, which mremap refuses */
    uint32_t grow = new_len > old_len ? new_len - old_len : 0;
    if (grow && locked && !mlock_may_add(grow / PAGE_SIZE))
        return -EAGAIN;
    if (grow && !page_alloc_leaves_reserve(grow / PAGE_SIZE))
        return -ENOMEM;
    if (!(flags & MREMAP_FIXED) && addr + old_len <= USER_TOP - grow &&
        addr + new_len <= user_stack_floor() && user_range_free(as, addr + old_len, grow)) {
        int err = map_fresh(addr + old_len, grow, rights);
        if (!err && locked)
            vm_lock_range(as, addr + old_len, grow / PAGE_SIZE, true);
        return err ? err : (int32_t)addr;
    }
    if (!(flags & MREMAP_MAYMOVE))
        return -ENOMEM;
    uint32_t to;
    if (flags & MREMAP_FIXED) {
        unmap_range(new_addr, new_len);
        to = new_addr;
    } else if (!(to = place_mapping(0, new_len))) {
        return -ENOMEM;
    }
    uint32_t moved = old_len < new_len ? old_len : new_len;
    int err = vm_move_pages(as, addr, to, moved / PAGE_SIZE);
    if (err) /* no page table for the target: nothing moved */
        return err;
    unmap_range(addr + moved, old_len - moved); /* MREMAP_FIXED to a smaller size */
    if (grow) {
        err = map_fresh(to + old_len, grow, rights);
        if (err) { /* keep the old mapping, as Linux leaves it on failure */
            vm_move_pages(as, to, addr, moved / PAGE_SIZE);
            return err;
        }
        if (locked) /* the moved pages took their locks with them (vm_move_pages) */
            vm_lock_range(as, to + old_len, grow / PAGE_SIZE, true);
    }
    return (int32_t)to;
}
