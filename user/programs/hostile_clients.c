/*
 * hostile_clients.c - attacks on issue 16's calls (run by tests/shell/hostile_clients.script
 * as user 1000): each asserts the exact refusal and the kernel stays up, the trace buffer
 * intact (the script checks its markers afterwards).
 *   - every output pointer of uname, sysinfo, the limits, the clocks, getrandom, getcpu and
 *     sched_getaffinity aimed at kernel memory or the program's read-only code: EFAULT, and
 *     the code is unchanged;
 *   - getrandom of 2 GiB into one page followed by a hole: only that page, at once;
 *   - sched_getaffinity with a huge length writes its 4 bytes and nothing more;
 *   - raising a limit (RLIMIT_NOFILE, RLIMIT_NPROC) or another process's: EPERM/ESRCH;
 *   - personality() asking for another ABI: EINVAL;
 *   - the old IPC numbers 400..402 and 404 (Linux's msgsnd, msgrcv, msgctl,
 *     clock_settime64) with a real message: ENOSYS, nothing sent; the IPC call
 *     with operations 5 and 0xffffffff: ENOSYS;
 *   - bad sleeps are EINVAL; an absolute sleep in the past returns at once;
 *   - with `persist`: deleting root's persistent user event, or making one: EPERM;
 *   - with `sleep`: a sleep of 2^63 seconds sleeps (until the script kills it).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <linux/user_events.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <tracekern/check.h>
#include <unistd.h>

#include "uapi/ipc.h"
#include "uapi/syscall.h"

#define KERNEL_ADDRESS 0xc0100000u
#define CODE ((uintptr_t)&main)

int main(int argc, char **argv);

/* Every output pointer at kernel memory and at the program's own read-only code. */
static void bad_pointers(void)
{
    static const struct {
        const char *what;
        long nr;
        int arg; /* which argument is the pointer */
        long a0;
    } calls[] = {
        { "uname", SYS_uname, 0, 0 },
        { "olduname", SYS_olduname, 0, 0 },
        { "oldolduname", SYS_oldolduname, 0, 0 },
        { "sysinfo", SYS_sysinfo, 0, 0 },
        { "ugetrlimit(NOFILE)", SYS_ugetrlimit, 1, RLIMIT_NOFILE },
        { "getrlimit(STACK)", SYS_getrlimit, 1, RLIMIT_STACK },
        { "clock_gettime64(MONOTONIC)", SYS_clock_gettime64, 1, CLOCK_MONOTONIC },
        { "clock_getres(REALTIME)", SYS_clock_getres, 1, CLOCK_REALTIME },
        { "gettimeofday", SYS_gettimeofday, 0, 0 },
        { "time", SYS_time, 0, 0 },
        { "getcpu", SYS_getcpu, 0, 0 },
    };
    uint8_t code_before[64];
    memcpy(code_before, (const void *)CODE, sizeof code_before);
    for (unsigned i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        for (int target = 0; target < 2; target++) {
            long a[3] = { calls[i].a0, 0, 0 };
            a[calls[i].arg] = target ? (long)CODE : (long)KERNEL_ADDRESS;
            char what[96];
            snprintf(what, sizeof what, "%s into %s", calls[i].what,
                     target ? "its own read-only code" : "kernel memory");
            check_call(what, syscall(calls[i].nr, a[0], a[1], a[2]), EFAULT);
        }
    }
    check_call("getrandom into kernel memory", syscall(SYS_getrandom, KERNEL_ADDRESS, 16, 0),
               EFAULT);
    check_call("getrandom into its own code", syscall(SYS_getrandom, CODE, 16, 0), EFAULT);
    check_true("its code is unchanged", memcmp(code_before, (const void *)CODE, 64) == 0);
}

static void lengths_and_limits(void)
{
    uint8_t *page = mmap(0, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(page + 4096, 4096);
    struct timespec64 t0, t1;
    syscall(SYS_clock_gettime64, CLOCK_MONOTONIC, &t0);
    check_number("getrandom(2 GiB) into one page before a hole: that page",
                 syscall(SYS_getrandom, page, 0x7fffffff, 0), 4096);
    syscall(SYS_clock_gettime64, CLOCK_MONOTONIC, &t1);
    check_true("... at once (under 100 ms)",
               (t1.tv_sec - t0.tv_sec) * 1000000000ll + (t1.tv_nsec - t0.tv_nsec) < 100000000);
    memset(page, 0xaa, 4096);
    check_number("sched_getaffinity(len 0x7ffffffc) writes 4 bytes",
                 syscall(SYS_sched_getaffinity, 0, 0x7ffffffc, page), 4);
    check_true("... and nothing after them", page[4] == 0xaa && page[4095] == 0xaa);
    munmap(page, 4096);

    struct rlimit more = { 64, 64 };
    check_call("raise RLIMIT_NOFILE", syscall(SYS_setrlimit, RLIMIT_NOFILE, &more), EPERM);
    struct rlimit64 huge = { RLIM64_INFINITY, RLIM64_INFINITY };
    check_call("prlimit64 RLIMIT_NPROC to unlimited",
               syscall(SYS_prlimit64, 0, RLIMIT_NPROC, &huge, 0), EPERM);
    check_call("prlimit64 of pid 1 (the init thread)",
               syscall(SYS_prlimit64, 1, RLIMIT_NOFILE, &huge, 0), EPERM);
    check_call("prlimit64 of a pid that does not exist",
               syscall(SYS_prlimit64, 77777, RLIMIT_NOFILE, 0, &huge), ESRCH);
    check_call("personality(PER_BSD)", syscall(SYS_personality, 6), EINVAL);
}

static void ipc_and_sleeps(void)
{
    struct ipc_msg m = { 1, 4, "ping" };
    for (long nr = 400; nr <= 404; nr++) {
        if (nr == SYS_clock_gettime64)
            continue; /* Linux's clock_gettime64 now: linux_calls checks it */
        char what[64];
        snprintf(what, sizeof what, "old IPC number %ld with a message to the name server", nr);
        check_call(what, syscall(nr, IPC_NAMESERVER, &m, &m, 0), ENOSYS);
    }
    check_call("IPC operation IPC_OPS (the first there is not)",
               syscall(SYS_tracekern_ipc, IPC_OPS, 0, 0, 0), ENOSYS);
    check_call("IPC operation 0xffffffff", syscall(SYS_tracekern_ipc, -1, 0, 0, 0), ENOSYS);
    struct timespec64 forever = { INT64_MAX, 999999999 };
    struct timespec64 bad = { 0, 1000000000 };
    check_call("clock_nanosleep_time64 with tv_nsec 1e9",
               syscall(SYS_clock_nanosleep_time64, CLOCK_MONOTONIC, 0, &bad, 0), EINVAL);
    check_call("absolute sleep until 1970",
               syscall(SYS_clock_nanosleep_time64, CLOCK_REALTIME, TIMER_ABSTIME,
                       &(struct timespec64){ 0, 0 }, 0), 0);
    check_call("clock_nanosleep on the thread CPU clock",
               syscall(SYS_clock_nanosleep_time64, CLOCK_THREAD_CPUTIME_ID, 0, &forever, 0),
               EINVAL);
}

/*
 * `hostile_clients persist`, run as user 1000 with its standard output redirected by root's
 * shell to user_events_data (so it holds a descriptor it could not open itself): deleting
 * root's persistent event and registering a persistent one of its own are EPERM, as Linux
 * asks CAP_PERFMON for both. Its check lines go to standard error.
 */
static int persist_attack(void)
{
    check_output(2);
    check_call("DIAG_IOCSDEL of root's persistent event ue_root_persist",
               ioctl(1, DIAG_IOCSDEL, "ue_root_persist"), EPERM);
    static volatile uint32_t word;
    struct user_reg reg = { 0 };
    reg.size = sizeof reg;
    reg.enable_size = 4;
    reg.flags = USER_EVENT_REG_PERSIST;
    reg.enable_addr = (uintptr_t)&word;
    reg.name_args = (uintptr_t)"ue_user_persist u32 a";
    check_call("register with USER_EVENT_REG_PERSIST", ioctl(1, DIAG_IOCSREG, &reg), EPERM);
    return check_summary("hostile_clients persist");
}

/* `hostile_clients sleep`: asks for the longest sleep a timespec64 can say (2^63 s); it
 * must sleep until killed, not wake at once because its deadline wrapped around. */
static int sleep_forever(void)
{
    struct timespec64 forever = { INT64_MAX, 999999999 };
    long ret = syscall(SYS_clock_nanosleep_time64, CLOCK_MONOTONIC, 0, &forever, 0);
    printf("hostile_clients: woke from the endless sleep (%ld)\n", ret);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "persist") == 0)
        return persist_attack();
    if (argc > 1 && strcmp(argv[1], "sleep") == 0)
        return sleep_forever();
    bad_pointers();
    lengths_and_limits();
    ipc_and_sleeps();
    return check_summary("hostile_clients");
}
