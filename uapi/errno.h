/*
 * uapi/errno.h - error numbers, with Linux's values.
 *
 * Kernel functions return 0 or a negative errno (-ENOENT), as Linux does, and system calls
 * hand the same number to user programs, so tools written for Linux read our errors
 * unchanged. Shared by the kernel (kernel/lib/errno.h) and the C library (user/lib).
 */
#ifndef UAPI_ERRNO_H
#define UAPI_ERRNO_H

#define EPERM 1
#define ENOENT 2
#define ESRCH 3
#define EINTR 4
#define EIO 5
#define ENXIO 6
#define E2BIG 7
#define ENOEXEC 8
#define EBADF 9
#define ECHILD 10
#define EAGAIN 11
#define ENOMEM 12
#define EACCES 13
#define EFAULT 14
#define EBUSY 16
#define EEXIST 17
#define ENODEV 19
#define ENOTDIR 20
#define EISDIR 21
#define EINVAL 22
#define EMFILE 24
#define ENOTTY 25
#define EFBIG 27
#define ENOSPC 28
#define ESPIPE 29
#define EPIPE 32
#define ERANGE 34
#define ENAMETOOLONG 36
#define ENOSYS 38
#define ENOTEMPTY 39
#define ELOOP 40
#define EOVERFLOW 75
#define EILSEQ 84 /* kprobes: a probe point that is no instruction boundary */
#define EMSGSIZE 90
#define EOPNOTSUPP 95
#define EADDRINUSE 98
#define ETIMEDOUT 110

#endif
