/*
 * fcntl.h - open() and its O_* flags (Linux's values, from uapi/syscall.h).
 */
#ifndef _FCNTL_H
#define _FCNTL_H

#include "uapi/syscall.h"

/* Opens path; returns a file descriptor, or -1 with errno set. mode is used with O_CREAT. */
int open(const char *path, int flags, ...);

#endif
