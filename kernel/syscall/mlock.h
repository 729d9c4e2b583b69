/*
 * mlock.h - what the memory calls of sys_mem.c need of mlock (sys_mlock.c, issue 23):
 * Linux's RLIMIT_MEMLOCK rule for new locked pages, and locking a fresh mapping.
 */
#ifndef KERNEL_SYSCALL_MLOCK_H
#define KERNEL_SYSCALL_MLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* RLIMIT_MEMLOCK, soft and hard: Linux's default since 5.16 (MLOCK_LIMIT, 8 MiB), the
 * same for every process (sys_info.c's limits cannot be changed). Root (CAP_IPC_LOCK) is
 * not bound by it. */
#define MLOCK_LIMIT_BYTES (8u << 20)

/* Linux's mlock_future_check: whether the current process may have pages more locked
 * pages (root always may). sys_mem.c answers EAGAIN (mmap, mremap) when it may not. */
bool mlock_may_add(uint32_t pages);
/* After a mapping of [va, va + pages * PAGE_SIZE) was made: locks it when the call asked
 * (MAP_LOCKED, or a grown mapping that was locked) or mlockall(MCL_FUTURE) is in force. */
void mlock_new_pages(uint32_t va, uint32_t pages, bool asked);

#endif
