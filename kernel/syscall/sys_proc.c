/*
 * sys_proc.c - system calls about the process itself: exit, getpid, sched_yield,
 * nanosleep, clock_gettime.
 */
#include "kernel/lib/errno.h"
#include "kernel/proc/task_internal.h"
#include "kernel/proc/sched.h"
#include "kernel/syscall/syscall_handlers.h"
#include "kernel/time.h"
#include "kernel/mm/uaccess.h"
#include "uapi/syscall.h"

SYSCALL_HANDLER(exit) { task_exit((int)(a[0] & 0xff)); }

SYSCALL_HANDLER(getpid)
{
    (void)a;
    return current->pid;
}

SYSCALL_HANDLER(sched_yield)
{
    (void)a;
    sched_yield();
    return 0;
}

SYSCALL_HANDLER(nanosleep_time32)
{
    struct timespec req;
    if (copy_from_user(&req, a[0], sizeof req))
        return -EFAULT;
    if (req.tv_sec < 0 || req.tv_nsec < 0 || req.tv_nsec >= 1000000000)
        return -EINVAL;
    uint64_t ns = (uint64_t)req.tv_sec * 1000000000u + (uint32_t)req.tv_nsec;
    uint64_t end = time_ns() + ns;
    if (sleep_ns(ns) == 0)
        return 0;
    if (a[1]) { /* killed: say how much was left, as Linux does for a signal */
        uint64_t now = time_ns(), left = end > now ? end - now : 0;
        struct timespec rem = { (int32_t)(left / 1000000000u), (int32_t)(left % 1000000000u) };
        if (copy_to_user(a[1], &rem, sizeof rem))
            return -EFAULT;
    }
    return -EINTR;
}

SYSCALL_HANDLER(clock_gettime32)
{
    uint64_t now;
    int err = clock_now_ns(a[0], &now); /* sys_time.c: every clock id */
    if (err)
        return err;
    struct timespec ts = { (int32_t)(now / 1000000000u), (int32_t)(now % 1000000000u) };
    return copy_to_user(a[1], &ts, sizeof ts);
}
