/*
 * poll.h - waiting for descriptors: poll and ppoll (struct pollfd and POLL* are
 * uapi/fs.h's, Linux's values).
 */
#ifndef _POLL_H
#define _POLL_H

#include <time.h>

#include "uapi/fs.h"

typedef unsigned int nfds_t;

/* The number of entries with revents set, 0 at the timeout (ms; negative: none), or -1. */
int poll(struct pollfd *fds, nfds_t nfds, int timeout);
/* poll with a timespec (NULL: none) and a signal mask for the wait (NULL: unchanged). */
int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout,
          const uint64_t *sigmask);

#endif
