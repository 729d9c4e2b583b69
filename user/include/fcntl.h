/*
 * fcntl.h - open() and its O_* flags (Linux's values, from uapi/syscall.h).
 */
#ifndef _FCNTL_H
#define _FCNTL_H

#include "uapi/fs.h"
#include "uapi/syscall.h"

/* Opens path; returns a file descriptor, or -1 with errno set. mode is used with O_CREAT. */
int open(const char *path, int flags, ...);

/* Files and the terminal (issue 16). Each returns what the kernel returned, or -1. */
int openat(int dirfd, const char *path, int flags, ...);
int fcntl(int fd, int cmd, ...);

#endif
