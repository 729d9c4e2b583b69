/*
 * sys_fd.c - system calls on descriptors themselves (issue 16): dup, dup2, dup3, fcntl,
 * fcntl64, close_range, pipe, pipe2.
 *
 * A descriptor is a slot of current->files pointing to a shared struct file (its offset
 * and status flags are shared by every descriptor dup'ed from it, and across fork); the
 * close-on-exec flag belongs to the slot (current->fd_cloexec).
 */
#include "kernel/fs/file.h"
#include "kernel/fs/fs_task.h"
#include "kernel/fs/pipe.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/task_internal.h"
#include "kernel/syscall/syscall_handlers.h"
#include "uapi/fs.h"
#include "uapi/syscall.h"

/* The status flags F_SETFL may change; the rest of open's flags stay as opened. */
#define SETFL_MASK (O_APPEND | O_NONBLOCK)

/* Another descriptor for fd's file, the lowest free one >= lowest. */
static int32_t dup_from(uint32_t fd, uint32_t lowest, bool cloexec)
{
    struct file *f = fd_file(fd);
    if (!f)
        return -EBADF;
    if (lowest >= TASK_FILES_MAX)
        return -EINVAL; /* above RLIMIT_NOFILE, as Linux's F_DUPFD says */
    int nfd = fd_install(f, lowest, cloexec);
    if (nfd >= 0)
        file_get(f);
    return nfd;
}

SYSCALL_HANDLER(dup) { return dup_from(a[0], 0, false); }

/* dup2 and dup3: newfd becomes oldfd's file, closing what it had. */
static int32_t dup_to(uint32_t oldfd, uint32_t newfd, bool cloexec)
{
    struct file *f = fd_file(oldfd);
    if (!f || newfd >= TASK_FILES_MAX)
        return -EBADF;
    file_get(f);
    struct file *old = current->files[newfd];
    current->files[newfd] = f;
    if (cloexec)
        current->fd_cloexec |= 1u << newfd;
    else
        current->fd_cloexec &= ~(1u << newfd);
    if (old)
        file_put(old);
    return (int32_t)newfd;
}

SYSCALL_HANDLER(dup2)
{
    /* Linux's dup2 with newfd == oldfd only checks that oldfd is open. */
    if (a[0] == a[1])
        return fd_file(a[0]) ? (int32_t)a[0] : -EBADF;
    return dup_to(a[0], a[1], false);
}

SYSCALL_HANDLER(dup3)
{
    if (a[2] & ~(uint32_t)O_CLOEXEC)
        return -EINVAL;
    if (a[0] == a[1])
        return -EINVAL;
    return dup_to(a[0], a[1], a[2] & O_CLOEXEC);
}

SYSCALL_HANDLER(fcntl)
{
    uint32_t fd = a[0], cmd = a[1], arg = a[2];
    struct file *f = fd_file(fd);
    if (!f)
        return -EBADF;
    switch (cmd) {
    case F_DUPFD:
    case F_DUPFD_CLOEXEC:
        return dup_from(fd, arg, cmd == F_DUPFD_CLOEXEC);
    case F_GETFD:
        return current->fd_cloexec & (1u << fd) ? FD_CLOEXEC : 0;
    case F_SETFD:
        if (arg & FD_CLOEXEC)
            current->fd_cloexec |= 1u << fd;
        else
            current->fd_cloexec &= ~(1u << fd);
        return 0;
    case F_GETFL:
        return (int32_t)(f->flags & ~(uint32_t)O_CLOEXEC);
    case F_SETFL:
        f->flags = (f->flags & ~(uint32_t)SETFL_MASK) | (arg & SETFL_MASK);
        return 0;
    default:
        return -EINVAL;
    }
}

SYSCALL_HANDLER(fcntl64) { return sys_fcntl(a); }

SYSCALL_HANDLER(close_range)
{
    uint32_t first = a[0], last = a[1], flags = a[2];
    if (flags & ~(uint32_t)(CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC))
        return -EINVAL;
    if (first > last)
        return -EINVAL;
    /* UNSHARE: the table is the process's own already (fork copies it). */
    for (uint32_t fd = first; fd < TASK_FILES_MAX && fd <= last; fd++) {
        if (!current->files[fd])
            continue;
        if (flags & CLOSE_RANGE_CLOEXEC)
            current->fd_cloexec |= 1u << fd;
        else
            fd_close(fd);
    }
    return 0;
}

/* pipe and pipe2: two descriptors written to the program's int[2]. */
static int32_t do_pipe(uint32_t ufds, uint32_t flags)
{
    if (flags & ~(uint32_t)(O_CLOEXEC | O_NONBLOCK))
        return -EINVAL;
    if (!user_range_ok(ufds, 2 * sizeof(int32_t), true))
        return -EFAULT;
    struct file *r, *w;
    int err = pipe_create(flags, &r, &w);
    if (err)
        return err;
    int rfd = fd_install(r, 0, flags & O_CLOEXEC);
    int wfd = rfd < 0 ? rfd : fd_install(w, 0, flags & O_CLOEXEC);
    int32_t fds[2] = { rfd, wfd };
    if (wfd < 0 || copy_to_user(ufds, fds, sizeof fds) != 0) {
        if (rfd >= 0)
            current->files[rfd] = 0;
        if (wfd >= 0)
            current->files[wfd] = 0;
        file_put(r);
        file_put(w);
        return wfd < 0 ? wfd : -EFAULT;
    }
    return 0;
}

SYSCALL_HANDLER(pipe) { return do_pipe(a[0], 0); }

SYSCALL_HANDLER(pipe2) { return do_pipe(a[0], a[1]); }
