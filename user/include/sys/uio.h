/*
 * sys/uio.h - writev() and struct iovec (uapi/syscall.h).
 */
#ifndef _SYS_UIO_H
#define _SYS_UIO_H

#include <sys/types.h>

#include "uapi/syscall.h"

/* Writes the iovcnt buffers of iov, in order, as one write; returns the bytes written, or -1
 * with errno set. user_events takes [write_index, payload...] this way. */
ssize_t writev(int fd, const struct iovec *iov, int iovcnt);

#endif
