/*
 * system.c - what a program asks about the system: sysconf, uname, getrandom,
 * gettimeofday, time.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/random.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "libc_internal.h"

#define SYS(nr, a, b, c) syscall_result(syscall_raw(nr, (long)(a), (long)(b), (long)(c), 0, 0, 0))

/* The CPUs this process may run on: the bits of its affinity mask, as glibc counts them. */
static long online_cpus(void)
{
    uint32_t mask[8] = { 0 };
    long n = SYS(SYS_sched_getaffinity, 0, sizeof mask, mask);
    if (n < 0)
        return 1;
    long cpus = 0;
    for (unsigned i = 0; i < sizeof mask / sizeof mask[0]; i++)
        cpus += __builtin_popcount(mask[i]);
    return cpus > 0 ? cpus : 1;
}

long sysconf(int name)
{
    struct rlimit r;
    switch (name) {
    case _SC_PAGESIZE: return USER_PAGE_SIZE;
    case _SC_CLK_TCK: return 100;
    case _SC_NPROCESSORS_CONF:
    case _SC_NPROCESSORS_ONLN: return online_cpus();
    case _SC_OPEN_MAX:
        if (SYS(SYS_ugetrlimit, RLIMIT_NOFILE, &r, 0) < 0)
            return -1;
        return r.rlim_cur == RLIM_INFINITY ? -1 : (long)r.rlim_cur;
    default:
        errno = EINVAL;
        return -1;
    }
}

int uname(struct utsname *buf) { return (int)SYS(SYS_uname, buf, 0, 0); }

ssize_t getrandom(void *buf, size_t len, unsigned int flags)
{
    return SYS(SYS_getrandom, buf, len, flags);
}

int gettimeofday(struct timeval *tv, struct timezone *tz)
{
    return (int)SYS(SYS_gettimeofday, tv, tz, 0);
}

time_t time(time_t *t) { return SYS(SYS_time, t, 0, 0); }
