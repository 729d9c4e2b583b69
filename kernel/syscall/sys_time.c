/*
 * sys_time.c - the clocks: time, gettimeofday, clock_gettime (time32 and time64),
 * clock_getres (both), clock_nanosleep (both), with Linux's clock ids and errors.
 *
 * CLOCK_REALTIME is the wall clock (kernel/wall_clock.h: the CMOS clock read once, then the
 * cycle counter), and so is CLOCK_TAI (Linux's TAI offset is 0 until NTP sets it); MONOTONIC, MONOTONIC_RAW and BOOTTIME are time since boot (the machine
 * never suspends, so BOOTTIME equals MONOTONIC); the COARSE clocks read the same counter
 * and say so by their tick-sized resolution, as Linux's do; PROCESS_CPUTIME_ID and
 * THREAD_CPUTIME_ID are the caller's CPU time (one thread per process). Other ids,
 * including the negative ones Linux gives to other processes' CPU clocks, are EINVAL.
 */
#include "kernel/arch.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/sched.h"
#include "kernel/proc/task_internal.h"
#include "kernel/syscall/syscall_handlers.h"
#include "kernel/time.h"
#include "kernel/wall_clock.h"
#include "uapi/syscall.h"

#define NS_PER_SEC 1000000000u
/* The longest sleep: 2^62 ns, 146 years. A longer request sleeps this long, so that the
 * deadline (now + length) cannot wrap around and wake the sleeper at once. */
#define SLEEP_MAX_NS (1ull << 62)

int clock_now_ns(uint32_t clock, uint64_t *ns)
{
    switch (clock) {
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
    case CLOCK_TAI: /* REALTIME plus the TAI offset, which is 0 until someone sets it */
        *ns = wall_clock_ns();
        return 0;
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_MONOTONIC_COARSE:
    case CLOCK_BOOTTIME:
        *ns = time_ns();
        return 0;
    case CLOCK_PROCESS_CPUTIME_ID:
    case CLOCK_THREAD_CPUTIME_ID:
        *ns = task_cpu_time_ns(current);
        return 0;
    default:
        return -EINVAL;
    }
}

/* A clock's resolution: a tick for the COARSE ones (they are meant to be read cheaply and
 * Linux reports its tick), 1 ns for the rest, whose reading is the cycle counter's. */
static int clock_resolution_ns(uint32_t clock, uint32_t *ns)
{
    uint64_t unused;
    int err = clock_now_ns(clock, &unused);
    if (err)
        return err;
    *ns = clock == CLOCK_REALTIME_COARSE || clock == CLOCK_MONOTONIC_COARSE
              ? NS_PER_SEC / TICK_HZ : 1;
    return 0;
}

/* Copies ns to user memory as a struct timespec (time32) or timespec64. */
static int put_timespec(uint32_t user, uint64_t ns, bool time64)
{
    if (time64) {
        struct timespec64 ts = { (int64_t)(ns / NS_PER_SEC), (int64_t)(ns % NS_PER_SEC) };
        return copy_to_user(user, &ts, sizeof ts);
    }
    struct timespec ts = { (int32_t)(ns / NS_PER_SEC), (int32_t)(ns % NS_PER_SEC) };
    return copy_to_user(user, &ts, sizeof ts);
}

/* Reads a sleep request from user memory into *ns: -EFAULT, -EINVAL for negative seconds
 * or nanoseconds outside 0..999999999 (of a timespec64 the low 32 bits, as a 32-bit Linux
 * reads them). Times beyond 2^64 ns (584 years) are cut to that. */
static int get_timespec(uint32_t user, bool time64, uint64_t *ns)
{
    int64_t sec;
    int32_t nsec;
    if (time64) {
        struct timespec64 ts;
        if (copy_from_user(&ts, user, sizeof ts))
            return -EFAULT;
        sec = ts.tv_sec;
        nsec = (int32_t)(uint32_t)ts.tv_nsec;
    } else {
        struct timespec ts;
        if (copy_from_user(&ts, user, sizeof ts))
            return -EFAULT;
        sec = ts.tv_sec;
        nsec = ts.tv_nsec;
    }
    if (sec < 0 || nsec < 0 || nsec >= (int32_t)NS_PER_SEC)
        return -EINVAL;
    if ((uint64_t)sec > (UINT64_MAX - (uint64_t)nsec) / NS_PER_SEC)
        *ns = UINT64_MAX;
    else
        *ns = (uint64_t)sec * NS_PER_SEC + (uint32_t)nsec;
    return 0;
}

static int32_t do_clock_gettime(const uint32_t *a, bool time64)
{
    uint64_t now;
    int err = clock_now_ns(a[0], &now);
    return err ? err : put_timespec(a[1], now, time64);
}

static int32_t do_clock_getres(const uint32_t *a, bool time64)
{
    uint32_t res;
    int err = clock_resolution_ns(a[0], &res);
    if (err || !a[1])
        return err; /* a NULL tp only checks the clock, as Linux */
    return put_timespec(a[1], res, time64);
}

/*
 * clock_nanosleep: sleeps for the request, or until the clock reads it (TIMER_ABSTIME;
 * Linux ignores the other flag bits). Only the clocks one can wait on: REALTIME,
 * MONOTONIC, BOOTTIME (Linux's list but TAI, which tracekern does not have); the CPU-time
 * clocks are EINVAL here (Linux's thread clock is EINVAL too; its process clock would
 * wait for this very thread's CPU time, which a sleeping thread never spends). Killed:
 * EINTR, and a relative sleep writes what was left to rem, as Linux does for a signal.
 */
static int32_t do_clock_nanosleep(const uint32_t *a, bool time64)
{
    uint32_t clock = a[0], flags = a[1];
    if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC && clock != CLOCK_BOOTTIME &&
        clock != CLOCK_TAI)
        return -EINVAL;
    uint64_t request;
    int err = get_timespec(a[2], time64, &request);
    if (err)
        return err;
    uint64_t now;
    clock_now_ns(clock, &now);
    uint64_t ns = request;
    if (flags & TIMER_ABSTIME)
        ns = request > now ? request - now : 0;
    if (ns == 0)
        return 0;
    if (ns > SLEEP_MAX_NS)
        ns = SLEEP_MAX_NS;
    uint64_t end = time_ns() + ns;
    if (sleep_ns(ns) == 0)
        return 0;
    if (!(flags & TIMER_ABSTIME) && a[3]) {
        uint64_t after = time_ns(), left = end > after ? end - after : 0;
        if (put_timespec(a[3], left, time64))
            return -EFAULT;
    }
    return -EINTR;
}

SYSCALL_HANDLER(clock_gettime) { return do_clock_gettime(a, true); }
SYSCALL_HANDLER(clock_getres_time32) { return do_clock_getres(a, false); }
SYSCALL_HANDLER(clock_getres) { return do_clock_getres(a, true); }
SYSCALL_HANDLER(clock_nanosleep_time32) { return do_clock_nanosleep(a, false); }
SYSCALL_HANDLER(clock_nanosleep) { return do_clock_nanosleep(a, true); }

/* time(2): seconds of the wall clock, also stored at tloc unless it is NULL. */
SYSCALL_HANDLER(time32)
{
    int32_t now = (int32_t)(wall_clock_ns() / NS_PER_SEC);
    if (a[0] && copy_to_user(a[0], &now, sizeof now))
        return -EFAULT;
    return now;
}

/* gettimeofday(2): the wall clock in microseconds, and a zero timezone (UTC, no DST) as
 * Linux keeps it when nobody set one. Either pointer may be NULL. */
SYSCALL_HANDLER(gettimeofday)
{
    if (a[0]) {
        uint64_t ns = wall_clock_ns();
        struct timeval tv = { (int32_t)(ns / NS_PER_SEC), (int32_t)(ns % NS_PER_SEC / 1000) };
        if (copy_to_user(a[0], &tv, sizeof tv))
            return -EFAULT;
    }
    if (a[1]) {
        struct timezone tz = { 0, 0 };
        if (copy_to_user(a[1], &tz, sizeof tz))
            return -EFAULT;
    }
    return 0;
}
