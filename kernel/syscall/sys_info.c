/*
 * sys_info.c - what a program asks about the system and itself: uname (and the two older
 * layouts), sysinfo, resource limits (getrlimit, ugetrlimit, setrlimit, prlimit64),
 * getrandom, the CPUs it may run on (sched_getaffinity, sched_setaffinity, getcpu), its
 * scheduling policy, and personality. Linux's i386 struct layouts and errors throughout.
 */
#include "kernel/arch.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/loadavg.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/sched.h"
#include "kernel/proc/task_internal.h"
#include "kernel/random.h"
#include "kernel/syscall/mlock.h"
#include "kernel/syscall/syscall_handlers.h"
#include "kernel/time.h"
#include "uapi/syscall.h"

/*
 * The names uname reports. sysname is "Linux": tracekern answers Linux's i386 ABI, and
 * programs read sysname to know which ABI they talk to (FreeBSD's Linux emulation and
 * gVisor answer "Linux" for the same reason); static glibc checks no kernel version at
 * start-up (since 2.26; Debian 12 has 2.36). release names the Linux whose ABI and
 * user_events behaviour tracekern follows, 6.1, marked as tracekern's; version and
 * nodename say plainly which kernel this is.
 */
static const struct utsname uts = {
    .sysname = "Linux",
    .nodename = "tracekern",
    .release = "6.1.0-tracekern",
    .version = "#1 tracekern (Linux i386 ABI)",
    .machine = "i686",
    .domainname = "(none)",
};

SYSCALL_HANDLER(newuname) { return copy_to_user(a[0], &uts, sizeof uts); }

/* olduname (109): Linux's struct old_utsname, the first five fields of 65 bytes. */
SYSCALL_HANDLER(uname) { return copy_to_user(a[0], &uts, 5 * UTS_LEN); }

/* oldolduname (59): five fields of 9 bytes, each cut to 8 characters and a NUL. */
SYSCALL_HANDLER(olduname)
{
    char old[5][OLD_UTS_LEN];
    const char *fields[5] = { uts.sysname, uts.nodename, uts.release, uts.version, uts.machine };
    for (int i = 0; i < 5; i++) {
        memset(old[i], 0, OLD_UTS_LEN);
        size_t n = strlen(fields[i]);
        memcpy(old[i], fields[i], n < OLD_UTS_LEN - 1 ? n : OLD_UTS_LEN - 1);
    }
    return copy_to_user(a[0], old, sizeof old);
}

/* How many tasks exist (sysinfo's procs). The list is walked with interrupts off: one
 * CPU, as task.c's own walks. */
static unsigned count_tasks(void)
{
    unsigned n = 0;
    unsigned long flags = arch_irq_save();
    for (struct task *t = task_list(); t; t = t->next)
        n++;
    arch_irq_restore(flags);
    return n;
}

/* sysinfo: uptime (rounded up, as Linux), the load averages, memory in bytes (mem_unit 1
 * while the total fits 32 bits, else pages, as Linux scales it), no swap, shared memory or
 * buffer cache (tracekern has none), and the task count. */
SYSCALL_HANDLER(sysinfo)
{
    struct sysinfo info;
    memset(&info, 0, sizeof info);
    uint64_t up = time_ns();
    info.uptime = (int32_t)(up / 1000000000u + (up % 1000000000u ? 1 : 0));
    uint32_t loads[3];
    loadavg_get(loads);
    for (int i = 0; i < 3; i++)
        info.loads[i] = loads[i] << (SI_LOAD_SHIFT - LOADAVG_FSHIFT);
    uint64_t total = page_alloc_total_pages(), free = page_alloc_free_pages();
    uint32_t unit = total * PAGE_SIZE > 0xffffffffull ? PAGE_SIZE : 1;
    info.totalram = (uint32_t)(total * PAGE_SIZE / unit);
    info.freeram = (uint32_t)(free * PAGE_SIZE / unit);
    info.mem_unit = unit;
    unsigned tasks = count_tasks();
    info.procs = (uint16_t)(tasks > 0xffff ? 0xffff : tasks);
    return copy_to_user(a[0], &info, sizeof info);
}

/*
 * Resource limits. tracekern's limits are the kernel's own, the same for every process:
 * the stack, 8 MiB as Linux's default (hard: unlimited); open files, TASK_FILES_MAX;
 * processes, task_user_limit() (Linux's default RLIMIT_NPROC, from the memory); locked
 * memory, 8 MiB (Linux's default RLIMIT_MEMLOCK, which binds non-root mlock); core
 * dumps, message queues, nice and real-time priority: 0 (tracekern has none of them);
 * the rest unlimited, since nothing limits them. A program may restate its limits but
 * not change them: a new value is EPERM (Linux lets a process lower its own; tracekern
 * would then have to enforce a per-process value it does not keep).
 */
static void limit_of(unsigned resource, uint64_t *cur, uint64_t *max)
{
    *cur = *max = RLIM64_INFINITY;
    switch (resource) {
    case RLIMIT_STACK: *cur = 8u << 20; break;
    case RLIMIT_MEMLOCK: *cur = *max = MLOCK_LIMIT_BYTES; break; /* sys_mlock.c */
    case RLIMIT_NOFILE: *cur = *max = TASK_FILES_MAX; break;
    case RLIMIT_NPROC: *cur = *max = task_user_limit(); break;
    case RLIMIT_CORE:
    case RLIMIT_MSGQUEUE:
    case RLIMIT_NICE:
    case RLIMIT_RTPRIO: *cur = *max = 0; break;
    }
}

/* A 64-bit limit as the 32-bit struct rlimit carries it: infinity is all ones, and so
 * is anything larger than 32 bits (Linux's rlim_t is an unsigned long). */
static uint32_t limit32(uint64_t v) { return v > 0xffffffffull ? RLIM_INFINITY : (uint32_t)v; }

/* A 32-bit struct rlimit's value as a 64-bit limit: all ones is infinity. */
static uint64_t limit64(uint32_t v) { return v == RLIM_INFINITY ? RLIM64_INFINITY : v; }

/* Checks a new limit against the kernel's: EINVAL when cur > max (before anything else,
 * as Linux), then EPERM unless both stay as they are. */
static int set_limit(unsigned resource, uint64_t cur, uint64_t max)
{
    if (cur > max)
        return -EINVAL;
    uint64_t have_cur, have_max;
    limit_of(resource, &have_cur, &have_max);
    return cur == have_cur && max == have_max ? 0 : -EPERM;
}

/* ugetrlimit (191): Linux's sys_getrlimit. */
SYSCALL_HANDLER(getrlimit)
{
    if (a[0] >= RLIM_NLIMITS)
        return -EINVAL;
    uint64_t cur, max;
    limit_of(a[0], &cur, &max);
    struct rlimit r = { limit32(cur), limit32(max) };
    return copy_to_user(a[1], &r, sizeof r);
}

/* getrlimit (76): Linux's sys_old_getrlimit, whose infinity is 0x7fffffff. */
SYSCALL_HANDLER(old_getrlimit)
{
    if (a[0] >= RLIM_NLIMITS)
        return -EINVAL;
    uint64_t cur, max;
    limit_of(a[0], &cur, &max);
    struct rlimit r = { limit32(cur), limit32(max) };
    if (r.rlim_cur > RLIM_OLD_INFINITY)
        r.rlim_cur = RLIM_OLD_INFINITY;
    if (r.rlim_max > RLIM_OLD_INFINITY)
        r.rlim_max = RLIM_OLD_INFINITY;
    return copy_to_user(a[1], &r, sizeof r);
}

SYSCALL_HANDLER(setrlimit)
{
    if (a[0] >= RLIM_NLIMITS)
        return -EINVAL;
    struct rlimit r;
    if (copy_from_user(&r, a[1], sizeof r))
        return -EFAULT;
    return set_limit(a[0], limit64(r.rlim_cur), limit64(r.rlim_max));
}

/* prlimit64(pid, resource, new, old): pid 0 is the caller; another process's limits may
 * be read (they are everyone's) if it exists, and set by no one. */
SYSCALL_HANDLER(prlimit64)
{
    int pid = (int)a[0];
    if (a[1] >= RLIM_NLIMITS)
        return -EINVAL;
    struct rlimit64 want;
    if (a[2] && copy_from_user(&want, a[2], sizeof want))
        return -EFAULT;
    if (pid != 0 && pid != current->pid && (pid < 0 || !task_find(pid)))
        return -ESRCH;
    uint64_t cur, max;
    limit_of(a[1], &cur, &max);
    if (a[2]) {
        int err = set_limit(a[1], want.rlim_cur, want.rlim_max);
        if (err)
            return err;
    }
    struct rlimit64 old = { cur, max };
    return a[3] ? copy_to_user(a[3], &old, sizeof old) : 0;
}

/*
 * getrandom(buf, count, flags): count random bytes (at most INT_MAX, as Linux caps a
 * read) from kernel/random.c. GRND_NONBLOCK and GRND_RANDOM change nothing: the generator
 * is seeded before its first byte and never blocks (GRND_RANDOM has meant the same pool
 * since Linux 5.6). Unknown flags, or GRND_INSECURE with GRND_RANDOM: EINVAL. A fault
 * part way returns the bytes written, or EFAULT if none; a kill ends it the same way.
 */
SYSCALL_HANDLER(getrandom)
{
    uint32_t flags = a[2];
    if (flags & ~(uint32_t)(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE))
        return -EINVAL;
    if ((flags & (GRND_INSECURE | GRND_RANDOM)) == (GRND_INSECURE | GRND_RANDOM))
        return -EINVAL;
    uint32_t len = a[1] > 0x7ffff000u ? 0x7ffff000u : a[1]; /* Linux's MAX_RW_COUNT */
    uint8_t chunk[RANDOM_CHUNK];
    uint32_t done = 0;
    while (done < len && !current->killed) {
        uint32_t n = len - done < sizeof chunk ? len - done : (uint32_t)sizeof chunk;
        random_get_bytes(chunk, n);
        if (copy_to_user(a[0] + done, chunk, n)) {
            /* The chunk reaches a hole: give what fits before it, byte by byte. */
            for (uint32_t i = 0; i < n && !copy_to_user(a[0] + done, chunk + i, 1); i++)
                done++;
            break;
        }
        done += n;
        if (done % (64 * RANDOM_CHUNK) == 0)
            cond_resched();
    }
    memset(chunk, 0, sizeof chunk);
    if (done == 0 && len > 0)
        return current->killed ? -EINTR : -EFAULT;
    return (int32_t)done;
}

/* A pid argument of the scheduler calls: 0 or an existing process, else ESRCH; negative
 * is EINVAL, as Linux. */
static int check_pid(uint32_t pid)
{
    if ((int32_t)pid < 0)
        return -EINVAL;
    return pid == 0 || task_find((int)pid) ? 0 : -ESRCH;
}

/* The task a scheduler call names: the caller for pid 0, else the living task with that
 * pid; NULL when there is none. */
static struct task *sched_target(uint32_t pid)
{
    return pid == 0 ? current : task_find((int)pid);
}

/*
 * sched_getaffinity(pid, len, mask): the CPUs a task may run on, as a mask of longs.
 * tracekern's mask is one long (up to 32 CPUs: Linux's NR_CPUS for i386 is no smaller
 * than what tracekern runs): len must hold it and be a multiple of a long, else EINVAL;
 * returns the bytes written (4), as the raw call does.
 */
SYSCALL_HANDLER(sched_getaffinity)
{
    if (a[1] < sizeof(uint32_t) || a[1] % sizeof(uint32_t))
        return -EINVAL; /* checked before the pid, as Linux */
    int err = check_pid(a[0]);
    if (err)
        return err;
    uint32_t mask = sched_getaffinity(sched_target(a[0]));
    return copy_to_user(a[2], &mask, sizeof mask) ? -EFAULT : (int32_t)sizeof mask;
}

/*
 * sched_setaffinity(pid, len, mask): limits a task to the CPUs of mask, as Linux: a len
 * shorter than the kernel's mask (4 bytes) reads len bytes and takes the rest as zero, a
 * longer one reads 4; CPUs that are not online are dropped, and none left is EINVAL. A
 * task of another user needs root (Linux: CAP_SYS_NICE): EPERM; a kernel thread keeps its
 * CPU (EINVAL, as Linux's PF_NO_SETAFFINITY threads). The caller leaves a CPU it may no
 * longer use before this call returns to it.
 */
SYSCALL_HANDLER(sched_setaffinity)
{
    uint32_t mask = 0; /* read before the pid is looked at, as Linux */
    if (copy_from_user(&mask, a[2], a[1] < sizeof mask ? a[1] : sizeof mask))
        return -EFAULT;
    int err = check_pid(a[0]);
    if (err)
        return err;
    struct task *t = sched_target(a[0]);
    if (!t->as)
        return -EINVAL;
    const struct cred *me = &current->cred;
    if (!cred_privileged(me) && me->euid != t->cred.euid && me->euid != t->cred.uid)
        return -EPERM;
    return sched_setaffinity(t, mask);
}

/* getcpu(cpu, node, cache): the CPU this runs on and its NUMA node (0: one node); either
 * pointer may be NULL; the cache argument is unused, as since Linux 2.6.24. */
SYSCALL_HANDLER(getcpu)
{
    uint32_t cpu = arch_cpu_id(), node = 0;
    if (a[0] && copy_to_user(a[0], &cpu, sizeof cpu))
        return -EFAULT;
    if (a[1] && copy_to_user(a[1], &node, sizeof node))
        return -EFAULT;
    return 0;
}

/* Every task is SCHED_OTHER with static priority 0: tracekern's scheduler is round robin
 * with one time slice for all. */
SYSCALL_HANDLER(sched_getscheduler)
{
    int err = check_pid(a[0]);
    return err ? err : SCHED_OTHER;
}

SYSCALL_HANDLER(sched_getparam)
{
    if (!a[1])
        return -EINVAL; /* Linux checks the pointer before the task */
    int err = check_pid(a[0]);
    if (err)
        return err;
    int32_t priority = 0;
    return copy_to_user(a[1], &priority, sizeof priority);
}

/* The priority range of a policy: 0..0 for SCHED_OTHER, SCHED_BATCH (3) and SCHED_IDLE
 * (5), 1..99 for the real-time ones (1, 2) and SCHED_DEADLINE (6: 0..0) as Linux; other
 * policies EINVAL. */
static int priority_bound(uint32_t policy, bool max)
{
    switch (policy) {
    case 1: case 2: return max ? 99 : 1;
    case 0: case 3: case 5: case 6: return 0;
    default: return -EINVAL;
    }
}

SYSCALL_HANDLER(sched_get_priority_max) { return priority_bound(a[0], true); }
SYSCALL_HANDLER(sched_get_priority_min) { return priority_bound(a[0], false); }

/*
 * personality(persona): the execution domain. Every process is PER_LINUX; 0xffffffff only
 * asks. Linux would also switch to another persona (flags such as ADDR_NO_RANDOMIZE, or
 * the BSD and SVR4 ones); tracekern has none of them, so any other value is EINVAL and
 * nothing changes. Returns the persona before the call.
 */
SYSCALL_HANDLER(personality)
{
    if (a[0] != 0xffffffffu && a[0] != PER_LINUX)
        return -EINVAL;
    return PER_LINUX;
}
