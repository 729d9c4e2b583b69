/*
 * hostile_mem.c - the process layout and the memory calls, checked as a program sees them
 * on Linux i386, then attacked: every bad address, length or flag must get Linux's errno
 * (or signal) and leave the kernel and the program's other memory as they were.
 *
 *   layout   where the image, the stack, the break and mappings are; the initial stack
 *            (argc, argv, envp, the auxiliary vector) as Linux's create_elf_tables builds it
 *   calls    brk, mmap2 and old mmap, munmap, mprotect, madvise, mremap: what works
 *   attacks  the null page, kernel addresses, wrapping ranges, huge lengths, brk into the
 *            stack or the kernel, and memory exhaustion
 *
 * Prints one line per check (tracekern/check.h) and ends with "hostile_mem: P passed, F
 * failed"; the exit status is 1 when anything failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <tracekern/check.h>

#include "uapi/auxv.h"
#include <unistd.h>

#define PAGE 4096u
#define PAGE_ALIGN(x) (((x) + PAGE - 1) & ~(PAGE - 1))
#define KERNEL_TEXT 0xc0100000u
#define SEGV_MAPERR 1
#define SEGV_ACCERR 2

extern char _start[];
static char in_bss[64];

/* ---- touching memory that may fault ---- */

static sigjmp_buf fault_jump;
static volatile int fault_code; /* si_code of the last SIGSEGV, 0 for none */

static void on_segv(int sig, siginfo_t *info, void *uc)
{
    (void)sig, (void)uc;
    fault_code = info->si_code;
    siglongjmp(fault_jump, 1);
}

/* Reads (or writes, with value >= 0) the byte at addr: 0 when it worked, else the
 * SIGSEGV's si_code. */
static int touch(uint32_t addr, int value)
{
    fault_code = 0;
    if (sigsetjmp(fault_jump, 1) == 0) {
        volatile uint8_t *p = (volatile uint8_t *)(uintptr_t)addr;
        if (value >= 0)
            *p = (uint8_t)value;
        else
            (void)*p;
    }
    return fault_code;
}

static long sys(long nr, long a, long b, long c, long d, long e, long f)
{
    long ret;
    asm volatile("push %%ebp\n\tmov %7, %%ebp\n\tint $0x80\n\tpop %%ebp"
                 : "=a"(ret)
                 : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e), "g"(f)
                 : "memory");
    return ret;
}
static long mmap2(uint32_t addr, uint32_t len, int prot, int flags, int fd, uint32_t pgoff)
{
    return sys(SYS_mmap2, addr, len, prot, flags, fd, pgoff);
}
static long anon(uint32_t addr, uint32_t len, int prot, int extra)
{
    return mmap2(addr, len, prot, MAP_PRIVATE | MAP_ANONYMOUS | extra, -1, 0);
}
static uint32_t brk_to(uint32_t a) { return (uint32_t)sys(SYS_brk, a, 0, 0, 0, 0, 0); }

/* A raw result that is an address (any of the 4 GiB but the last 4095 values, -errno). */
static bool mapped(long r) { return (unsigned long)r < 0xfffff000ul; }

/* Linux's errno name check for a raw result: -errno in ret, or success as >= 0. */
static void expect(const char *what, long ret, int want)
{
    check_errno(what, ret < 0 && ret > -4096 ? (int)-ret : 0, want);
}

/* ---- layout and the initial stack ---- */

static uint32_t auxv_get(const uint32_t *auxv, uint32_t key, bool *found)
{
    for (; auxv[0] != AT_NULL; auxv += 2)
        if (auxv[0] == key) {
            *found = true;
            return auxv[1];
        }
    *found = false;
    return 0;
}

static void check_layout(int argc, char **argv)
{
    int local;
    uint32_t sp_at_entry = (uint32_t)(uintptr_t)argv - 4; /* where argc was */
    check_true("the program's code is at 0x08048000 (as i386 toolchains link)",
               (uintptr_t)_start >= 0x08048000u && (uintptr_t)_start < 0x08049000u);
    check_true("the stack is just below 0xC0000000",
               (uintptr_t)&local > 0xbf800000u && (uintptr_t)&local < 0xc0000000u);
    check_true("ESP at the entry point is 16-byte aligned and holds argc",
               sp_at_entry % 16 == 0 && *(int *)(uintptr_t)sp_at_entry == argc);
    char **envp = argv + argc + 1;
    check_true("argv ends with NULL", argv[argc] == NULL);
    int envc = 0;
    while (envp[envc])
        envc++;
    const uint32_t *auxv = (const uint32_t *)(envp + envc + 1);
    bool f;
    check_true("auxv starts with AT_HWCAP (no AT_SYSINFO: no vDSO)", auxv[0] == AT_HWCAP);
    check_true("AT_HWCAP: CPUID.1:EDX, FPU and TSC bits set",
               (auxv_get(auxv, AT_HWCAP, &f) & 0x11) == 0x11 && f);
    check_number("AT_PAGESZ", auxv_get(auxv, AT_PAGESZ, &f), 4096);
    check_number("AT_CLKTCK", auxv_get(auxv, AT_CLKTCK, &f), 100);
    const uint32_t *phdr = (const uint32_t *)(uintptr_t)auxv_get(auxv, AT_PHDR, &f);
    check_true("AT_PHDR points at the program headers in memory (a PT_LOAD at 0x08048000)",
               f && touch((uint32_t)(uintptr_t)phdr, -1) == 0 && phdr[0] == 1 &&
                   phdr[2] == 0x08048000u);
    check_number("AT_PHENT", auxv_get(auxv, AT_PHENT, &f), 32);
    check_true("AT_PHNUM: the program headers (at least text and data)",
               auxv_get(auxv, AT_PHNUM, &f) >= 2);
    check_number("AT_BASE (no interpreter)", auxv_get(auxv, AT_BASE, &f), 0);
    check_true("AT_FLAGS 0", auxv_get(auxv, AT_FLAGS, &f) == 0 && f);
    check_number("AT_ENTRY is _start", auxv_get(auxv, AT_ENTRY, &f), (long)(uintptr_t)_start);
    check_number("AT_UID", auxv_get(auxv, AT_UID, &f), getuid());
    check_number("AT_EUID", auxv_get(auxv, AT_EUID, &f), geteuid());
    check_number("AT_GID", auxv_get(auxv, AT_GID, &f), getgid());
    check_number("AT_EGID", auxv_get(auxv, AT_EGID, &f), getegid());
    check_true("AT_SECURE 0", auxv_get(auxv, AT_SECURE, &f) == 0 && f);
    const uint8_t *rnd = (const uint8_t *)(uintptr_t)auxv_get(auxv, AT_RANDOM, &f);
    int nonzero = 0;
    for (int i = 0; f && i < 16; i++)
        nonzero += rnd[i] != 0;
    check_true("AT_RANDOM: 16 bytes on the stack, not all zero",
               f && (uintptr_t)rnd > (uintptr_t)&local && nonzero > 0);
    check_true("AT_HWCAP2 0", auxv_get(auxv, AT_HWCAP2, &f) == 0 && f);
    const char *execfn = (const char *)(uintptr_t)auxv_get(auxv, AT_EXECFN, &f);
    check_true("AT_EXECFN: a string at the top of the stack",
               f && (uintptr_t)execfn > (uintptr_t)rnd && strlen(execfn) > 0 &&
                   (uintptr_t)execfn + strlen(execfn) + 1 == 0xc0000000u - 4);
    const char *platform = (const char *)(uintptr_t)auxv_get(auxv, AT_PLATFORM, &f);
    check_true("AT_PLATFORM \"i686\"", f && strcmp(platform, "i686") == 0);
    auxv_get(auxv, AT_SYSINFO, &f);
    bool sysinfo = f;
    auxv_get(auxv, AT_SYSINFO_EHDR, &f);
    check_true("no AT_SYSINFO, no AT_SYSINFO_EHDR", !sysinfo && !f);
    check_true("the argument strings lie above the auxiliary vector, argv[0] first",
               (uintptr_t)argv[0] > (uintptr_t)auxv &&
                   (argc < 2 || argv[1] == argv[0] + strlen(argv[0]) + 1));
}

/* ---- brk ---- */

static void check_brk(void)
{
    uint32_t start = brk_to(0);
    check_true("brk(0): the page-aligned end of the image",
               start % PAGE == 0 && start > (uintptr_t)in_bss && start - (uintptr_t)in_bss < 2 * PAGE);
    check_number("brk grows to an unaligned break and returns it", brk_to(start + 10000),
                 start + 10000);
    check_true("the heap is zeroed and writable",
               touch(start, -1) == 0 && *(uint8_t *)(uintptr_t)(start + 9999) == 0 &&
                   touch(start + 9999, 0x5a) == 0);
    check_number("brk shrinks", brk_to(start + 100), start + 100);
    check_number("the page above the shrunk break is gone", touch(start + PAGE, -1), SEGV_MAPERR);
    check_number("brk below the image's end: unchanged", brk_to(start - PAGE), start + 100);
    check_number("brk into the stack: unchanged", brk_to(0xbfff0000u), start + 100);
    check_number("brk into the kernel: unchanged", brk_to(KERNEL_TEXT), start + 100);
    check_number("brk to 0xffffffff: unchanged", brk_to(0xffffffffu), start + 100);
    check_number("brk over more memory than there is: unchanged", brk_to(0xb0000000u),
                 start + 100);
    long m = anon(PAGE_ALIGN(start + 100) + 2 * PAGE, PAGE, PROT_READ, MAP_FIXED);
    check_number("brk into a mapping: unchanged", brk_to(start + 4 * PAGE), start + 100);
    sys(SYS_munmap, m, PAGE, 0, 0, 0, 0);
    check_number("brk back to the start", brk_to(start), start);
}

/* ---- mmap, munmap ---- */

static void check_mmap(void)
{
    long a = anon(0, 2 * PAGE, PROT_READ | PROT_WRITE, 0);
    long b = anon(0, PAGE, PROT_READ | PROT_WRITE, 0);
    check_true("mmap places top-down below 0xB8000000 (mmap_base)",
               (uint32_t)a > 0x80000000u && (uint32_t)a + 2 * PAGE <= 0xb8000000u &&
                   (uint32_t)b + PAGE <= (uint32_t)a);
    check_true("the pages are zeroed and writable", touch(a, -1) == 0 && touch(a + PAGE, 7) == 0);
    long h = anon(0x50000000u, PAGE, PROT_READ, 0);
    check_number("a free hint is taken", h, 0x50000000);
    long h2 = anon(0x50000000u, PAGE, PROT_READ, 0);
    check_true("a taken hint is not: the mapping goes elsewhere", mapped(h2) && h2 != 0x50000000);
    check_true("a hint in the kernel is not taken either",
               (uint32_t)anon(KERNEL_TEXT, PAGE, PROT_READ, 0) < 0xc0000000u);
    expect("MAP_FIXED_NOREPLACE over a mapping", anon(0x50000000u, PAGE, PROT_READ, MAP_FIXED_NOREPLACE), EEXIST);
    check_number("MAP_FIXED_NOREPLACE on free pages", anon(0x50010000u, PAGE, PROT_READ, MAP_FIXED_NOREPLACE), 0x50010000);
    touch(a, 0x77);
    check_number("MAP_FIXED replaces what was there", anon(a, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED), a);
    check_number("... with zeroed pages", *(volatile uint8_t *)a, 0);
    struct mmap_arg_struct old = { 0, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, (uint32_t)-1, 0 };
    long o = sys(SYS_mmap, (long)&old, 0, 0, 0, 0, 0);
    check_true("old mmap (90) maps from its argument block", mapped(o) && touch(o, -1) == 0);
    old.offset = 100;
    expect("old mmap with an offset that is not a page multiple", sys(SYS_mmap, (long)&old, 0, 0, 0, 0, 0), EINVAL);
    expect("old mmap with its block in the kernel", sys(SYS_mmap, KERNEL_TEXT, 0, 0, 0, 0, 0), EFAULT);
    long s = mmap2(0, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    check_true("MAP_SHARED | MAP_ANONYMOUS maps", mapped(s) && touch(s, 1) == 0);
    long st = anon(0, PAGE, PROT_READ | PROT_WRITE, MAP_STACK | MAP_NORESERVE | MAP_POPULATE);
    check_true("MAP_STACK, MAP_NORESERVE, MAP_POPULATE are accepted", mapped(st) && touch(st, 1) == 0);

    /* munmap of part of a mapping */
    long four = anon(0, 4 * PAGE, PROT_READ | PROT_WRITE, 0);
    expect("munmap of the middle two of four pages", sys(SYS_munmap, four + PAGE, 2 * PAGE, 0, 0, 0, 0), 0);
    check_true("the outer pages stay, the middle ones fault",
               touch(four, -1) == 0 && touch(four + 3 * PAGE, -1) == 0 &&
                   touch(four + PAGE, -1) == SEGV_MAPERR && touch(four + 2 * PAGE, -1) == SEGV_MAPERR);
    expect("munmap of nothing mapped", sys(SYS_munmap, four + PAGE, PAGE, 0, 0, 0, 0), 0);
    expect("munmap of an unaligned address", sys(SYS_munmap, four + 1, PAGE, 0, 0, 0, 0), EINVAL);
    expect("munmap of length 0", sys(SYS_munmap, four, 0, 0, 0, 0, 0), EINVAL);
    expect("munmap of the kernel", sys(SYS_munmap, 0xc0000000u, PAGE, 0, 0, 0, 0), EINVAL);
    expect("munmap across the top of user space", sys(SYS_munmap, 0xbffff000u, 2 * PAGE, 0, 0, 0, 0), EINVAL);
    expect("munmap of a range that wraps", sys(SYS_munmap, 0xfffff000u, 2 * PAGE, 0, 0, 0, 0), EINVAL);
    check_true("the kernel's text is still there (a system call works)", getpid() > 0);
}

/* ---- mprotect, madvise, mremap ---- */

/* True when a write by a forked child to the byte at addr is seen here: the page is
 * shared with the child, not copied. */
static bool shared_with_child(uint32_t addr, uint8_t value)
{
    pid_t pid = fork();
    if (pid == 0) {
        *(volatile uint8_t *)(uintptr_t)addr = value;
        _exit(0);
    }
    int status = -1;
    return pid > 0 && waitpid(pid, &status, 0) == pid && status == 0 &&
           *(volatile uint8_t *)(uintptr_t)addr == value;
}

/* MAP_SHARED anonymous memory and PROT_NONE: the page is inaccessible until mprotect says
 * otherwise, and changing its rights never turns it into a private page. */
static void check_shared_prot_none(void)
{
    long s = mmap2(0, PAGE, PROT_NONE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    check_number("mmap PROT_NONE MAP_SHARED: a read is SIGSEGV (SEGV_ACCERR)",
                 mapped(s) ? touch(s, -1) : -1, SEGV_ACCERR);
    check_number("... and so is a write", mapped(s) ? touch(s, 1) : -1, SEGV_ACCERR);
    expect("... mprotect it to PROT_READ|PROT_WRITE", sys(SYS_mprotect, s, PAGE, PROT_READ | PROT_WRITE, 0, 0, 0), 0);
    check_true("... then it is shared with a forked child", touch(s, 1) == 0 && shared_with_child(s, 0x5a));

    long w = mmap2(0, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    touch(w, 0x21);
    expect("a MAP_SHARED page made PROT_NONE", sys(SYS_mprotect, w, PAGE, PROT_NONE, 0, 0, 0), 0);
    expect("... then PROT_READ|PROT_WRITE", sys(SYS_mprotect, w, PAGE, PROT_READ | PROT_WRITE, 0, 0, 0), 0);
    check_true("... still shares with a forked child", *(volatile uint8_t *)w == 0x21 && shared_with_child(w, 0x6b));
    sys(SYS_munmap, s, PAGE, 0, 0, 0, 0);
    sys(SYS_munmap, w, PAGE, 0, 0, 0, 0);
}

static void check_protect_advise_remap(void)
{
    long p = anon(0x5a000000u, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
    touch(p, 0x42);
    expect("mprotect to PROT_NONE", sys(SYS_mprotect, p, PAGE, PROT_NONE, 0, 0, 0), 0);
    check_number("a PROT_NONE page faults (SEGV_ACCERR: it is mapped)", touch(p, -1), SEGV_ACCERR);
    expect("mprotect back to PROT_READ", sys(SYS_mprotect, p, PAGE, PROT_READ, 0, 0, 0), 0);
    check_true("its contents survived PROT_NONE", *(volatile uint8_t *)p == 0x42);
    check_number("a read-only page refuses a write", touch(p, 1), SEGV_ACCERR);
    long n = anon(0, PAGE, PROT_NONE, 0);
    check_true("mmap PROT_NONE: mapped, inaccessible", mapped(n) && touch(n, -1) == SEGV_ACCERR);
    expect("MAP_FIXED_NOREPLACE over a PROT_NONE page", anon(n, PAGE, PROT_READ, MAP_FIXED_NOREPLACE), EEXIST);
    check_shared_prot_none();
    expect("mprotect of an unaligned address", sys(SYS_mprotect, p + 1, PAGE, PROT_READ, 0, 0, 0), EINVAL);
    expect("mprotect with an unknown bit", sys(SYS_mprotect, p, PAGE, 0x8, 0, 0, 0), EINVAL);
    expect("mprotect of unmapped pages", sys(SYS_mprotect, 0x60000000u, PAGE, PROT_READ, 0, 0, 0), ENOMEM);
    expect("mprotect of the kernel", sys(SYS_mprotect, KERNEL_TEXT, PAGE, PROT_READ | PROT_WRITE, 0, 0, 0), ENOMEM);
    expect("mprotect of the null page", sys(SYS_mprotect, 0, PAGE, PROT_READ, 0, 0, 0), ENOMEM);
    expect("mprotect of a range that wraps", sys(SYS_mprotect, 0xfffff000u, 2 * PAGE, PROT_READ, 0, 0, 0), ENOMEM);
    expect("mprotect of length 0", sys(SYS_mprotect, p, 0, PROT_READ, 0, 0, 0), 0);
    expect("mprotect running into a hole", sys(SYS_mprotect, p + 2 * PAGE, 2 * PAGE, PROT_READ, 0, 0, 0), ENOMEM);

    long d = anon(0, 2 * PAGE, PROT_READ | PROT_WRITE, 0);
    touch(d, 0xab);
    touch(d + PAGE, 0xcd);
    static const int kept[] = { MADV_NORMAL, MADV_RANDOM, MADV_SEQUENTIAL, MADV_WILLNEED };
    for (int i = 0; i < 4; i++)
        expect("madvise NORMAL/RANDOM/SEQUENTIAL/WILLNEED", sys(SYS_madvise, d, 2 * PAGE, kept[i], 0, 0, 0), 0);
    check_true("... keep the contents", *(volatile uint8_t *)d == 0xab);
    expect("madvise MADV_DONTNEED", sys(SYS_madvise, d, PAGE, MADV_DONTNEED, 0, 0, 0), 0);
    check_true("MADV_DONTNEED: the page reads back as zero, the next one is kept",
               *(volatile uint8_t *)d == 0 && *(volatile uint8_t *)(d + PAGE) == 0xcd);
    expect("madvise with unknown advice", sys(SYS_madvise, d, PAGE, 999, 0, 0, 0), EINVAL);
    expect("madvise of an unaligned address", sys(SYS_madvise, d + 1, PAGE, MADV_NORMAL, 0, 0, 0), EINVAL);
    expect("madvise of unmapped pages", sys(SYS_madvise, 0x60000000u, PAGE, MADV_DONTNEED, 0, 0, 0), ENOMEM);
    expect("madvise of the kernel", sys(SYS_madvise, KERNEL_TEXT, PAGE, MADV_DONTNEED, 0, 0, 0), ENOMEM);
    expect("madvise of a range that wraps", sys(SYS_madvise, 0xfffff000u, 2 * PAGE, MADV_NORMAL, 0, 0, 0), EINVAL);

    long r = anon(0x58000000u, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
    touch(r, 0x11);
    check_number("mremap shrinks in place", sys(SYS_mremap, r, 4 * PAGE, 2 * PAGE, 0, 0, 0), r);
    check_number("... and the tail is gone", touch(r + 2 * PAGE, -1), SEGV_MAPERR);
    check_number("mremap grows in place when the pages above are free",
                 sys(SYS_mremap, r, 2 * PAGE, 3 * PAGE, 0, 0, 0), r);
    check_true("... with zeroed, writable pages", touch(r + 2 * PAGE, 5) == 0);
    anon(r + 3 * PAGE, PAGE, PROT_READ, MAP_FIXED); /* something in the way */
    expect("mremap cannot grow in place, may not move", sys(SYS_mremap, r, 3 * PAGE, 5 * PAGE, 0, 0, 0), ENOMEM);
    long moved = sys(SYS_mremap, r, 3 * PAGE, 5 * PAGE, MREMAP_MAYMOVE, 0, 0);
    check_true("MREMAP_MAYMOVE moves it, contents and all",
               mapped(moved) && moved != r && *(volatile uint8_t *)moved == 0x11 && touch(moved + 4 * PAGE, 1) == 0);
    check_number("... and the old place is unmapped", touch(r, -1), SEGV_MAPERR);
    check_number("MREMAP_FIXED moves it where asked",
                 sys(SYS_mremap, moved, 5 * PAGE, 5 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, 0x5c000000u, 0),
                 0x5c000000);
    expect("mremap MREMAP_FIXED without MREMAP_MAYMOVE", sys(SYS_mremap, 0x5c000000u, PAGE, PAGE, MREMAP_FIXED, 0x5d000000u, 0), EINVAL);
    expect("mremap with unknown flags", sys(SYS_mremap, 0x5c000000u, PAGE, PAGE, 0x40, 0, 0), EINVAL);
    expect("mremap of unmapped memory", sys(SYS_mremap, 0x60000000u, PAGE, 2 * PAGE, MREMAP_MAYMOVE, 0, 0), EFAULT);
    expect("mremap of the kernel", sys(SYS_mremap, KERNEL_TEXT, PAGE, 2 * PAGE, MREMAP_MAYMOVE, 0, 0), EFAULT);
    expect("mremap to length 0", sys(SYS_mremap, 0x5c000000u, PAGE, 0, 0, 0, 0), EINVAL);
    expect("mremap MREMAP_FIXED into the kernel",
           sys(SYS_mremap, 0x5c000000u, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, 0xc0000000u, 0), EINVAL);
    expect("mremap MREMAP_FIXED onto itself (overlap)",
           sys(SYS_mremap, 0x5c000000u, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, 0x5c001000u, 0), EINVAL);
}

/* ---- attacks on the edges ---- */

static void check_attacks(void)
{
    expect("MAP_FIXED at the null page", anon(0, PAGE, PROT_READ, MAP_FIXED), EPERM);
    expect("MAP_FIXED just below mmap_min_addr (0xf000)", anon(0xf000, PAGE, PROT_READ, MAP_FIXED), EPERM);
    check_number("... and the null page still faults", touch(0, -1), SEGV_MAPERR);
    expect("MAP_FIXED in the kernel", anon(0xc0000000u, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED), ENOMEM);
    expect("MAP_FIXED over the kernel's text", anon(KERNEL_TEXT, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED), ENOMEM);
    expect("MAP_FIXED across the top of user space", anon(0xbffff000u, 2 * PAGE, PROT_READ, MAP_FIXED), ENOMEM);
    expect("MAP_FIXED at an unaligned address", anon(0x50000001u, PAGE, PROT_READ, MAP_FIXED), EINVAL);
    expect("mmap of length 0", anon(0, 0, PROT_READ, 0), EINVAL);
    expect("mmap of 0xfffff001 bytes (wraps when rounded)", anon(0, 0xfffff001u, PROT_READ, 0), ENOMEM);
    expect("mmap of 3 GiB", anon(0, 0xc0000000u, PROT_READ, 0), ENOMEM);
    expect("mmap of 2 GiB (more than memory)", anon(0, 0x80000000u, PROT_READ | PROT_WRITE, 0), ENOMEM);
    expect("mmap with no type (neither shared nor private)", mmap2(0, PAGE, PROT_READ, MAP_ANONYMOUS, -1, 0), EINVAL);
    expect("mmap of a bad descriptor", mmap2(0, PAGE, PROT_READ, MAP_PRIVATE, 1000, 0), EBADF);
    expect("mmap with a page offset that wraps", mmap2(0, 2 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0xffffffffu), EOVERFLOW);
    expect("mmap with MAP_HUGETLB", anon(0, PAGE, PROT_READ, MAP_HUGETLB), EINVAL);

    /* A page the kernel lends read-only (user_events' status page) must stay so. */
    int status = open("/sys/kernel/tracing/user_events_status", O_RDONLY);
    long sp = mmap2(0, PAGE, PROT_READ, MAP_SHARED, status, 0);
    check_true("the status page maps read-only", mapped(sp) && touch(sp, -1) == 0);
    expect("mprotect of the status page to writable", sys(SYS_mprotect, sp, PAGE, PROT_READ | PROT_WRITE, 0, 0, 0), EACCES);
    expect("mprotect of the status page to PROT_NONE", sys(SYS_mprotect, sp, PAGE, PROT_NONE, 0, 0, 0), 0);
    expect("... and from PROT_NONE to writable", sys(SYS_mprotect, sp, PAGE, PROT_WRITE, 0, 0, 0), EACCES);
    check_number("... so it is still not writable", touch(sp, 1), SEGV_ACCERR);
    sys(SYS_mprotect, sp, PAGE, PROT_READ, 0, 0, 0);
    expect("madvise MADV_DONTNEED of the status page", sys(SYS_madvise, sp, PAGE, MADV_DONTNEED, 0, 0, 0), EINVAL);
    expect("mremap growing the status page", sys(SYS_mremap, sp, PAGE, 2 * PAGE, MREMAP_MAYMOVE, 0, 0), EFAULT);
    sys(SYS_munmap, sp, PAGE, 0, 0, 0, 0);
    close(status);

    /* Exhaustion: take all the memory there is in 1 MiB pieces, then give it back. */
    static long held[1024];
    int n = 0;
    long r;
    while (n < 1024 && mapped(r = anon(0, 1u << 20, PROT_READ | PROT_WRITE, 0)))
        held[n++] = r;
    expect("mapping until memory runs out ends in ENOMEM", r, ENOMEM);
    static long pages[256]; /* what the last MiB left, a page at a time */
    int np = 0;
    while (np < 256 && mapped(r = anon(0, PAGE, PROT_READ | PROT_WRITE, 0)))
        pages[np++] = r;
    expect("... then page by page, until ENOMEM too", r, ENOMEM);
    check_number("... and brk cannot grow either", brk_to(brk_to(0) + PAGE), brk_to(0));
    bool freed = true;
    for (int i = 0; i < n; i++)
        freed &= sys(SYS_munmap, held[i], 1u << 20, 0, 0, 0, 0) == 0;
    for (int i = 0; i < np; i++)
        freed &= sys(SYS_munmap, pages[i], PAGE, 0, 0, 0, 0) == 0;
    check_true("everything given back; a new mapping works again",
               freed && n > 0 && mapped(anon(0, 1u << 20, PROT_READ | PROT_WRITE, 0)));
}

/* The stack grows on demand: 2 MiB below the top is reachable by touching it in order. */
static int __attribute__((noinline)) deep(int level)
{
    volatile char frame[60000];
    frame[0] = (char)level;
    return level == 0 ? frame[0] : deep(level - 1) + frame[0];
}

int main(int argc, char **argv)
{
    struct sigaction sa = { 0 };
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &sa, 0);
    check_layout(argc, argv);
    check_brk();
    check_mmap();
    check_protect_advise_remap();
    check_true("the stack grows on demand (2 MiB of frames)", deep(34) >= 0);
    check_attacks();
    return check_summary("hostile_mem");
}
