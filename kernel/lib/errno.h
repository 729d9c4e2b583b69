/*
 * errno.h - error numbers, with Linux's values.
 *
 * Kernel functions return 0 or a negative errno (-ENOENT), as Linux does; user programs see
 * the same numbers, so tools written for Linux read our errors unchanged.
 */
#ifndef KERNEL_LIB_ERRNO_H
#define KERNEL_LIB_ERRNO_H

#include "uapi/errno.h"

/* The one-line description of -err or err, as strerror() would give it. */
const char *error_name(int err);

#endif
