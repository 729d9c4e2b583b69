/*
 * sys/stat.h - file status (stat, lstat, fstat, fstatat) and umask, as Linux's header
 * names them; struct stat is i386's struct stat64 (glibc's with 64-bit offsets), filled
 * by the stat64 calls.
 */
#ifndef _SYS_STAT_H
#define _SYS_STAT_H

#include <sys/types.h>

#include "uapi/fs.h"

struct stat {
    uint64_t st_dev __attribute__((aligned(4)));
    uint8_t __pad0[4];
    uint32_t __st_ino;
    uint32_t st_mode;
    uint32_t st_nlink;
    uint32_t st_uid;
    uint32_t st_gid;
    uint64_t st_rdev __attribute__((aligned(4)));
    uint8_t __pad3[4];
    int64_t st_size __attribute__((aligned(4)));
    uint32_t st_blksize;
    uint64_t st_blocks __attribute__((aligned(4)));
    uint32_t st_atime, st_atime_nsec;
    uint32_t st_mtime, st_mtime_nsec;
    uint32_t st_ctime, st_ctime_nsec;
    uint64_t st_ino __attribute__((aligned(4)));
};
_Static_assert(sizeof(struct stat) == sizeof(struct stat64), "struct stat is stat64");

/* Each returns 0, or -1 with errno set. */
int stat(const char *path, struct stat *st);
int lstat(const char *path, struct stat *st);
int fstat(int fd, struct stat *st);
int fstatat(int dirfd, const char *path, struct stat *st, int flags);
int statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *stx);
/* Sets the file mode creation mask; returns the previous one. */
mode_t umask(mode_t mask);

#endif
