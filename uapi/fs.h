/*
 * uapi/fs.h - the structures and constants of Linux's i386 file, terminal and polling calls,
 * as the kernel writes them into user memory (stat64, statx, linux_dirent64, termios,
 * winsize, pollfd, fd_set) and the flag values programs pass (fcntl, *at, poll).
 *
 * The layouts are Linux's for i386 byte for byte (arch/x86/include/uapi/asm/stat.h,
 * include/uapi/linux/stat.h, asm-generic/termbits.h): 64-bit fields are given as they lie,
 * 4-byte aligned as the i386 ABI aligns them, and each size is checked below, so that a
 * glibc built for Linux reads them unchanged. Shared by the kernel and the user library.
 */
#ifndef UAPI_FS_H
#define UAPI_FS_H

#include <stdint.h>

/* st_mode's file types and the permission bits (Linux's S_IF*). */
#define S_IFMT 0170000
#define S_IFSOCK 0140000
#define S_IFLNK 0120000
#define S_IFREG 0100000
#define S_IFBLK 0060000
#define S_IFDIR 0040000
#define S_IFCHR 0020000
#define S_IFIFO 0010000
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#define S_ISLNK(m) (((m) & S_IFMT) == S_IFLNK)
#define S_ISCHR(m) (((m) & S_IFMT) == S_IFCHR)
#define S_ISFIFO(m) (((m) & S_IFMT) == S_IFIFO)

/* i386's struct stat64 (96 bytes): what stat64, lstat64, fstat64 and fstatat64 fill in. */
struct stat64 {
    uint64_t st_dev __attribute__((aligned(4)));
    uint8_t __pad0[4];
    uint32_t __st_ino; /* the low 32 bits of st_ino */
    uint32_t st_mode;
    uint32_t st_nlink;
    uint32_t st_uid;
    uint32_t st_gid;
    uint64_t st_rdev __attribute__((aligned(4)));
    uint8_t __pad3[4];
    int64_t st_size __attribute__((aligned(4)));
    uint32_t st_blksize;
    uint64_t st_blocks __attribute__((aligned(4))); /* 512-byte units */
    uint32_t st_atime_sec, st_atime_nsec;
    uint32_t st_mtime_sec, st_mtime_nsec;
    uint32_t st_ctime_sec, st_ctime_nsec;
    uint64_t st_ino __attribute__((aligned(4)));
};

/* i386's old struct stat (64 bytes): stat (106), lstat (107), fstat (108). Ids and the
 * link count are 16 bits; a value that does not fit is EOVERFLOW, as on Linux. */
struct old_kernel_stat32 {
    uint32_t st_dev;
    uint32_t st_ino;
    uint16_t st_mode;
    uint16_t st_nlink;
    uint16_t st_uid;
    uint16_t st_gid;
    uint32_t st_rdev;
    uint32_t st_size;
    uint32_t st_blksize;
    uint32_t st_blocks;
    uint32_t st_atime_sec, st_atime_nsec;
    uint32_t st_mtime_sec, st_mtime_nsec;
    uint32_t st_ctime_sec, st_ctime_nsec;
    uint32_t __unused4, __unused5;
};

/* struct statx (256 bytes), and the mask bits it fills in. */
struct statx_timestamp {
    int64_t tv_sec __attribute__((aligned(8)));
    uint32_t tv_nsec;
    int32_t __reserved;
};
struct statx {
    uint32_t stx_mask;
    uint32_t stx_blksize;
    uint64_t stx_attributes __attribute__((aligned(8)));
    uint32_t stx_nlink;
    uint32_t stx_uid;
    uint32_t stx_gid;
    uint16_t stx_mode;
    uint16_t __spare0;
    uint64_t stx_ino __attribute__((aligned(8)));
    uint64_t stx_size __attribute__((aligned(8)));
    uint64_t stx_blocks __attribute__((aligned(8)));
    uint64_t stx_attributes_mask __attribute__((aligned(8)));
    struct statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
    uint32_t stx_rdev_major, stx_rdev_minor;
    uint32_t stx_dev_major, stx_dev_minor;
    uint64_t stx_mnt_id __attribute__((aligned(8)));
    uint32_t stx_dio_mem_align, stx_dio_offset_align;
    uint64_t __spare3[12] __attribute__((aligned(8)));
};
#define STATX_TYPE 0x001u
#define STATX_MODE 0x002u
#define STATX_NLINK 0x004u
#define STATX_UID 0x008u
#define STATX_GID 0x010u
#define STATX_ATIME 0x020u
#define STATX_MTIME 0x040u
#define STATX_CTIME 0x080u
#define STATX_INO 0x100u
#define STATX_SIZE 0x200u
#define STATX_BLOCKS 0x400u
#define STATX_BASIC_STATS 0x7ffu
#define STATX__RESERVED 0x80000000u

/* The *at calls: the directory AT_FDCWD names, and their flags. */
#define AT_FDCWD (-100)
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_EACCESS 0x200
#define AT_SYMLINK_FOLLOW 0x400
#define AT_NO_AUTOMOUNT 0x800
#define AT_EMPTY_PATH 0x1000
#define AT_STATX_SYNC_TYPE 0x6000

/* access() modes. */
#define F_OK 0
#define X_OK 1
#define W_OK 2
#define R_OK 4

/* getdents64's record (d_reclen bytes, 8-aligned) and getdents's older one, whose d_type
 * is the last byte of the record; d_type values. */
struct linux_dirent64 {
    uint64_t d_ino __attribute__((aligned(4)));
    int64_t d_off __attribute__((aligned(4)));
    uint16_t d_reclen;
    uint8_t d_type;
    char d_name[];
};
struct linux_dirent {
    uint32_t d_ino;
    uint32_t d_off;
    uint16_t d_reclen;
    char d_name[];
};
#define DT_UNKNOWN 0
#define DT_FIFO 1
#define DT_CHR 2
#define DT_DIR 4
#define DT_REG 8
#define DT_LNK 10

/* lseek's whence. */
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

/* fcntl's commands and flags, and the open flags beside uapi/syscall.h's. */
#define F_DUPFD 0
#define F_GETFD 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define F_DUPFD_CLOEXEC 1030
#define FD_CLOEXEC 1
#define O_EXCL 0200
#define O_NOCTTY 0400
#define O_NONBLOCK 04000
#define O_DIRECTORY 0200000
#define O_NOFOLLOW 0400000
#define O_CLOEXEC 02000000
#define O_PATH 010000000
#define CLOSE_RANGE_UNSHARE 2
#define CLOSE_RANGE_CLOEXEC 4

/* The terminal: i386's struct termios (TCGETS/TCSETS*), its flags and c_cc indices. */
#define NCCS 19
struct termios {
    uint32_t c_iflag, c_oflag, c_cflag, c_lflag;
    uint8_t c_line;
    uint8_t c_cc[NCCS];
};
#define VINTR 0
#define VQUIT 1
#define VERASE 2
#define VKILL 3
#define VEOF 4
#define VTIME 5
#define VMIN 6
#define VSTART 8
#define VSTOP 9
#define VSUSP 10
#define VEOL 11
#define VWERASE 14
#define VLNEXT 15
/* c_iflag */
#define INLCR 0000100
#define IGNCR 0000200
#define ICRNL 0000400
#define IXON 0002000
/* c_oflag */
#define OPOST 0000001
#define ONLCR 0000004
/* c_cflag */
#define B38400 0000017
#define CS8 0000060
#define CREAD 0000200
#define HUPCL 0002000
#define CLOCAL 0004000
/* c_lflag */
#define ISIG 0000001
#define ICANON 0000002
#define ECHO 0000010
#define ECHOE 0000020
#define ECHOK 0000040
#define ECHONL 0000100
#define NOFLSH 0000200
#define ECHOCTL 0001000
#define ECHOKE 0004000
#define IEXTEN 0100000
struct winsize {
    uint16_t ws_row, ws_col, ws_xpixel, ws_ypixel;
};
/* ioctl requests of terminals (and FIONREAD of pipes too). */
#define TCGETS 0x5401
#define TCSETS 0x5402
#define TCSETSW 0x5403
#define TCSETSF 0x5404
#define TCFLSH 0x540B
#define TIOCSCTTY 0x540E
#define TIOCGPGRP 0x540F
#define TIOCSPGRP 0x5410
#define TIOCGWINSZ 0x5413
#define TIOCSWINSZ 0x5414
#define FIONREAD 0x541B
#define TIOCNOTTY 0x5422
#define TIOCGSID 0x5429

/* poll(). */
struct pollfd {
    int32_t fd;
    int16_t events;
    int16_t revents;
};
#define POLLIN 0x001
#define POLLPRI 0x002
#define POLLOUT 0x004
#define POLLERR 0x008
#define POLLHUP 0x010
#define POLLNVAL 0x020
#define POLLRDNORM 0x040
#define POLLWRNORM 0x100

/* select()'s descriptor sets: FD_SETSIZE bits in 32-bit words. */
#define FD_SETSIZE 1024
typedef struct {
    uint32_t fds_bits[FD_SETSIZE / 32];
} fd_set;

/* A pipe's capacity and the size up to which a write to it is atomic. */
#define PIPE_BUF 4096

_Static_assert(sizeof(struct stat64) == 96, "i386 struct stat64");
_Static_assert(sizeof(struct old_kernel_stat32) == 64, "i386 struct stat");
_Static_assert(sizeof(struct statx) == 256, "struct statx");
_Static_assert(sizeof(struct termios) == 36, "i386 struct termios");
_Static_assert(sizeof(struct linux_dirent64) == 19 + 1, "linux_dirent64 header");

#endif
