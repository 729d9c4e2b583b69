/*
 * unistd.h - the basic POSIX calls: read, write, close, getpid, sleeping, leaving.
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

/* Sleeps for seconds (returns 0) or microseconds (returns 0, or -1 with errno). */
unsigned int sleep(unsigned int seconds);
int usleep(useconds_t usec);

/* Ends the process at once with status (no stdout flush: see exit()). */
void _exit(int status) __attribute__((noreturn));

/* Makes system call number with up to six arguments; returns the result, or -1 with errno
 * set. For calls that have no wrapper (and for testing numbers the kernel lacks). */
long syscall(long number, ...);

#endif
