/*
 * sys/time.h - gettimeofday(2): the wall clock (struct timeval, uapi/syscall.h) and a zero
 * timezone. Returns 0, or -1 with errno.
 */
#ifndef _SYS_TIME_H
#define _SYS_TIME_H

#include "uapi/syscall.h"

int gettimeofday(struct timeval *tv, struct timezone *tz);

#endif
