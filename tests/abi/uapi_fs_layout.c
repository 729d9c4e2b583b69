/*
 * uapi_fs_layout.c - uapi/fs.h's structures against Linux's own i386 headers (the host's
 * linux-libc-dev, compiled with -m32): every field at the same offset with the same size,
 * every constant the same value. Only compiled (`gcc -m32 -fsyntax-only`, tests/run_all.sh):
 * a mismatch is a compile error, and nothing runs on the host.
 *
 * uapi/fs.h's names that Linux's headers also define are renamed while it is included.
 */
#include <stddef.h>

#define stat64 tk_stat64
#define statx tk_statx
#define statx_timestamp tk_statx_timestamp
#define termios tk_termios
#define winsize tk_winsize
#define pollfd tk_pollfd
#define linux_dirent64 tk_linux_dirent64
#include "uapi/fs.h"
#undef stat64
#undef statx
#undef statx_timestamp
#undef termios
#undef winsize
#undef pollfd
#undef linux_dirent64

/* Keep uapi/fs.h's values, compare them with Linux's after its headers redefine them. */
enum {

    TK_AT_FDCWD = AT_FDCWD, TK_AT_EMPTY_PATH = AT_EMPTY_PATH,
    TK_AT_SYMLINK_NOFOLLOW = AT_SYMLINK_NOFOLLOW, TK_AT_EACCESS = AT_EACCESS,
    TK_O_NONBLOCK = O_NONBLOCK, TK_O_DIRECTORY = O_DIRECTORY, TK_O_NOFOLLOW = O_NOFOLLOW,
    TK_O_CLOEXEC = O_CLOEXEC, TK_F_DUPFD_CLOEXEC = F_DUPFD_CLOEXEC,
    TK_TCGETS = TCGETS, TK_TCSETSF = TCSETSF, TK_TIOCSPGRP = TIOCSPGRP,
    TK_TIOCGWINSZ = TIOCGWINSZ, TK_FIONREAD = FIONREAD, TK_ICANON = ICANON, TK_ECHOCTL = ECHOCTL,
    TK_IEXTEN = IEXTEN, TK_VMIN = VMIN, TK_VTIME = VTIME, TK_VEOF = VEOF, TK_POLLNVAL = POLLNVAL,
    TK_STATX_BASIC_STATS = STATX_BASIC_STATS,
};
#undef S_IFMT
#undef S_IFSOCK
#undef S_IFLNK
#undef S_IFREG
#undef S_IFBLK
#undef S_IFDIR
#undef S_IFCHR
#undef S_IFIFO
#undef S_ISDIR
#undef S_ISREG
#undef S_ISLNK
#undef S_ISCHR
#undef S_ISFIFO
#undef NCCS

#include <asm/ioctls.h>
#include <asm/poll.h>
#include <asm/stat.h>
#include <asm/termios.h>
#include <linux/fcntl.h>
#include <linux/stat.h>

#define SAME(type, field)                                                                  \
    _Static_assert(offsetof(struct tk_##type, field) == offsetof(struct type, field) &&     \
                       sizeof(((struct tk_##type *)0)->field) ==                           \
                           sizeof(((struct type *)0)->field),                              \
                   #type "." #field)
#define SAME_SIZE(type) _Static_assert(sizeof(struct tk_##type) == sizeof(struct type), #type)
#define SAME_VALUE(name) _Static_assert(TK_##name == name, #name)

SAME_SIZE(stat64);
SAME(stat64, st_dev);
SAME(stat64, __st_ino);
SAME(stat64, st_mode);
SAME(stat64, st_nlink);
SAME(stat64, st_uid);
SAME(stat64, st_gid);
SAME(stat64, st_rdev);
SAME(stat64, st_size);
SAME(stat64, st_blksize);
SAME(stat64, st_blocks);
_Static_assert(offsetof(struct tk_stat64, st_atime_sec) == offsetof(struct stat64, st_atime), "atime");
_Static_assert(offsetof(struct tk_stat64, st_mtime_sec) == offsetof(struct stat64, st_mtime), "mtime");
_Static_assert(offsetof(struct tk_stat64, st_ctime_sec) == offsetof(struct stat64, st_ctime), "ctime");
SAME(stat64, st_ino);

_Static_assert(sizeof(struct old_kernel_stat32) == sizeof(struct stat), "old stat");
_Static_assert(offsetof(struct old_kernel_stat32, st_mode) == offsetof(struct stat, st_mode), "old st_mode");
_Static_assert(offsetof(struct old_kernel_stat32, st_rdev) == offsetof(struct stat, st_rdev), "old st_rdev");
_Static_assert(offsetof(struct old_kernel_stat32, st_size) == offsetof(struct stat, st_size), "old st_size");
_Static_assert(offsetof(struct old_kernel_stat32, st_ctime_nsec) == offsetof(struct stat, st_ctime_nsec), "old ctime");

SAME_SIZE(statx);
SAME(statx, stx_mask);
SAME(statx, stx_blksize);
SAME(statx, stx_attributes);
SAME(statx, stx_nlink);
SAME(statx, stx_uid);
SAME(statx, stx_gid);
SAME(statx, stx_mode);
SAME(statx, stx_ino);
SAME(statx, stx_size);
SAME(statx, stx_blocks);
SAME(statx, stx_attributes_mask);
SAME(statx, stx_atime);
SAME(statx, stx_btime);
SAME(statx, stx_ctime);
SAME(statx, stx_mtime);
SAME(statx, stx_rdev_major);
SAME(statx, stx_rdev_minor);
SAME(statx, stx_dev_major);
SAME(statx, stx_dev_minor);

SAME_SIZE(termios);
SAME(termios, c_iflag);
SAME(termios, c_oflag);
SAME(termios, c_cflag);
SAME(termios, c_lflag);
SAME(termios, c_line);
SAME(termios, c_cc);

SAME_SIZE(winsize);
SAME(winsize, ws_row);
SAME(winsize, ws_col);

SAME_SIZE(pollfd);
SAME(pollfd, fd);
SAME(pollfd, events);
SAME(pollfd, revents);

SAME_VALUE(AT_FDCWD);
SAME_VALUE(AT_EMPTY_PATH);
SAME_VALUE(AT_SYMLINK_NOFOLLOW);
SAME_VALUE(AT_EACCESS);
SAME_VALUE(O_NONBLOCK);
SAME_VALUE(O_DIRECTORY);
SAME_VALUE(O_NOFOLLOW);
SAME_VALUE(O_CLOEXEC);
SAME_VALUE(F_DUPFD_CLOEXEC);
SAME_VALUE(TCGETS);
SAME_VALUE(TCSETSF);
SAME_VALUE(TIOCSPGRP);
SAME_VALUE(TIOCGWINSZ);
SAME_VALUE(FIONREAD);
SAME_VALUE(ICANON);
SAME_VALUE(ECHOCTL);
SAME_VALUE(IEXTEN);
SAME_VALUE(VMIN);
SAME_VALUE(VTIME);
SAME_VALUE(VEOF);
SAME_VALUE(POLLNVAL);
SAME_VALUE(STATX_BASIC_STATS);
