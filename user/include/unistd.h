/*
 * unistd.h - the basic POSIX calls: read, write, close, getpid, user and group ids,
 * sleeping, sysconf, leaving.
 */
#ifndef _UNISTD_H
#define _UNISTD_H

#include <sys/types.h>

#include "uapi/fs.h"

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

/* Processes (issue 16): each returns what the kernel returned, or -1 with errno. fork
 * writes out what printf() buffered first; vfork's child may only call execve or _exit. */
extern char **environ; /* the environment the program started with (crt0) */
pid_t fork(void);
pid_t vfork(void);
int execve(const char *path, char *const argv[], char *const envp[]);
int execv(const char *path, char *const argv[]);
pid_t getppid(void);
pid_t gettid(void);
int setpgid(pid_t pid, pid_t pgid);
pid_t getpgid(pid_t pid);
pid_t getpgrp(void);
pid_t setsid(void);
pid_t getsid(pid_t pid);
unsigned int alarm(unsigned int seconds);
int pause(void);

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

/* Files and the terminal (issue 16). Each returns what the kernel returned, or -1 with
 * errno set. */
int dup(int fd);
int dup2(int oldfd, int newfd);
int dup3(int oldfd, int newfd, int flags);
int pipe(int fds[2]);
int pipe2(int fds[2], int flags);
off_t lseek(int fd, off_t offset, int whence);
/* Linux's pread64/pwrite64 at a 32-bit offset (the high half 0, or -1 for a negative one). */
ssize_t pread(int fd, void *buf, size_t count, off_t offset);
ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset);
ssize_t readlink(const char *path, char *buf, size_t size);
ssize_t readlinkat(int dirfd, const char *path, char *buf, size_t size);
int access(const char *path, int mode);
int faccessat(int dirfd, const char *path, int mode, int flags);
char *getcwd(char *buf, size_t size);
int chdir(const char *path);
int fchdir(int fd);
/* 1 when fd is a terminal, else 0 with errno (ENOTTY, EBADF). */
int isatty(int fd);

/* issue 18, trace instances: mkdir(2) (mode ignored by tracefs) and rmdir(2). */
int mkdir(const char *path, unsigned mode);
int rmdir(const char *path);

#endif
