/*
 * uaccess.h - reading and writing user memory from system calls, safely.
 *
 * Every address a user program hands the kernel is checked before use: it must lie in the
 * user part of the address space (USER_BASE .. USER_TOP) and be mapped with the user bit
 * (and the write bit, for the kernel to write it) in the current process's page tables. A
 * bad address gives -EFAULT, never a kernel page fault.
 */
#ifndef KERNEL_MM_UACCESS_H
#define KERNEL_MM_UACCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* True when [addr, addr+len) is user memory of the current process, writable if asked.
 * An empty range is fine at any user address, NULL included (Linux's access_ok): a
 * zero-length read or write touches nothing. */
bool user_range_ok(uint32_t addr, uint32_t len, bool write);

/* Copies len bytes; 0, or -EFAULT (and nothing copied) when the range is not all valid. */
int copy_from_user(void *dst, uint32_t user_src, uint32_t len);
int copy_to_user(uint32_t user_dst, const void *src, uint32_t len);

/* Copies a NUL-terminated string of at most size bytes (NUL included) into dst. Returns its
 * length, -EFAULT for a bad address, or -E2BIG when no NUL comes within size bytes. */
int copy_string_from_user(char *dst, uint32_t user_src, uint32_t size);
/* The length of the NUL-terminated user string at user_src, looking at most size bytes
 * (NUL included) far: its length, -EFAULT for a bad address, or -E2BIG when no NUL comes
 * within size bytes (Linux's strnlen_user, for execve's first pass). */
int user_strnlen(uint32_t user_src, uint32_t size);

#endif
