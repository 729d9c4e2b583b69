/*
 * syscall.c - the system call table and the dispatcher every `int $0x80` goes through.
 *
 * The table is indexed by Linux's i386 numbers. Each entry names the call and its
 * arguments as Linux's SYSCALL_DEFINE does, which is what syscall tracepoints print
 * ("sys_write(fd: 1, buf: 40002000, count: c)"), under the names of Linux's i386 handlers
 * (mmap2 is sys_mmap_pgoff, nanosleep sys_nanosleep_time32, as in syscall_32.tbl).
 * exit_group is exit: processes have one thread.
 */
#include "kernel/syscall.h"

#include "kernel/errno.h"
#include "kernel/proc.h"
#include "kernel/syscalls.h"
#include "trace/trace_syscalls.h"
#include "uapi/ipc.h"

#define CALL(nr, fn, n, names, types) [nr] = { #fn, n, names, types, sys_##fn }
#define ARGS(...) { __VA_ARGS__ }

static const struct syscall_info table[SYS_MAX] = {
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
    /* Signals: the names of Linux's i386 handlers (kernel/signal.c, arch/x86/signal.c). */
    CALL(SYS_sigreturn, sigreturn, 0, ARGS(0), ARGS(0)),
    CALL(SYS_rt_sigreturn, rt_sigreturn, 0, ARGS(0), ARGS(0)),
    CALL(SYS_rt_sigaction, rt_sigaction, 4, ARGS("sig", "act", "oact", "sigsetsize"),
         ARGS("int", "const struct sigaction *", "struct sigaction *", "size_t")),
    CALL(SYS_rt_sigprocmask, rt_sigprocmask, 4, ARGS("how", "nset", "oset", "sigsetsize"),
         ARGS("int", "sigset_t *", "sigset_t *", "size_t")),
    CALL(SYS_sigaltstack, sigaltstack, 2, ARGS("uss", "uoss"),
         ARGS("const stack_t *", "stack_t *")),
    CALL(SYS_ipc_create, ipc_create, 1, ARGS("name"), ARGS("const char *")),
    CALL(SYS_ipc_send, ipc_send, 3, ARGS("ep", "msg", "timeout_ms"),
         ARGS("int", "const struct ipc_msg *", "unsigned int")),
    CALL(SYS_ipc_recv, ipc_recv, 3, ARGS("ep", "msg", "timeout_ms"),
         ARGS("int", "struct ipc_msg *", "unsigned int")),
    CALL(SYS_ipc_call, ipc_call, 4, ARGS("ep", "msg", "reply", "timeout_ms"),
         ARGS("int", "const struct ipc_msg *", "struct ipc_msg *", "unsigned int")),
    CALL(SYS_ipc_reply, ipc_reply, 2, ARGS("token", "msg"),
         ARGS("unsigned int", "const struct ipc_msg *")),
};

const struct syscall_info *syscall_info(unsigned nr)
{
    return nr < SYS_MAX && table[nr].handler ? &table[nr] : 0;
}

/* Runs system call nr for the current process; returns what goes back in EAX. */
int32_t syscall_dispatch(unsigned nr, const uint32_t args[SYSCALL_ARGS_MAX])
{
    current->syscalls++;
    if (trace_syscalls_active)
        trace_syscall_enter(nr, args);
    const struct syscall_info *info = syscall_info(nr);
    int32_t ret = info ? info->handler(args) : -ENOSYS;
    if (trace_syscalls_active)
        trace_syscall_exit(nr, ret);
    return ret;
}
