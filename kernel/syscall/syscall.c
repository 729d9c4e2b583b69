/*
 * syscall.c - the system call table and the dispatcher every `int $0x80` goes through.
 *
 * The table is indexed by Linux's i386 numbers. Each entry names the call and its
 * arguments as Linux's SYSCALL_DEFINE does, which is what syscall tracepoints print
 * ("sys_write(fd: 1, buf: 40002000, count: c)"), under the names of Linux's i386 handlers
 * (mmap2 is sys_mmap_pgoff, nanosleep sys_nanosleep_time32, as in syscall_32.tbl).
 * exit_group is exit: processes have one thread. rseq (386) has no entry: ENOSYS, as
 * kernels before 4.18 answer, which glibc takes as "no rseq". tracekern's own IPC call, one
 * number far above Linux's (uapi/ipc.h), has a slot per operation after them (syscall.h).
 */
#include "kernel/syscall/syscall.h"

#include "kernel/lib/errno.h"
#include "kernel/notrace.h"
#include "kernel/proc/task_internal.h"
#include "kernel/syscall/syscall_handlers.h"
#include "uapi/ipc.h"

#define CALL(nr, fn, n, names, types) [nr] = { #fn, n, names, types, sys_##fn }
#define IPC_CALL(op, fn, n, names, types) \
    [SYSCALL_SLOT_IPC + (op)] = { #fn, n, names, types, sys_##fn }
#define ARGS(...) { __VA_ARGS__ }

static const struct syscall_info table[SYSCALL_SLOTS] = {
    CALL(SYS_exit, exit, 1, ARGS("error_code"), ARGS("int")),
    CALL(SYS_read, read, 3, ARGS("fd", "buf", "count"),
         ARGS("unsigned int", "char *", "size_t")),
    CALL(SYS_write, write, 3, ARGS("fd", "buf", "count"),
         ARGS("unsigned int", "const char *", "size_t")),
    CALL(SYS_open, open, 3, ARGS("filename", "flags", "mode"),
         ARGS("const char *", "int", "umode_t")),
    CALL(SYS_close, close, 1, ARGS("fd"), ARGS("unsigned int")),
    CALL(SYS_getpid, getpid, 0, ARGS(0), ARGS(0)),
    CALL(SYS_ioctl, ioctl, 3, ARGS("fd", "cmd", "arg"),
         ARGS("unsigned int", "unsigned int", "unsigned long")),
    CALL(SYS_munmap, munmap, 2, ARGS("addr", "len"), ARGS("unsigned long", "size_t")),
    CALL(SYS_writev, writev, 3, ARGS("fd", "vec", "vlen"),
         ARGS("unsigned long", "const struct iovec *", "unsigned long")),
    CALL(SYS_sched_yield, sched_yield, 0, ARGS(0), ARGS(0)),
    CALL(SYS_nanosleep, nanosleep_time32, 2, ARGS("rqtp", "rmtp"),
         ARGS("struct old_timespec32 *", "struct old_timespec32 *")),
    CALL(SYS_mmap2, mmap_pgoff, 6, ARGS("addr", "len", "prot", "flags", "fd", "pgoff"),
         ARGS("unsigned long", "unsigned long", "unsigned long", "unsigned long",
              "unsigned long", "unsigned long")),
    [SYS_exit_group] = { "exit_group", 1, ARGS("error_code"), ARGS("int"), sys_exit },
    CALL(SYS_clock_gettime, clock_gettime32, 2, ARGS("which_clock", "tp"),
         ARGS("clockid_t", "struct old_timespec32 *")),
    /* Ids: 16-bit (old_uid_t) calls under their 16 names, the 32-bit ones under Linux's. */
    CALL(SYS_getuid, getuid16, 0, ARGS(0), ARGS(0)),
    CALL(SYS_getgid, getgid16, 0, ARGS(0), ARGS(0)),
    CALL(SYS_geteuid, geteuid16, 0, ARGS(0), ARGS(0)),
    CALL(SYS_getegid, getegid16, 0, ARGS(0), ARGS(0)),
    CALL(SYS_setuid, setuid16, 1, ARGS("uid"), ARGS("old_uid_t")),
    CALL(SYS_setgid, setgid16, 1, ARGS("gid"), ARGS("old_gid_t")),
    CALL(SYS_setreuid, setreuid16, 2, ARGS("ruid", "euid"), ARGS("old_uid_t", "old_uid_t")),
    CALL(SYS_setregid, setregid16, 2, ARGS("rgid", "egid"), ARGS("old_gid_t", "old_gid_t")),
    CALL(SYS_setresuid, setresuid16, 3, ARGS("ruid", "euid", "suid"),
         ARGS("old_uid_t", "old_uid_t", "old_uid_t")),
    CALL(SYS_getresuid, getresuid16, 3, ARGS("ruidp", "euidp", "suidp"),
         ARGS("old_uid_t *", "old_uid_t *", "old_uid_t *")),
    CALL(SYS_setresgid, setresgid16, 3, ARGS("rgid", "egid", "sgid"),
         ARGS("old_gid_t", "old_gid_t", "old_gid_t")),
    CALL(SYS_getresgid, getresgid16, 3, ARGS("rgidp", "egidp", "sgidp"),
         ARGS("old_gid_t *", "old_gid_t *", "old_gid_t *")),
    CALL(SYS_getuid32, getuid, 0, ARGS(0), ARGS(0)),
    CALL(SYS_getgid32, getgid, 0, ARGS(0), ARGS(0)),
    CALL(SYS_geteuid32, geteuid, 0, ARGS(0), ARGS(0)),
    CALL(SYS_getegid32, getegid, 0, ARGS(0), ARGS(0)),
    CALL(SYS_setreuid32, setreuid, 2, ARGS("ruid", "euid"), ARGS("uid_t", "uid_t")),
    CALL(SYS_setregid32, setregid, 2, ARGS("rgid", "egid"), ARGS("gid_t", "gid_t")),
    CALL(SYS_setresuid32, setresuid, 3, ARGS("ruid", "euid", "suid"),
         ARGS("uid_t", "uid_t", "uid_t")),
    CALL(SYS_getresuid32, getresuid, 3, ARGS("ruidp", "euidp", "suidp"),
         ARGS("uid_t *", "uid_t *", "uid_t *")),
    CALL(SYS_setresgid32, setresgid, 3, ARGS("rgid", "egid", "sgid"),
         ARGS("gid_t", "gid_t", "gid_t")),
    CALL(SYS_getresgid32, getresgid, 3, ARGS("rgidp", "egidp", "sgidp"),
         ARGS("gid_t *", "gid_t *", "gid_t *")),
    CALL(SYS_setuid32, setuid, 1, ARGS("uid"), ARGS("uid_t")),
    CALL(SYS_setgid32, setgid, 1, ARGS("gid"), ARGS("gid_t")),
    /* Signals: the names of Linux's i386 handlers (kernel/signal.c, arch/x86/signal.c). */
    CALL(SYS_sigreturn, sigreturn, 0, ARGS(0), ARGS(0)),
    CALL(SYS_rt_sigreturn, rt_sigreturn, 0, ARGS(0), ARGS(0)),
    CALL(SYS_rt_sigaction, rt_sigaction, 4, ARGS("sig", "act", "oact", "sigsetsize"),
         ARGS("int", "const struct sigaction *", "struct sigaction *", "size_t")),
    CALL(SYS_rt_sigprocmask, rt_sigprocmask, 4, ARGS("how", "nset", "oset", "sigsetsize"),
         ARGS("int", "sigset_t *", "sigset_t *", "size_t")),
    CALL(SYS_sigaltstack, sigaltstack, 2, ARGS("uss", "uoss"),
         ARGS("const stack_t *", "stack_t *")),
    /* Static glibc programs (issue 16, tests/linux/glibc_abi.c): pread */
    CALL(SYS_pread64, ia32_pread64, 5, ARGS("fd", "ubuf", "count", "poslo", "poshi"),
         ARGS("unsigned int", "char *", "u32", "u32", "u32")),
    /* sysfs's resourceN and config at an offset (issue 23): pwrite */
    CALL(SYS_pwrite64, ia32_pwrite64, 5, ARGS("fd", "ubuf", "count", "poslo", "poshi"),
         ARGS("unsigned int", "const char *", "u32", "u32", "u32")),
    /* Files and the terminal (issue 16). */
    CALL(SYS_chdir, chdir, 1, ARGS("filename"),
         ARGS("const char *")),
    CALL(SYS_lseek, lseek, 3, ARGS("fd", "offset", "whence"),
         ARGS("unsigned int", "off_t", "unsigned int")),
    CALL(SYS_access, access, 2, ARGS("filename", "mode"),
         ARGS("const char *", "int")),
    CALL(SYS_dup, dup, 1, ARGS("fildes"),
         ARGS("unsigned int")),
    CALL(SYS_pipe, pipe, 1, ARGS("fildes"),
         ARGS("int *")),
    CALL(SYS_fcntl, fcntl, 3, ARGS("fd", "cmd", "arg"),
         ARGS("unsigned int", "unsigned int", "unsigned long")),
    CALL(SYS_umask, umask, 1, ARGS("mask"),
         ARGS("int")),
    CALL(SYS_dup2, dup2, 2, ARGS("oldfd", "newfd"),
         ARGS("unsigned int", "unsigned int")),
    CALL(SYS_select, old_select, 1, ARGS("arg"),
         ARGS("struct sel_arg_struct *")),
    CALL(SYS_readlink, readlink, 3, ARGS("path", "buf", "bufsiz"),
         ARGS("const char *", "char *", "int")),
    CALL(SYS_stat, newstat, 2, ARGS("filename", "statbuf"),
         ARGS("const char *", "struct stat *")),
    CALL(SYS_lstat, newlstat, 2, ARGS("filename", "statbuf"),
         ARGS("const char *", "struct stat *")),
    CALL(SYS_fstat, newfstat, 2, ARGS("fd", "statbuf"),
         ARGS("unsigned int", "struct stat *")),
    CALL(SYS_fchdir, fchdir, 1, ARGS("fd"),
         ARGS("unsigned int")),
    CALL(SYS_llseek, llseek, 5, ARGS("fd", "offset_high", "offset_low", "result", "whence"),
         ARGS("unsigned int", "unsigned long", "unsigned long", "loff_t *", "unsigned int")),
    CALL(SYS_getdents, getdents, 3, ARGS("fd", "dirent", "count"),
         ARGS("unsigned int", "struct linux_dirent *", "unsigned int")),
    CALL(SYS_newselect, select, 5, ARGS("n", "inp", "outp", "exp", "tvp"),
         ARGS("int", "fd_set *", "fd_set *", "fd_set *", "struct __kernel_old_timeval *")),
    CALL(SYS_poll, poll, 3, ARGS("ufds", "nfds", "timeout_msecs"),
         ARGS("struct pollfd *", "unsigned int", "int")),
    CALL(SYS_getcwd, getcwd, 2, ARGS("buf", "size"),
         ARGS("char *", "unsigned long")),
    CALL(SYS_stat64, stat64, 2, ARGS("filename", "statbuf"),
         ARGS("const char *", "struct stat64 *")),
    CALL(SYS_lstat64, lstat64, 2, ARGS("filename", "statbuf"),
         ARGS("const char *", "struct stat64 *")),
    CALL(SYS_fstat64, fstat64, 2, ARGS("fd", "statbuf"),
         ARGS("unsigned long", "struct stat64 *")),
    CALL(SYS_getdents64, getdents64, 3, ARGS("fd", "dirent", "count"),
         ARGS("unsigned int", "struct linux_dirent64 *", "unsigned int")),
    CALL(SYS_fcntl64, fcntl64, 3, ARGS("fd", "cmd", "arg"),
         ARGS("unsigned int", "unsigned int", "unsigned long")),
    CALL(SYS_openat, openat, 4, ARGS("dfd", "filename", "flags", "mode"),
         ARGS("int", "const char *", "int", "umode_t")),
    CALL(SYS_fstatat64, fstatat64, 4, ARGS("dfd", "filename", "statbuf", "flag"),
         ARGS("int", "const char *", "struct stat64 *", "int")),
    CALL(SYS_readlinkat, readlinkat, 4, ARGS("dfd", "pathname", "buf", "bufsiz"),
         ARGS("int", "const char *", "char *", "int")),
    CALL(SYS_faccessat, faccessat, 3, ARGS("dfd", "filename", "mode"),
         ARGS("int", "const char *", "int")),
    CALL(SYS_pselect6, pselect6_time32, 6, ARGS("n", "inp", "outp", "exp", "tsp", "sig"),
         ARGS("int", "fd_set *", "fd_set *", "fd_set *", "struct old_timespec32 *", "void *")),
    CALL(SYS_ppoll, ppoll_time32, 5, ARGS("ufds", "nfds", "tsp", "sigmask", "sigsetsize"),
         ARGS("struct pollfd *", "unsigned int", "struct old_timespec32 *", "const sigset_t *", "size_t")),
    CALL(SYS_dup3, dup3, 3, ARGS("oldfd", "newfd", "flags"),
         ARGS("unsigned int", "unsigned int", "int")),
    CALL(SYS_pipe2, pipe2, 2, ARGS("fildes", "flags"),
         ARGS("int *", "int")),
    CALL(SYS_statx, statx, 5, ARGS("dfd", "filename", "flags", "mask", "buffer"),
         ARGS("int", "const char *", "unsigned", "unsigned int", "struct statx *")),
    CALL(SYS_pselect6_time64, pselect6, 6, ARGS("n", "inp", "outp", "exp", "tsp", "sig"),
         ARGS("int", "fd_set *", "fd_set *", "fd_set *", "struct __kernel_timespec *", "void *")),
    CALL(SYS_ppoll_time64, ppoll, 5, ARGS("ufds", "nfds", "tsp", "sigmask", "sigsetsize"),
         ARGS("struct pollfd *", "unsigned int", "struct __kernel_timespec *", "const sigset_t *", "size_t")),
    CALL(SYS_close_range, close_range, 3, ARGS("fd", "max_fd", "flags"),
         ARGS("unsigned int", "unsigned int", "unsigned int")),
    CALL(SYS_faccessat2, faccessat2, 4, ARGS("dfd", "filename", "mode", "flags"),
         ARGS("int", "const char *", "int", "int")),
    /* Processes (issue 16) */
    CALL(SYS_fork, fork, 0, ARGS(0), ARGS(0)),
    CALL(SYS_vfork, vfork, 0, ARGS(0), ARGS(0)),
    CALL(SYS_clone, clone, 5, ARGS("clone_flags", "newsp", "parent_tidptr", "tls", "child_tidptr"),
         ARGS("unsigned long", "unsigned long", "int *", "unsigned long", "int *")),
    CALL(SYS_execve, execve, 3, ARGS("filename", "argv", "envp"),
         ARGS("const char *", "const char *const *", "const char *const *")),
    CALL(SYS_waitpid, waitpid, 3, ARGS("pid", "stat_addr", "options"),
         ARGS("pid_t", "int *", "int")),
    CALL(SYS_wait4, wait4, 4, ARGS("upid", "stat_addr", "options", "ru"),
         ARGS("pid_t", "int *", "int", "struct rusage *")),
    CALL(SYS_getppid, getppid, 0, ARGS(0), ARGS(0)),
    CALL(SYS_gettid, gettid, 0, ARGS(0), ARGS(0)),
    CALL(SYS_kill, kill, 2, ARGS("pid", "sig"), ARGS("pid_t", "int")),
    CALL(SYS_tkill, tkill, 2, ARGS("pid", "sig"), ARGS("pid_t", "int")),
    CALL(SYS_tgkill, tgkill, 3, ARGS("tgid", "pid", "sig"), ARGS("pid_t", "pid_t", "int")),
    CALL(SYS_setpgid, setpgid, 2, ARGS("pid", "pgid"), ARGS("pid_t", "pid_t")),
    CALL(SYS_getpgid, getpgid, 1, ARGS("pid"), ARGS("pid_t")),
    CALL(SYS_getpgrp, getpgrp, 0, ARGS(0), ARGS(0)),
    CALL(SYS_setsid, setsid, 0, ARGS(0), ARGS(0)),
    CALL(SYS_getsid, getsid, 1, ARGS("pid"), ARGS("pid_t")),
    CALL(SYS_alarm, alarm, 1, ARGS("seconds"), ARGS("unsigned int")),
    CALL(SYS_setitimer, setitimer, 3, ARGS("which", "value", "ovalue"),
         ARGS("int", "struct __kernel_old_itimerval *", "struct __kernel_old_itimerval *")),
    CALL(SYS_getitimer, getitimer, 2, ARGS("which", "value"),
         ARGS("int", "struct __kernel_old_itimerval *")),
    CALL(SYS_pause, pause, 0, ARGS(0), ARGS(0)),
    CALL(SYS_rt_sigsuspend, rt_sigsuspend, 2, ARGS("unewset", "sigsetsize"),
         ARGS("sigset_t *", "size_t")),
    CALL(SYS_set_tid_address, set_tid_address, 1, ARGS("tidptr"), ARGS("int *")),
    CALL(SYS_set_robust_list, set_robust_list, 2, ARGS("head", "len"),
         ARGS("struct robust_list_head *", "size_t")),
    CALL(SYS_set_thread_area, set_thread_area, 1, ARGS("u_info"), ARGS("struct user_desc *")),
    CALL(SYS_get_thread_area, get_thread_area, 1, ARGS("u_info"), ARGS("struct user_desc *")),
    /* Memory: the process layout and its calls (issue 16) */
    CALL(SYS_brk, brk, 1, ARGS("brk"), ARGS("unsigned long")),
    CALL(SYS_mmap, old_mmap, 1, ARGS("arg"), ARGS("struct mmap_arg_struct *")),
    CALL(SYS_mprotect, mprotect, 3, ARGS("start", "len", "prot"),
         ARGS("unsigned long", "size_t", "unsigned long")),
    CALL(SYS_mremap, mremap, 5, ARGS("addr", "old_len", "new_len", "flags", "new_addr"),
         ARGS("unsigned long", "unsigned long", "unsigned long", "unsigned long",
              "unsigned long")),
    CALL(SYS_madvise, madvise, 3, ARGS("start", "len_in", "behavior"),
         ARGS("unsigned long", "size_t", "int")),
    /* Locked memory and port I/O for user-space drivers (issue 23): sys_mlock.c,
     * arch/x86/ioport.c */
    CALL(SYS_mlock, mlock, 2, ARGS("start", "len"), ARGS("unsigned long", "size_t")),
    CALL(SYS_munlock, munlock, 2, ARGS("start", "len"), ARGS("unsigned long", "size_t")),
    CALL(SYS_mlockall, mlockall, 1, ARGS("flags"), ARGS("int")),
    CALL(SYS_munlockall, munlockall, 0, ARGS(0), ARGS(0)),
    CALL(SYS_mlock2, mlock2, 3, ARGS("start", "len", "flags"),
         ARGS("unsigned long", "size_t", "int")),
    CALL(SYS_ioperm, ioperm, 3, ARGS("from", "num", "turn_on"),
         ARGS("unsigned long", "unsigned long", "int")),
    CALL(SYS_iopl, iopl, 1, ARGS("level"), ARGS("unsigned int")),
    /* Time, system information, limits and random numbers (issue 16): sys_time.c,
     * sys_info.c. Handler names are Linux's i386 ones (syscall_32.tbl). */
    CALL(SYS_time, time32, 1, ARGS("tloc"), ARGS("old_time32_t *")),
    CALL(SYS_gettimeofday, gettimeofday, 2, ARGS("tv", "tz"),
         ARGS("struct __kernel_old_timeval *", "struct timezone *")),
    CALL(SYS_clock_gettime64, clock_gettime, 2, ARGS("which_clock", "tp"),
         ARGS("const clockid_t", "struct __kernel_timespec *")),
    CALL(SYS_clock_getres, clock_getres_time32, 2, ARGS("which_clock", "tp"),
         ARGS("clockid_t", "struct old_timespec32 *")),
    CALL(SYS_clock_getres_time64, clock_getres, 2, ARGS("which_clock", "tp"),
         ARGS("const clockid_t", "struct __kernel_timespec *")),
    CALL(SYS_clock_nanosleep, clock_nanosleep_time32, 4,
         ARGS("which_clock", "flags", "rqtp", "rmtp"),
         ARGS("clockid_t", "int", "struct old_timespec32 *", "struct old_timespec32 *")),
    CALL(SYS_clock_nanosleep_time64, clock_nanosleep, 4,
         ARGS("which_clock", "flags", "rqtp", "rmtp"),
         ARGS("const clockid_t", "int", "const struct __kernel_timespec *",
              "struct __kernel_timespec *")),
    CALL(SYS_uname, newuname, 1, ARGS("name"), ARGS("struct new_utsname *")),
    CALL(SYS_olduname, uname, 1, ARGS("name"), ARGS("struct old_utsname *")),
    CALL(SYS_oldolduname, olduname, 1, ARGS("name"), ARGS("struct oldold_utsname *")),
    CALL(SYS_sysinfo, sysinfo, 1, ARGS("info"), ARGS("struct sysinfo *")),
    CALL(SYS_getrlimit, old_getrlimit, 2, ARGS("resource", "rlim"),
         ARGS("unsigned int", "struct rlimit *")),
    CALL(SYS_ugetrlimit, getrlimit, 2, ARGS("resource", "rlim"),
         ARGS("unsigned int", "struct rlimit *")),
    CALL(SYS_setrlimit, setrlimit, 2, ARGS("resource", "rlim"),
         ARGS("unsigned int", "struct rlimit *")),
    CALL(SYS_prlimit64, prlimit64, 4, ARGS("pid", "resource", "new_rlim", "old_rlim"),
         ARGS("pid_t", "unsigned int", "const struct rlimit64 *", "struct rlimit64 *")),
    CALL(SYS_getrandom, getrandom, 3, ARGS("ubuf", "len", "flags"),
         ARGS("char *", "size_t", "unsigned int")),
    CALL(SYS_sched_setaffinity, sched_setaffinity, 3, ARGS("pid", "len", "user_mask_ptr"),
         ARGS("pid_t", "unsigned int", "unsigned long *")),
    CALL(SYS_sched_getaffinity, sched_getaffinity, 3, ARGS("pid", "len", "user_mask_ptr"),
         ARGS("pid_t", "unsigned int", "unsigned long *")),
    CALL(SYS_getcpu, getcpu, 3, ARGS("cpup", "nodep", "unused"),
         ARGS("unsigned *", "unsigned *", "struct getcpu_cache *")),
    CALL(SYS_sched_getscheduler, sched_getscheduler, 1, ARGS("pid"), ARGS("pid_t")),
    CALL(SYS_sched_getparam, sched_getparam, 2, ARGS("pid", "param"),
         ARGS("pid_t", "struct sched_param *")),
    CALL(SYS_sched_get_priority_max, sched_get_priority_max, 1, ARGS("policy"), ARGS("int")),
    CALL(SYS_sched_get_priority_min, sched_get_priority_min, 1, ARGS("policy"), ARGS("int")),
    CALL(SYS_personality, personality, 1, ARGS("personality"), ARGS("unsigned int")),
    /* busybox (issue 16): supplementary groups */
    CALL(SYS_getgroups, getgroups16, 2, ARGS("gidsetsize", "grouplist"),
         ARGS("int", "old_gid_t *")),
    CALL(SYS_setgroups, setgroups16, 2, ARGS("gidsetsize", "grouplist"),
         ARGS("int", "old_gid_t *")),
    CALL(SYS_getgroups32, getgroups, 2, ARGS("gidsetsize", "grouplist"), ARGS("int", "gid_t *")),
    CALL(SYS_setgroups32, setgroups, 2, ARGS("gidsetsize", "grouplist"), ARGS("int", "gid_t *")),
    /* busybox (issue 16): the kernel log (dmesg) */
    CALL(SYS_syslog, syslog, 3, ARGS("type", "buf", "len"), ARGS("int", "char *", "int")),
    /* busybox (issue 16): which file system (df) */
    CALL(SYS_statfs, statfs, 2, ARGS("pathname", "buf"), ARGS("const char *", "struct statfs *")),
    CALL(SYS_fstatfs, fstatfs, 2, ARGS("fd", "buf"), ARGS("unsigned int", "struct statfs *")),
    CALL(SYS_statfs64, statfs64, 3, ARGS("pathname", "sz", "buf"),
         ARGS("const char *", "size_t", "struct statfs64 *")),
    CALL(SYS_fstatfs64, fstatfs64, 3, ARGS("fd", "sz", "buf"),
         ARGS("unsigned int", "size_t", "struct statfs64 *")),
    /* tracekern's IPC: one number, SYS_tracekern_ipc; a slot per operation (syscall.h). */
    IPC_CALL(IPC_OP_CREATE, ipc_create, 1, ARGS("name"), ARGS("const char *")),
    IPC_CALL(IPC_OP_SEND, ipc_send, 3, ARGS("ep", "msg", "timeout_ms"),
             ARGS("int", "const struct ipc_msg *", "unsigned int")),
    IPC_CALL(IPC_OP_RECV, ipc_recv, 3, ARGS("ep", "msg", "timeout_ms"),
             ARGS("int", "struct ipc_msg *", "unsigned int")),
    IPC_CALL(IPC_OP_CALL, ipc_call, 4, ARGS("ep", "msg", "reply", "timeout_ms"),
             ARGS("int", "const struct ipc_msg *", "struct ipc_msg *", "unsigned int")),
    IPC_CALL(IPC_OP_REPLY, ipc_reply, 2, ARGS("token", "msg"),
             ARGS("unsigned int", "const struct ipc_msg *")),
    /* issue 20: register messages (arch/x86/ipc_regs.c; the fast path skips the table) */
    IPC_CALL(IPC_OP_CALL_REGS, ipc_call_regs, 5, ARGS("ep", "label", "word0", "word1", "timeout_ms"),
             ARGS("int", "unsigned int", "unsigned int", "unsigned int", "unsigned int")),
    IPC_CALL(IPC_OP_REPLY_RECV_REGS, ipc_reply_recv_regs, 5,
             ARGS("ep", "label", "word0", "word1", "token"),
             ARGS("int", "unsigned int", "unsigned int", "unsigned int", "unsigned int")),
    /* issue 18, trace instances (sys_dir.c). */
    CALL(SYS_mkdir, mkdir, 2, ARGS("pathname", "mode"), ARGS("const char *", "umode_t")),
    CALL(SYS_rmdir, rmdir, 1, ARGS("pathname"), ARGS("const char *")),
};

notrace const struct syscall_info *syscall_info(unsigned slot)
{
    return slot < SYSCALL_SLOTS && table[slot].handler ? &table[slot] : 0;
}

const struct syscall_tracer *volatile syscall_tracer; /* NULL: calls are untraced */

void syscall_set_tracer(const struct syscall_tracer *tracer) { syscall_tracer = tracer; }

/* Runs system call nr for the current process; returns what goes back in EAX. The tracer
 * calls are marked unlikely so that the compiler keeps them off the untraced path, which
 * then costs what the former flag test did (`make bench`: syscall_getpid). */
notrace int32_t syscall_dispatch(unsigned nr, const uint32_t args[SYSCALL_ARGS_MAX])
{
    current->syscalls++;
    const struct syscall_tracer *tracer = syscall_tracer;
    if (__builtin_expect(tracer != 0, 0))
        tracer->enter(nr, args);
    unsigned slot = syscall_slot(nr, args);
    const struct syscall_info *info = syscall_info(slot);
    int32_t ret = -ENOSYS;
    if (info && slot < SYS_MAX) {
        ret = info->handler(args);
    } else if (info) {
        uint32_t op_args[SYSCALL_ARGS_MAX];
        syscall_slot_args(slot, args, op_args);
        ret = info->handler(op_args);
    }
    tracer = syscall_tracer;
    if (__builtin_expect(tracer != 0, 0))
        tracer->exit(nr, args, ret);
    return ret;
}
