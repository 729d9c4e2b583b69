/*
 * time.h - sleeping and reading the clock: nanosleep(), clock_gettime(), struct timespec.
 */
#ifndef _TIME_H
#define _TIME_H

#include <sys/types.h>

#include "uapi/syscall.h"

/* Sleeps for *req; returns 0, or -1 with errno set (EINVAL for tv_nsec outside 0..999999999,
 * EFAULT for a bad pointer). rem, when not NULL, receives the time left. */
int nanosleep(const struct timespec *req, struct timespec *rem);
/* Stores the time of clock id (CLOCK_MONOTONIC: since boot) in *tp; 0, or -1 with errno. */
int clock_gettime(clockid_t id, struct timespec *tp);

/* Seconds since 1970 (UTC), also stored in *t unless t is NULL; -1 with errno on a bad t. */
time_t time(time_t *t);

#endif
