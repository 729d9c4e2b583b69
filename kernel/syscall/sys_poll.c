/*
 * sys_poll.c - waiting for descriptors (issue 16): poll, ppoll, ppoll_time64, select (the
 * old one-argument form), _newselect, pselect6 and pselect6_time64.
 *
 * Every call becomes one list of (fd, events) entries, scanned with interrupts off: a file
 * whose readiness changes calls file_poll_wake() (kernel/fs/file.h), and the scan and the
 * sleep on file_poll_channel() happen with interrupts off, so a change between them cannot
 * be missed (one CPU: sched.h). The sleep ends at readiness, at the timeout, or with EINTR
 * when the process is interrupted. The signal mask of ppoll and pselect6 is checked as
 * Linux checks it (EINVAL for a size other than 8, EFAULT) and holds during the wait.
 */
#include "kernel/arch.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs_task.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/sched.h"
#include "kernel/proc/task_internal.h"
#include "kernel/syscall/syscall_handlers.h"
#include "kernel/time.h"
#include "uapi/fs.h"
#include "uapi/syscall.h"

#define NFDS_MAX 1024u        /* Linux's default RLIMIT_NOFILE: more pollfds is EINVAL */
#define FOREVER UINT64_MAX    /* no timeout */
#define NS_PER_SEC 1000000000ull

/* Scans the entries: revents of each; returns how many have any. An fd that is not open
 * is POLLNVAL; a negative fd is skipped, as Linux skips it. */
static uint32_t scan(struct pollfd *p, uint32_t n)
{
    uint32_t ready = 0;
    for (uint32_t i = 0; i < n; i++) {
        p[i].revents = 0;
        if (p[i].fd < 0)
            continue;
        struct file *f = fd_file((uint32_t)p[i].fd);
        unsigned mask = f ? file_poll(f) & ((uint16_t)p[i].events | POLLERR | POLLHUP)
                          : POLLNVAL;
        p[i].revents = (int16_t)mask;
        ready += mask != 0;
    }
    return ready;
}

/* Waits until an entry is ready or timeout_ns (FOREVER: none) passed: the number ready
 * (0 at the timeout), or -EINTR. *left_ns gets the time not used. */
static int32_t wait_ready(struct pollfd *p, uint32_t n, uint64_t timeout_ns, uint64_t *left_ns)
{
    if (timeout_ns > FOREVER / 2)
        timeout_ns = FOREVER; /* centuries: no deadline that could wrap */
    uint64_t deadline = timeout_ns == FOREVER ? 0 : time_ns() + timeout_ns;
    int32_t ret;
    unsigned long flags = arch_irq_save();
    for (;;) {
        uint32_t ready = scan(p, n);
        uint64_t now = time_ns();
        if (ready || timeout_ns == 0 || (deadline && now >= deadline)) {
            ret = (int32_t)ready;
            break;
        }
        int err = sleep_on(file_poll_channel(), deadline ? deadline - now : 0);
        if (err == -EINTR) {
            ret = -EINTR;
            break;
        }
    }
    arch_irq_restore(flags);
    if (left_ns) {
        uint64_t now = time_ns();
        *left_ns = timeout_ns == FOREVER ? FOREVER : (deadline > now ? deadline - now : 0);
    }
    return ret;
}

/* ppoll and pselect6's mask: set for the wait, the old one back afterwards. 0 or -errno. */
static int swap_sigmask(uint32_t umask, uint32_t size, kernel_sigset_t *saved)
{
    *saved = current->sig.blocked;
    if (!umask)
        return 0;
    if (size != sizeof(kernel_sigset_t))
        return -EINVAL;
    kernel_sigset_t set;
    if (copy_from_user(&set, umask, sizeof set) != 0)
        return -EFAULT;
    sigstate_change_mask(&current->sig, SIG_SETMASK, set);
    return 0;
}

/* poll's core: copies the array in, waits, copies revents out. */
static int32_t do_poll(uint32_t ufds, uint32_t nfds, uint64_t timeout_ns)
{
    if (nfds > NFDS_MAX)
        return -EINVAL;
    uint32_t bytes = nfds * sizeof(struct pollfd);
    struct pollfd small[8];
    struct pollfd *p = nfds <= 8 ? small : kmalloc(bytes);
    if (!p)
        return -ENOMEM;
    int32_t ret = copy_from_user(p, ufds, bytes);
    if (ret == 0 && !user_range_ok(ufds, bytes, true))
        ret = -EFAULT;
    if (ret == 0) {
        ret = wait_ready(p, nfds, timeout_ns, 0);
        if (ret >= 0 && copy_to_user(ufds, p, bytes) != 0)
            ret = -EFAULT;
    }
    if (p != small)
        kfree(p);
    return ret;
}

SYSCALL_HANDLER(poll)
{
    int32_t ms = (int32_t)a[2];
    return do_poll(a[0], a[1], ms < 0 ? FOREVER : (uint64_t)ms * 1000000u);
}

/* A timespec from the program: 32-bit (old) or 64-bit fields; NULL is FOREVER. EINVAL for
 * a negative or malformed time, EFAULT. */
static int read_timeout(uint32_t uts, bool wide, uint64_t *ns)
{
    if (!uts) {
        *ns = FOREVER;
        return 0;
    }
    int64_t sec, nsec;
    if (wide) {
        int64_t ts[2];
        if (copy_from_user(ts, uts, sizeof ts) != 0)
            return -EFAULT;
        sec = ts[0];
        nsec = ts[1];
    } else {
        int32_t ts[2];
        if (copy_from_user(ts, uts, sizeof ts) != 0)
            return -EFAULT;
        sec = ts[0];
        nsec = ts[1];
    }
    if (sec < 0 || nsec < 0 || nsec >= (int64_t)NS_PER_SEC)
        return -EINVAL;
    *ns = (uint64_t)sec >= FOREVER / NS_PER_SEC / 2 ? FOREVER
                                                   : (uint64_t)sec * NS_PER_SEC + (uint64_t)nsec;
    return 0;
}

/* Writes the time left back to a program's timespec/timeval (select and pselect do; a
 * failure to write is not the call's failure, as on Linux). */
static void write_left(uint32_t uts, bool wide, bool micro, uint64_t left)
{
    if (!uts || left == FOREVER)
        return;
    int64_t sec = (int64_t)(left / NS_PER_SEC);
    int64_t frac = (int64_t)(left % NS_PER_SEC) / (micro ? 1000 : 1);
    if (wide) {
        int64_t ts[2] = { sec, frac };
        copy_to_user(uts, ts, sizeof ts);
    } else {
        int32_t ts[2] = { (int32_t)sec, (int32_t)frac };
        copy_to_user(uts, ts, sizeof ts);
    }
}

static int32_t do_ppoll(const uint32_t a[SYSCALL_ARGS_MAX], bool wide)
{
    uint64_t ns;
    int err = read_timeout(a[2], wide, &ns);
    if (err)
        return err;
    kernel_sigset_t saved;
    err = swap_sigmask(a[3], a[4], &saved);
    if (err)
        return err;
    int32_t ret = do_poll(a[0], a[1], ns);
    current->sig.blocked = saved;
    return ret;
}

SYSCALL_HANDLER(ppoll_time32) { return do_ppoll(a, false); }

SYSCALL_HANDLER(ppoll) { return do_ppoll(a, true); }

/* select's core over three fd_sets of n descriptors: EBADF for a set bit of a descriptor
 * not open; the sets come back with only the ready bits. */
static int32_t do_select(int32_t n, uint32_t uin, uint32_t uout, uint32_t uex,
                         uint64_t timeout_ns, uint64_t *left)
{
    if (n < 0)
        return -EINVAL;
    if ((uint32_t)n > TASK_FILES_MAX)
        n = TASK_FILES_MAX; /* Linux caps n at the descriptor table's size */
    uint32_t bytes = ((uint32_t)n + 31) / 32 * 4;
    uint32_t in[TASK_FILES_MAX / 32 + 1] = { 0 }, out[TASK_FILES_MAX / 32 + 1] = { 0 },
             ex[TASK_FILES_MAX / 32 + 1] = { 0 };
    if ((uin && copy_from_user(in, uin, bytes)) || (uout && copy_from_user(out, uout, bytes)) ||
        (uex && copy_from_user(ex, uex, bytes)))
        return -EFAULT;
    struct pollfd p[TASK_FILES_MAX];
    uint32_t count = 0;
    for (int32_t fd = 0; fd < n; fd++) {
        uint32_t bit = 1u << (fd % 32), w = (uint32_t)fd / 32;
        int16_t events = (int16_t)((in[w] & bit ? POLLIN : 0) | (out[w] & bit ? POLLOUT : 0) |
                                   (ex[w] & bit ? POLLPRI : 0));
        if (!events)
            continue;
        if (!fd_file((uint32_t)fd))
            return -EBADF;
        p[count++] = (struct pollfd){ .fd = fd, .events = events };
    }
    int32_t ret = wait_ready(p, count, timeout_ns, left);
    if (ret < 0)
        return ret;
    memset(in, 0, sizeof in);
    memset(out, 0, sizeof out);
    memset(ex, 0, sizeof ex);
    int32_t bits = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t bit = 1u << (p[i].fd % 32), w = (uint32_t)p[i].fd / 32;
        uint16_t r = (uint16_t)p[i].revents;
        if ((p[i].events & POLLIN) && (r & (POLLIN | POLLHUP | POLLERR)))
            in[w] |= bit, bits++;
        if ((p[i].events & POLLOUT) && (r & (POLLOUT | POLLERR)))
            out[w] |= bit, bits++;
        if ((p[i].events & POLLPRI) && (r & POLLPRI))
            ex[w] |= bit, bits++;
    }
    if ((uin && copy_to_user(uin, in, bytes)) || (uout && copy_to_user(uout, out, bytes)) ||
        (uex && copy_to_user(uex, ex, bytes)))
        return -EFAULT;
    return bits;
}

/* _newselect's timeval: NULL is forever; EINVAL for a negative or malformed one. */
static int read_timeval(uint32_t utv, uint64_t *ns)
{
    if (!utv) {
        *ns = FOREVER;
        return 0;
    }
    int32_t tv[2];
    if (copy_from_user(tv, utv, sizeof tv) != 0)
        return -EFAULT;
    if (tv[0] < 0 || tv[1] < 0 || tv[1] >= 1000000)
        return -EINVAL;
    *ns = (uint64_t)tv[0] * NS_PER_SEC + (uint64_t)tv[1] * 1000u;
    return 0;
}

SYSCALL_HANDLER(select)
{
    uint64_t ns, left;
    int err = read_timeval(a[4], &ns);
    if (err)
        return err;
    int32_t ret = do_select((int32_t)a[0], a[1], a[2], a[3], ns, &left);
    if (ret >= 0 || ret == -EINTR)
        write_left(a[4], false, true, left);
    return ret;
}

/* The old select (82): one pointer to its five arguments. */
SYSCALL_HANDLER(old_select)
{
    uint32_t args[SYSCALL_ARGS_MAX] = { 0 };
    if (copy_from_user(args, a[0], 5 * sizeof(uint32_t)) != 0)
        return -EFAULT;
    return sys_select(args);
}

static int32_t do_pselect(const uint32_t a[SYSCALL_ARGS_MAX], bool wide)
{
    uint64_t ns, left;
    int err = read_timeout(a[4], wide, &ns);
    if (err)
        return err;
    kernel_sigset_t saved = current->sig.blocked;
    if (a[5]) { /* { const sigset_t *ss; size_t ss_len } */
        uint32_t sig[2];
        if (copy_from_user(sig, a[5], sizeof sig) != 0)
            return -EFAULT;
        err = swap_sigmask(sig[0], sig[1], &saved);
        if (err)
            return err;
    }
    int32_t ret = do_select((int32_t)a[0], a[1], a[2], a[3], ns, &left);
    current->sig.blocked = saved;
    if (ret >= 0 || ret == -EINTR)
        write_left(a[4], wide, false, left);
    return ret;
}

SYSCALL_HANDLER(pselect6_time32) { return do_pselect(a, false); }

SYSCALL_HANDLER(pselect6) { return do_pselect(a, true); }
