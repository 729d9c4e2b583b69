/*
 * errno.h - errno and the E* numbers (Linux's values, from uapi/errno.h).
 *
 * A failed system call wrapper returns -1 and leaves the kernel's error number here, as
 * libc does. One process has one thread, so errno is a plain global.
 */
#ifndef _ERRNO_H
#define _ERRNO_H

#include "uapi/errno.h"

extern int errno;

#endif
