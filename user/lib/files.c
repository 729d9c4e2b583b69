/*
 * files.c - wrappers of the file, directory, pipe, terminal and polling calls (issue 16),
 * and the little library code above them: opendir/readdir, isatty, tcgetattr/tcsetattr,
 * getcwd's pointer result.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "libc_internal.h"

#define SYS(nr, a1, a2, a3, a4, a5)                                                        \
    syscall_result(syscall_raw((nr), (long)(a1), (long)(a2), (long)(a3), (long)(a4),       \
                               (long)(a5), 0))

int dup(int fd) { return SYS(SYS_dup, fd, 0, 0, 0, 0); }
int dup2(int oldfd, int newfd) { return SYS(SYS_dup2, oldfd, newfd, 0, 0, 0); }
int dup3(int oldfd, int newfd, int flags) { return SYS(SYS_dup3, oldfd, newfd, flags, 0, 0); }
int pipe(int fds[2]) { return SYS(SYS_pipe, fds, 0, 0, 0, 0); }
int pipe2(int fds[2], int flags) { return SYS(SYS_pipe2, fds, flags, 0, 0, 0); }
off_t lseek(int fd, off_t offset, int whence) { return SYS(SYS_lseek, fd, offset, whence, 0, 0); }
ssize_t pread(int fd, void *buf, size_t count, off_t offset)
{
    return SYS(SYS_pread64, fd, buf, count, offset, offset < 0 ? -1 : 0);
}
ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset)
{
    return SYS(SYS_pwrite64, fd, buf, count, offset, offset < 0 ? -1 : 0);
}
int access(const char *path, int mode) { return SYS(SYS_access, path, mode, 0, 0, 0); }
int chdir(const char *path) { return SYS(SYS_chdir, path, 0, 0, 0, 0); }
int fchdir(int fd) { return SYS(SYS_fchdir, fd, 0, 0, 0, 0); }
mode_t umask(mode_t mask) { return (mode_t)SYS(SYS_umask, mask, 0, 0, 0, 0); }

/* glibc's faccessat: flags go to faccessat2 when there are any. */
int faccessat(int dirfd, const char *path, int mode, int flags)
{
    if (flags)
        return SYS(SYS_faccessat2, dirfd, path, mode, flags, 0);
    return SYS(SYS_faccessat, dirfd, path, mode, 0, 0);
}

ssize_t readlink(const char *path, char *buf, size_t size)
{
    return SYS(SYS_readlink, path, buf, size, 0, 0);
}

ssize_t readlinkat(int dirfd, const char *path, char *buf, size_t size)
{
    return SYS(SYS_readlinkat, dirfd, path, buf, size, 0);
}

char *getcwd(char *buf, size_t size)
{
    return SYS(SYS_getcwd, buf, size, 0, 0, 0) < 0 ? 0 : buf;
}

/* mode is read only with O_CREAT, as open's. */
int openat(int dirfd, const char *path, int flags, ...)
{
    long mode = 0;
    if (flags & O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, int);
        va_end(ap);
    }
    return SYS(SYS_openat, dirfd, path, flags, mode, 0);
}

/* Every fcntl command takes one argument word (or none). */
int fcntl(int fd, int cmd, ...)
{
    va_list ap;
    va_start(ap, cmd);
    long arg = va_arg(ap, long);
    va_end(ap);
    return SYS(SYS_fcntl64, fd, cmd, arg, 0, 0);
}

int stat(const char *path, struct stat *st) { return SYS(SYS_stat64, path, st, 0, 0, 0); }
int lstat(const char *path, struct stat *st) { return SYS(SYS_lstat64, path, st, 0, 0, 0); }
int fstat(int fd, struct stat *st) { return SYS(SYS_fstat64, fd, st, 0, 0, 0); }

int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
    return SYS(SYS_fstatat64, dirfd, path, st, flags, 0);
}

int statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *stx)
{
    return SYS(SYS_statx, dirfd, path, flags, mask, stx);
}

ssize_t getdents64(int fd, void *buf, size_t count)
{
    return SYS(SYS_getdents64, fd, buf, count, 0, 0);
}

int poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
    return SYS(SYS_poll, fds, nfds, timeout, 0, 0);
}

int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout,
          const uint64_t *sigmask)
{
    return SYS(SYS_ppoll, fds, nfds, timeout, sigmask, sizeof *sigmask);
}

int select(int nfds, fd_set *readfds, fd_set *writefds, fd_set *exceptfds,
           struct timeval *timeout)
{
    return SYS(SYS_newselect, nfds, readfds, writefds, exceptfds, timeout);
}

int tcgetattr(int fd, struct termios *t) { return SYS(SYS_ioctl, fd, TCGETS, t, 0, 0); }

/* TCSANOW, TCSADRAIN, TCSAFLUSH are TCSETS, TCSETSW, TCSETSF. */
int tcsetattr(int fd, int when, const struct termios *t)
{
    if (when < TCSANOW || when > TCSAFLUSH) {
        errno = EINVAL;
        return -1;
    }
    return SYS(SYS_ioctl, fd, TCSETS + when, t, 0, 0);
}

void cfmakeraw(struct termios *t)
{
    t->c_iflag &= ~(uint32_t)(IGNCR | ICRNL | INLCR | IXON | 0000001 | 0000002 | 0000010 |
                              0000040);
    t->c_oflag &= ~(uint32_t)OPOST;
    t->c_lflag &= ~(uint32_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
    t->c_cflag = (t->c_cflag & ~(uint32_t)0000460) | CS8;
    t->c_cc[VMIN] = 1;
    t->c_cc[VTIME] = 0;
}

/* As glibc's: a terminal answers TCGETS. */
int isatty(int fd)
{
    struct termios t;
    return tcgetattr(fd, &t) == 0;
}

/* Directory streams: a few, statically (the library has no allocator). */
#define DIR_STREAMS 8
struct dir_stream {
    int fd;            /* -1: the slot is free */
    int pos, len;      /* the records in buf not yet handed out */
    char buf[2048];
    struct dirent entry;
};
static struct dir_stream streams[DIR_STREAMS];
static int streams_ready;

DIR *opendir(const char *path)
{
    if (!streams_ready) {
        for (int i = 0; i < DIR_STREAMS; i++)
            streams[i].fd = -1;
        streams_ready = 1;
    }
    DIR *d = 0;
    for (int i = 0; i < DIR_STREAMS && !d; i++)
        if (streams[i].fd < 0)
            d = &streams[i];
    if (!d) {
        errno = EMFILE;
        return 0;
    }
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    d->fd = fd;
    d->pos = d->len = 0;
    return d;
}

struct dirent *readdir(DIR *d)
{
    if (d->pos >= d->len) {
        int n = (int)getdents64(d->fd, d->buf, sizeof d->buf);
        if (n <= 0)
            return 0;
        d->len = n;
        d->pos = 0;
    }
    const struct linux_dirent64 *rec = (const void *)(d->buf + d->pos);
    d->pos += rec->d_reclen;
    d->entry.d_ino = rec->d_ino;
    d->entry.d_off = rec->d_off;
    d->entry.d_reclen = rec->d_reclen;
    d->entry.d_type = rec->d_type;
    int i = 0;
    for (; rec->d_name[i] && i < (int)sizeof d->entry.d_name - 1; i++)
        d->entry.d_name[i] = rec->d_name[i];
    d->entry.d_name[i] = '\0';
    return &d->entry;
}

int closedir(DIR *d)
{
    int err = close(d->fd);
    d->fd = -1;
    return err;
}

int dirfd(DIR *d) { return d->fd; }

/* issue 18, trace instances. */
int mkdir(const char *path, unsigned mode) { return SYS(SYS_mkdir, path, mode, 0, 0, 0); }
int rmdir(const char *path) { return SYS(SYS_rmdir, path, 0, 0, 0, 0); }
