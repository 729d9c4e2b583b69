/*
 * glibc_abi.c - what a static glibc program does on Linux i386, checked in the guest (issue
 * 16). Built twice by tests/linux/linux.mk with the host's glibc, never run on the host:
 * `gcc -m32 -static` (glibc_abi, linked at 0x08048000) and `gcc -m32 -static-pie`
 * (glibc_abi_pie, which the kernel places at ELF_ET_DYN_BASE = 0x400000, docs/memory.md).
 * tests/shell/glibc_abi.script runs both.
 *
 * Each check prints one TAP-like line, "ok - VARIANT: WHAT" or "not ok - VARIANT: WHAT:
 * WHY", and the program ends with status 0 only when all passed. What is checked is what
 * glibc relies on the kernel for: stdio's full buffering on a pipe (TCGETS fails there),
 * malloc from brk and from mmap, fork/waitpid statuses, execve with an environment,
 * sigaction with and without SA_RESTART around a blocking read, longjmp out of a SIGSEGV
 * handler (glibc mangles the saved registers with a guard read through %gs), __thread
 * variables through set_thread_area and fork, the clocks and nanosleep, getrandom, readdir
 * (getdents64) of tracefs, isatty, and where the kernel placed the program.
 *
 * `glibc_abi --print-env` prints its environment and exits: the execve check runs it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <asm/ldt.h>

#ifdef GLIBC_ABI_PIE
#define VARIANT "static-pie"
#define EXPECTED_FIRST_PAGE 0x400000u /* ELF_ET_DYN_BASE: where the first PT_LOAD goes */
#else
#define VARIANT "static"
#define EXPECTED_FIRST_PAGE 0x08048000u /* ET_EXEC: where every i386 toolchain links */
#endif

extern char **environ;
extern char _end[];

int main(int argc, char **argv);

static int failures;

/* Prints the check's line; why is printed only when it failed. */
static void check(int passed, const char *what, const char *why)
{
    if (passed)
        printf("ok - " VARIANT ": %s\n", what);
    else {
        printf("not ok - " VARIANT ": %s: %s\n", what, why);
        failures++;
    }
}

/* Reads fd to its end into buf (NUL-terminated); the byte count, or -1. */
static ssize_t read_all(int fd, char *buf, size_t size)
{
    size_t got = 0;
    for (;;) {
        ssize_t n = read(fd, buf + got, size - 1 - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        got += (size_t)n;
    }
    buf[got] = 0;
    return (ssize_t)got;
}

/* Runs child(arg) in a child process whose stdout is a pipe; collects what it wrote into
 * out and its wait status into status. False when pipe, fork or waitpid failed. */
static int run_captured(void (*child)(void *), void *arg, char *out, size_t size, int *status)
{
    int p[2];
    fflush(stdout);
    if (pipe(p) != 0)
        return 0;
    pid_t pid = fork();
    if (pid < 0)
        return 0;
    if (pid == 0) {
        close(p[0]);
        dup2(p[1], 1);
        close(p[1]);
        child(arg);
        _exit(127);
    }
    close(p[1]);
    ssize_t n = read_all(p[0], out, size);
    close(p[0]);
    return waitpid(pid, status, 0) == pid && n >= 0;
}

/* A stream on a pipe is fully buffered (glibc's first write asks fstat64 and TCGETS,
 * which fails there): the direct write arrives first, the lines when exit() flushes
 * them. (A new stream: stdout was already made line-buffered on the console.) */
static void buffered_child(void *arg)
{
    (void)arg;
    FILE *out = fdopen(1, "w");
    if (!out)
        _exit(1);
    fprintf(out, "buffered line 1\n");
    fprintf(out, "buffered line 2\n");
    if (write(1, "direct\n", 7) != 7)
        _exit(1);
    exit(0);
}

static void test_stdio_pipe(void)
{
    char out[256];
    int status;
    int ran = run_captured(buffered_child, 0, out, sizeof out, &status);
    check(ran && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
              strcmp(out, "direct\nbuffered line 1\nbuffered line 2\n") == 0,
          "printf to a pipe is fully buffered and flushed by exit()", out);
}

static void test_malloc(void)
{
    char *heap_top = sbrk(0);
    char *small = malloc(100);
    char *after = sbrk(0);
    check(small && small > _end && small + 100 <= after,
          "malloc(100) comes from the brk heap (above the program's end, below sbrk(0))",
          "not between _end and sbrk(0)");
    size_t big = 4u << 20;
    char *large = malloc(big);
    int filled = large != 0;
    if (large) {
        memset(large, 0x5a, big);
        for (size_t i = 0; i < big; i += 4096)
            filled &= large[i] == 0x5a && large[i + 4095] == 0x5a;
    }
    char why[128];
    snprintf(why, sizeof why, "large at %p, brk %p -> %p", (void *)large, (void *)heap_top,
             (void *)sbrk(0));
    check(filled && (large >= (char *)sbrk(0) + (16u << 20) || large + big <= _end) &&
              (char *)sbrk(0) - heap_top < (long)big,
          "malloc(4 MiB) is an mmap away from the brk heap, readable and writable", why);
    free(large);
    free(small);
}

static void test_fork_wait(void)
{
    pid_t parent = getpid();
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0)
        _exit(getppid() == parent ? 42 : 1);
    int status = 0;
    check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
              WEXITSTATUS(status) == 42,
          "fork, the child's getppid, waitpid gives exit status 42", "wrong status");
    pid = fork();
    if (pid == 0) {
        raise(SIGTERM);
        _exit(1);
    }
    status = 0;
    check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) &&
              WTERMSIG(status) == SIGTERM,
          "a child that raise()s SIGTERM is reported killed by SIGTERM", "wrong status");
    check(waitpid(-1, &status, WNOHANG) == -1 && errno == ECHILD,
          "waitpid with no children left fails with ECHILD", strerror(errno));
}

static void exec_hello(void *arg)
{
    (void)arg;
    char *argv[] = { "hello", "one", "two words", 0 };
    char *envp[] = { "GREETING=hi", "PATH=/bin", 0 };
    execve("/bin/hello", argv, envp);
}

static void exec_self(void *arg)
{
    (void)arg;
    char *argv[] = { "glibc_abi", "--print-env", 0 };
    char *envp[] = { "GREETING=from the parent", "EMPTY=", 0 };
    execve("/proc/self/exe", argv, envp);
}

static void test_execve(void)
{
    char out[512];
    int status;
    int ran = run_captured(exec_hello, 0, out, sizeof out, &status);
    check(ran && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
              strstr(out, "argv[0] = hello\nargv[1] = one\nargv[2] = two words\n"),
          "execve of /bin/hello with arguments and an environment", out);
    ran = run_captured(exec_self, 0, out, sizeof out, &status);
    check(ran && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
              strcmp(out, "GREETING=from the parent\nEMPTY=\n2 variables\n") == 0,
          "execve of itself: glibc's environ is exactly the envp given", out);
    errno = 0;
    char *argv[] = { "nothing", 0 };
    check(execve("/bin/no-such-program", argv, environ) == -1 && errno == ENOENT,
          "execve of a missing file fails with ENOENT", strerror(errno));
}

static volatile sig_atomic_t usr1_caught;
static void on_usr1(int sig) { usr1_caught += sig == SIGUSR1; }

/* Blocks in read() on a pipe while a child sends SIGUSR1 and then one byte: with
 * SA_RESTART the read goes on and returns the byte; without, it fails with EINTR. */
static void read_across_signal(int flags, ssize_t *result, int *error)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sa.sa_flags = flags;
    sigaction(SIGUSR1, &sa, 0);
    int p[2];
    *result = -2;
    if (pipe(p) != 0)
        return;
    usr1_caught = 0;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        struct timespec pause = { 0, 100 * 1000 * 1000 };
        close(p[0]);
        nanosleep(&pause, 0);
        kill(getppid(), SIGUSR1);
        nanosleep(&pause, 0);
        _exit(write(p[1], "x", 1) == 1 ? 0 : 1);
    }
    close(p[1]);
    char c;
    errno = 0;
    *result = read(p[0], &c, 1);
    *error = errno;
    if (*result < 0) /* take the byte, so the child ends */
        read(p[0], &c, 1);
    close(p[0]);
    waitpid(pid, 0, 0);
    signal(SIGUSR1, SIG_DFL);
}

static void test_sa_restart(void)
{
    ssize_t n;
    int e;
    read_across_signal(SA_RESTART, &n, &e);
    check(n == 1 && usr1_caught == 1,
          "SA_RESTART: the handler runs and the blocked read() goes on to return the byte",
          strerror(e));
    read_across_signal(0, &n, &e);
    check(n == -1 && e == EINTR && usr1_caught == 1,
          "without SA_RESTART the blocked read() fails with EINTR after the handler",
          n == 1 ? "read returned the byte" : strerror(e));
}

static jmp_buf plain_jump;
static sigjmp_buf fault_jump;

static void jump_back(int value) { longjmp(plain_jump, value); }
static void on_segv(int sig) { siglongjmp(fault_jump, sig); }

static void test_jumps(void)
{
    volatile int steps = 0;
    int r = setjmp(plain_jump);
    steps++;
    if (r == 0)
        jump_back(7);
    check(r == 7 && steps == 2, "setjmp/longjmp returns the value given, once more", "");

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_segv;
    sigaction(SIGSEGV, &sa, 0);
    volatile int *nowhere = (volatile int *)16;
    r = sigsetjmp(fault_jump, 1);
    if (r == 0)
        *nowhere = 1;
    sigset_t now;
    sigprocmask(SIG_BLOCK, 0, &now);
    check(r == SIGSEGV && !sigismember(&now, SIGSEGV),
          "a write to page 0 raises SIGSEGV; siglongjmp out of the handler unblocks it", "");
    signal(SIGSEGV, SIG_DFL);
}

static __thread int tls_counter = 7;
static __thread char tls_zeroed[64];

static void test_tls(void)
{
    uintptr_t self0, self8;
    unsigned short gs;
    __asm__ volatile("movl %%gs:0, %0; movl %%gs:8, %1; movw %%gs, %2"
                     : "=r"(self0), "=r"(self8), "=r"(gs));
    struct user_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.entry_number = gs >> 3;
    long got = syscall(SYS_get_thread_area, &desc);
    check(self0 == (uintptr_t)pthread_self() && self8 == self0 && got == 0 &&
              desc.base_addr == self0 && desc.seg_32bit && (gs & 3) == 3,
          "%gs is a TLS descriptor of set_thread_area; get_thread_area gives its base", "");
    int zero = 1;
    for (size_t i = 0; i < sizeof tls_zeroed; i++)
        zero &= tls_zeroed[i] == 0;
    check(tls_counter == 7 && zero && (uintptr_t)&tls_counter < self0,
          "__thread variables start with their values (.tdata) and zeros (.tbss), below the TCB",
          "");
    tls_counter = 8;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int inherited = tls_counter == 8;
        tls_counter = 100;
        _exit(inherited && tls_counter == 100 ? 0 : 1);
    }
    int status = 0;
    check(pid > 0 && waitpid(pid, &status, 0) == pid && status == 0 && tls_counter == 8,
          "a forked child has the parent's __thread values; its writes stay its own", "");
}

static void test_time(void)
{
    struct timespec real, mono0, mono1;
    time_t t = time(0);
    int ok = clock_gettime(CLOCK_REALTIME, &real) == 0 &&
             clock_gettime(CLOCK_MONOTONIC, &mono0) == 0;
    /* 2020-01-01: QEMU's clock is the host's date. */
    check(ok && t > 1577836800 && real.tv_sec - t >= 0 && real.tv_sec - t <= 1,
          "time() and clock_gettime(CLOCK_REALTIME) agree on today's date", "");
    struct timespec nap = { 0, 30 * 1000 * 1000 }, left = { 9, 9 };
    int slept = nanosleep(&nap, &left);
    ok = clock_gettime(CLOCK_MONOTONIC, &mono1) == 0;
    long long ns = (mono1.tv_sec - mono0.tv_sec) * 1000000000LL + (mono1.tv_nsec - mono0.tv_nsec);
    check(slept == 0 && ok && ns >= 30 * 1000 * 1000,
          "nanosleep(30 ms) lasts at least 30 ms of CLOCK_MONOTONIC", "");
}

static void test_getrandom(void)
{
    unsigned char a[16], b[16], zero[16] = { 0 };
    ssize_t na = getrandom(a, sizeof a, 0), nb = getrandom(b, sizeof b, GRND_NONBLOCK);
    check(na == 16 && nb == 16 && memcmp(a, b, 16) != 0 && memcmp(a, zero, 16) != 0,
          "getrandom gives 16 bytes, different each call", strerror(errno));
}

static void test_readdir(void)
{
    DIR *d = opendir("/sys/kernel/tracing");
    int trace = 0, marker = 0, events = 0, dot = 0, n = 0;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        n++;
        trace |= strcmp(e->d_name, "trace") == 0 && e->d_type == DT_REG;
        marker |= strcmp(e->d_name, "trace_marker") == 0 && e->d_type == DT_REG;
        events |= strcmp(e->d_name, "events") == 0 && e->d_type == DT_DIR;
        dot |= strcmp(e->d_name, ".") == 0;
    }
    if (d)
        closedir(d);
    check(d && trace && marker && events && dot && n > 10,
          "opendir/readdir of /sys/kernel/tracing lists ., trace, trace_marker and events/", "");
}

static void test_isatty(void)
{
    int p[2];
    int console = isatty(0);
    int piped = pipe(p) == 0 && !isatty(p[0]) && errno == ENOTTY;
    close(p[0]);
    close(p[1]);
    check(console && piped, "isatty(0) on the console; a pipe is not a tty (ENOTTY)", "");
}

/* pread: at an offset, the file's own offset left alone; ESPIPE on a pipe. (On a file of
 * /proc: tracekern's /bin/NAME reads as a description of the image, not its bytes.) */
static void test_pread(void)
{
    char head[4], at1[3];
    int fd = open("/proc/self/cmdline", O_RDONLY);
    int ok = fd >= 0 && read(fd, head, 4) == 4 && pread(fd, at1, 3, 1) == 3 &&
             lseek(fd, 0, SEEK_CUR) == 4 && memcmp(head, "glib", 4) == 0 &&
             memcmp(at1, "lib", 3) == 0 && pread(fd, at1, 3, 1 << 30) == 0;
    if (fd >= 0)
        close(fd);
    int p[2];
    errno = 0;
    int spipe = pipe(p) == 0 && pread(p[0], at1, 1, 0) == -1 && errno == ESPIPE;
    close(p[0]);
    close(p[1]);
    check(ok && spipe, "pread reads at an offset and leaves the file's offset; ESPIPE on a pipe",
          ok ? "not ESPIPE on a pipe" : strerror(errno));
}

/* Where the kernel placed the program: its first page holds its ELF header (the first
 * PT_LOAD starts at file offset 0), and the executable PT_LOAD, moved by the load bias,
 * holds main; AT_PHDR is where the headers are. */
static void test_placement(void)
{
    const Elf32_Ehdr *eh = (const Elf32_Ehdr *)EXPECTED_FIRST_PAGE;
    uintptr_t main_at = (uintptr_t)&main, text_lo = 0, text_hi = 0, first = 0;
    int ok = memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_phnum > 0;
    const Elf32_Phdr *ph = (const Elf32_Phdr *)(EXPECTED_FIRST_PAGE + (ok ? eh->e_phoff : 0));
    int seen_load = 0;
    for (int i = 0; ok && i < eh->e_phnum; i++) {
        if (ph[i].p_type != PT_LOAD)
            continue;
        if (!seen_load++)
            first = ph[i].p_vaddr & ~0xfffu;
        if (ph[i].p_flags & PF_X)
            text_lo = ph[i].p_vaddr, text_hi = ph[i].p_vaddr + ph[i].p_memsz;
    }
    uintptr_t bias = EXPECTED_FIRST_PAGE - first;
    printf("# " VARIANT ": &main at %#lx, page %#lx; load bias %#lx\n", (unsigned long)main_at,
           (unsigned long)(main_at & ~0xfffu), (unsigned long)bias);
    char why[96];
    snprintf(why, sizeof why, "main at %#lx, text %#lx..%#lx + bias %#lx", (unsigned long)main_at,
             (unsigned long)text_lo, (unsigned long)text_hi, (unsigned long)bias);
    check(ok && main_at >= text_lo + bias && main_at < text_hi + bias &&
              getauxval(AT_PHDR) == EXPECTED_FIRST_PAGE + eh->e_phoff,
#ifdef GLIBC_ABI_PIE
          "static-pie placed at 0x400000 + its offsets (ELF header, main and AT_PHDR there)",
#else
          "placed where linked, at 0x08048000 (ELF header, main and AT_PHDR there)",
#endif
          why);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--print-env") == 0) {
        int n = 0;
        for (char **e = environ; *e; e++, n++)
            printf("%s\n", *e);
        printf("%d variables\n", n);
        return 0;
    }
    test_pread();
    test_placement();
    test_stdio_pipe();
    test_malloc();
    test_fork_wait();
    test_execve();
    test_sa_restart();
    test_jumps();
    test_tls();
    test_time();
    test_getrandom();
    test_readdir();
    test_isatty();
    printf("# " VARIANT ": %d failed\n", failures);
    return failures ? 1 : 0;
}
