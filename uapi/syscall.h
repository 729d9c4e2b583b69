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
/* Static glibc programs (issue 16, tests/linux/glibc_abi.c) */
#define SYS_pread64 180
#define SYS_pwrite64 181
/* Files and the terminal (issue 16). */
#define SYS_chdir 12
#define SYS_lseek 19
#define SYS_access 33
#define SYS_dup 41
#define SYS_pipe 42
#define SYS_fcntl 55
#define SYS_umask 60
#define SYS_dup2 63
#define SYS_select 82
#define SYS_readlink 85
#define SYS_stat 106
#define SYS_lstat 107
#define SYS_fstat 108
#define SYS_fchdir 133
#define SYS_llseek 140
#define SYS_getdents 141
#define SYS_newselect 142
#define SYS_poll 168
#define SYS_getcwd 183
#define SYS_stat64 195
#define SYS_lstat64 196
#define SYS_fstat64 197
#define SYS_getdents64 220
#define SYS_fcntl64 221
#define SYS_openat 295
#define SYS_fstatat64 300
#define SYS_readlinkat 305
#define SYS_faccessat 307
#define SYS_pselect6 308
#define SYS_ppoll 309
#define SYS_dup3 330
#define SYS_pipe2 331
#define SYS_statx 383
#define SYS_pselect6_time64 413
#define SYS_ppoll_time64 414
#define SYS_close_range 436
#define SYS_faccessat2 439
/* Processes (issue 16) */
#define SYS_fork 2
#define SYS_waitpid 7
#define SYS_execve 11
#define SYS_alarm 27
#define SYS_pause 29
#define SYS_kill 37
#define SYS_setpgid 57
#define SYS_getppid 64
#define SYS_getpgrp 65
#define SYS_setsid 66
#define SYS_setitimer 104
#define SYS_getitimer 105
#define SYS_wait4 114
#define SYS_clone 120
#define SYS_getpgid 132
#define SYS_getsid 147
#define SYS_rt_sigsuspend 179
#define SYS_vfork 190
#define SYS_gettid 224
#define SYS_tkill 238
#define SYS_set_thread_area 243
#define SYS_get_thread_area 244
#define SYS_set_tid_address 258
#define SYS_tgkill 270
#define SYS_set_robust_list 311
#define SYS_rseq 386 /* not in the table: ENOSYS, as a kernel before 4.18 answers */
/* Time, system information, limits and random numbers (issue 16). */
#define SYS_time 13
#define SYS_oldolduname 59
#define SYS_setrlimit 75
#define SYS_getrlimit 76
#define SYS_gettimeofday 78
#define SYS_olduname 109
#define SYS_sysinfo 116
#define SYS_uname 122
#define SYS_personality 136
#define SYS_sched_getparam 155
#define SYS_sched_getscheduler 157
#define SYS_sched_get_priority_max 159
#define SYS_sched_get_priority_min 160
#define SYS_ugetrlimit 191
#define SYS_sched_setaffinity 241
#define SYS_sched_getaffinity 242
#define SYS_clock_getres 266
#define SYS_clock_nanosleep 267
#define SYS_getcpu 318
#define SYS_prlimit64 340
#define SYS_getrandom 355
#define SYS_clock_gettime64 403
#define SYS_clock_getres_time64 406
#define SYS_clock_nanosleep_time64 407
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

/* busybox (issue 16): supplementary groups */
#define SYS_getgroups 80
#define SYS_setgroups 81
#define SYS_getgroups32 205
#define SYS_setgroups32 206
#define SYS_syslog 103
#define SYS_statfs 99
#define SYS_fstatfs 100
#define SYS_statfs64 268
#define SYS_fstatfs64 269

/* Memory: the process layout and its calls (issue 16), Linux i386's numbers and values. */
#define SYS_brk 45
#define SYS_mmap 90 /* old_mmap: one pointer to struct mmap_arg_struct */
#define SYS_mprotect 125
#define SYS_mremap 163
#define SYS_madvise 219
#define MAP_SHARED_VALIDATE 0x03
#define MAP_TYPE 0x0f
#define MAP_GROWSDOWN 0x0100
#define MAP_DENYWRITE 0x0800
#define MAP_EXECUTABLE 0x1000
#define MAP_LOCKED 0x2000
#define MAP_NORESERVE 0x4000
#define MAP_POPULATE 0x8000
#define MAP_NONBLOCK 0x10000
#define MAP_STACK 0x20000
#define MAP_HUGETLB 0x40000
#define MAP_SYNC 0x80000
#define MAP_FIXED_NOREPLACE 0x100000
#define PROT_GROWSDOWN 0x01000000
#define PROT_GROWSUP 0x02000000
#define MREMAP_MAYMOVE 1
#define MREMAP_FIXED 2
#define MREMAP_DONTUNMAP 4
#define MADV_NORMAL 0
#define MADV_RANDOM 1
#define MADV_SEQUENTIAL 2
#define MADV_WILLNEED 3
#define MADV_DONTNEED 4
#define MADV_FREE 8
#define MADV_DONTDUMP 16
#define MADV_DODUMP 17
#define MADV_COLD 20
#define MADV_PAGEOUT 21
/* Locking memory and port I/O for user-space drivers (issue 23), Linux i386's numbers. */
#define SYS_mlock 150
#define SYS_munlock 151
#define SYS_mlockall 152
#define SYS_munlockall 153
#define SYS_mlock2 376
#define MLOCK_ONFAULT 0x01
#define MCL_CURRENT 1
#define MCL_FUTURE 2
#define MCL_ONFAULT 4
#define SYS_ioperm 101
#define SYS_iopl 110
#define IO_PORTS 0x10000u /* Linux's IO_BITMAP_BITS: ioperm reaches ports 0 .. 0xffff */
/* old_mmap's argument block (Linux's struct mmap_arg_struct); offset in bytes. */
struct mmap_arg_struct {
    uint32_t addr, len, prot, flags, fd, offset;
};

/* Clocks (clock_gettime and friends), and clock_nanosleep's flag. */
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3
#define CLOCK_MONOTONIC_RAW 4
#define CLOCK_REALTIME_COARSE 5
#define CLOCK_MONOTONIC_COARSE 6
#define CLOCK_BOOTTIME 7
#define CLOCK_TAI 11
#define TIMER_ABSTIME 1

struct iovec {
    void *iov_base;
    uint32_t iov_len;
};
#define IOV_MAX 1024

struct timespec {
    int32_t tv_sec;
    int32_t tv_nsec;
};

/* The time64 calls' timespec (Linux's struct __kernel_timespec): 64-bit seconds, and
 * nanoseconds in 64 bits of which a 32-bit kernel reads the low 32. */
struct timespec64 {
    int64_t tv_sec;
    int64_t tv_nsec;
};

struct timeval {
    int32_t tv_sec;
    int32_t tv_usec;
};

struct timezone {
    int32_t tz_minuteswest;
    int32_t tz_dsttime;
};

/* uname(2): Linux's struct new_utsname; olduname's has the first five fields, and
 * oldolduname's five of 9 bytes. */
#define UTS_LEN 65
#define OLD_UTS_LEN 9
struct utsname {
    char sysname[UTS_LEN];
    char nodename[UTS_LEN];
    char release[UTS_LEN];
    char version[UTS_LEN];
    char machine[UTS_LEN];
    char domainname[UTS_LEN];
};

/* sysinfo(2), as i386 Linux lays it out (64 bytes); loads are fixed point, 1.0 = 65536. */
struct sysinfo {
    int32_t uptime;
    uint32_t loads[3];
    uint32_t totalram, freeram, sharedram, bufferram, totalswap, freeswap;
    uint16_t procs;
    uint16_t pad;
    uint32_t totalhigh, freehigh;
    uint32_t mem_unit;
    char _f[8];
};
#define SI_LOAD_SHIFT 16

/* Resource limits: getrlimit/setrlimit's 32-bit struct (ugetrlimit's infinity is all ones;
 * the old getrlimit's 0x7fffffff) and prlimit64's 64-bit one. */
#define RLIMIT_CPU 0
#define RLIMIT_FSIZE 1
#define RLIMIT_DATA 2
#define RLIMIT_STACK 3
#define RLIMIT_CORE 4
#define RLIMIT_RSS 5
#define RLIMIT_NPROC 6
#define RLIMIT_NOFILE 7
#define RLIMIT_MEMLOCK 8
#define RLIMIT_AS 9
#define RLIMIT_LOCKS 10
#define RLIMIT_SIGPENDING 11
#define RLIMIT_MSGQUEUE 12
#define RLIMIT_NICE 13
#define RLIMIT_RTPRIO 14
#define RLIMIT_RTTIME 15
#define RLIM_NLIMITS 16
#define RLIM_INFINITY 0xffffffffu
#define RLIM_OLD_INFINITY 0x7fffffffu
#define RLIM64_INFINITY 0xffffffffffffffffull
struct rlimit {
    uint32_t rlim_cur;
    uint32_t rlim_max;
};
struct rlimit64 {
    uint64_t rlim_cur;
    uint64_t rlim_max;
};

/* getrandom(2)'s flags. */
#define GRND_NONBLOCK 0x1
#define GRND_RANDOM 0x2
#define GRND_INSECURE 0x4

#define PER_LINUX 0
#define SCHED_OTHER 0

#define USER_PAGE_SIZE 4096u
/* The user half of the address space, as Linux i386 (docs/memory.md): from Debian's
 * vm.mmap_min_addr (nothing below it is ever mapped: the null page and its neighbours
 * fault) up to the kernel's direct map at 0xC0000000 (TASK_SIZE). Programs are linked at
 * 0x08048000 (user/user.ld), brk grows up from the end of the image, mmap places top-down
 * from USER_MMAP_BASE, and the stack grows down from USER_STACK_TOP to at most
 * USER_STACK_MAX (RLIMIT_STACK's default). */
#define USER_BASE 0x00010000u
#define USER_TEXT_BASE 0x08048000u /* where i386 toolchains link a program (ET_EXEC) */
#define USER_TOP 0xc0000000u
#define USER_STACK_TOP USER_TOP
#define USER_STACK_MAX (8u << 20)
/* Linux's mmap_base without randomisation: TASK_SIZE less the stack gap, which is the
 * stack limit plus the guard gap, but never under 128 MiB. */
#define USER_MMAP_BASE (USER_TOP - (128u << 20))

/* issue 18, trace instances: mkdir and rmdir (kernel/syscall/sys_dir.c). */
#define SYS_mkdir 39
#define SYS_rmdir 40

#endif
