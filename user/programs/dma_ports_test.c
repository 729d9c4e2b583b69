/*
 * dma_ports_test.c - what a user-space driver needs of the process ABI (issue 23), checked
 * as a program sees it on Linux 6.1 i386, then attacked:
 *
 *   mlock     mlock, munlock, mlock2, mlockall, munlockall, MAP_LOCKED, MAP_POPULATE:
 *             VmLck in /proc/self/status, RLIMIT_MEMLOCK for a non-root process, madvise
 *             and mremap of locked pages, fork's child without the locks
 *   pagemap   /proc/self/pagemap and /proc/PID/pagemap: Linux's bits, frame numbers for
 *             root only, 8-byte rule, offsets past user space, other processes' maps
 *   ports     ioperm and iopl: granted for root (port 0x80, the POST port, and 0xed,
 *             which nothing decodes), refused otherwise, SIGSEGV (SI_KERNEL) for a port
 *             not granted, fork and execve keep them, a killed holder leaves nothing
 *
 * Run as root and as another user (the boot script does both); each check line says what
 * that user gets. Ends with "dma_ports_test: P passed, F failed", exit status 1 when
 * anything failed. With the argument "port-child" it only tries port 0x80 and exits 0
 * when the read worked, 1 when it faulted (the execve check); "port-hold" takes port 0x80
 * and iopl(3) and reads the port until it is killed; "port-refused" checks that port 0x80
 * faults (the boot script runs it after killing a holder on the same CPU).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/io.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <tracekern/check.h>
#include <unistd.h>

#define PAGE 4096u
#define USER_TOP 0xc0000000u
#define POST_PORT 0x80 /* written by firmware during boot; reading it is harmless */
#define UNUSED_PORT 0xed /* nothing answers it (Linux's delay port): reads 0xff */
#define PM_PRESENT (1ull << 63)
#define PM_SWAPPED (1ull << 62)
#define PM_FILE (1ull << 61)
#define PM_EXCLUSIVE (1ull << 56)
#define PM_SOFT_DIRTY (1ull << 55)
#define PM_PFN ((1ull << 55) - 1)

static bool root;

static long raw(long nr, long a, long b, long c, long d, long e)
{
    long ret;
    __asm__ volatile("int $0x80"
                     : "=a"(ret)
                     : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
                     : "memory");
    return ret;
}

/* check_errno of a raw result: -errno, or success as >= 0. */
static void expect(const char *what, long ret, int want)
{
    check_errno(what, ret < 0 && ret > -4096 ? (int)-ret : 0, want);
}

/* ---- faults ---- */

static sigjmp_buf fault_jump;
static volatile int fault_code, fault_signo;
static volatile uint32_t fault_addr, fault_trapno, fault_err;

static void on_fault(int sig, siginfo_t *info, void *context)
{
    const ucontext_t *uc = context;
    fault_signo = sig;
    fault_code = info->si_code;
    fault_addr = info->si_addr;
    fault_trapno = uc->uc_mcontext.trapno;
    fault_err = uc->uc_mcontext.err;
    siglongjmp(fault_jump, 1);
}

static void catch_faults(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, 0);
}

/* Reads a byte (width 1) or a word (2) from port: 0 when it ran, else the signal. */
static int try_in(uint16_t port, int width)
{
    fault_signo = 0;
    if (sigsetjmp(fault_jump, 1) == 0) {
        if (width == 1)
            (void)inb(port);
        else
            (void)inw(port);
    }
    return fault_signo;
}

/* cli then sti: 0 when both ran (or were skipped), else the signal. *if_after_cli says
 * whether EFLAGS.IF was still set right after the cli. */
static int try_cli_sti(bool *if_after_cli)
{
    fault_signo = 0;
    uint32_t flags = 0;
    if (sigsetjmp(fault_jump, 1) == 0)
        __asm__ volatile("cli\n\tpushf\n\tpop %0\n\tsti" : "=r"(flags) : : "memory");
    *if_after_cli = flags & 0x200;
    return fault_signo;
}

/* ---- /proc ---- */

/* VmLck of /proc/PID/status in kB (pid 0: self), -1 when there is none. */
static long vm_locked_kb(int pid)
{
    char path[64], text[1024];
    if (pid)
        snprintf(path, sizeof path, "/proc/%d/status", pid);
    else
        snprintf(path, sizeof path, "/proc/self/status");
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    long n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0)
        return -1;
    text[n] = 0;
    char *line = strstr(text, "VmLck:");
    if (!line)
        return -1;
    line += 6;
    while (*line == ' ' || *line == '\t')
        line++;
    long kb = 0;
    while (*line >= '0' && *line <= '9')
        kb = kb * 10 + (*line++ - '0');
    return strncmp(line, " kB\n", 4) == 0 ? kb : -1;
}

static long pread64(int fd, void *buf, uint32_t count, uint64_t pos)
{
    return raw(SYS_pread64, fd, (long)buf, (long)count, (long)(uint32_t)pos, (long)(pos >> 32));
}

/* The pagemap entry of the page at va in the open file fd; all ones when the read failed. */
static uint64_t entry_of(int fd, const void *va)
{
    uint64_t e;
    long n = pread64(fd, &e, 8, (uint64_t)((uintptr_t)va / PAGE) * 8);
    return n == 8 ? e : ~0ull;
}

static void *map(uint32_t len, int prot, int flags)
{
    void *p = mmap(0, len, prot, flags | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? 0 : p;
}

/* ---- mlock ---- */

/* Touches the stack 256 KiB below here (a frame that large, its lowest byte written):
 * the stack grows down to it. */
static __attribute__((noinline)) void grow_stack(void)
{
    volatile char deep[256 * 1024];
    deep[0] = 1;
    (void)deep[0];
}

static void check_mlock(void)
{
    long base = vm_locked_kb(0);
    check_number("VmLck of a fresh process", base, 0);
    char *p = map(4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE);
    check_true("4 anonymous pages mapped", p != 0);
    if (!p)
        return;
    expect("mlock of 4 pages", mlock(p + 100, 4 * PAGE - 100) ? -errno : 0, 0);
    check_number("VmLck counts them (kB)", vm_locked_kb(0), 16);
    expect("mlock of them again", mlock(p, 4 * PAGE) ? -errno : 0, 0);
    check_number("... counts each page once", vm_locked_kb(0), 16);
    expect("munlock of the second page", munlock(p + PAGE, PAGE) ? -errno : 0, 0);
    check_number("VmLck after munlock (kB)", vm_locked_kb(0), 12);
    p[0] = 7;
    expect("madvise(MADV_DONTNEED) of a locked page", madvise(p, PAGE, MADV_DONTNEED) ? -errno : 0,
           EINVAL);
    check_number("... leaves its contents", p[0], 7);
    expect("madvise(MADV_FREE) of a locked page", madvise(p, PAGE, MADV_FREE) ? -errno : 0, EINVAL);
    expect("madvise(MADV_PAGEOUT) of a locked page", madvise(p, PAGE, MADV_PAGEOUT) ? -errno : 0,
           EINVAL);
    expect("madvise(MADV_DONTNEED) of the unlocked page", madvise(p + PAGE, PAGE, MADV_DONTNEED) ? -errno : 0, 0);
    expect("mprotect(PROT_NONE) of a locked page", mprotect(p, PAGE, PROT_NONE) ? -errno : 0, 0);
    check_number("... it stays locked (kB)", vm_locked_kb(0), 12);
    expect("mprotect back to read-write", mprotect(p, PAGE, PROT_READ | PROT_WRITE) ? -errno : 0, 0);
    check_number("... still locked, contents kept", vm_locked_kb(0) == 12 && p[0] == 7, 1);
    expect("munlock of a PROT_NONE page", (mprotect(p + 2 * PAGE, PAGE, PROT_NONE) ||
                                          munlock(p + 2 * PAGE, PAGE)) ? -errno : 0, 0);
    check_number("... unlocks it (kB)", vm_locked_kb(0), 8);
    expect("mlock of it again, still PROT_NONE (Linux cannot fault it in: ENOMEM)",
           mlock(p + 2 * PAGE, PAGE) ? -errno : 0, ENOMEM);
    check_number("... but it is locked all the same (kB)", vm_locked_kb(0), 12);
    mprotect(p + 2 * PAGE, PAGE, PROT_READ | PROT_WRITE);
    expect("mlock2(MLOCK_ONFAULT)", mlock2(p + PAGE, PAGE, MLOCK_ONFAULT) ? -errno : 0, 0);
    check_number("VmLck after mlock2 (kB)", vm_locked_kb(0), 16);
    expect("mlock2 with an unknown flag", mlock2(p, PAGE, 2) ? -errno : 0, EINVAL);
    expect("mlock of 0 bytes", mlock(p, 0) ? -errno : 0, 0);

    munlock(p + PAGE, PAGE);
    expect("mremap of locked and unlocked pages (two VMAs on Linux)",
           raw(SYS_mremap, (long)p, 4 * PAGE, 8 * PAGE, MREMAP_MAYMOVE, 0), EFAULT);
    expect("munmap of the 4 pages", munmap(p, 4 * PAGE) ? -errno : 0, 0);
    check_number("VmLck after munmap", vm_locked_kb(0), 0);

    /* mremap: a locked mapping stays locked where it moves, and grows locked */
    p = map(4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_LOCKED);
    char *hole = map(PAGE, PROT_READ, MAP_PRIVATE); /* above p: no room to grow in place */
    (void)hole;
    if (!p)
        return;
    p[3 * PAGE] = 42;
    char *q = (char *)raw(SYS_mremap, (long)p, 4 * PAGE, 8 * PAGE, MREMAP_MAYMOVE, 0);
    bool moved = (uint32_t)(uintptr_t)q < 0xfffff000u;
    check_true("mremap grows a locked mapping (MREMAP_MAYMOVE)", moved);
    if (moved) {
        check_number("... its contents came along", q[3 * PAGE], 42);
        check_number("... and all 8 pages are locked (kB)", vm_locked_kb(0), 32);
        expect("munmap of the locked mapping", munmap(q, 8 * PAGE) ? -errno : 0, 0);
        check_number("VmLck after munmap", vm_locked_kb(0), 0);
        p = q;
    }

    /* attacks: what is not the process's */
    expect("mlock of an unmapped page", mlock(p, PAGE) ? -errno : 0, ENOMEM);
    expect("mlock of the kernel (0xc0000000)", mlock((void *)0xc0000000u, PAGE) ? -errno : 0, ENOMEM);
    expect("mlock of the null page", mlock(0, PAGE) ? -errno : 0, ENOMEM);
    expect("mlock of a range that wraps past 4 GiB", mlock((void *)0xfffff000u, 2 * PAGE) ? -errno : 0,
           EINVAL);
    void *data_page = (void *)((uintptr_t)&root & ~(uintptr_t)(PAGE - 1));
    expect("mlock of 0xffffffff bytes at a page (rounds to 0 in 32 bits, as Linux: nothing to do)",
           mlock(data_page, 0xffffffffu) ? -errno : 0, 0);
    expect("mlock of 2 GiB from 1 GiB", mlock((void *)0x40000000u, 0x7ffff000u) ? -errno : 0, ENOMEM);
    expect("munlock of the kernel", munlock((void *)0xc0000000u, PAGE) ? -errno : 0, ENOMEM);
    expect("munlock of a range that wraps", munlock((void *)0xfffff000u, 2 * PAGE) ? -errno : 0,
           EINVAL);
    check_number("none of that locked anything", vm_locked_kb(0), 0);

    /* MAP_LOCKED, MAP_POPULATE */
    char *l = map(2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_LOCKED);
    check_true("mmap(MAP_LOCKED)", l != 0);
    check_number("... is locked (kB)", vm_locked_kb(0), 8);
    if (l)
        munmap(l, 2 * PAGE);
    check_number("... and unlocked by munmap", vm_locked_kb(0), 0);

    /* the limit: 8 MiB for a non-root process, none for root */
    struct rlimit rl = { 0, 0 };
    raw(SYS_ugetrlimit, RLIMIT_MEMLOCK, (long)&rl, 0, 0, 0);
    check_number("RLIMIT_MEMLOCK is Linux's default, 8 MiB", rl.rlim_cur, 8 << 20);
    char *big = map(9u << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE);
    check_true("9 MiB mapped", big != 0);
    if (big) {
        expect(root ? "mlock of 9 MiB (root: no limit)" : "mlock of 9 MiB (beyond RLIMIT_MEMLOCK)",
               mlock(big, 9u << 20) ? -errno : 0, root ? 0 : ENOMEM);
        munmap(big, 9u << 20);
    }
    big = mmap(0, 9u << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);
    expect(root ? "mmap(MAP_LOCKED) of 9 MiB (root)" : "mmap(MAP_LOCKED) of 9 MiB (beyond the limit)",
           big == MAP_FAILED ? -errno : 0, root ? 0 : EAGAIN);
    if (big != MAP_FAILED)
        munmap(big, 9u << 20);
    check_number("VmLck back to 0", vm_locked_kb(0), 0);

    /* mlockall */
    expect("mlockall(0)", mlockall(0) ? -errno : 0, EINVAL);
    expect("mlockall(MCL_ONFAULT) alone", mlockall(MCL_ONFAULT) ? -errno : 0, EINVAL);
    expect("mlockall(8)", mlockall(8) ? -errno : 0, EINVAL);
    expect("mlockall(MCL_CURRENT | MCL_FUTURE)", mlockall(MCL_CURRENT | MCL_FUTURE) ? -errno : 0, 0);
    long all = vm_locked_kb(0);
    check_true("... locks every page the process has", all > 16);
    char *f = map(PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE);
    check_true("... and a mapping made after it (MCL_FUTURE): 4 kB more", vm_locked_kb(0) == all + 4);
    uint32_t brk_now = (uint32_t)raw(SYS_brk, 0, 0, 0, 0, 0);
    long before = vm_locked_kb(0);
    uint32_t brk_new = (uint32_t)raw(SYS_brk, (long)(brk_now + 64 * 1024), 0, 0, 0, 0);
    check_true("... and what brk adds (64 KiB, locked)",
               brk_new == brk_now + 64 * 1024 && vm_locked_kb(0) >= before + 60 &&
                   vm_locked_kb(0) <= before + 68);
    raw(SYS_brk, (long)brk_now, 0, 0, 0, 0);
    before = vm_locked_kb(0);
    grow_stack();
    /* (Linux's stack starts 128 KiB deep, so it grows by less there than here) */
    check_true("... and what the stack grows by (256 KiB deeper: over 100 kB more locked)",
               vm_locked_kb(0) >= before + 100);
    pid_t child = fork();
    if (child == 0) {
        long kb = vm_locked_kb(0);
        char *g = map(PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE);
        _exit(kb == 0 && g && vm_locked_kb(0) == 0 ? 0 : 1);
    }
    int status = -1;
    waitpid(child, &status, 0);
    check_number("fork's child has no locked page, and no MCL_FUTURE (exit status)", status, 0);
    expect("munlockall", munlockall() ? -errno : 0, 0);
    check_number("... unlocks everything", vm_locked_kb(0), 0);
    if (f)
        munmap(f, PAGE);
    f = map(PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE);
    check_number("... and ends MCL_FUTURE", vm_locked_kb(0), 0);
    if (f)
        munmap(f, PAGE);
}

/* ---- pagemap ---- */

static void check_pagemap(void)
{
    int fd = open("/proc/self/pagemap", O_RDONLY);
    check_true("open /proc/self/pagemap", fd >= 0);
    if (fd < 0)
        return;
    char *buf = map(2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_LOCKED | MAP_POPULATE);
    char *shared = map(PAGE, PROT_READ | PROT_WRITE, MAP_SHARED);
    if (!buf || !shared) {
        check_true("the buffers mapped", false);
        return;
    }
    shared[0] = 1; /* Linux maps a shared page at its first touch */
    uint64_t e0 = entry_of(fd, buf), e1 = entry_of(fd, buf + PAGE), es = entry_of(fd, shared);
    check_true("a MAP_POPULATE page is present at once (bit 63)", e0 != ~0ull && (e0 & PM_PRESENT));
    check_true("a private anonymous page: exclusive (bit 56), not file (bit 61), not swapped (62)",
               (e0 & (PM_EXCLUSIVE | PM_FILE | PM_SWAPPED)) == PM_EXCLUSIVE);
    check_true("no soft-dirty bit on i386 (bit 55)", !(e0 & PM_SOFT_DIRTY) && !(e1 & PM_SOFT_DIRTY));
    check_true("shared anonymous memory is a file page (bit 61)", (es & (PM_PRESENT | PM_FILE)) ==
                                                                     (PM_PRESENT | PM_FILE));
    if (root) {
        check_true("root sees frame numbers (bits 0-54)", (e0 & PM_PFN) && (e1 & PM_PFN));
        check_true("... two pages, two frames", (e0 & PM_PFN) != (e1 & PM_PFN));
        check_true("... frames below 4 GiB (a 32-bit machine)", (e0 & PM_PFN) < (1ull << 20));
    } else {
        check_true("a non-root reader sees frame 0 (Linux since 4.2)", !(e0 & PM_PFN) && !(e1 & PM_PFN));
    }
    /* the locked page stays where it is while memory comes and goes */
    for (int i = 0; i < 8; i++) {
        char *t = map(64 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE);
        if (t)
            munmap(t, 64 * PAGE);
    }
    buf[0] = 1;
    check_true("the locked page's entry is the same after other mappings came and went",
               entry_of(fd, buf) == e0);
    check_number("an unmapped page's entry is 0", (long long)entry_of(fd, (void *)0x1000), 0);
    munmap(shared, PAGE);
    check_number("... and so is an unmapped one's after munmap", (long long)entry_of(fd, shared), 0);

    uint64_t two[2];
    long n = pread64(fd, two, 16, (uint64_t)((uintptr_t)buf / PAGE) * 8);
    check_true("a read of 2 entries gives both", n == 16 && two[0] == e0 && two[1] == e1);
    expect("a read at an offset not a multiple of 8", pread64(fd, two, 8, 4), EINVAL);
    expect("a read of a count not a multiple of 8", pread64(fd, two, 4, 0), EINVAL);
    expect("a read of 0 bytes", pread64(fd, two, 0, 0), 0);
    check_number("a read at the end of user space gives nothing", pread64(fd, two, 16, USER_TOP / PAGE * 8), 0);
    check_number("... the last entry is there (8 bytes before)", pread64(fd, two, 16, USER_TOP / PAGE * 8 - 8), 8);
    two[0] = ~0ull;
    check_true("a read at offset 2^40 reads page 0's entry (Linux i386 keeps the low 32 bits)",
               pread64(fd, two, 8, 1ull << 40) == 8 && two[0] == 0);
    check_number("... at 2^32 + the buffer's offset, the buffer's entry",
                 pread64(fd, two, 8, (1ull << 32) + (uintptr_t)buf / PAGE * 8) == 8 && two[0] == e0, 1);
    expect("a read at offset 2^63 - 8 (offset + count past the largest)",
           pread64(fd, two, 8, (1ull << 63) - 8), EINVAL);
    expect("a read into an unmapped buffer", pread64(fd, (void *)0x1000, 8, 0), EFAULT);
    expect("a read into kernel memory", pread64(fd, (void *)0xc0100000u, 8, 0), EFAULT);
    check_true("lseek to the buffer's entry",
               lseek(fd, (off_t)((uintptr_t)buf / PAGE * 8), SEEK_SET) == (off_t)((uintptr_t)buf / PAGE * 8));
    uint64_t e = 0;
    check_true("read() at the offset lseek set", read(fd, &e, 8) == 8 && e == e0);
    expect("lseek from the end", lseek(fd, 0, SEEK_END) < 0 ? -errno : 0, EINVAL);
    expect("write to pagemap", write(fd, &e, 8) < 0 ? -errno : 0, EBADF);
    close(fd);
    if (!root) /* (Linux lets root open it for writing: its DAC override of the 0400 mode) */
        expect("open pagemap for writing", open("/proc/self/pagemap", O_WRONLY) < 0 ? -errno : 0,
               EACCES);

    /* another process's map */
    pid_t child = fork();
    if (child == 0) {
        pause();
        _exit(0);
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/pagemap", child);
    fd = open(path, O_RDONLY);
    check_true("open a child's pagemap (same user)", fd >= 0);
    if (fd >= 0) {
        e = entry_of(fd, buf);
        check_true("the child's copy of the buffer is present", e & PM_PRESENT);
        kill(child, SIGKILL);
        waitpid(child, 0, 0);
        check_number("after the child died its pagemap reads as empty", pread64(fd, &e, 8, 0), 0);
        close(fd);
    } else {
        kill(child, SIGKILL);
        waitpid(child, 0, 0);
    }
    fd = open("/proc/1/pagemap", O_RDONLY);
    if (root) {
        check_true("root opens pid 1's pagemap", fd >= 0);
    } else {
        expect("a non-root process opens pid 1's (root's) pagemap", fd < 0 ? -errno : 0, EACCES);
    }
    if (fd >= 0)
        close(fd);
    expect("pagemap of a pid that does not exist", open("/proc/99999/pagemap", O_RDONLY) < 0 ? -errno : 0,
           ENOENT);
    munmap(buf, 2 * PAGE);
}

/* ---- ports ---- */

/* A child that tries port 0x80 and exits 0 when the read worked, 1 when it faulted. */
static int port_in_child(void (*before)(void))
{
    pid_t pid = fork();
    if (pid == 0) {
        if (before)
            before();
        _exit(try_in(POST_PORT, 1) == 0 ? 0 : 1);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    return status;
}

static void drop_port(void) { ioperm(POST_PORT, 1, 0); }
static void exec_port_child(void)
{
    char *argv[] = { "dma_ports_test", "port-child", 0 };
    execve("/bin/dma_ports_test", argv, 0);
    _exit(2);
}

static int pin_to_cpu0(void)
{
    uint32_t mask = 1;
    return (int)raw(SYS_sched_setaffinity, 0, sizeof mask, (long)&mask, 0, 0);
}

static void check_ports_refused(void)
{
    expect("ioperm(0x80, 1, 1) as a non-root user", ioperm(POST_PORT, 1, 1) ? -errno : 0, EPERM);
    expect("ioperm of a range past 0xffff, non-root (EINVAL first, as Linux)",
           ioperm(0xffff, 2, 1) ? -errno : 0, EINVAL);
    expect("ioperm(0x80, 1, 0): dropping needs no privilege", ioperm(POST_PORT, 1, 0) ? -errno : 0, 0);
    expect("iopl(3) as a non-root user", iopl(3) ? -errno : 0, EPERM);
    expect("iopl(1) as a non-root user", iopl(1) ? -errno : 0, EPERM);
    expect("iopl(0): no change", iopl(0) ? -errno : 0, 0);
    check_number("in from port 0x80 without permission -> SIGSEGV", try_in(POST_PORT, 1), SIGSEGV);
    check_number("... si_code SI_KERNEL, as Linux's #GP", fault_code, SI_KERNEL);
    bool if_set;
    check_number("cli without iopl -> SIGSEGV", try_cli_sti(&if_set), SIGSEGV);
}

static void check_ports_granted(void)
{
    check_number("in from port 0x80 before ioperm -> SIGSEGV", try_in(POST_PORT, 1), SIGSEGV);
    check_number("... si_code SI_KERNEL", fault_code, SI_KERNEL);
    check_number("... si_addr 0", fault_addr, 0);
    check_number("... trapno 13 (#GP) in the sigcontext", fault_trapno, 13);
    check_number("... error code 0 (an I/O permission fault names no segment)", fault_err, 0);
    expect("ioperm(0x80, 1, 1) as root", ioperm(POST_PORT, 1, 1) ? -errno : 0, 0);
    check_number("in from port 0x80 now runs", try_in(POST_PORT, 1), 0);
    check_number("a word from 0x80 needs 0x81 too -> SIGSEGV", try_in(POST_PORT, 2), SIGSEGV);
    check_number("port 0xed stays refused", try_in(UNUSED_PORT, 1), SIGSEGV);
    check_number("a child inherits the port (fork)", port_in_child(0), 0);
    check_number("a child's ioperm(.., 0) takes it from the child only", port_in_child(drop_port), 1 << 8);
    check_number("... the parent still has it", try_in(POST_PORT, 1), 0);
    check_number("execve keeps it (Linux)", port_in_child(exec_port_child), 0);
    expect("ioperm(0x80, 1, 0)", ioperm(POST_PORT, 1, 0) ? -errno : 0, 0);
    check_number("in from port 0x80 after dropping it -> SIGSEGV", try_in(POST_PORT, 1), SIGSEGV);
    check_number("... and for a new child", port_in_child(0), 1 << 8);
    expect("ioperm(0xed, 1, 2): any nonzero turn_on grants", ioperm(UNUSED_PORT, 1, 2) ? -errno : 0, 0);
    check_number("... in from 0xed runs", try_in(UNUSED_PORT, 1), 0);
    expect("ioperm(0xed, 1, -1) too", ioperm(UNUSED_PORT, 1, -1) ? -errno : 0, 0);
    ioperm(UNUSED_PORT, 1, 0);

    /* bad ranges */
    expect("ioperm(0xffff, 1, 1): the last port", ioperm(0xffff, 1, 1) ? -errno : 0, 0);
    ioperm(0xffff, 1, 0);
    expect("ioperm(0xffff, 2, 1): past 0xffff", ioperm(0xffff, 2, 1) ? -errno : 0, EINVAL);
    expect("ioperm(0x10000, 1, 1)", ioperm(0x10000, 1, 1) ? -errno : 0, EINVAL);
    expect("ioperm(0x80, 0, 1): no ports", ioperm(POST_PORT, 0, 1) ? -errno : 0, EINVAL);
    expect("ioperm(0xffffffff, 2, 1): wraps", ioperm(0xffffffffu, 2, 1) ? -errno : 0, EINVAL);
    expect("ioperm(5, 0xffffffff, 1): num wraps", ioperm(5, 0xffffffffu, 1) ? -errno : 0, EINVAL);
    expect("ioperm(0, 0x10001, 1)", ioperm(0, 0x10001, 1) ? -errno : 0, EINVAL);
    check_number("none of that granted 0x80", try_in(POST_PORT, 1), SIGSEGV);

    /* iopl */
    expect("iopl(4)", iopl(4) ? -errno : 0, EINVAL);
    expect("iopl(-1)", iopl(-1) ? -errno : 0, EINVAL);
    expect("iopl(1): accepted, gives no port (Linux's emulation)", iopl(1) ? -errno : 0, 0);
    check_number("... in from 0x80 -> SIGSEGV", try_in(POST_PORT, 1), SIGSEGV);
    expect("iopl(3)", iopl(3) ? -errno : 0, 0);
    check_number("iopl(3): in from 0x80 runs", try_in(POST_PORT, 1), 0);
    check_number("iopl(3): in from 0xed runs (every port)", try_in(UNUSED_PORT, 1), 0);
    check_number("iopl(3): a word from 0x80 runs", try_in(POST_PORT, 2), 0);
    bool if_set = false;
    check_number("iopl(3): cli and sti are no-ops, not faults (Linux 5.18 on)", try_cli_sti(&if_set), 0);
    check_true("... interrupts stayed on through the cli", if_set);
    check_number("a child inherits iopl(3)", port_in_child(0), 0);
    expect("iopl(0)", iopl(0) ? -errno : 0, 0);
    check_number("iopl(0): in from 0x80 -> SIGSEGV again", try_in(POST_PORT, 1), SIGSEGV);
    check_number("iopl(0): cli -> SIGSEGV again", try_cli_sti(&if_set), SIGSEGV);

    /* root that gives up root keeps what it has, and gets no more */
    pid_t pid = fork();
    if (pid == 0) {
        int bad = 0;
        bad |= ioperm(POST_PORT, 1, 1) != 0;
        bad |= setuid(1000) != 0;
        bad |= try_in(POST_PORT, 1) != 0;
        bad |= !(ioperm(UNUSED_PORT, 1, 1) != 0 && errno == EPERM);
        bad |= !(iopl(3) != 0 && errno == EPERM);
        _exit(bad);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    check_number("after setuid(1000) a granted port still works, new ones are EPERM", status, 0);

    /* a killed holder leaves nothing behind, on the same CPU */
    bool pinned = pin_to_cpu0() == 0;
    check_true("pinned to CPU 0 (children inherit it)", pinned);
    pid = fork();
    if (pid == 0) {
        ioperm(POST_PORT, 1, 1);
        iopl(3);
        for (;;)
            (void)inb(POST_PORT);
    }
    for (int i = 0; i < 20; i++)
        raw(SYS_sched_yield, 0, 0, 0, 0, 0);
    kill(pid, SIGKILL);
    status = -1;
    waitpid(pid, &status, 0);
    check_number("a child spinning on port 0x80 with iopl(3) is killed (SIGKILL)", status & 0x7f,
                 SIGKILL);
    check_number("the next child on that CPU cannot reach 0x80", port_in_child(0), 1 << 8);
    check_number("... nor can this process", try_in(POST_PORT, 1), SIGSEGV);
}

int main(int argc, char **argv)
{
    catch_faults();
    if (argc > 1 && strcmp(argv[1], "port-child") == 0)
        return try_in(POST_PORT, 1) == 0 ? 0 : 1;
    if (argc > 1 && strcmp(argv[1], "port-hold") == 0) {
        if (ioperm(POST_PORT, 1, 1) != 0 || iopl(3) != 0)
            return 1;
        printf("port-hold: holding port 0x80 and iopl(3)\n");
        fflush(stdout);
        for (;;)
            (void)inb(POST_PORT);
    }
    if (argc > 1 && strcmp(argv[1], "port-refused") == 0) {
        check_number("a new program after a killed holder: in from 0x80 -> SIGSEGV",
                     try_in(POST_PORT, 1), SIGSEGV);
        bool if_set;
        check_number("... and cli -> SIGSEGV (no iopl left behind)", try_cli_sti(&if_set), SIGSEGV);
        return check_summary("dma_ports_after_kill");
    }
    root = geteuid() == 0;
    printf("# dma_ports_test as uid %d\n", (int)geteuid());
    check_mlock();
    check_pagemap();
    if (root)
        check_ports_granted();
    else
        check_ports_refused();
    return check_summary("dma_ports_test");
}
