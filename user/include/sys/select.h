/*
 * sys/select.h - select() over fd_sets (uapi/fs.h), with the FD_* macros.
 */
#ifndef _SYS_SELECT_H
#define _SYS_SELECT_H

#include <sys/types.h>

#include "uapi/fs.h"
#include "uapi/syscall.h" /* struct timeval */

#define FD_ZERO(set) __builtin_memset((set), 0, sizeof(fd_set))
#define FD_SET(fd, set) ((set)->fds_bits[(fd) / 32] |= 1u << ((fd) % 32))
#define FD_CLR(fd, set) ((set)->fds_bits[(fd) / 32] &= ~(1u << ((fd) % 32)))
#define FD_ISSET(fd, set) (((set)->fds_bits[(fd) / 32] >> ((fd) % 32)) & 1u)

/* The number of ready descriptors (the sets keep only them), 0 at the timeout, or -1.
 * The timeout (NULL: none) is updated to the time left, as Linux does. */
int select(int nfds, fd_set *readfds, fd_set *writefds, fd_set *exceptfds,
           struct timeval *timeout);

#endif
