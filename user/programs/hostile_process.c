/*
 * hostile_process.c - attacks on processes (issue 16), each asserting Linux's exact
 * refusal: a fork bomb (EAGAIN at the limits, the kernel stays up and every page comes
 * back), children killed before they ever ran, orphans, execve with bad pointers, huge
 * argument lists and missing files, kill of other users' and the kernel's tasks, waits for
 * children one does not have, clone with flags that would make a thread, set_thread_area
 * with kernel, code, 16-bit and not-present descriptors and bad entry numbers. One
 * TAP-like line per check (tracekern/check.h), then "hostile_process: P passed, F failed".
 *
 * Usage: hostile_process root   every attack, as root (the shell's `run`)
 *        hostile_process user   the attacks of an ordinary user (`run -u 1000`): kill of
 *                               root's and the kernel's tasks, the per-user fork limit
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "uapi/syscall.h"
#include "uapi/user_desc.h"
#include <tracekern/check.h>

#define KERNEL_ADDR 0xc0001000u /* an address of the kernel's half: never the user's */

static void nap_ms(long ms)
{
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000 };
    nanosleep(&t, 0);
}

/* Reads MemFree from /proc/meminfo (kB), or -1. */
static long mem_free_kb(void)
{
    static char text[2048];
    int fd = open("/proc/meminfo", O_RDONLY);
    if (fd < 0)
        return -1;
    long n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0)
        return -1;
    text[n] = 0;
    char *p = strstr(text, "MemFree:");
    if (!p)
        return -1;
    p += 8;
    while (*p == ' ')
        p++;
    long kb = 0;
    while (*p >= '0' && *p <= '9')
        kb = kb * 10 + (*p++ - '0');
    return kb;
}

/* A fork bomb in a group of its own: every process forks as fast as it can until fork
 * fails; the first failure's errno and how many forks succeeded go to a shared page, then
 * the leader kills the whole group. The failure is Linux's: EAGAIN at the task limits, or
 * ENOMEM when memory runs out first (how many forks that takes depends on the RAM and on
 * what each process needs, so the count is printed, not checked). */
static void fork_bomb(void)
{
    volatile int *shared = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) {
        check_true("fork bomb: mmap of the shared page", false);
        return;
    }
    pid_t leader = fork();
    if (leader == 0) {
        setpgid(0, 0);
        for (;;) {
            pid_t p = fork();
            if (p < 0) {
                if (!shared[1])
                    shared[1] = errno;
                break;
            }
            if (p > 0)
                __atomic_add_fetch(&shared[0], 1, __ATOMIC_RELAXED);
            /* the child goes on forking too: the tree grows both ways */
        }
        if (getpid() == getpgrp())
            kill(0, SIGKILL); /* the leader ends them all, itself included */
        pause();
        _exit(0);
    }
    int st = 0;
    waitpid(leader, &st, 0);
    check_true("fork bomb: forks succeeded until the limit", shared[0] > 0);
    printf("# fork bomb: %d forks, then %s\n", shared[0],
           shared[1] == EAGAIN ? "EAGAIN" : shared[1] == ENOMEM ? "ENOMEM" : "another error");
    check_true("fork bomb: then fork failed with EAGAIN or ENOMEM",
               shared[1] == EAGAIN || shared[1] == ENOMEM);
    check_number("fork bomb: its leader died of SIGKILL", st, SIGKILL);
    nap_ms(200); /* the rest of the group dies as it next runs */
    pid_t again = fork();
    if (again == 0)
        _exit(0);
    check_true("after the bomb, fork works again", again > 0 && waitpid(again, &st, 0) == again && st == 0);
    munmap((void *)shared, 4096);
}

static void kill_before_run(void)
{
    int dead = 0;
    for (int i = 0; i < 50; i++) {
        pid_t p = fork();
        if (p == 0) {
            pause(); /* if it runs at all before the kill comes */
            _exit(1);
        }
        int st = 0;
        kill(p, SIGKILL);
        dead += waitpid(p, &st, 0) == p && st == SIGKILL;
    }
    check_number("50 children killed right after fork: each died of SIGKILL", dead, 50);
}

static void orphans(void)
{
    volatile int *shared = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    pid_t child = fork();
    if (child == 0) {
        pid_t grandchild = fork();
        if (grandchild == 0) {
            while (getppid() != 1)
                nap_ms(10);
            shared[0] = getppid();
            pause();
            _exit(0);
        }
        shared[1] = grandchild;
        _exit(0);
    }
    int st;
    waitpid(child, &st, 0);
    for (int i = 0; i < 100 && !shared[0]; i++)
        nap_ms(10);
    check_number("an orphan's getppid becomes 1 (the shell)", shared[0], 1);
    check_call("the orphan is not our child: waitpid -> ECHILD", waitpid(shared[1], 0, WNOHANG), ECHILD);
    check_call("kill the orphan", kill(shared[1], SIGKILL), 0);
    nap_ms(50);
    check_call("it is gone (freed, not a zombie): kill(pid, 0) -> ESRCH", kill(shared[1], 0), ESRCH);
    munmap((void *)shared, 4096);
}

/* Runs `proc_test exit 0` with environment envp in a child: its exit status, or -1. */
static int exec_in_child(char **envp)
{
    char *argv[] = { "proc_test", "exit", "0", 0 };
    pid_t child = fork();
    if (child == 0) {
        execve("/bin/proc_test", argv, envp);
        _exit(100 + errno);
    }
    int st = -1;
    if (child < 0 || waitpid(child, &st, 0) != child)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void execve_attacks(void)
{
    char *argv[] = { "x", 0 };
    /* An argv array running into an unmapped page. */
    char *page = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(page + 4096, 4096);
    char **edge = (char **)(page + 4096) - 2;
    edge[0] = "a", edge[1] = "b";
    long before = mem_free_kb();
    for (int i = 0; i < 100; i++) {
        syscall(SYS_execve, "/bin/hello", edge, 0);
        syscall(SYS_execve, "/bin/hello", argv, edge);
        syscall(SYS_execve, "/bin/no_such", argv, 0);
    }
    check_call("argv running into an unmapped page -> EFAULT", syscall(SYS_execve, "/bin/hello", edge, 0), EFAULT);
    check_call("envp running into an unmapped page -> EFAULT", syscall(SYS_execve, "/bin/hello", argv, edge), EFAULT);
    check_call("argv in the kernel -> EFAULT", syscall(SYS_execve, "/bin/hello", KERNEL_ADDR, 0), EFAULT);
    check_call("path in the kernel -> EFAULT", syscall(SYS_execve, KERNEL_ADDR, argv, 0), EFAULT);
    static char long_path[5000];
    memset(long_path, 'a', sizeof long_path - 1);
    long_path[0] = '/';
    check_call("a 4999-byte path -> ENAMETOOLONG", execve(long_path, argv, 0), ENAMETOOLONG);
    check_call("a missing program -> ENOENT", execve("/bin/no_such", argv, 0), ENOENT);
    check_call("a path through a file -> ENOTDIR", execve("/proc/meminfo/x", argv, 0), ENOTDIR);
    /* Too much, by Linux's limits: one string of 128 KiB without its NUL (over
     * MAX_ARG_STRLEN), and 17 strings of 130000 bytes (2.1 MB: over a quarter of the 8 MiB
     * stack limit, though each is allowed). */
    static char huge[128 * 1024 + 1];
    memset(huge, 'h', sizeof huge - 1);
    char *one_huge[] = { huge, 0 };
    check_call("an argument of 128 KiB and its NUL -> E2BIG", execve("/bin/hello", one_huge, 0), E2BIG);
    huge[130000] = 0;
    static char *seventeen[18];
    for (int i = 0; i < 17; i++)
        seventeen[i] = huge;
    check_call("17 environment strings of 130000 bytes (over 2 MiB) -> E2BIG",
               execve("/bin/hello", argv, seventeen), E2BIG);
    long after = mem_free_kb();
    check_number("400 failed execves leave the free memory as it was (kB)", after, before);
    munmap(page, 4096);
    /* What Linux accepts runs: a 40000-byte string, 9000 empty strings, and 16 strings of
     * 130000 bytes (just under 2 MiB), each in the environment of `proc_test exit 0`. */
    huge[40000] = 0;
    char *one[] = { huge, 0 };
    check_number("an environment string of 40000 bytes runs proc_test", exec_in_child(one), 0);
    static char *many[9001];
    for (int i = 0; i < 9000; i++)
        many[i] = "";
    check_number("9000 environment strings run proc_test", exec_in_child(many), 0);
    huge[40000] = 'h';
    static char *sixteen[17];
    for (int i = 0; i < 16; i++)
        sixteen[i] = huge;
    check_number("16 environment strings of 130000 bytes run proc_test", exec_in_child(sixteen), 0);
}

static void wait_attacks(void)
{
    check_call("waitpid(1): the shell is not our child -> ECHILD", waitpid(1, 0, 0), ECHILD);
    check_call("waitpid(-1) without children -> ECHILD", waitpid(-1, 0, WNOHANG), ECHILD);
    check_call("waitpid(INT_MIN) -> ESRCH", waitpid((pid_t)0x80000000, 0, 0), ESRCH);
    pid_t child = fork();
    if (child == 0)
        _exit(0);
    check_call("wait4 with a status pointer into the kernel -> EFAULT",
               wait4(child, (int *)KERNEL_ADDR, 0, 0), EFAULT);
    check_call("and the child was collected anyway (as Linux) -> ECHILD", waitpid(child, 0, 0), ECHILD);
    child = fork();
    if (child == 0)
        _exit(0);
    check_call("wait4 with a bad rusage pointer -> EFAULT", wait4(child, 0, 0, (void *)16), EFAULT);
}

static void clone_attacks(void)
{
    check_call("clone(CLONE_THREAD|CLONE_SIGHAND|CLONE_VM) -> EINVAL (no threads)",
               syscall(SYS_clone, 0x10000 | 0x800 | 0x100, 0, 0, 0, 0), EINVAL);
    check_call("clone(CLONE_THREAD) without CLONE_SIGHAND -> EINVAL", syscall(SYS_clone, 0x10000, 0, 0, 0, 0), EINVAL);
    check_call("clone(CLONE_SIGHAND) without CLONE_VM -> EINVAL", syscall(SYS_clone, 0x800, 0, 0, 0, 0), EINVAL);
    check_call("clone(CLONE_VM) without CLONE_VFORK -> EINVAL", syscall(SYS_clone, 0x100 | SIGCHLD, 0, 0, 0, 0), EINVAL);
    check_call("clone(CLONE_FILES) -> EINVAL", syscall(SYS_clone, 0x400 | SIGCHLD, 0, 0, 0, 0), EINVAL);
    check_call("clone with exit signal 65 -> EINVAL", syscall(SYS_clone, 65, 0, 0, 0, 0), EINVAL);
    /* A child on a stack in the kernel: it faults at its first push or ret. */
    long child = syscall(SYS_clone, SIGCHLD, KERNEL_ADDR, 0, 0, 0);
    if (child == 0)
        _exit(0); /* only if the stack were usable */
    int st = 0;
    waitpid((pid_t)child, &st, 0);
    check_number("clone onto a kernel stack: the child dies of SIGSEGV (core)", st, SIGSEGV | 0x80);
    child = syscall(SYS_clone, SIGCHLD | 0x01000000 /* CHILD_SETTID */, 0, 0, 0, KERNEL_ADDR);
    if (child == 0)
        _exit(3);
    waitpid((pid_t)child, &st, 0);
    check_number("CLONE_CHILD_SETTID into the kernel is ignored: the child runs, exits 3", st, 3 << 8);
}

/* set_thread_area with u, its result. */
static long set_tls(struct user_desc u) { return syscall(SYS_set_thread_area, &u); }

static sigjmp_buf fault_jmp;
static void on_segv(int sig) { siglongjmp(fault_jmp, sig); }

/* Reads the word at offset off of segment selector sel: the signal it raised (0: none). */
static int read_through(uint16_t sel, uint32_t off)
{
    int sig = sigsetjmp(fault_jmp, 1);
    if (sig == 0) {
        uint32_t v;
        asm volatile("movw %w1, %%gs\n\tmovl %%gs:(%2), %0" : "=r"(v) : "r"(sel), "r"(off));
    }
    asm volatile("movw %w0, %%gs" : : "r"(0));
    return sig;
}

static void tls_attacks(void)
{
    struct user_desc data = { .entry_number = 6, .base_addr = 0, .limit = 0xfffff, .seg_32bit = 1,
                              .limit_in_pages = 1 };
    static const unsigned bad_entries[] = { 0, 1, 2, 3, 4, 5, 9, 10, 31, 32, 1000, 0x7fffffff };
    int refused = 0;
    for (unsigned i = 0; i < sizeof bad_entries / sizeof bad_entries[0]; i++) {
        struct user_desc u = data;
        u.entry_number = bad_entries[i];
        refused += set_tls(u) == -1 && errno == EINVAL;
        struct user_desc g = { .entry_number = bad_entries[i] };
        refused += syscall(SYS_get_thread_area, &g) == -1 && errno == EINVAL;
    }
    check_number("entries 0-5, 9, 10, 31, 32, 1000, 2^31-1 (kernel, TSS, beyond): set and get -> EINVAL", refused, 24);
    struct user_desc u = data;
    u.contents = 2;
    check_call("a code segment (contents 2) -> EINVAL", set_tls(u), EINVAL);
    u.contents = 3;
    check_call("a conforming code segment (contents 3) -> EINVAL", set_tls(u), EINVAL);
    u = data, u.seg_32bit = 0;
    check_call("a 16-bit segment -> EINVAL", set_tls(u), EINVAL);
    u = data, u.seg_not_present = 1;
    check_call("a not-present segment -> EINVAL", set_tls(u), EINVAL);
    check_call("u_info in the kernel -> EFAULT", syscall(SYS_set_thread_area, KERNEL_ADDR), EFAULT);
    check_call("get_thread_area u_info in the kernel -> EFAULT", syscall(SYS_get_thread_area, KERNEL_ADDR), EFAULT);
    int picked = 0;
    for (unsigned i = 0; i < 3; i++) {
        struct user_desc w = data;
        w.entry_number = (unsigned)-1;
        picked += syscall(SYS_set_thread_area, &w) == 0 && w.entry_number == 6 + i;
    }
    check_number("entry -1 three times picks slots 6, 7, 8", picked, 3);
    u = data, u.entry_number = (unsigned)-1;
    check_call("entry -1 with all three slots taken -> ESRCH", set_tls(u), ESRCH);
    /* What ring 3 sees of the descriptor: a present DPL-3 32-bit data segment, nothing else. */
    uint32_t rights = 0;
    uint8_t visible = 0;
    asm volatile("lar %2, %0\n\tsetz %1" : "=r"(rights), "=q"(visible) : "r"(0x33u) : "cc");
    check_true("lar 0x33: present, DPL 3, code/data, writable data, 32-bit",
               visible && ((rights >> 8) & 0xff) == 0xf3 && (rights & 0x400000));
    /* A flat 4 GiB segment: %gs:KERNEL_ADDR is still the kernel's page, which faults. */
    struct sigaction sa = { 0 };
    sa.sa_handler = on_segv;
    sigaction(SIGSEGV, &sa, 0);
    check_number("reading the kernel through a flat TLS segment -> SIGSEGV", read_through(0x33, KERNEL_ADDR), SIGSEGV);
    /* A segment whose base is in the kernel (allowed, as Linux): paging still guards it. */
    u = data, u.entry_number = 7, u.base_addr = 0xc0000000u, u.limit = 0xff;
    check_call("a data segment based in the kernel is accepted (paging guards it)", set_tls(u), 0);
    check_number("and reading through it -> SIGSEGV", read_through(0x3b, 0), SIGSEGV);
    sa.sa_handler = (void (*)(int))SIG_DFL;
    sigaction(SIGSEGV, &sa, 0);
}

static void kill_attacks(bool root)
{
    if (root) {
        check_call("root: kill(2, SIGKILL) of a kernel thread: accepted, ignored", kill(2, SIGKILL), 0);
        check_call("root: kill(1, SIGTERM) of the shell: accepted, ignored", kill(1, SIGTERM), 0);
        check_call("the kernel thread still exists: kill(2, 0)", kill(2, 0), 0);
        return;
    }
    check_call("user: kill(1, SIGKILL) of the shell (root) -> EPERM", kill(1, SIGKILL), EPERM);
    check_call("user: kill(2, SIGKILL) of a kernel thread -> EPERM", kill(2, SIGKILL), EPERM);
    check_call("user: tgkill(2, 2, SIGKILL) -> EPERM", syscall(SYS_tgkill, 2, 2, SIGKILL), EPERM);
    check_call("user: kill(2, 0) -> EPERM", kill(2, 0), EPERM);
    check_call("user: kill(-1, SIGKILL): refusals are no error (Linux) -> 0", kill(-1, SIGKILL), 0);
}

int main(int argc, char **argv)
{
    bool root = argc > 1 && strcmp(argv[1], "root") == 0;
    kill_attacks(root);
    wait_attacks();
    execve_attacks();
    clone_attacks();
    kill_before_run();
    orphans();
    tls_attacks();
    fork_bomb();
    return check_summary("hostile_process");
}
