/*
 * sysfuzz.c - a system call fuzzer: ITERATIONS system calls with random numbers and
 * arguments, drawn from a deterministic PRNG (xorshift32) seeded by SEED, so that a run
 * that finds something can be repeated call for call on a fresh boot.
 *
 * The kernel must survive every call and answer it with a result or an errno, and this
 * program must never be killed: it never touches a bad address itself, so a kill means
 * the kernel failed to check an argument (wrote where it should have refused, or faulted
 * on our behalf).
 *
 * The calls: mostly the implemented ones (read write open close getpid ioctl munmap writev
 * sched_yield nanosleep mmap2 clock_gettime, issue 16's time, uname, sysinfo, limits,
 * getrandom, CPU and personality calls, the file, pipe, terminal and polling calls
 * of issue 16 (and issue 18's mkdir rmdir): dup dup2 dup3 fcntl fcntl64 close_range pipe pipe2 openat chdir fchdir
 * getcwd umask access faccessat faccessat2 readlink readlinkat stat lstat fstat stat64
 * lstat64 fstat64 fstatat64 statx getdents getdents64 lseek _llseek pread64 poll ppoll
 * ppoll_time64 select _newselect pselect6 pselect6_time64; and the process calls: fork vfork
 * clone execve waitpid wait4 getppid gettid kill tkill tgkill setpgid getpgid getpgrp setsid
 * getsid alarm setitimer getitimer rt_sigsuspend set_tid_address set_robust_list
 * set_thread_area get_thread_area rseq, in shapes that cannot end or replace this program:
 * see "Processes" below; setgroups setgroups32), usually shaped so that they
 * get past the first check (real fds of user_events_data, DIAG_IOCSREG/DEL/UNREG structures
 * with random fields, iovec arrays, timespecs, paths of the tree, pollfd arrays and
 * fd_sets), otherwise with raw random arguments; and any number of
 * 0..SYS_MAX with random arguments, and tracekern's IPC call with any operation (timeouts
 * cut short), except the ones in `never` (exit,
 * exit_group, and calls that would end, block or rewrite this program should the kernel
 * ever implement them).
 *
 * One call in four enters the kernel with the direction flag set.
 *
 * Arguments come from a mix: small ints (-5..40), fds 0..40, lengths (0, small, pages,
 * huge, 0xffffffff), random words, and pointers, page-aligned or not, into the NULL page,
 * 0x1000, kernel memory (0xc0100000, 0xc0000000, 0xf0000000, 0xfffff000), this program's
 * scratch buffers (.bss and stack), the last bytes below the stack top and just past it,
 * the first page of its own code (read-only), the mmap area, and anywhere.
 *
 * Guards (guard_call) keep the program from harming itself in ways that are not kernel
 * bugs; they look at the final number and arguments, however they were drawn:
 *   - whatever the kernel may legitimately write (read's buffer, a struct timespec, a
 *     registration's write_index and enable bit) lands in a scratch buffer, in memory the
 *     program does not use, or where the kernel must refuse: never on its data or stack;
 *   - structures whose contents steer the kernel (nanosleep's request, DIAG_IOCSREG's
 *     argument) are in a scratch buffer, so the guard can read them, or outside user
 *     memory; a valid sleep is cut to at most 1 ms;
 *   - write/writev/close of fds 0..2 go to a fresh fd of /dev/null instead, so the console
 *     stays readable and open;
 *   - munmap and MAP_FIXED addresses are in [0x80000000, 0xbe000000) or invalid ones;
 *   - calls the kernel does not implement get no pointer into the program's own memory;
 *   - nothing waits without end: every pipe is nonblocking (pipe2 gets O_NONBLOCK, pipe's
 *     ends are set so, F_SETFL always keeps O_NONBLOCK), reads of the terminal (fds 0..2
 *     and their copies) go to /dev/null as their writes do, poll's timeout is at most
 *     2 ms and every other timeout of poll and select at most 1 us (never NULL);
 *   - dup2/dup3 never replace fds 0..2, close_range starts at 3 or above;
 *   - SIGPIPE is ignored: a write to a pipe without a reader is EPIPE.
 * Bookkeeping calls (the /dev/null fds, unmapping big or old mappings so memory stays
 * bounded, the cleanup at the end) are not counted. The cleanup unregisters the enable
 * addresses, deletes the events the run registered and gives back the supplementary
 * groups and group ids the program started with (the user-id calls keep it root).
 *
 * Usage: sysfuzz [ITERATIONS [SEED]]   (defaults 10000 and 1)
 * Prints:
 *   sysfuzz: seed SEED, ITERATIONS iterations
 *   sysfuzz: N calls, E errors                 (every 1000 calls; E failed with an errno)
 *   sysfuzz: errno NAME xCOUNT                 (each errno seen, in numeric order)
 *   sysfuzz: done, N calls, M distinct errno values
 * and "sysfuzz: cleanup: delete NAME: ERRNO" for an event it could not delete at the end,
 * "sysfuzz: cleanup: groups: ERRNO" when its groups or group ids could not be restored.
 * Exit status 0; 2 for a usage error.
 */
#include "uapi/ipc.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/user_events.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing/"
#define DATA_FILE TRACEFS "user_events_data"
#define STATUS_FILE TRACEFS "user_events_status"

#define PAGE USER_PAGE_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PICK(a) ((a)[below(ARRAY_SIZE(a))])

#define SCRATCH_SIZE (2 * PAGE)       /* the .bss scratch buffer */
#define STACK_SCRATCH_SIZE PAGE       /* the one in main's frame */
#define MMAP_LO 0x80000000u           /* munmap and MAP_FIXED stay in [MMAP_LO, MMAP_HI) */
#define MMAP_HI USER_MMAP_BASE        /* the kernel places mappings top-down from here */
#define TEXT_END (USER_TEXT_BASE + PAGE) /* user.ld puts code first: never writable */
#define STACK_SLACK 32 /* the stack's top bytes: argv strings and pointers, read only at start */
#define REG_SPAN 32    /* the bytes of a DIAG_IOCSREG argument the guard controls */
#define MAX_FDS 64
#define MAPPINGS 32                   /* mappings kept at once; older ones are unmapped */
#define BIG_MAPPING (256 * PAGE)      /* bigger ones are unmapped at once */
#define MAX_ENABLERS 512
#define MAX_NAMES 64
#define NAME_MAX 64

/* Linux i386 numbers the random draw never makes: they end the program, start another,
 * wait for a signal or without bound, signal or rewrite it, or replace its fds 0..2.
 * Some of them are made in shapes that cannot do that (the process calls, below). */
static const uint16_t never[] = {
    SYS_exit, SYS_exit_group, 2 /* fork */, 120 /* clone */, 190 /* vfork */,
    11 /* execve */, 29 /* pause */, 72 /* sigsuspend */, 179 /* rt_sigsuspend */,
    37 /* kill */, 238 /* tkill */, 270 /* tgkill */, 27 /* alarm */, 104 /* setitimer */,
    119 /* sigreturn */, 173 /* rt_sigreturn */, 88 /* reboot */, 45 /* brk */,
    125 /* mprotect */, 163 /* mremap */, 90 /* old mmap */, 257 /* remap_file_pages */,
    240 /* futex */, 256 /* epoll_wait */, 319 /* epoll_pwait */,
    177 /* rt_sigtimedwait */, 117 /* ipc */,
    102 /* socketcall */, 172 /* prctl */, 354 /* seccomp */,
};

static const char *const paths[] = {
    DATA_FILE, DATA_FILE, STATUS_FILE, "/sys/kernel/debug/tracing/user_events_data",
    "/dev/null", "/proc/uptime", "/proc/meminfo", TRACEFS "trace_marker", TRACEFS,
    TRACEFS "events/user_events", TRACEFS "no_such_file", "", "/", "/dev/null/x",
    "user_events_data", "/proc/self", "/proc/self/exe", "/proc/self/status", "/dev", "..",
    "/proc/1/exe", "/dev/zero", "/proc",
};

static const uint32_t open_flags[] = {
    O_RDONLY, O_RDWR, O_RDWR, O_WRONLY, O_ACCMODE, O_WRONLY | O_TRUNC, O_WRONLY | O_APPEND,
    O_RDWR | O_CREAT,
};

/* Commands for DIAG_IOCSREG, good and bad; every name they create is in event_names. */
static const char *const commands[] = {
    "sysfuzz_a u32 a",
    "sysfuzz_a u64 a",
    "sysfuzz_b u32 count;char[16] who",
    "sysfuzz_c __data_loc char[] msg;u32 n",
    "sysfuzz_d",
    "sysfuzz_e struct s blob 24",
    "sysfuzz_f unsigned int u;s8 c;__rel_loc char[] r",
    "sysfuzz_g long x",
    "sysfuzz_h:flag u32 a",
    "sysfuzz_i char[2048] big",
    "sysfuzz_j u32",
    "sysfuzz/k u32 a",
    "sysfuzz_l u32 a;;u32 b",
    "",
    " u32 a",
};

static const char *const event_names[] = {
    "sysfuzz_a", "sysfuzz_b", "sysfuzz_c", "sysfuzz_d", "sysfuzz_e", "sysfuzz_f",
    "sysfuzz_g", "sysfuzz_h", "sysfuzz_i", "sysfuzz_j", "sysfuzz_l",
};

struct area {
    uint32_t lo, hi;
};

/* The program's own writable memory, which the kernel must not be asked to write: data
 * and .bss (taken as everything from the second page of the image to the mmap area) and
 * the stack below its slack. The scratch buffers inside them are the exception. */
static const struct area own_memory[] = {
    { TEXT_END, MMAP_LO },
    { MMAP_HI, USER_STACK_TOP - STACK_SLACK },
};

static uint8_t scratch[SCRATCH_SIZE] __attribute__((aligned(4096)));
static struct area scratch_areas[2]; /* scratch, and the buffer in main's frame */

/* FD_CONSOLE: a copy of descriptor 0..2 (the terminal, whose read would wait for keys);
 * FD_PIPE: an end of a pipe, always nonblocking here (a read of an empty one that this
 * program itself holds the write end of would wait for ever). */
enum fd_kind { FD_NONE, FD_DATA, FD_STATUS, FD_OTHER, FD_CONSOLE, FD_PIPE, FD_ANY };
static uint8_t fd_kind[MAX_FDS]; /* what the fuzzer's own successful opens returned */

static struct {
    uint32_t addr, len;
} mappings[MAPPINGS];
static unsigned mapping_next;

static struct {
    uint32_t addr;
    uint8_t bit;
} enablers[MAX_ENABLERS]; /* successful registrations with an enable_addr */
static unsigned enabler_count;

static char names[MAX_NAMES][NAME_MAX]; /* events successful registrations named */
static unsigned name_count;

/* Whether the stack's slack is this program's argv strings (and the path after them), as
 * the kernel lays out the initial stack (kernel/proc/exec.c): then the program may read
 * it. */
static bool slack_is_argv;

static uint32_t errno_count[4096];
static uint32_t calls, errors;

/* ---- the PRNG: xorshift32, the whole run follows from the seed ---- */

static uint32_t rng;

static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static uint32_t below(uint32_t n) { return rnd() % n; }
static bool one_in(uint32_t n) { return below(n) == 0; }

static void seed_rng(uint32_t seed)
{
    rng = seed ^ 0x9e3779b9u;
    if (rng == 0)
        rng = 1;
    for (int i = 0; i < 16; i++) /* nearby seeds part ways */
        rnd();
}

static void fill_random(uint8_t *p, uint32_t len)
{
    for (uint32_t i = 0; i < len; i++)
        p[i] = (uint8_t)rnd();
}

/* ---- memory: where arguments may point ---- */

static bool in_area(uint32_t p, const struct area *a) { return p >= a->lo && p < a->hi; }

/* The scratch area holding all of [p, p + len), or NULL. */
static const struct area *scratch_holding(uint32_t p, uint32_t len)
{
    for (unsigned i = 0; i < ARRAY_SIZE(scratch_areas); i++)
        if (in_area(p, &scratch_areas[i]) && (uint64_t)p + len <= scratch_areas[i].hi)
            return &scratch_areas[i];
    return 0;
}

/* A pointer into a scratch area with at least len bytes after it, 4-aligned if asked. */
static uint32_t scratch_at(uint32_t len, bool aligned)
{
    const struct area *a = &PICK(scratch_areas);
    uint32_t off = below(a->hi - a->lo - len + 1);
    return a->lo + (aligned ? off & ~3u : off);
}

/* Whether p is in memory the program itself uses (own_memory). */
static bool in_own_memory(uint32_t p)
{
    for (unsigned i = 0; i < ARRAY_SIZE(own_memory); i++)
        if (in_area(p, &own_memory[i]))
            return true;
    return false;
}

/* Whether [p, end) overlaps memory the program itself uses. */
static bool reaches_own_memory(uint32_t p, uint64_t end)
{
    for (unsigned i = 0; i < ARRAY_SIZE(own_memory); i++)
        if (p < own_memory[i].hi && end > own_memory[i].lo)
            return true;
    return false;
}

/* A page of the mmap area, where munmap and MAP_FIXED may go. */
static uint32_t mmap_area_page(void)
{
    return MMAP_LO + PAGE * below((MMAP_HI - MMAP_LO) / PAGE);
}

/* ---- the argument mix ---- */

static uint32_t random_small(void) { return (uint32_t)((int32_t)below(46) - 5); }

static uint32_t random_length(void)
{
    static const uint32_t huge[] = { 0x7fffffff, 0x80000000, 0xfffff000, 0x40000000,
                                     0x10000000, 0x01000000, 0x00100001, 0x00010000 };
    switch (below(8)) {
    case 0: return 0;
    case 1:
    case 2: return 1 + below(64);
    case 3: return below(3 * PAGE);
    case 4: return PAGE * (1 + below(16));
    case 5:
    case 6: return PICK(huge);
    default: return 0xffffffff;
    }
}

static uint32_t random_pointer(void)
{
    static const uint32_t kernel[] = { 0xc0100000, 0xc0000000, 0xf0000000, 0xfffff000 };
    uint32_t off = one_in(2) ? 0 : below(PAGE);
    switch (below(12)) {
    case 0: return off; /* the NULL page */
    case 1: return 0x1000 + off;
    case 2:
    case 3: return PICK(kernel) + off;
    case 4: return scratch_areas[0].lo + PAGE * below(SCRATCH_SIZE / PAGE) + off % 64;
    case 5: return scratch_at(1, false);
    case 6: /* the last bytes below the stack top, or just past it */
        return one_in(2) ? USER_STACK_TOP - 1 - below(STACK_SLACK) : USER_STACK_TOP + below(16);
    case 7: return USER_TEXT_BASE + off; /* this program's first page of code */
    case 8: {
        unsigned i = below(MAPPINGS); /* a mapping of this run, if there is one */
        return (mappings[i].len ? mappings[i].addr : mmap_area_page()) + off;
    }
    case 9: return mmap_area_page() + off;
    default: return rnd();
    }
}

static uint32_t random_arg(void)
{
    switch (below(5)) {
    case 0: return random_small();
    case 1: return below(41);
    case 2: return random_pointer();
    case 3: return random_length();
    default: return rnd();
    }
}

/* A 64-bit address field: the pointer, now and then with high bits a 32-bit kernel must
 * not drop. */
static uint64_t wide(uint32_t p) { return one_in(8) ? (uint64_t)rnd() << 32 | p : p; }

/* ---- files ---- */

/* An fd the fuzzer opened, of kind (FD_ANY: any kind), or -1. */
static int open_fd_of(enum fd_kind kind)
{
    int found[MAX_FDS], n = 0;
    for (int fd = 3; fd < MAX_FDS; fd++)
        if (fd_kind[fd] != FD_NONE && (kind == FD_ANY || fd_kind[fd] == kind))
            found[n++] = fd;
    return n ? found[below(n)] : -1;
}

/* An fd argument: often one of user_events_data, sometimes another open one, or any. */
static uint32_t pick_fd(void)
{
    int fd = -1;
    switch (below(8)) {
    case 0:
    case 1:
    case 2: fd = open_fd_of(FD_DATA); break;
    case 3:
    case 4: fd = open_fd_of(FD_ANY); break;
    }
    if (fd >= 0)
        return (uint32_t)fd;
    return one_in(2) ? below(41) : random_small();
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* What a successful open of path gave: a path of the table, or anything else. */
static enum fd_kind kind_of_path(uint32_t path)
{
    for (unsigned i = 0; i < ARRAY_SIZE(paths); i++) {
        if (path != (uint32_t)(uintptr_t)paths[i])
            continue;
        if (ends_with(paths[i], "user_events_status"))
            return FD_STATUS;
        return ends_with(paths[i], "user_events_data") ? FD_DATA : FD_OTHER;
    }
    return FD_OTHER;
}

/* A fresh fd of /dev/null, to stand in for fds 0..2; when the table is full, one of the
 * fuzzer's fds is closed to make room. -1 if even that fails. */
static int open_null(void)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        int fd = open("/dev/null", O_RDWR);
        if (fd >= 0)
            return fd;
        int victim = open_fd_of(FD_ANY);
        if (victim < 0)
            break;
        close(victim);
        fd_kind[victim] = FD_NONE;
    }
    return -1;
}

/* ---- structures in scratch ---- */

/* A string of random non-NUL bytes, 0..80 of them, then NUL. */
static uint32_t garbage_string(void)
{
    uint32_t p = scratch_at(81, false), len = below(81);
    uint8_t *s = (uint8_t *)(uintptr_t)p;
    for (uint32_t i = 0; i < len; i++)
        s[i] = (uint8_t)(1 + below(255));
    s[len] = 0;
    return p;
}

/* USER_EVENTS_MAX_DESC + 88 bytes without a NUL. */
static uint32_t unterminated_string(void)
{
    uint32_t len = USER_EVENTS_MAX_DESC + 88, p = scratch_at(len, false);
    memset((void *)(uintptr_t)p, 'a', len);
    return p;
}

/* name_args of a registration: mostly a command of the table. */
static uint64_t pick_command(void)
{
    switch (below(20)) {
    case 0:
    case 1: return garbage_string();
    case 2: return unterminated_string();
    case 3:
    case 4:
    case 5:
    case 6: return wide(random_pointer());
    default: return (uintptr_t)PICK(commands);
    }
}

/* An enable word: mostly one of eight in scratch, so that pairs meet (EADDRINUSE). */
static uint32_t pick_enable_addr(void)
{
    switch (below(10)) {
    case 0:
    case 1: return scratch_at(4, true);
    case 2: return scratch_at(8, false);
    case 3:
    case 4: return random_pointer();
    default: return scratch_areas[0].lo + 4 * below(8);
    }
}

/* A DIAG_IOCSREG argument in scratch: either ABI, fields mostly plausible. */
static uint32_t build_reg(void)
{
    static const uint32_t sizes[] = { 28, 28, 28, 28, 32, 20, 0, 19, 21, 27, 29, 4096, 4097,
                                      0xffffffff };
    static const uint8_t enable_sizes[] = { 4, 4, 4, 4, 8, 2, 1, 0 };
    uint8_t buf[REG_SPAN];
    fill_random(buf, sizeof(buf));
    if (one_in(3)) {
        struct user_reg_status r;
        r.size = one_in(6) ? PICK(sizes) : sizeof(r);
        r.name_args = pick_command();
        r.status_bit = rnd();
        r.write_index = rnd();
        memcpy(buf, &r, sizeof(r));
    } else {
        struct user_reg r;
        r.size = PICK(sizes);
        r.enable_bit = (uint8_t)(one_in(4) ? below(256) : below(33));
        r.enable_size = PICK(enable_sizes);
        r.flags = one_in(5) ? (uint16_t)(1u << below(16)) : 0;
        r.enable_addr = wide(pick_enable_addr());
        r.name_args = pick_command();
        r.write_index = rnd();
        memcpy(buf, &r, sizeof(r));
        if (!one_in(4))
            memset(buf + sizeof(r), 0, sizeof(buf) - sizeof(r));
    }
    uint32_t p = scratch_at(REG_SPAN, !one_in(8));
    memcpy((void *)(uintptr_t)p, buf, sizeof(buf));
    return p;
}

/* A DIAG_IOCSUNREG argument in scratch: often a registration that exists. */
static uint32_t build_unreg(void)
{
    static const uint32_t sizes[] = { 16, 16, 16, 16, 8, 0, 15, 17, 24, 4097 };
    struct user_unreg u;
    u.size = one_in(8) ? rnd() : PICK(sizes);
    u.disable_bit = (uint8_t)below(33);
    u.__reserved = one_in(6) ? (uint8_t)rnd() : 0;
    u.__reserved2 = one_in(6) ? (uint16_t)rnd() : 0;
    if (enabler_count && one_in(2)) {
        unsigned i = below(enabler_count);
        u.disable_addr = enablers[i].addr;
        u.disable_bit = enablers[i].bit;
    } else {
        u.disable_addr = wide(pick_enable_addr());
    }
    uint32_t p = scratch_at(sizeof(u), true);
    memcpy((void *)(uintptr_t)p, &u, sizeof(u));
    return p;
}

/* DIAG_IOCSDEL's argument: an event name, mostly one this program registers. */
static uint32_t pick_delete_name(void)
{
    switch (below(8)) {
    case 0: return garbage_string();
    case 1: return (uintptr_t)PICK(commands);
    case 2:
    case 3: return random_pointer();
    default: return (uintptr_t)PICK(event_names);
    }
}

/* A user_events payload in scratch: a small write index, then random bytes. */
static uint32_t build_payload(void)
{
    uint32_t p = scratch_at(72, true);
    uint32_t index = one_in(4) ? rnd() : below(8);
    fill_random((uint8_t *)(uintptr_t)p + 4, 68);
    memcpy((void *)(uintptr_t)p, &index, sizeof(index));
    return p;
}

/* A struct timespec in scratch: no time, a little, or invalid. */
static uint32_t build_timespec(void)
{
    static const int32_t bad_ns[] = { -1, 1000000000, 0x7fffffff, (int32_t)0x80000000 };
    struct timespec t = { 0, 0 };
    switch (below(8)) {
    case 0: t.tv_nsec = (int32_t)below(1000001); break;
    case 1:
    case 2: t.tv_nsec = PICK(bad_ns); break;
    case 3: t.tv_sec = -1; break;
    case 4: t.tv_sec = (int32_t)rnd(); t.tv_nsec = (int32_t)rnd(); break;
    default: break;
    }
    uint32_t p = scratch_at(sizeof(t), !one_in(8));
    memcpy((void *)(uintptr_t)p, &t, sizeof(t));
    return p;
}

/* ---- shaping: arguments that get past the first check ----
 * One function per implemented call, each overwriting some of the random arguments it is
 * given with ones drawn for that call; the guards come after, whatever was drawn. */

struct call {
    uint32_t nr;
    uint32_t a[6];
};

static void shape_read(struct call *c)
{
    c->a[0] = pick_fd();
    c->a[1] = random_pointer();
    c->a[2] = one_in(2) ? below(256) : random_length();
}

static void shape_write(struct call *c)
{
    c->a[0] = pick_fd();
    if (one_in(2)) {
        c->a[1] = build_payload();
        c->a[2] = below(73);
    } else {
        c->a[1] = random_pointer();
        c->a[2] = random_length();
    }
}

static void shape_open(struct call *c)
{
    switch (below(10)) {
    case 0: c->a[0] = garbage_string(); break;
    case 1:
    case 2: c->a[0] = random_pointer(); break;
    default: c->a[0] = (uintptr_t)PICK(paths); break;
    }
    c->a[1] = one_in(8) ? rnd() : PICK(open_flags);
    c->a[2] = random_small();
}

static void shape_close(struct call *c) { c->a[0] = pick_fd(); }

static void shape_ioctl(struct call *c)
{
    static const uint32_t cmds[] = { DIAG_IOCSREG, DIAG_IOCSREG, DIAG_IOCSREG, DIAG_IOCSDEL,
                                     DIAG_IOCSDEL, DIAG_IOCSUNREG, DIAG_IOCSUNREG, 0 };
    int fd = open_fd_of(FD_DATA);
    c->a[0] = fd >= 0 && !one_in(4) ? (uint32_t)fd : pick_fd();
    c->a[1] = PICK(cmds);
    if (c->a[1] == 0) /* an ioctl that does not exist */
        c->a[1] = one_in(2) ? rnd() : UE_IOC(below(4), below(8));
    if (one_in(6))
        c->a[2] = random_pointer();
    else if (c->a[1] == DIAG_IOCSREG)
        c->a[2] = build_reg();
    else if (c->a[1] == DIAG_IOCSDEL)
        c->a[2] = pick_delete_name();
    else if (c->a[1] == DIAG_IOCSUNREG)
        c->a[2] = build_unreg();
    else
        c->a[2] = random_arg();
}

static void shape_munmap(struct call *c)
{
    unsigned i = below(MAPPINGS);
    if (mappings[i].len && one_in(2)) {
        c->a[0] = mappings[i].addr;
        c->a[1] = mappings[i].len;
        return;
    }
    c->a[0] = one_in(2) ? mmap_area_page() + (one_in(4) ? below(PAGE) : 0) : random_pointer();
    c->a[1] = one_in(2) ? PAGE * (1 + below(8)) : random_length();
}

static void shape_writev(struct call *c)
{
    static const uint32_t counts[] = { 0, 1, 2, 2, 3, 4, 8, 16, IOV_MAX, IOV_MAX + 1,
                                       0x80000000, 0xffffffff };
    enum { BUILT = 16 };
    c->a[0] = pick_fd();
    uint32_t n = one_in(8) ? rnd() : PICK(counts);
    uint32_t p = scratch_at(BUILT * sizeof(struct iovec), true);
    for (uint32_t i = 0; i < n && i < BUILT; i++) {
        uint32_t iov[2];
        if (i == 0 && one_in(2)) {
            iov[0] = build_payload();
            iov[1] = 4;
        } else {
            iov[0] = one_in(3) ? random_pointer() : scratch_at(64, false);
            iov[1] = one_in(3) ? random_length() : below(64);
        }
        memcpy((void *)(uintptr_t)(p + i * sizeof(iov)), iov, sizeof(iov));
    }
    c->a[1] = one_in(8) ? random_pointer() : p;
    c->a[2] = n;
}

static void shape_nanosleep(struct call *c)
{
    c->a[0] = one_in(4) ? random_pointer() : build_timespec();
    c->a[1] = one_in(2) ? 0 : random_pointer();
}

static void shape_mmap2(struct call *c)
{
    static const uint32_t prots[] = { PROT_READ, PROT_READ | PROT_WRITE, PROT_READ | PROT_WRITE,
                                      PROT_NONE, PROT_READ | PROT_EXEC, 0x8 };
    static const uint32_t flags[] = {
        MAP_PRIVATE | MAP_ANONYMOUS, MAP_PRIVATE | MAP_ANONYMOUS,
        MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, MAP_SHARED, MAP_SHARED | MAP_FIXED, MAP_PRIVATE,
        MAP_SHARED | MAP_ANONYMOUS, MAP_SHARED | MAP_PRIVATE | MAP_ANONYMOUS, 0,
    };
    int status = open_fd_of(FD_STATUS);
    c->a[0] = one_in(2) ? 0 : one_in(2) ? mmap_area_page() : random_pointer();
    c->a[1] = one_in(3) ? random_length() : PAGE * (1 + below(8)) - (one_in(4) ? below(PAGE) : 0);
    c->a[2] = one_in(8) ? rnd() : PICK(prots);
    c->a[3] = one_in(8) ? rnd() : PICK(flags);
    c->a[4] = one_in(3) ? (uint32_t)-1 : status >= 0 && one_in(2) ? (uint32_t)status : pick_fd();
    c->a[5] = one_in(2) ? 0 : one_in(2) ? below(4) : rnd();
}

/* The memory calls of issue 16: brk, old mmap, mprotect, madvise, mremap. */
static uint32_t initial_break; /* brk(0) at start: this program has no heap of its own */

static void shape_brk(struct call *c)
{
    uint32_t cur = (uint32_t)syscall(SYS_brk, 0);
    switch (below(5)) {
    case 0: c->a[0] = 0; break;
    case 1: c->a[0] = cur + below(16 * PAGE); break;
    case 2: c->a[0] = initial_break + below(64 * PAGE); break;
    case 3: c->a[0] = initial_break - below(4 * PAGE); break;
    default: c->a[0] = one_in(2) ? random_pointer() : random_length(); break;
    }
}

static void shape_old_mmap(struct call *c)
{
    struct call inner;
    shape_mmap2(&inner);
    uint32_t block[6] = { inner.a[0], inner.a[1], inner.a[2], inner.a[3], inner.a[4],
                          one_in(4) ? rnd() : inner.a[5] * PAGE };
    uint32_t p = scratch_at(sizeof block, true);
    memcpy((void *)(uintptr_t)p, block, sizeof block);
    c->a[0] = one_in(8) ? random_pointer() : p;
}

/* An address and length for the calls that work on ranges of mappings. */
static void shape_range(struct call *c)
{
    unsigned i = below(MAPPINGS);
    if (mappings[i].len && !one_in(3)) {
        c->a[0] = mappings[i].addr + (one_in(3) ? PAGE * below(mappings[i].len / PAGE) : 0);
        c->a[1] = one_in(4) ? random_length() : PAGE * below(1 + mappings[i].len / PAGE);
    } else {
        c->a[0] = one_in(2) ? mmap_area_page() + (one_in(4) ? below(PAGE) : 0) : random_pointer();
        c->a[1] = one_in(2) ? PAGE * (1 + below(8)) : random_length();
    }
}

static void shape_mprotect(struct call *c)
{
    static const uint32_t prots[] = { PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE,
                                      PROT_READ | PROT_EXEC, 0x8, PROT_GROWSDOWN | PROT_READ };
    shape_range(c);
    c->a[2] = one_in(8) ? rnd() : PICK(prots);
}

static void shape_madvise(struct call *c)
{
    static const uint32_t advice[] = { MADV_NORMAL, MADV_RANDOM, MADV_SEQUENTIAL, MADV_WILLNEED,
                                       MADV_DONTNEED, MADV_DONTNEED, MADV_FREE, 12, 100, 999 };
    shape_range(c);
    c->a[2] = one_in(8) ? rnd() : PICK(advice);
}

static void shape_mremap(struct call *c)
{
    static const uint32_t flags[] = { 0, MREMAP_MAYMOVE, MREMAP_MAYMOVE, MREMAP_MAYMOVE | MREMAP_FIXED,
                                      MREMAP_FIXED, MREMAP_DONTUNMAP | MREMAP_MAYMOVE, 8 };
    shape_range(c);
    c->a[2] = one_in(3) ? random_length() : PAGE * below(12);
    c->a[3] = one_in(8) ? rnd() : PICK(flags);
    c->a[4] = one_in(2) ? mmap_area_page() : random_pointer();
}

static void shape_clock_gettime(struct call *c)
{
    static const uint32_t clocks[] = { 0, CLOCK_MONOTONIC, CLOCK_MONOTONIC, 2, 7, 0xffffffff };
    c->a[0] = one_in(8) ? rnd() : PICK(clocks);
    c->a[1] = random_pointer();
}

static void shape_nothing(struct call *c) { (void)c; }

/* ---- files and the terminal (issue 16) ---- */

/* A path argument: mostly one of the table. */
static uint32_t pick_path(void)
{
    switch (below(8)) {
    case 0: return garbage_string();
    case 1: return random_pointer();
    default: return (uintptr_t)PICK(paths);
    }
}

/* A directory descriptor of the *at calls: AT_FDCWD, an open one, or anything. */
static uint32_t pick_dirfd(void)
{
    return one_in(2) ? (uint32_t)AT_FDCWD : pick_fd();
}

static uint32_t pick_at_flags(void)
{
    static const uint32_t flags[] = { 0, 0, AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH,
                                      AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, AT_EACCESS,
                                      AT_STATX_SYNC_TYPE, 0xffffffff };
    return one_in(8) ? rnd() : PICK(flags);
}

/* stat64, lstat64, access, chdir, readlink, stat, lstat: path, then the rest. */
static void shape_path(struct call *c)
{
    c->a[0] = pick_path();
    c->a[1] = one_in(3) ? random_small() : random_pointer();
}

/* openat, fstatat64, readlinkat, faccessat, faccessat2, statx. */
static void shape_at(struct call *c)
{
    c->a[0] = pick_dirfd();
    c->a[1] = pick_path();
    if (c->nr == SYS_openat)
        c->a[2] = one_in(8) ? rnd() : PICK(open_flags) | (one_in(3) ? O_CLOEXEC : 0);
    else if (c->nr == SYS_statx)
        c->a[2] = pick_at_flags(), c->a[3] = one_in(4) ? rnd() : STATX_BASIC_STATS;
    else if (c->nr == SYS_fstatat64)
        c->a[2] = random_pointer(), c->a[3] = pick_at_flags();
    else if (c->nr == SYS_faccessat2)
        c->a[2] = below(9), c->a[3] = pick_at_flags();
    else
        c->a[2] = below(9);
}

/* dup, dup2, dup3, fcntl(64), fchdir, lseek, _llseek, fstat(64), getdents(64): a
 * descriptor first. */
static void shape_fd(struct call *c)
{
    static const uint32_t cmds[] = { F_DUPFD, F_DUPFD_CLOEXEC, F_GETFD, F_SETFD, F_GETFL,
                                     F_SETFL, 9999 };
    c->a[0] = pick_fd();
    switch (c->nr) {
    case SYS_dup2:
    case SYS_dup3:
        c->a[1] = below(40);
        c->a[2] = one_in(2) ? O_CLOEXEC : random_small();
        break;
    case SYS_fcntl:
    case SYS_fcntl64:
        c->a[1] = PICK(cmds);
        c->a[2] = random_small();
        break;
    case SYS_lseek:
        c->a[1] = one_in(2) ? random_small() : rnd();
        c->a[2] = below(4);
        break;
    case SYS_llseek:
        c->a[1] = one_in(2) ? 0 : rnd();
        c->a[2] = random_small();
        c->a[3] = random_pointer();
        c->a[4] = below(4);
        break;
    default:
        c->a[1] = random_pointer();
        c->a[2] = one_in(2) ? below(512) : random_length();
        break;
    }
}

static void shape_pipe(struct call *c)
{
    c->a[0] = one_in(4) ? random_pointer() : scratch_at(8, true);
    c->a[1] = one_in(3) ? rnd() : (one_in(2) ? O_CLOEXEC : 0);
}

/* poll, ppoll(_time64): an array of pollfds in scratch. */
static void shape_poll(struct call *c)
{
    static const uint32_t counts[] = { 0, 1, 2, 3, 8, 1024, 1025, 0xffffffff };
    uint32_t n = PICK(counts);
    uint32_t p = scratch_at(8 * sizeof(struct pollfd), true);
    for (uint32_t i = 0; i < 8; i++) {
        struct pollfd pf = { (int32_t)pick_fd(), (int16_t)rnd(), 0 };
        memcpy((void *)(uintptr_t)(p + i * sizeof pf), &pf, sizeof pf);
    }
    c->a[0] = one_in(6) ? random_pointer() : p;
    c->a[1] = n;
    c->a[2] = c->nr == SYS_poll ? random_small() : build_timespec();
}

/* select, pselect6(_time64): sets in scratch. */
static void shape_select(struct call *c)
{
    c->a[0] = one_in(4) ? rnd() : below(40);
    for (int i = 1; i <= 3; i++)
        c->a[i] = one_in(3) ? 0 : one_in(5) ? random_pointer() : scratch_at(128, true);
    c->a[4] = build_timespec();
}

static void shape_close_range(struct call *c)
{
    c->a[0] = below(40);
    c->a[1] = one_in(2) ? c->a[0] + below(8) : 0xffffffff;
    c->a[2] = one_in(2) ? CLOSE_RANGE_CLOEXEC : random_small();
}

/* ---- Processes (issue 16) ----
 * fork, vfork and clone are made by fork_like(), whose child exits at once without
 * touching memory (it may be running on this program's own memory and stack), and the
 * parent collects it; execve only with paths that are no program; kill, tkill and tgkill
 * with signal 0, an invalid signal, or a pid no process has; alarm and setitimer with
 * SIGALRM ignored (main); rt_sigsuspend only in forms the kernel must refuse; waits with
 * WNOHANG; set_thread_area and get_thread_area with random descriptors in scratch. */
#define CLONE_VM_VFORK (0x100u | 0x4000u)
#define PID_NOBODY 0x3ffff000u /* no process has such a pid */

static void shape_clone(struct call *c)
{
    static const uint32_t flags[] = {
        SIGCHLD, SIGCHLD, 0, CLONE_VM_VFORK | SIGCHLD, 0x100 | SIGCHLD, 0x10000 | 0x800 | 0x100,
        0x400 | SIGCHLD, 65, 0x01000000 | 0x00200000 | 0x00100000 | SIGCHLD, 0x00080000 | SIGCHLD,
    };
    c->a[0] = one_in(6) ? rnd() : PICK(flags);
    c->a[1] = one_in(2) ? 0 : random_pointer();
    c->a[2] = one_in(2) ? scratch_at(4, true) : random_pointer();
    c->a[4] = one_in(2) ? scratch_at(4, true) : random_pointer();
}

static void shape_execve(struct call *c)
{
    static const char *const not_programs[] = {
        "/bin/no_such", "/dev/null", "/proc/meminfo", "/bin", "", "/bin/hello/x", "/proc/self",
        TRACEFS "trace_marker",
    };
    c->a[0] = one_in(3) ? random_pointer() : (uint32_t)(uintptr_t)PICK(not_programs);
    c->a[1] = one_in(2) ? scratch_at(64, true) : random_pointer();
    c->a[2] = one_in(2) ? scratch_at(64, true) : random_pointer();
}

static void shape_wait4(struct call *c)
{
    c->a[0] = one_in(2) ? random_small() : rnd();
    c->a[1] = one_in(2) ? scratch_at(4, true) : random_pointer();
    c->a[2] = one_in(4) ? rnd() : below(4);
    c->a[3] = one_in(2) ? 0 : one_in(2) ? scratch_at(72, true) : random_pointer();
}

static void shape_kill(struct call *c)
{
    c->a[0] = one_in(2) ? random_small() : one_in(2) ? PID_NOBODY : rnd();
    c->a[1] = one_in(2) ? 0 : random_small() * 3;
    c->a[2] = random_small() * 3;
}

static void shape_alarm(struct call *c)
{
    c->a[0] = one_in(2) ? below(3) : rnd();
    c->a[1] = one_in(2) ? scratch_at(16, true) : random_pointer();
    c->a[2] = one_in(2) ? 0 : one_in(2) ? scratch_at(16, true) : random_pointer();
}

static void shape_sigsuspend(struct call *c)
{
    c->a[0] = random_pointer();
    c->a[1] = one_in(2) ? 8 : random_small();
}

static void shape_thread_area(struct call *c)
{
    uint32_t p = scratch_at(16, true);
    static const uint32_t entries[] = { (uint32_t)-1, 6, 7, 8, 0, 5, 9, 0x33 };
    uint32_t entry = one_in(4) ? rnd() : PICK(entries);
    memcpy((void *)(uintptr_t)p, &entry, 4);
    c->a[0] = one_in(4) ? random_pointer() : p;
}

static void shape_pid_arg(struct call *c)
{
    c->a[0] = one_in(2) ? random_small() : rnd();
    c->a[1] = one_in(2) ? random_small() : rnd();
}
/* Time, system information, limits and random numbers (issue 16): each output pointer is
 * random (the guards move it off the program's own memory), ids and flags mostly valid. */
static uint32_t pick_clock(void)
{
    static const uint32_t clocks[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 11, (uint32_t)-6, 0xffffffff };
    return one_in(8) ? rnd() : PICK(clocks);
}

static void shape_one_pointer(struct call *c) { c->a[0] = random_pointer(); }

static void shape_two_pointers(struct call *c)
{
    c->a[0] = one_in(4) ? 0 : random_pointer();
    c->a[1] = one_in(4) ? 0 : random_pointer();
}

static void shape_clock_pointer(struct call *c)
{
    c->a[0] = pick_clock();
    c->a[1] = one_in(5) ? 0 : random_pointer();
}

static void shape_clock_nanosleep(struct call *c)
{
    c->a[0] = pick_clock();
    c->a[1] = one_in(3) ? TIMER_ABSTIME : one_in(8) ? rnd() : 0;
    c->a[2] = one_in(4) ? random_pointer() : build_timespec();
    c->a[3] = one_in(2) ? 0 : random_pointer();
}

static void shape_rlimit(struct call *c)
{
    c->a[0] = one_in(6) ? rnd() : below(RLIM_NLIMITS + 2);
    if (one_in(2)) {
        struct rlimit r = { one_in(2) ? rnd() : below(64), one_in(2) ? RLIM_INFINITY : below(64) };
        uint32_t p = scratch_at(sizeof r, true);
        memcpy((void *)(uintptr_t)p, &r, sizeof r);
        c->a[1] = p;
    } else {
        c->a[1] = random_pointer();
    }
}

static void shape_prlimit64(struct call *c)
{
    c->a[0] = one_in(2) ? 0 : one_in(2) ? (uint32_t)getpid() : rnd() % 100;
    c->a[1] = one_in(6) ? rnd() : below(RLIM_NLIMITS + 2);
    c->a[2] = one_in(2) ? 0 : one_in(2) ? scratch_at(sizeof(struct rlimit64), true)
                                        : random_pointer();
    c->a[3] = one_in(3) ? 0 : random_pointer();
}

static void shape_getrandom(struct call *c)
{
    c->a[0] = random_pointer();
    c->a[1] = one_in(4) ? random_length() : below(600);
    c->a[2] = one_in(6) ? rnd() : below(8);
}

static void shape_pid_call(struct call *c)
{
    c->a[0] = one_in(2) ? 0 : one_in(2) ? (uint32_t)getpid() : rnd() % 100 - 2;
    c->a[1] = one_in(3) ? below(40) : random_arg();
    c->a[2] = random_pointer();
}

static void shape_small(struct call *c) { c->a[0] = one_in(4) ? rnd() : below(8); }

/* Supplementary groups (issue 16): setgroups (16-bit ids) and setgroups32, a size of -1..70
 * (past CRED_GROUPS_KEPT and negative too) and a list of small or random ids in scratch,
 * or a bad address. cleanup() gives the program its groups back. */
static void shape_setgroups(struct call *c)
{
    c->a[0] = (uint32_t)((int32_t)below(72) - 1);
    if (one_in(4)) {
        c->a[1] = random_pointer();
        return;
    }
    uint32_t p = scratch_at(70 * 4, true);
    uint32_t *ids = (uint32_t *)(uintptr_t)p;
    for (unsigned i = 0; i < 70; i++)
        ids[i] = one_in(2) ? below(8) : one_in(8) ? 0xffffffffu : rnd();
    c->a[1] = p;
}

static const struct {
    uint32_t nr;
    void (*shape)(struct call *c);
} implemented[] = {
    { SYS_read, shape_read },       { SYS_write, shape_write },
    { SYS_pread64, shape_read }, /* static glibc (issue 16): pread */
    { SYS_open, shape_open },       { SYS_close, shape_close },
    { SYS_getpid, shape_nothing },  { SYS_ioctl, shape_ioctl },
    { SYS_munmap, shape_munmap },   { SYS_writev, shape_writev },
    { SYS_sched_yield, shape_nothing }, { SYS_nanosleep, shape_nanosleep },
    { SYS_mmap2, shape_mmap2 },     { SYS_clock_gettime, shape_clock_gettime },
    /* Memory: the process layout and its calls (issue 16) */
    { SYS_brk, shape_brk },         { SYS_mmap, shape_old_mmap },
    { SYS_mprotect, shape_mprotect }, { SYS_madvise, shape_madvise },
    { SYS_mremap, shape_mremap },
    /* issue 18, trace instances: mkdir and rmdir (EPERM outside tracefs's instances/). */
    { SYS_mkdir, shape_path },      { SYS_rmdir, shape_path },
    /* Files and the terminal (issue 16). */
    { SYS_chdir, shape_path },      { SYS_lseek, shape_fd },        { SYS_access, shape_path },
    { SYS_dup, shape_fd },          { SYS_pipe, shape_pipe },       { SYS_fcntl, shape_fd },
    { SYS_umask, shape_nothing },   { SYS_dup2, shape_fd },         { SYS_select, shape_nothing },
    { SYS_readlink, shape_path },   { SYS_stat, shape_path },       { SYS_lstat, shape_path },
    { SYS_fstat, shape_fd },        { SYS_fchdir, shape_fd },       { SYS_llseek, shape_fd },
    { SYS_getdents, shape_fd },     { SYS_newselect, shape_select }, { SYS_poll, shape_poll },
    { SYS_getcwd, shape_nothing },  { SYS_stat64, shape_path },     { SYS_lstat64, shape_path },
    { SYS_fstat64, shape_fd },      { SYS_getdents64, shape_fd },   { SYS_fcntl64, shape_fd },
    { SYS_openat, shape_at },       { SYS_fstatat64, shape_at },    { SYS_readlinkat, shape_at },
    { SYS_faccessat, shape_at },    { SYS_pselect6, shape_select }, { SYS_ppoll, shape_poll },
    { SYS_dup3, shape_fd },         { SYS_pipe2, shape_pipe },      { SYS_statx, shape_at },
    { SYS_pselect6_time64, shape_select }, { SYS_ppoll_time64, shape_poll },
    { SYS_close_range, shape_close_range }, { SYS_faccessat2, shape_at },
    /* Processes (issue 16) */
    { SYS_fork, shape_nothing },    { SYS_vfork, shape_nothing },
    { SYS_clone, shape_clone },     { SYS_execve, shape_execve },
    { SYS_waitpid, shape_wait4 },   { SYS_wait4, shape_wait4 },
    { SYS_getppid, shape_nothing }, { SYS_gettid, shape_nothing },
    { SYS_kill, shape_kill },       { SYS_tkill, shape_kill },
    { SYS_tgkill, shape_kill },     { SYS_setpgid, shape_pid_arg },
    { SYS_getpgid, shape_pid_arg }, { SYS_getpgrp, shape_nothing },
    { SYS_setsid, shape_nothing },  { SYS_getsid, shape_pid_arg },
    { SYS_alarm, shape_alarm },     { SYS_setitimer, shape_alarm },
    { SYS_getitimer, shape_alarm }, { SYS_rt_sigsuspend, shape_sigsuspend },
    { SYS_set_tid_address, shape_alarm }, { SYS_set_robust_list, shape_alarm },
    { SYS_set_thread_area, shape_thread_area }, { SYS_get_thread_area, shape_thread_area },
    { SYS_rseq, shape_alarm },
    /* Time, system information, limits and random numbers (issue 16) */
    { SYS_time, shape_one_pointer },            { SYS_gettimeofday, shape_two_pointers },
    { SYS_clock_gettime64, shape_clock_pointer }, { SYS_clock_getres, shape_clock_pointer },
    { SYS_clock_getres_time64, shape_clock_pointer },
    { SYS_clock_nanosleep, shape_clock_nanosleep },
    { SYS_clock_nanosleep_time64, shape_clock_nanosleep },
    { SYS_uname, shape_one_pointer },           { SYS_olduname, shape_one_pointer },
    { SYS_oldolduname, shape_one_pointer },     { SYS_sysinfo, shape_one_pointer },
    { SYS_getrlimit, shape_rlimit },            { SYS_ugetrlimit, shape_rlimit },
    { SYS_setrlimit, shape_rlimit },            { SYS_prlimit64, shape_prlimit64 },
    { SYS_getrandom, shape_getrandom },         { SYS_sched_getaffinity, shape_pid_call },
    { SYS_getcpu, shape_two_pointers },         { SYS_sched_getscheduler, shape_pid_call },
    { SYS_sched_getparam, shape_pid_call },     { SYS_sched_get_priority_max, shape_small },
    { SYS_sched_get_priority_min, shape_small }, { SYS_personality, shape_small },
    /* Supplementary groups (issue 16) */
    { SYS_setgroups, shape_setgroups },         { SYS_setgroups32, shape_setgroups },
};

/* Whether the kernel has the call today (its guards then know what it writes). */
static bool is_implemented(uint32_t nr)
{
    for (unsigned i = 0; i < ARRAY_SIZE(implemented); i++)
        if (implemented[i].nr == nr)
            return true;
    return false;
}

/* Whether nr is one the fuzzer must never make. */
static bool is_never(uint32_t nr)
{
    for (unsigned i = 0; i < ARRAY_SIZE(never); i++)
        if (never[i] == nr)
            return true;
    return false;
}

/* The next call: four in five an implemented one, mostly shaped; else any number of
 * 0..SYS_MAX that `never` allows, with random arguments, or now and then tracekern's IPC
 * call (uapi/ipc.h) with an operation, known or not, and its timeout cut to under 5 ms:
 * waiting forever for a partner that never comes is what it should do, not a kernel bug. */
static void draw_call(struct call *c)
{
    for (unsigned i = 0; i < ARRAY_SIZE(c->a); i++)
        c->a[i] = random_arg();
    if (!one_in(5)) {
        unsigned i = below(ARRAY_SIZE(implemented));
        c->nr = implemented[i].nr;
        if (!one_in(7))
            implemented[i].shape(c);
        return;
    }
    if (one_in(10)) {
        c->nr = SYS_tracekern_ipc;
        c->a[0] = one_in(8) ? rnd() : below(IPC_OPS + 1);
        if (c->a[0] == IPC_OP_SEND || c->a[0] == IPC_OP_RECV)
            c->a[3] %= 5;
        else if (c->a[0] == IPC_OP_CALL)
            c->a[4] %= 5;
        else if (c->a[0] == IPC_OP_CALL_REGS)
            c->a[5] %= 5;
        else if (c->a[0] == IPC_OP_REPLY_RECV_REGS)
            c->a[1] = IPC_NAMESERVER; /* its receive has no timeout: EPERM, after the reply */
        return;
    }
    do
        c->nr = below(SYS_MAX + 1);
    while (is_never(c->nr));
}

/* ---- guards ---- */

/*
 * Makes [*p, *p + *len) safe for the kernel to write. A range inside a scratch area stays
 * (clamped to its end when the length may shrink, as read's count may; moved when it is
 * what the kernel writes regardless, as a struct timespec). A range that starts in, or
 * reaches into, the program's own memory moves to a scratch area. The rest stays: kernel
 * memory, unmapped addresses, the read-only first page of code, the mmap area, the stack's
 * slack, and ranges that wrap around the address space, which the kernel must refuse.
 */
static void guard_out(uint32_t *p, uint32_t *len, bool resizable)
{
    uint64_t end = (uint64_t)*p + *len;
    for (unsigned i = 0; i < ARRAY_SIZE(scratch_areas); i++) {
        const struct area *a = &scratch_areas[i];
        if (!in_area(*p, a))
            continue;
        if (end <= a->hi)
            return;
        if (resizable) {
            *len = a->hi - *p;
            return;
        }
        *p = scratch_at(*len, true);
        return;
    }
    if (*p >= USER_TEXT_BASE && *p < TEXT_END)
        return;
    if (!in_own_memory(*p) && (end > 0xffffffffull || !reaches_own_memory(*p, end)))
        return;
    if (resizable) {
        *p = scratch_at(1, false);
        const struct area *a = scratch_holding(*p, 1);
        if (*len > a->hi - *p)
            *len = a->hi - *p;
    } else {
        *p = scratch_at(*len, true);
    }
}

/* The same for a write of a fixed size. */
static void guard_out_fixed(uint32_t *p, uint32_t len) { guard_out(p, &len, false); }

/*
 * For a structure whose contents steer the kernel: returns true with *p in a scratch area
 * (moved there if it was anywhere in user memory), where the caller may read and adjust it,
 * or false when it lies outside user memory, where the kernel must refuse it.
 */
static bool guard_in(uint32_t *p, uint32_t len)
{
    if (scratch_holding(*p, len))
        return true;
    if ((uint64_t)*p + len <= USER_BASE || *p >= USER_TOP)
        return false;
    *p = scratch_at(len, true);
    return true;
}

/*
 * munmap and MAP_FIXED: addresses of the program's own memory move into the mmap area, and
 * lengths are cut so that no range a kernel may accept reaches the stack (from the mmap
 * area) or user memory at all (from below it). Misaligned addresses, kernel addresses and
 * ranges that wrap stay: the kernel must refuse them.
 */
static void guard_fixed(uint32_t *addr, uint32_t *len)
{
    if ((*addr & (PAGE - 1)) || *addr >= USER_TOP)
        return;
    if (*addr >= USER_BASE && (*addr < MMAP_LO || *addr >= MMAP_HI))
        *addr = mmap_area_page();
    uint64_t end = (uint64_t)*addr + (((uint64_t)*len + PAGE - 1) & ~(uint64_t)(PAGE - 1));
    if (end > 0xffffffffull)
        return;
    if (*addr < USER_BASE) {
        if (end > USER_BASE)
            *len = USER_BASE - *addr;
    } else if (end > MMAP_HI && end <= USER_TOP) {
        *len = MMAP_HI - *addr;
    }
}

/* nanosleep: the request where the guard can read it, and no longer than 1 ms when valid;
 * rem where the kernel may write it. */
static void guard_nanosleep(struct call *c)
{
    if (guard_in(&c->a[0], sizeof(struct timespec))) {
        struct timespec t;
        memcpy(&t, (void *)(uintptr_t)c->a[0], sizeof(t));
        bool valid = t.tv_sec >= 0 && t.tv_nsec >= 0 && t.tv_nsec < 1000000000;
        if (valid && (t.tv_sec != 0 || t.tv_nsec > 1000000)) {
            t.tv_sec = 0;
            t.tv_nsec %= 1000001;
            memcpy((void *)(uintptr_t)c->a[0], &t, sizeof(t));
        }
    }
    if (c->a[1])
        guard_out_fixed(&c->a[1], sizeof(struct timespec));
}

/* clock_nanosleep (time32 or time64): the request where the guard can read it, a valid
 * one cut to at most 1 ms (an absolute one is then long past: it returns at once); rem
 * where the kernel may write it. */
static void guard_clock_nanosleep(struct call *c, bool time64)
{
    uint32_t size = time64 ? sizeof(struct timespec64) : sizeof(struct timespec);
    if (guard_in(&c->a[2], size)) {
        void *p = (void *)(uintptr_t)c->a[2];
        if (time64) {
            struct timespec64 t;
            memcpy(&t, p, sizeof t);
            t.tv_sec = 0;
            t.tv_nsec = (uint32_t)t.tv_nsec % 1000001;
            memcpy(p, &t, sizeof t);
        } else {
            struct timespec t;
            memcpy(&t, p, sizeof t);
            if (t.tv_sec > 0 || (t.tv_sec == 0 && t.tv_nsec > 1000000)) {
                t.tv_sec = 0;
                t.tv_nsec %= 1000001;
            }
            memcpy(p, &t, sizeof t);
        }
    }
    if (c->a[3])
        guard_out_fixed(&c->a[3], size);
}

/* DIAG_IOCSREG: the structure in scratch, and its enable_addr (Linux 6.4's ABI: any size
 * but the pre-6.4 ABI's 20) where the kernel may write the enable bit. */
static void guard_reg(struct call *c)
{
    if (!guard_in(&c->a[2], REG_SPAN))
        return;
    void *s = (void *)(uintptr_t)c->a[2];
    struct user_reg r;
    memcpy(&r, s, sizeof(r));
    if (r.size == sizeof(struct user_reg_status))
        return;
    uint32_t addr = (uint32_t)r.enable_addr;
    guard_out_fixed(&addr, 8);
    if (addr != (uint32_t)r.enable_addr) {
        r.enable_addr = addr;
        memcpy(s, &r, sizeof(r));
    }
}

/* mprotect and madvise: as guard_fixed, but a range from the mmap area is cut at MMAP_HI
 * even when it runs past the top of user space, since these calls act on every mapping
 * they meet before they complain (madvise even past holes): only a range that wraps stays,
 * for the kernel to refuse. */
static void guard_range(uint32_t *addr, uint32_t *len)
{
    guard_fixed(addr, len);
    uint64_t end = (uint64_t)*addr + (((uint64_t)*len + PAGE - 1) & ~(uint64_t)(PAGE - 1));
    if (*addr < MMAP_HI && end > MMAP_HI && end <= 0xffffffffull)
        *len = MMAP_HI - *addr;
}

/* old mmap: its argument block where the guard can read it, and guard_fixed applied to
 * the address and length inside it, as for mmap2. */
static void guard_old_mmap(uint32_t *p)
{
    if (!guard_in(p, 24))
        return;
    uint32_t *block = (uint32_t *)(uintptr_t)*p;
    if (block[3] & (MAP_FIXED | MAP_FIXED_NOREPLACE))
        guard_fixed(&block[0], &block[1]);
}

/* A timeout the kernel reads (and select/pselect write back): never NULL, which would wait
 * for ever; in scratch, at most 1 ms when valid (invalid ones stay, for EINVAL); or outside
 * user memory (EFAULT). wide: the 64-bit fields of the _time64 calls. */
static void guard_timeout(uint32_t *p, bool wide)
{
    uint32_t size = wide ? 16 : 8;
    if (*p == 0)
        *p = scratch_at(size, true);
    if (!guard_in(p, size))
        return;
    int32_t t[4];
    memcpy(t, (void *)(uintptr_t)*p, size);
    int32_t *sec = &t[0], *frac = wide ? &t[2] : &t[1];
    if (wide && (t[1] < 0 || t[3] != 0))
        return; /* a negative time or nanoseconds out of range: EINVAL */
    if (wide)
        t[0] = t[1] = 0; /* a valid time of any length becomes none (below) */
    if (*sec >= 0 && *frac >= 0 && *frac < 1000000000) {
        *sec = 0;
        *frac %= 1000;
        memcpy((void *)(uintptr_t)*p, t, size);
    }
}

/* poll's array: at most 256 entries of it are written (more than RLIMIT_NOFILE is EINVAL
 * before any is read). */
static void guard_pollfds(struct call *c)
{
    if (c->a[1] > 1024)
        return;
    if (c->a[1] > 256)
        c->a[1] = 256;
    guard_out_fixed(&c->a[0], c->a[1] * sizeof(struct pollfd));
}

/* select's three sets: each written whole (128 bytes covers every nfds the kernel uses). */
static void guard_sets(uint32_t *sets)
{
    for (int i = 0; i < 3; i++)
        if (sets[i])
            guard_out_fixed(&sets[i], 128);
}

/* The old select: its argument block is read, then each of its pointers used. */
static void guard_old_select(struct call *c)
{
    if (!guard_in(&c->a[0], 5 * sizeof(uint32_t)))
        return;
    uint32_t w[5];
    memcpy(w, (void *)(uintptr_t)c->a[0], sizeof w);
    guard_sets(&w[1]);
    guard_timeout(&w[4], false);
    memcpy((void *)(uintptr_t)c->a[0], w, sizeof w);
}

/* Applies every guard that the call's final number and arguments need. */
/* The process calls' guards (see "Processes" above). */
static void guard_process_call(struct call *c)
{
    uint32_t *a = c->a;
    switch (c->nr) {
    case SYS_execve:
        /* The path: a fixed non-program, garbage in scratch, or no user memory at all
         * (never this program's own strings, one of which might name a program). */
        if (in_own_memory(a[0]) || (a[0] >= USER_BASE && a[0] < TEXT_END))
            a[0] = 0xc0000000u + below(PAGE);
        break;
    case SYS_kill:
    case SYS_tkill:
        if (a[1] >= 1 && a[1] <= 64)
            a[0] = PID_NOBODY; /* a real signal goes to nobody */
        break;
    case SYS_tgkill:
        if (a[2] >= 1 && a[2] <= 64)
            a[1] = PID_NOBODY;
        break;
    case SYS_setitimer:
        guard_in(&a[1], 16); /* its contents are random: any interval is fine */
        guard_out_fixed(&a[2], 16);
        break;
    case SYS_getitimer:
        guard_out_fixed(&a[1], 16);
        break;
    case SYS_rt_sigsuspend:
        if (a[1] == 8 && (uint64_t)a[0] + 8 > USER_BASE && a[0] < USER_TOP)
            a[1] = 4; /* a valid one would wait for a signal that never comes */
        break;
    case SYS_set_tid_address:
        guard_out_fixed(&a[0], 4); /* written (zeroed) when the program exits */
        break;
    case SYS_set_thread_area:
    case SYS_get_thread_area:
        guard_out_fixed(&a[0], 16);
        break;
    }
}

/* Makes each of the three id arguments 0 unless it is no_change (-1 as the call's width
 * reads it). */
static void keep_root(uint32_t *a, uint32_t no_change)
{
    for (int i = 0; i < 3; i++)
        if ((a[i] & no_change) != no_change)
            a[i] = 0;
}

static void guard_call(struct call *c)
{
    uint32_t *a = c->a;
    switch (c->nr) {
    /* Files and the terminal (issue 16): what each call writes, and no wait without end. */
    case SYS_stat64:
    case SYS_lstat64:
    case SYS_fstat64: guard_out_fixed(&a[1], 96); break;
    case SYS_fstatat64: guard_out_fixed(&a[2], 96); break;
    case SYS_stat:
    case SYS_lstat:
    case SYS_fstat: guard_out_fixed(&a[1], 64); break;
    case SYS_statx: guard_out_fixed(&a[4], 256); break;
    /* busybox (issue 16): statfs's structures, getgroups's list (up to 32 ids kept). */
    case SYS_statfs:
    case SYS_fstatfs: guard_out_fixed(&a[1], 64); break;
    case SYS_statfs64:
    case SYS_fstatfs64: guard_out_fixed(&a[2], 84); break;
    case SYS_getgroups:
    case SYS_getgroups32: guard_out_fixed(&a[1], 32 * 4); break;
    case SYS_syslog: /* reads only: the boot tests read the kernel log afterwards */
        if (a[0] == 4 || a[0] == 5)
            a[0] = 3;
        guard_out(&a[1], &a[2], true);
        break;
    case SYS_readlink: guard_out(&a[1], &a[2], true); break;
    case SYS_readlinkat: guard_out(&a[2], &a[3], true); break;
    case SYS_getcwd: guard_out(&a[0], &a[1], true); break;
    case SYS_getdents:
    case SYS_getdents64: guard_out(&a[1], &a[2], true); break;
    case SYS_pipe: guard_out_fixed(&a[0], 8); break;
    case SYS_pipe2:
        guard_out_fixed(&a[0], 8);
        a[1] |= O_NONBLOCK;
        break;
    case SYS_llseek: guard_out_fixed(&a[3], 8); break;
    case SYS_poll:
        guard_pollfds(c);
        if ((int32_t)a[2] < 0 || a[2] > 2)
            a[2] = below(3);
        break;
    case SYS_ppoll:
    case SYS_ppoll_time64:
        guard_pollfds(c);
        guard_timeout(&a[2], c->nr == SYS_ppoll_time64);
        break;
    case SYS_newselect:
        guard_sets(&a[1]);
        guard_timeout(&a[4], false);
        break;
    case SYS_pselect6:
    case SYS_pselect6_time64:
        guard_sets(&a[1]);
        guard_timeout(&a[4], c->nr == SYS_pselect6_time64);
        break;
    case SYS_select: guard_old_select(c); break;
    case SYS_fcntl:
    case SYS_fcntl64:
        if (a[1] == F_SETFL)
            a[2] |= O_NONBLOCK; /* a pipe or the terminal must never wait */
        break;
    case SYS_dup2:
    case SYS_dup3:
        if (a[1] <= 2)
            a[1] = 3 + below(29); /* fds 0..2 stay the console */
        break;
    case SYS_close_range:
        if (a[0] <= 2)
            a[0] = 3;
        break;
    case SYS_read: guard_out(&a[1], &a[2], true); break;
    case SYS_pread64: guard_out(&a[1], &a[2], true); break;
    case SYS_nanosleep: guard_nanosleep(c); break;
    case SYS_clock_gettime: guard_out_fixed(&a[1], sizeof(struct timespec)); break;
    case SYS_munmap: guard_fixed(&a[0], &a[1]); break;
    case SYS_mmap2:
        if (a[3] & (MAP_FIXED | MAP_FIXED_NOREPLACE))
            guard_fixed(&a[0], &a[1]);
        break;
    /* Memory: the process layout and its calls (issue 16) */
    case SYS_mmap: guard_old_mmap(&a[0]); break;
    case SYS_mprotect: /* PROT_NONE or read-only on its own memory would kill it */
    case SYS_madvise:  /* MADV_DONTNEED zeroes what it is given */
        guard_range(&a[0], &a[1]);
        break;
    case SYS_mremap:
        guard_fixed(&a[0], &a[1]);
        if (a[3] & MREMAP_FIXED)
            guard_fixed(&a[4], &a[2]);
        break;
    case SYS_brk: /* the break moves freely above the image, but not by gigabytes */
        if (a[0] > initial_break + 64 * PAGE && a[0] < MMAP_LO)
            a[0] = initial_break + below(64 * PAGE);
        break;
    /* Time, system information, limits and random numbers (issue 16) */
    case SYS_time: guard_out_fixed(&a[0], 4); break;
    case SYS_gettimeofday:
    case SYS_getcpu:
        guard_out_fixed(&a[0], 8);
        guard_out_fixed(&a[1], 8);
        break;
    case SYS_clock_gettime64:
    case SYS_clock_getres_time64: guard_out_fixed(&a[1], sizeof(struct timespec64)); break;
    case SYS_clock_getres: guard_out_fixed(&a[1], sizeof(struct timespec)); break;
    case SYS_clock_nanosleep: guard_clock_nanosleep(c, false); break;
    case SYS_clock_nanosleep_time64: guard_clock_nanosleep(c, true); break;
    case SYS_uname:
    case SYS_olduname:
    case SYS_oldolduname: guard_out_fixed(&a[0], sizeof(struct utsname)); break;
    case SYS_sysinfo: guard_out_fixed(&a[0], sizeof(struct sysinfo)); break;
    case SYS_getrlimit:
    case SYS_ugetrlimit: guard_out_fixed(&a[1], sizeof(struct rlimit)); break;
    case SYS_prlimit64: guard_out_fixed(&a[3], sizeof(struct rlimit64)); break;
    case SYS_getrandom: guard_out(&a[0], &a[1], true); break;
    case SYS_sched_getaffinity:
    case SYS_sched_getparam: guard_out_fixed(&a[c->nr == SYS_sched_getparam ? 1 : 2], 8); break;
    case SYS_ioctl:
        if (a[1] == DIAG_IOCSREG)
            guard_reg(c);
        else if (a[1] != DIAG_IOCSDEL && a[1] != DIAG_IOCSUNREG)
            guard_out_fixed(&a[2], 64); /* an ioctl some file may add, writing its answer */
        break;
    /* Processes (issue 16) */
    case SYS_clone:
        /* The child's exit signal comes to this program: SIGCHLD (ignored) or none; an
         * invalid one (above 64) stays, for the kernel to refuse. */
        if ((a[0] & 0xff) != 0 && (a[0] & 0xff) <= 64)
            a[0] = (a[0] & ~0xffu) | SIGCHLD;
        guard_out_fixed(&a[2], 4); /* CLONE_PARENT_SETTID */
        guard_out_fixed(&a[4], 4); /* CLONE_CHILD_SETTID (in the child's memory: a copy,
                                    * or this very memory with CLONE_VM) */
        break;
    case SYS_execve:
        guard_process_call(c);
        break;
    case SYS_waitpid:
    case SYS_wait4:
        guard_out_fixed(&a[1], 4);
        if (c->nr == SYS_wait4)
            guard_out_fixed(&a[3], 72);
        a[2] |= 1; /* WNOHANG: never wait (there is never a living child anyway) */
        break;
    case SYS_kill:
    case SYS_tkill:
    case SYS_tgkill:
    case SYS_alarm:
    case SYS_setitimer:
    case SYS_getitimer:
    case SYS_rt_sigsuspend:
    case SYS_set_tid_address:
    case SYS_set_robust_list:
    case SYS_set_thread_area:
    case SYS_get_thread_area:
        guard_process_call(c);
        break;
    /* The user-id calls keep this program root: each id becomes root's 0 unless it says
     * "no change" (-1), so that the run stays privileged (setgroups is fuzzed as root) and
     * cleanup() can give the groups and group ids back. */
    case SYS_setuid:
    case SYS_setreuid:
    case SYS_setresuid: keep_root(a, 0xffffu); break;
    case SYS_setuid32:
    case SYS_setreuid32:
    case SYS_setresuid32: keep_root(a, 0xffffffffu); break;
    default:
        if (is_implemented(c->nr))
            break; /* open, close, write, writev, getpid, sched_yield: nothing written */
        for (unsigned i = 0; i < ARRAY_SIZE(c->a); i++)
            if (in_own_memory(a[i]))
                a[i] = 0xc0000000u + below(PAGE);
        break;
    }
}

/* ---- bookkeeping after a call ---- */

/* Keeps a new mapping, unmapping the one it displaces (or itself, when big), so that the
 * run's memory stays bounded. */
static void remember_mapping(uint32_t addr, uint32_t len)
{
    len = (len + PAGE - 1) & ~(PAGE - 1);
    if (len > BIG_MAPPING) {
        munmap((void *)(uintptr_t)addr, len);
        return;
    }
    if (mappings[mapping_next].len)
        munmap((void *)(uintptr_t)mappings[mapping_next].addr, mappings[mapping_next].len);
    mappings[mapping_next].addr = addr;
    mappings[mapping_next].len = len;
    mapping_next = (mapping_next + 1) % MAPPINGS;
}

/* What a DIAG_IOCSREG will leave behind if it works, read before the call (the kernel's
 * enable bit may land anywhere in scratch, even on the structure itself). */
struct registration {
    bool is_reg;
    bool has_enabler;
    uint32_t enable_addr;
    uint8_t enable_bit;
    char name[NAME_MAX]; /* "" when it cannot be read safely */
};

/* Copies the event name (up to a space, ':' or NUL) of the command at name_args into
 * name, if the program can read it safely: in a scratch area, the stack's slack (when
 * it holds argv), or the table of commands. Otherwise name is "". */
static void read_name(uint64_t name_args, char name[NAME_MAX])
{
    name[0] = '\0';
    if (name_args > 0xffffffffull)
        return;
    uint32_t p = (uint32_t)name_args, limit = 0;
    const struct area *a = scratch_holding(p, 1);
    if (a)
        limit = a->hi;
    else if (slack_is_argv && p >= USER_STACK_TOP - STACK_SLACK && p < USER_STACK_TOP)
        limit = USER_STACK_TOP;
    for (unsigned i = 0; i < ARRAY_SIZE(commands) && !limit; i++)
        if (p == (uint32_t)(uintptr_t)commands[i])
            limit = p + strlen(commands[i]) + 1;
    const char *s = (const char *)(uintptr_t)p;
    size_t n = 0;
    while (p + n < limit && n + 1 < NAME_MAX && s[n] && s[n] != ' ' && s[n] != ':') {
        name[n] = s[n];
        n++;
    }
    name[n] = '\0';
}

/* Before an ioctl: notes what its success would register (its argument is in scratch, or
 * outside user memory, where it cannot succeed: guard_reg saw to it). */
static void prepare_registration(const struct call *c, struct registration *r)
{
    memset(r, 0, sizeof(*r));
    if (c->nr != SYS_ioctl || c->a[1] != DIAG_IOCSREG || !scratch_holding(c->a[2], REG_SPAN))
        return;
    r->is_reg = true;
    struct user_reg reg;
    memcpy(&reg, (void *)(uintptr_t)c->a[2], sizeof(reg));
    if (reg.size == sizeof(struct user_reg_status)) {
        struct user_reg_status status_reg;
        memcpy(&status_reg, (void *)(uintptr_t)c->a[2], sizeof(status_reg));
        read_name(status_reg.name_args, r->name);
        return;
    }
    read_name(reg.name_args, r->name);
    r->has_enabler = true;
    r->enable_addr = (uint32_t)reg.enable_addr;
    r->enable_bit = reg.enable_bit;
}

/* After a successful registration: remembers its enable address and event name for the
 * cleanup. */
static void remember_registration(const struct registration *r)
{
    if (r->has_enabler && enabler_count < MAX_ENABLERS) {
        enablers[enabler_count].addr = r->enable_addr;
        enablers[enabler_count].bit = r->enable_bit;
        enabler_count++;
    }
    if (r->name[0] == '\0' || name_count == MAX_NAMES)
        return;
    for (unsigned i = 0; i < name_count; i++)
        if (strcmp(names[i], r->name) == 0)
            return;
    memcpy(names[name_count++], r->name, strlen(r->name) + 1);
}

/* What fd refers to, for a copy of it. */
static uint8_t kind_of_fd(uint32_t fd)
{
    if (fd <= 2)
        return FD_CONSOLE;
    return fd < MAX_FDS && fd_kind[fd] != FD_NONE ? fd_kind[fd] : FD_OTHER;
}

/* Keeps track of what a successful call changed: fds, mappings, registrations. */
static void after_success(const struct call *c, long ret, const struct registration *r)
{
    switch (c->nr) {
    case SYS_openat:
        if ((unsigned long)ret < MAX_FDS)
            fd_kind[ret] = (uint8_t)kind_of_path(c->a[1]);
        break;
    case SYS_dup:
    case SYS_fcntl:
    case SYS_fcntl64:
        if ((c->nr == SYS_dup || c->a[1] == F_DUPFD || c->a[1] == F_DUPFD_CLOEXEC) &&
            (unsigned long)ret < MAX_FDS)
            fd_kind[ret] = kind_of_fd(c->a[0]);
        break;
    case SYS_dup2:
    case SYS_dup3:
        if (c->a[1] < MAX_FDS)
            fd_kind[c->a[1]] = kind_of_fd(c->a[0]);
        break;
    case SYS_pipe:
    case SYS_pipe2: {
        int32_t fds[2];
        memcpy(fds, (void *)(uintptr_t)c->a[0], sizeof fds);
        for (int i = 0; i < 2; i++)
            if ((uint32_t)fds[i] < MAX_FDS) {
                fd_kind[fds[i]] = FD_PIPE;
                fcntl(fds[i], F_SETFL, O_NONBLOCK); /* pipe(2) made it blocking */
            }
        break;
    }
    case SYS_close_range:
        if (!(c->a[2] & CLOSE_RANGE_CLOEXEC))
            for (uint32_t fd = c->a[0]; fd < MAX_FDS && fd <= c->a[1]; fd++)
                fd_kind[fd] = FD_NONE;
        break;
    case SYS_open:
        if ((unsigned long)ret < MAX_FDS)
            fd_kind[ret] = (uint8_t)kind_of_path(c->a[0]);
        break;
    case SYS_close:
        if (c->a[0] < MAX_FDS)
            fd_kind[c->a[0]] = FD_NONE;
        break;
    case SYS_mmap2: remember_mapping((uint32_t)ret, c->a[1]); break;
    case SYS_mmap: remember_mapping((uint32_t)ret, ((const uint32_t *)(uintptr_t)c->a[0])[1]); break;
    case SYS_mremap: remember_mapping((uint32_t)ret, c->a[2]); break;
    case SYS_ioctl:
        if (r->is_reg)
            remember_registration(r);
        break;
    }
}

/* ---- running ---- */

/*
 * Makes call c as syscall() does, but enters the kernel with the direction flag set (std):
 * the kernel must clear it before its own string copies, or it would copy our buffers
 * backwards over its stack. DF is cleared again before any C code here runs. Returns as
 * syscall(): the result, or -1 with errno set.
 */
static long syscall_with_df(const struct call *c)
{
    long ret;
    asm volatile("pushl %7\n\t"
                 "pushl %%ebp\n\t"
                 "movl 4(%%esp), %%ebp\n\t"
                 "std\n\t"
                 "int $0x80\n\t"
                 "cld\n\t"
                 "popl %%ebp\n\t"
                 "addl $4, %%esp"
                 : "=a"(ret)
                 : "0"(c->nr), "b"(c->a[0]), "c"(c->a[1]), "d"(c->a[2]), "S"(c->a[3]),
                   "D"(c->a[4]), "g"(c->a[5])
                 : "memory", "cc");
    if (ret < 0 && ret >= -4095) {
        errno = (int)-ret;
        return -1;
    }
    return ret;
}

/* fork, vfork, clone (issue 16): made by fork_like(). */
static bool is_fork_like(uint32_t nr) { return nr == SYS_fork || nr == SYS_vfork || nr == SYS_clone; }

/*
 * Makes a fork-like call c. Its child, if one is made, exits at once, in the asm, without
 * touching memory: it may share this program's memory and stack (vfork, CLONE_VM), or run
 * on a random stack (clone's newsp). The parent collects it (not counted) so that the run
 * never holds more than one child. Returns as syscall().
 */
static long fork_like(const struct call *c)
{
    long ret;
    asm volatile("int $0x80\n\t"
                 "testl %%eax, %%eax\n\t"
                 "jnz 1f\n\t"
                 "movl $1, %%eax\n\t"   /* the child: exit(0) */
                 "xorl %%ebx, %%ebx\n\t"
                 "int $0x80\n"
                 "1:"
                 : "=a"(ret)
                 : "0"(c->nr), "b"(c->a[0]), "c"(c->a[1]), "d"(c->a[2]), "S"(c->a[3]), "D"(c->a[4])
                 : "memory", "cc");
    if (ret > 0)
        waitpid((pid_t)ret, 0, 0);
    if (ret < 0 && ret >= -4095) {
        errno = (int)-ret;
        return -1;
    }
    return ret;
}

/* Draws, guards and makes one call; false when it could not be made (no fd for /dev/null). */
static bool fuzz_one(void)
{
    struct call c;
    draw_call(&c);
    guard_call(&c);
    int null_fd = -1;
    /* fds 0..2 keep the console; a read of the terminal would wait for keys. */
    bool console = c.a[0] <= 2 || (c.a[0] < MAX_FDS && fd_kind[c.a[0]] == FD_CONSOLE);
    if ((c.nr == SYS_close && c.a[0] <= 2) ||
        ((c.nr == SYS_read || c.nr == SYS_write || c.nr == SYS_writev) && console)) {
        null_fd = open_null();
        if (null_fd < 0)
            return false;
        c.a[0] = (uint32_t)null_fd;
    }
    struct registration reg;
    prepare_registration(&c, &reg);
    long ret = is_fork_like(c.nr) ? fork_like(&c)
               : one_in(4)        ? syscall_with_df(&c)
                                  : syscall(c.nr, c.a[0], c.a[1], c.a[2], c.a[3], c.a[4], c.a[5]);
    int err = ret == -1 ? errno : 0;
    if (null_fd >= 0 && !(c.nr == SYS_close && err == 0))
        close(null_fd);
    calls++;
    if (err) {
        errors++;
        errno_count[err < (int)ARRAY_SIZE(errno_count) ? err : 0]++;
    } else if (null_fd < 0) {
        after_success(&c, ret, &reg);
    }
    return true;
}

/* Scribbles on a little of the scratch now and then, so that stale structures change. */
static void stir_scratch(void)
{
    uint32_t p = scratch_at(64, false);
    fill_random((uint8_t *)(uintptr_t)p, 64);
}

/* The supplementary groups and group ids the program started with (root's: none, and 0),
 * which cleanup() puts back after the fuzzed calls changed them. */
static uint32_t initial_groups[32];
static long initial_ngroups;
static uint32_t initial_gids[3];

/* Unregisters the enable addresses, deletes the events the run registered and restores the
 * supplementary groups; the rest (fds, mappings) goes with the process. Only unexpected
 * failures are reported. */
static void cleanup(void)
{
    if (initial_ngroups < 0 || syscall(SYS_setgroups32, initial_ngroups, initial_groups) < 0 ||
        syscall(SYS_setresgid32, initial_gids[0], initial_gids[1], initial_gids[2]) < 0) {
        const char *e = strerrorname_np(errno);
        printf("sysfuzz: cleanup: groups: %s\n", e ? e : "?");
    }
    for (int fd = 3; fd < MAX_FDS; fd++)
        if (fd_kind[fd] != FD_NONE)
            close(fd);
    int fd = open(DATA_FILE, O_RDWR);
    if (fd < 0)
        return;
    for (unsigned i = 0; i < enabler_count; i++) {
        struct user_unreg u = { 0 };
        u.size = sizeof(u);
        u.disable_bit = enablers[i].bit;
        u.disable_addr = enablers[i].addr;
        ioctl(fd, DIAG_IOCSUNREG, &u);
    }
    for (unsigned i = 0; i < ARRAY_SIZE(event_names) + name_count; i++) {
        const char *name = i < ARRAY_SIZE(event_names) ? event_names[i]
                                                       : names[i - ARRAY_SIZE(event_names)];
        if (ioctl(fd, DIAG_IOCSDEL, name) < 0 && errno != ENOENT) {
            const char *e = strerrorname_np(errno);
            printf("sysfuzz: cleanup: delete %s: %s\n", name, e ? e : "?");
        }
    }
    close(fd);
}

/* The per-errno counts and the closing line. */
static void report(void)
{
    unsigned distinct = 0;
    for (unsigned e = 0; e < ARRAY_SIZE(errno_count); e++) {
        if (!errno_count[e])
            continue;
        distinct++;
        const char *name = strerrorname_np((int)e);
        if (name)
            printf("sysfuzz: errno %s x%u\n", name, errno_count[e]);
        else
            printf("sysfuzz: errno %u x%u\n", e, errno_count[e]);
    }
    printf("sysfuzz: done, %u calls, %u distinct errno values\n", calls, distinct);
}

/* The run: scratch filled with random bytes, then the calls, with a progress line every
 * 1000. */
static void fuzz(uint32_t iterations)
{
    fill_random(scratch, sizeof(scratch));
    fill_random((uint8_t *)(uintptr_t)scratch_areas[1].lo, STACK_SCRATCH_SIZE);
    while (calls < iterations) {
        if (one_in(16))
            stir_scratch();
        if (fuzz_one() && calls % 1000 == 0)
            printf("sysfuzz: %u calls, %u errors\n", calls, errors);
    }
}

/* Parses the arguments, sets up the scratch areas (one of them in this frame, which lives
 * as long as the run) and whether the stack's slack is argv, then fuzzes, cleans up and
 * reports. */
int main(int argc, char **argv)
{
    uint8_t stack_scratch[STACK_SCRATCH_SIZE] __attribute__((aligned(16)));
    char *end;
    uint32_t iterations = 10000, seed = 1;
    if (argc > 3)
        goto usage;
    if (argc > 1) {
        iterations = (uint32_t)strtoul(argv[1], &end, 0);
        if (*argv[1] == '\0' || *end != '\0')
            goto usage;
    }
    if (argc > 2) {
        seed = (uint32_t)strtoul(argv[2], &end, 0);
        if (*argv[2] == '\0' || *end != '\0')
            goto usage;
    }

    /* The top of the stack: the argument strings, the path (AT_EXECFN, here argv[0]) and
     * 4 zero bytes, as Linux's execve leaves them. */
    const char *last = argc > 0 ? argv[argc - 1] : "";
    slack_is_argv = argc > 0 && (uintptr_t)last + strlen(last) + 1 + strlen(argv[0]) + 1 + 4 ==
                                    USER_STACK_TOP;
    initial_break = (uint32_t)syscall(SYS_brk, 0);
    initial_ngroups = syscall(SYS_getgroups32, ARRAY_SIZE(initial_groups), initial_groups);
    syscall(SYS_getresgid32, &initial_gids[0], &initial_gids[1], &initial_gids[2]);
    scratch_areas[0] = (struct area){ (uintptr_t)scratch, (uintptr_t)scratch + SCRATCH_SIZE };
    scratch_areas[1] = (struct area){ (uintptr_t)stack_scratch,
                                      (uintptr_t)stack_scratch + STACK_SCRATCH_SIZE };
    seed_rng(seed);
    /* Writes to pipes whose read end it closed are EPIPE for it, not the end of the run;
     * alarm and setitimer get random times. */
    struct sigaction ignore = { .sa_handler = (void (*)(int))SIG_IGN };
    sigaction(SIGPIPE, &ignore, 0);
    sigaction(SIGALRM, &ignore, 0);
    printf("sysfuzz: seed %u, %u iterations\n", seed, iterations);
    fuzz(iterations);
    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_REAL, &off, 0);
    cleanup();
    report();
    return 0;

usage:
    printf("usage: sysfuzz [ITERATIONS [SEED]]\n");
    return 2;
}
