/*
 * sys/wait.h - waiting for child processes: waitpid, wait, wait4, and Linux's status
 * encoding (exit code << 8; or the signal that killed it, 0x80 for a core dump).
 */
#ifndef _SYS_WAIT_H
#define _SYS_WAIT_H

#include <sys/types.h>

#define WNOHANG 1
#define WUNTRACED 2

#define WEXITSTATUS(s) (((s) >> 8) & 0xff)
#define WTERMSIG(s) ((s) & 0x7f)
#define WIFEXITED(s) (WTERMSIG(s) == 0)
#define WIFSIGNALED(s) (((signed char)(((s) & 0x7f) + 1) >> 1) > 0)
#define WCOREDUMP(s) ((s) & 0x80)
#define WIFSTOPPED(s) (((s) & 0xff) == 0x7f)

/* Each returns the child's pid (0 with WNOHANG when none has ended), or -1 with errno
 * (ECHILD: no such child; EINTR: a signal came; EINVAL: bad options). */
pid_t waitpid(pid_t pid, int *status, int options);
pid_t wait(int *status);
pid_t wait4(pid_t pid, int *status, int options, void *rusage);

#endif
