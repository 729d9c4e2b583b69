/*
 * linux_calls.c - the miscellaneous Linux calls of issue 16 from user space, raw (through
 * syscall(), so the kernel's answers are checked, not the library's): tracekern's IPC off
 * Linux's numbers; uname and its two old layouts; sysinfo; resource limits; getrandom;
 * the clocks and sleeps with TIMER_ABSTIME; the CPU calls; personality; an unknown
 * number. One TAP-like line per check (tracekern/check.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <tracekern/check.h>
#include <unistd.h>

#include "uapi/ipc.h"
#include "uapi/syscall.h"

#define BAD_POINTER 0xc0001000u /* kernel memory: every call must say EFAULT */
#define MS 1000000ll

static int64_t monotonic_ns(void)
{
    struct timespec64 t;
    syscall(SYS_clock_gettime64, CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000ll + t.tv_nsec;
}

/* IPC has left Linux's numbers: 400..404 are Linux's msgsnd .. clock_settime64. */
static void ipc_numbers(void)
{
    check_call("syscall 400 (Linux msgsnd) is not IPC", syscall(400, 0, 0, 0, 0), ENOSYS);
    struct timespec64 t = { -1, -1 };
    check_call("syscall 403 is clock_gettime64", syscall(403, CLOCK_MONOTONIC, &t), 0);
    check_true("clock_gettime64 filled the time64 timespec",
               t.tv_sec >= 0 && t.tv_nsec >= 0 && t.tv_nsec < 1000000000);
    check_call("IPC operation 99 -> ENOSYS", syscall(SYS_tracekern_ipc, 99, 0, 0, 0), ENOSYS);
    check_true("IPC create through SYS_tracekern_ipc",
               syscall(SYS_tracekern_ipc, IPC_OP_CREATE, "linux_calls") > 0);
}

static void uname_calls(void)
{
    struct utsname u;
    memset(&u, 'x', sizeof u);
    check_call("uname", syscall(SYS_uname, &u), 0);
    check_true("uname: sysname Linux, machine i686, release 6.1.0-tracekern",
               strcmp(u.sysname, "Linux") == 0 && strcmp(u.machine, "i686") == 0 &&
                   strcmp(u.release, "6.1.0-tracekern") == 0 &&
                   strcmp(u.domainname, "(none)") == 0);
    printf("# uname: %s %s %s %s %s\n", u.sysname, u.nodename, u.release, u.version, u.machine);
    check_call("uname(bad pointer)", syscall(SYS_uname, BAD_POINTER), EFAULT);
    char old[5 * UTS_LEN + 1];
    old[5 * UTS_LEN] = 'z';
    check_call("olduname", syscall(SYS_olduname, old), 0);
    check_true("olduname: five fields of 65, nothing after",
               strcmp(old, "Linux") == 0 && strcmp(old + 4 * UTS_LEN, "i686") == 0 &&
                   old[5 * UTS_LEN] == 'z');
    char oldold[5 * OLD_UTS_LEN];
    check_call("oldolduname", syscall(SYS_oldolduname, oldold), 0);
    check_true("oldolduname: release cut to 8 characters",
               strcmp(oldold + 2 * OLD_UTS_LEN, "6.1.0-tr") == 0);
}

static void sysinfo_call(void)
{
    struct sysinfo si;
    check_call("sysinfo", syscall(SYS_sysinfo, &si), 0);
    check_true("sysinfo: RAM in bytes, free below total, tasks counted, uptime",
               si.mem_unit == 1 && si.totalram > si.freeram && si.freeram > 0 &&
                   si.procs >= 2 && si.uptime >= 1 && si.totalswap == 0);
    check_number("sysinfo is 64 bytes on i386", sizeof si, 64);
    check_call("sysinfo(bad pointer)", syscall(SYS_sysinfo, BAD_POINTER), EFAULT);
}

static void limits(void)
{
    struct rlimit r;
    check_call("ugetrlimit(RLIMIT_NOFILE)", syscall(SYS_ugetrlimit, RLIMIT_NOFILE, &r), 0);
    check_true("RLIMIT_NOFILE is 32/32", r.rlim_cur == 32 && r.rlim_max == 32);
    syscall(SYS_ugetrlimit, RLIMIT_STACK, &r);
    check_true("RLIMIT_STACK is 8 MiB/unlimited",
               r.rlim_cur == 8u << 20 && r.rlim_max == RLIM_INFINITY);
    syscall(SYS_getrlimit, RLIMIT_STACK, &r);
    check_true("old getrlimit: unlimited is 0x7fffffff", r.rlim_max == RLIM_OLD_INFINITY);
    check_call("ugetrlimit(16) -> EINVAL", syscall(SYS_ugetrlimit, 16, &r), EINVAL);
    check_call("ugetrlimit(bad pointer)", syscall(SYS_ugetrlimit, RLIMIT_CPU, BAD_POINTER),
               EFAULT);
    struct rlimit same = { 32, 32 }, lower = { 16, 32 }, inverted = { 33, 32 };
    check_call("setrlimit(NOFILE, as it is)", syscall(SYS_setrlimit, RLIMIT_NOFILE, &same), 0);
    check_call("setrlimit(NOFILE, lower) -> EPERM",
               syscall(SYS_setrlimit, RLIMIT_NOFILE, &lower), EPERM);
    check_call("setrlimit(cur > max) -> EINVAL",
               syscall(SYS_setrlimit, RLIMIT_NOFILE, &inverted), EINVAL);
    struct rlimit64 old;
    check_call("prlimit64(0, NPROC, NULL, &old)",
               syscall(SYS_prlimit64, 0, RLIMIT_NPROC, 0, &old), 0);
    check_true("RLIMIT_NPROC is a finite limit, soft = hard",
               old.rlim_cur == old.rlim_max && old.rlim_cur >= 8 && old.rlim_cur < 100000);
    syscall(SYS_prlimit64, 0, RLIMIT_CPU, 0, &old);
    check_true("prlimit64: unlimited is all ones in 64 bits", old.rlim_cur == RLIM64_INFINITY);
    check_call("prlimit64(no such pid) -> ESRCH",
               syscall(SYS_prlimit64, 99999, RLIMIT_NOFILE, 0, &old), ESRCH);
}

static void random_bytes(void)
{
    uint8_t a[32], b[32];
    check_number("getrandom(32)", syscall(SYS_getrandom, a, sizeof a, 0), 32);
    check_number("getrandom(32, GRND_NONBLOCK|GRND_RANDOM)",
                 syscall(SYS_getrandom, b, sizeof b, GRND_NONBLOCK | GRND_RANDOM), 32);
    check_true("two getrandom calls differ", memcmp(a, b, sizeof a) != 0);
    check_number("getrandom(0)", syscall(SYS_getrandom, a, 0, 0), 0);
    check_call("getrandom(flags 8) -> EINVAL", syscall(SYS_getrandom, a, 4, 8), EINVAL);
    check_call("getrandom(GRND_INSECURE|GRND_RANDOM) -> EINVAL",
               syscall(SYS_getrandom, a, 4, GRND_INSECURE | GRND_RANDOM), EINVAL);
    check_call("getrandom(bad pointer)", syscall(SYS_getrandom, BAD_POINTER, 4, 0), EFAULT);
    uint8_t *two = mmap(0, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(two + 4096, 4096);
    check_number("getrandom into one page then a hole: the page's bytes",
                 syscall(SYS_getrandom, two + 1000, 8192, 0), 4096 - 1000);
    munmap(two, 4096);
}

static void clocks(void)
{
    int32_t t = (int32_t)syscall(SYS_time, 0);
    struct timeval tv;
    check_call("gettimeofday", syscall(SYS_gettimeofday, &tv, 0), 0);
    check_true("time() is the RTC's date (after 2023) and agrees with gettimeofday",
               t > 1700000000 && tv.tv_sec - t >= 0 && tv.tv_sec - t <= 1 &&
                   tv.tv_usec >= 0 && tv.tv_usec < 1000000);
    check_call("time(bad pointer)", syscall(SYS_time, BAD_POINTER), EFAULT);
    struct timespec64 a, b;
    syscall(SYS_clock_gettime64, CLOCK_MONOTONIC, &a);
    syscall(SYS_clock_gettime64, CLOCK_BOOTTIME, &b);
    check_true("BOOTTIME is MONOTONIC (no suspend)",
               b.tv_sec * 1000000000ll + b.tv_nsec >= a.tv_sec * 1000000000ll + a.tv_nsec);
    struct timespec64 tai, real;
    syscall(SYS_clock_gettime64, CLOCK_REALTIME, &real);
    syscall(SYS_clock_gettime64, CLOCK_TAI, &tai);
    check_true("CLOCK_TAI is REALTIME (TAI offset 0, as Linux before NTP sets it)",
               tai.tv_sec - real.tv_sec >= 0 && tai.tv_sec - real.tv_sec <= 1);
    check_call("clock_gettime64(PROCESS_CPUTIME_ID)",
               syscall(SYS_clock_gettime64, CLOCK_PROCESS_CPUTIME_ID, &a), 0);
    check_call("clock_gettime(clock 12) -> EINVAL", syscall(SYS_clock_gettime, 12, &a), EINVAL);
    check_call("clock_gettime64(clock -6, a pid's CPU clock) -> EINVAL",
               syscall(SYS_clock_gettime64, -6, &a), EINVAL);
    struct timespec r;
    syscall(SYS_clock_getres, CLOCK_MONOTONIC_COARSE, &r);
    check_true("clock_getres(MONOTONIC_COARSE) is a tick (10 ms)",
               r.tv_sec == 0 && r.tv_nsec == 10000000);
    syscall(SYS_clock_getres_time64, CLOCK_REALTIME, &b);
    check_true("clock_getres_time64(REALTIME) is 1 ns", b.tv_sec == 0 && b.tv_nsec == 1);
    check_call("clock_getres(MONOTONIC, NULL)", syscall(SYS_clock_getres, CLOCK_MONOTONIC, 0), 0);
    check_call("clock_getres(clock 99, NULL) -> EINVAL", syscall(SYS_clock_getres, 99, 0), EINVAL);
}

static void sleeps(void)
{
    struct timespec req = { 0, 20 * MS };
    int64_t t0 = monotonic_ns();
    check_call("clock_nanosleep(MONOTONIC, 20 ms)",
               syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &req, 0), 0);
    check_true("slept at least 20 ms", monotonic_ns() - t0 >= 20 * MS);
    struct timespec64 until;
    syscall(SYS_clock_gettime64, CLOCK_MONOTONIC, &until);
    until.tv_nsec += 30 * MS;
    if (until.tv_nsec >= 1000000000) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000;
    }
    t0 = monotonic_ns();
    check_call("clock_nanosleep_time64(MONOTONIC, TIMER_ABSTIME, now + 30 ms)",
               syscall(SYS_clock_nanosleep_time64, CLOCK_MONOTONIC, TIMER_ABSTIME, &until, 0), 0);
    int64_t slept = monotonic_ns() - t0;
    /* Read as relative, the absolute time (seconds since boot) would sleep seconds; the
     * bound leaves room for a host too busy to run this CPU's thread at once (SMP). */
    check_true("woke at the absolute time, not that long after it",
               slept >= 25 * MS && slept < 500 * MS);
    struct timespec64 past = { 0, 1 };
    t0 = monotonic_ns();
    check_call("clock_nanosleep_time64(REALTIME, TIMER_ABSTIME, 1970)",
               syscall(SYS_clock_nanosleep_time64, CLOCK_REALTIME, TIMER_ABSTIME, &past, 0), 0);
    check_true("a time in the past returns at once", monotonic_ns() - t0 < 5 * MS);
    struct timespec64 padded = { 0, (int64_t)0x7fffffff00000000ll | 1000 };
    check_call("time64 tv_nsec's upper half is ignored, as a 32-bit Linux does",
               syscall(SYS_clock_nanosleep_time64, CLOCK_MONOTONIC, 0, &padded, 0), 0);
    struct timespec bad = { 0, 1000000000 };
    check_call("clock_nanosleep(tv_nsec 1e9) -> EINVAL",
               syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &bad, 0), EINVAL);
    check_call("nanosleep(tv_nsec 1e9) -> EINVAL", syscall(SYS_nanosleep, &bad, 0), EINVAL);
    struct timespec negative = { -1, 0 };
    check_call("nanosleep(tv_sec -1) -> EINVAL", syscall(SYS_nanosleep, &negative, 0), EINVAL);
    check_call("clock_nanosleep(PROCESS_CPUTIME_ID) -> EINVAL",
               syscall(SYS_clock_nanosleep, CLOCK_PROCESS_CPUTIME_ID, 0, &req, 0), EINVAL);
    check_call("clock_nanosleep(bad request) -> EFAULT",
               syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, BAD_POINTER, 0), EFAULT);
}

static void cpus_and_persona(void)
{
    uint32_t mask[2] = { 0xdeadbeef, 0xdeadbeef };
    check_number("sched_getaffinity(0, 8) returns the mask's 4 bytes",
                 syscall(SYS_sched_getaffinity, 0, sizeof mask, mask), 4);
    long cpus = cpus_in_cpuinfo();
    check_true("a bit per CPU of /proc/cpuinfo in the mask, the rest untouched",
               cpus > 0 && cpus < 32 && mask[0] == (1u << cpus) - 1 && mask[1] == 0xdeadbeef);
    check_call("sched_getaffinity(len 2) -> EINVAL",
               syscall(SYS_sched_getaffinity, 0, 2, mask), EINVAL);
    check_call("sched_getaffinity(len 6) -> EINVAL",
               syscall(SYS_sched_getaffinity, 0, 6, mask), EINVAL);
    check_call("sched_getaffinity(no such pid) -> ESRCH",
               syscall(SYS_sched_getaffinity, 99999, 4, mask), ESRCH);
    /* Pinned to the last CPU, it runs there by the time sched_setaffinity returns. */
    uint32_t last = cpus > 0 && cpus < 32 ? 1u << (cpus - 1) : 1, all = (uint32_t)mask[0];
    check_call("sched_setaffinity(0, the last CPU)",
               syscall(SYS_sched_setaffinity, 0, sizeof last, &last), 0);
    uint32_t cpu = 7, node = 7;
    check_call("getcpu", syscall(SYS_getcpu, &cpu, &node, 0), 0);
    check_true("getcpu: the last CPU, where it was pinned; node 0",
               cpu == (uint32_t)(cpus - 1) && node == 0);
    uint32_t got = 0;
    check_number("sched_getaffinity after the pinning returns 4 bytes",
                 syscall(SYS_sched_getaffinity, 0, sizeof got, &got), 4);
    check_true("the mask is the last CPU's bit", got == last);
    uint32_t none = 0, offline = 1u << 31;
    check_call("sched_setaffinity(no CPU) -> EINVAL",
               syscall(SYS_sched_setaffinity, 0, sizeof none, &none), EINVAL);
    check_call("sched_setaffinity(only CPUs that are not online) -> EINVAL",
               syscall(SYS_sched_setaffinity, 0, sizeof offline, &offline), EINVAL);
    check_call("sched_setaffinity(bad pointer) -> EFAULT",
               syscall(SYS_sched_setaffinity, 0, 4, BAD_POINTER), EFAULT);
    check_call("sched_setaffinity(no such pid) -> ESRCH",
               syscall(SYS_sched_setaffinity, 99999, sizeof all, &all), ESRCH);
    check_call("sched_setaffinity(pid 1, tracekern's shell: a kernel thread) -> EINVAL",
               syscall(SYS_sched_setaffinity, 1, sizeof all, &all), EINVAL);
    /* A migration storm: pinned to each CPU in turn, 1000 times, it must run there each
     * time before the call returns. */
    int moved_right = 0;
    for (int i = 0; i < 1000 && cpus > 0 && cpus < 32; i++) {
        uint32_t one = 1u << (i % cpus);
        cpu = 99;
        if (syscall(SYS_sched_setaffinity, 0, sizeof one, &one) == 0 &&
            syscall(SYS_getcpu, &cpu, 0, 0) == 0 && cpu == (uint32_t)(i % cpus))
            moved_right++;
    }
    check_number("1000 pinnings to each CPU in turn: getcpu agreed each time", moved_right, 1000);
    check_call("sched_setaffinity(0, every CPU)",
               syscall(SYS_sched_setaffinity, 0, sizeof all, &all), 0);
    check_number("personality(0xffffffff) is PER_LINUX",
                 syscall(SYS_personality, 0xffffffff), PER_LINUX);
    check_call("personality(ADDR_NO_RANDOMIZE) -> EINVAL",
               syscall(SYS_personality, 0x0040000), EINVAL);
    check_number("sched_getscheduler(0) is SCHED_OTHER",
                 syscall(SYS_sched_getscheduler, 0), SCHED_OTHER);
    int32_t priority = 5;
    check_call("sched_getparam(0)", syscall(SYS_sched_getparam, 0, &priority), 0);
    check_number("its priority", priority, 0);
    check_number("sched_get_priority_max(SCHED_FIFO)",
                 syscall(SYS_sched_get_priority_max, 1), 99);
}

int main(void)
{
    ipc_numbers();
    uname_calls();
    sysinfo_call();
    limits();
    random_bytes();
    clocks();
    sleeps();
    cpus_and_persona();
    check_call("syscall 450 (none) -> ENOSYS", syscall(450, 1, 2, 3, 4, 5, 6), ENOSYS);
    return check_summary("linux_calls");
}
