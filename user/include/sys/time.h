/*
 * sys/time.h - gettimeofday(2): the wall clock (struct timeval, uapi/syscall.h) and a zero
 * timezone; and the interval timer: setitimer and getitimer (ITIMER_REAL: SIGALRM when it
 * runs out), with Linux's i386 struct itimerval. Each returns 0, or -1 with errno.
 */
#ifndef _SYS_TIME_H
#define _SYS_TIME_H

#include <sys/types.h>

#include "uapi/syscall.h"

struct itimerval {
    struct timeval it_interval; /* reloaded each time it runs out (0: once) */
    struct timeval it_value;    /* left until the next SIGALRM (0: disarmed) */
};

#define ITIMER_REAL 0
#define ITIMER_VIRTUAL 1
#define ITIMER_PROF 2

int gettimeofday(struct timeval *tv, struct timezone *tz);
int setitimer(int which, const struct itimerval *value, struct itimerval *old);
int getitimer(int which, struct itimerval *value);

#endif
