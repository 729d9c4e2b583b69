/*
 * sys/mman.h - mapping memory: mmap() and munmap(), PROT_* and MAP_* (uapi/syscall.h).
 */
#ifndef _SYS_MMAN_H
#define _SYS_MMAN_H

#include <sys/types.h>

#include "uapi/syscall.h"

/* Maps length bytes (see mmap(2)); offset must be a multiple of 4096. Returns the address, or
 * MAP_FAILED with errno set. */
void *mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset);
/* Unmaps the pages of [addr, addr+length); returns 0, or -1 with errno set. */
int munmap(void *addr, size_t length);
/* Locking memory in place (issue 23), as Linux's: 0, or -1 with errno set. */
int mlock(const void *addr, size_t len);
int mlock2(const void *addr, size_t len, unsigned int flags);
int munlock(const void *addr, size_t len);
int mlockall(int flags);
int munlockall(void);
int madvise(void *addr, size_t length, int advice);
int mprotect(void *addr, size_t len, int prot);

#endif
