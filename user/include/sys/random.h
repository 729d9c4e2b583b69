/*
 * sys/random.h - getrandom(2): up to len random bytes from the kernel (GRND_NONBLOCK,
 * GRND_RANDOM, GRND_INSECURE in uapi/syscall.h). Returns the bytes written, or -1 with
 * errno.
 */
#ifndef _SYS_RANDOM_H
#define _SYS_RANDOM_H

#include <sys/types.h>

#include "uapi/syscall.h"

ssize_t getrandom(void *buf, size_t len, unsigned int flags);

#endif
