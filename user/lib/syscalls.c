/*
 * syscalls.c - one wrapper per system call the programs use, and errno.
 *
 * Each wrapper passes its arguments to the kernel unchanged (the kernel, not the library,
 * checks pointers, so the programs see the kernel's own errors) and turns a -errno result
 * into -1 and errno, as libc does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/io.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "libc_internal.h"

int errno;

long syscall_result(long ret)
{
    if ((unsigned long)ret >= (unsigned long)-4095) {
        errno = (int)-ret;
        return -1;
    }
    return ret;
}

/* Shorthand: a call with up to five arguments, through the libc convention. */
#define SYS(nr, a1, a2, a3, a4, a5)                                                        \
    syscall_result(syscall_raw((nr), (long)(a1), (long)(a2), (long)(a3), (long)(a4),       \
                               (long)(a5), 0))

ssize_t read(int fd, void *buf, size_t count) { return SYS(SYS_read, fd, buf, count, 0, 0); }

ssize_t write(int fd, const void *buf, size_t count)
{
    return SYS(SYS_write, fd, buf, count, 0, 0);
}

ssize_t writev(int fd, const struct iovec *iov, int iovcnt)
{
    return SYS(SYS_writev, fd, iov, iovcnt, 0, 0);
}

/* mode is read only with O_CREAT, as the caller passes it only then. */
int open(const char *path, int flags, ...)
{
    long mode = 0;
    if (flags & O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, int);
        va_end(ap);
    }
    return SYS(SYS_open, path, flags, mode, 0, 0);
}

int close(int fd) { return SYS(SYS_close, fd, 0, 0, 0, 0); }

pid_t getpid(void) { return SYS(SYS_getpid, 0, 0, 0, 0, 0); }

uid_t getuid(void) { return (uid_t)SYS(SYS_getuid32, 0, 0, 0, 0, 0); }
uid_t geteuid(void) { return (uid_t)SYS(SYS_geteuid32, 0, 0, 0, 0, 0); }
gid_t getgid(void) { return (gid_t)SYS(SYS_getgid32, 0, 0, 0, 0, 0); }
gid_t getegid(void) { return (gid_t)SYS(SYS_getegid32, 0, 0, 0, 0, 0); }
int setuid(uid_t uid) { return SYS(SYS_setuid32, uid, 0, 0, 0, 0); }
int setgid(gid_t gid) { return SYS(SYS_setgid32, gid, 0, 0, 0, 0); }
int setreuid(uid_t ruid, uid_t euid) { return SYS(SYS_setreuid32, ruid, euid, 0, 0, 0); }
int setregid(gid_t rgid, gid_t egid) { return SYS(SYS_setregid32, rgid, egid, 0, 0, 0); }
int setresuid(uid_t r, uid_t e, uid_t s) { return SYS(SYS_setresuid32, r, e, s, 0, 0); }
int setresgid(gid_t r, gid_t e, gid_t s) { return SYS(SYS_setresgid32, r, e, s, 0, 0); }
int getresuid(uid_t *r, uid_t *e, uid_t *s) { return SYS(SYS_getresuid32, r, e, s, 0, 0); }
int getresgid(gid_t *r, gid_t *e, gid_t *s) { return SYS(SYS_getresgid32, r, e, s, 0, 0); }

/* Every ioctl takes one argument word; reading it as a pointer keeps all 32 bits. */
int ioctl(int fd, unsigned long request, ...)
{
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    return SYS(SYS_ioctl, fd, request, arg, 0, 0);
}

/* mmap2 counts the offset in 4096-byte pages; an offset that is not a whole number of pages
 * cannot be expressed, so it is EINVAL here, as in glibc. */
void *mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset)
{
    if (offset & (USER_PAGE_SIZE - 1)) {
        errno = EINVAL;
        return MAP_FAILED;
    }
    long ret = syscall_raw(SYS_mmap2, (long)addr, (long)length, prot, flags, fd,
                           (long)((unsigned long)offset / USER_PAGE_SIZE));
    return (void *)syscall_result(ret);
}

int munmap(void *addr, size_t length) { return SYS(SYS_munmap, addr, length, 0, 0, 0); }

int mlock(const void *addr, size_t len) { return SYS(SYS_mlock, addr, len, 0, 0, 0); }
int mlock2(const void *addr, size_t len, unsigned int flags)
{
    return SYS(SYS_mlock2, addr, len, flags, 0, 0);
}
int munlock(const void *addr, size_t len) { return SYS(SYS_munlock, addr, len, 0, 0, 0); }
int mlockall(int flags) { return SYS(SYS_mlockall, flags, 0, 0, 0, 0); }
int munlockall(void) { return SYS(SYS_munlockall, 0, 0, 0, 0, 0); }
int mprotect(void *addr, size_t len, int prot) { return SYS(SYS_mprotect, addr, len, prot, 0, 0); }
int madvise(void *addr, size_t length, int advice)
{
    return SYS(SYS_madvise, addr, length, advice, 0, 0);
}

int ioperm(unsigned long from, unsigned long num, int turn_on)
{
    return SYS(SYS_ioperm, from, num, turn_on, 0, 0);
}
int iopl(int level) { return SYS(SYS_iopl, level, 0, 0, 0, 0); }

int nanosleep(const struct timespec *req, struct timespec *rem)
{
    return SYS(SYS_nanosleep, req, rem, 0, 0, 0);
}

int clock_gettime(clockid_t id, struct timespec *tp)
{
    return SYS(SYS_clock_gettime, id, tp, 0, 0, 0);
}

/* exit_group, not exit: Linux's _exit() ends every thread of the process, and so does this. */
void _exit(int status)
{
    syscall_raw(SYS_exit_group, status, 0, 0, 0, 0, 0);
    for (;;)
        asm volatile("ud2"); /* exit_group returned: let the kernel kill us */
}

/* Reads six argument words whatever the call takes, as glibc's syscall() does: the extra
 * ones are whatever follows on the stack, and the kernel ignores them. */
long syscall(long number, ...)
{
    va_list ap;
    long a[6];
    va_start(ap, number);
    for (int i = 0; i < 6; i++)
        a[i] = va_arg(ap, long);
    va_end(ap);
    return syscall_result(syscall_raw(number, a[0], a[1], a[2], a[3], a[4], a[5]));
}
