/*
 * unistd.h - the basic POSIX calls: read, write, close, getpid, user and group ids,
 * sleeping, sysconf, leaving.
 */
#ifndef _UNISTD_H
#define _UNISTD_H

#include <sys/types.h>

#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2

/* Each returns what the kernel returned, or -1 with errno set. */
ssize_t read(int fd, void *buf, size_t count);
ssize_t write(int fd, const void *buf, size_t count);
int close(int fd);
pid_t getpid(void);

/* User and group ids (the 32-bit calls, as glibc uses on i386). The get calls cannot fail;
 * the set calls return 0, or -1 with errno EPERM or EINVAL, as on Linux; (uid_t)-1 means
 * "leave this one" where Linux says so. */
uid_t getuid(void);
uid_t geteuid(void);
gid_t getgid(void);
gid_t getegid(void);
int setuid(uid_t uid);
int setgid(gid_t gid);
int setreuid(uid_t ruid, uid_t euid);
int setregid(gid_t rgid, gid_t egid);
int setresuid(uid_t ruid, uid_t euid, uid_t suid);
int setresgid(gid_t rgid, gid_t egid, gid_t sgid);
int getresuid(uid_t *ruid, uid_t *euid, uid_t *suid);
int getresgid(gid_t *rgid, gid_t *egid, gid_t *sgid);

/* Sleeps for seconds (returns 0) or microseconds (returns 0, or -1 with errno). */
unsigned int sleep(unsigned int seconds);
int usleep(useconds_t usec);

/* Ends the process at once with status (no stdout flush: see exit()). */
void _exit(int status) __attribute__((noreturn));

/* System configuration (sysconf), glibc's numbers for the names it knows: the page size,
 * the clock tick of times() (USER_HZ, 100 as on Linux), the CPUs (from sched_getaffinity),
 * the open-file limit (RLIMIT_NOFILE). Any other name: -1 with errno EINVAL. */
#define _SC_CLK_TCK 2
#define _SC_OPEN_MAX 4
#define _SC_PAGESIZE 30
#define _SC_PAGE_SIZE _SC_PAGESIZE
#define _SC_NPROCESSORS_CONF 83
#define _SC_NPROCESSORS_ONLN 84
long sysconf(int name);

/* Makes system call number with up to six arguments; returns the result, or -1 with errno
 * set. For calls that have no wrapper (and for testing numbers the kernel lacks). */
long syscall(long number, ...);

#endif
