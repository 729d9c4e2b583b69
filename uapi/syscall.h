/*
 * uapi/syscall.h - the system call interface between user programs and the kernel.
 *
 * Shared by the kernel (kernel/syscall/syscall.c) and the C library (user/lib). The numbers and the
 * calling convention are Linux's for i386, so that a reader who knows Linux recognises them:
 * `int $0x80` with the number in EAX and arguments in EBX, ECX, EDX, ESI, EDI, EBP; the
 * result comes back in EAX, a negative errno on failure.
 */
#ifndef UAPI_SYSCALL_H
#define UAPI_SYSCALL_H

#include <stdint.h>

#define SYSCALL_VECTOR 0x80

#define SYS_exit 1
#define SYS_read 3
#define SYS_write 4
#define SYS_open 5
#define SYS_close 6
#define SYS_getpid 20
#define SYS_ioctl 54
#define SYS_sigreturn 119
#define SYS_munmap 91
#define SYS_writev 146
#define SYS_sched_yield 158
#define SYS_nanosleep 162
#define SYS_rt_sigreturn 173
#define SYS_rt_sigaction 174
#define SYS_rt_sigprocmask 175
#define SYS_sigaltstack 186
#define SYS_mmap2 192
#define SYS_exit_group 252
#define SYS_clock_gettime 265
/* User and group ids: the 16-bit calls of the original i386 ABI, then their 32-bit forms. */
#define SYS_setuid 23
#define SYS_getuid 24
#define SYS_setgid 46
#define SYS_getgid 47
#define SYS_geteuid 49
#define SYS_getegid 50
#define SYS_setreuid 70
#define SYS_setregid 71
#define SYS_setresuid 164
#define SYS_getresuid 165
#define SYS_setresgid 170
#define SYS_getresgid 171
#define SYS_getuid32 199
#define SYS_getgid32 200
#define SYS_geteuid32 201
#define SYS_getegid32 202
#define SYS_setreuid32 203
#define SYS_setregid32 204
#define SYS_setresuid32 208
#define SYS_getresuid32 209
#define SYS_setresgid32 210
#define SYS_getresgid32 211
#define SYS_setuid32 213
#define SYS_setgid32 214
#define SYS_MAX 500 /* Linux's numbers stay below; unlisted ones are ENOSYS. tracekern's
                     * own IPC call is one number far above (uapi/ipc.h) */

/* open() flags (Linux's octal values). */
#define O_RDONLY 00
#define O_WRONLY 01
#define O_RDWR 02
#define O_ACCMODE 03
#define O_CREAT 0100
#define O_TRUNC 01000
#define O_APPEND 02000

/* mmap() protection and flags. */
#define PROT_NONE 0x0
#define PROT_READ 0x1
#define PROT_WRITE 0x2
#define PROT_EXEC 0x4
#define MAP_SHARED 0x01
#define MAP_PRIVATE 0x02
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20
#define MAP_FAILED ((void *)-1)

#define CLOCK_MONOTONIC 1

struct iovec {
    void *iov_base;
    uint32_t iov_len;
};
#define IOV_MAX 1024

struct timespec {
    int32_t tv_sec;
    int32_t tv_nsec;
};

#define USER_PAGE_SIZE 4096u
/* Where user programs live: the kernel's identity map stays below USER_BASE. */
#define USER_BASE 0x40000000u
#define USER_STACK_TOP 0xbf000000u
#define USER_TOP 0xc0000000u

#endif
