/*
 * proc_bench.c - what processes cost, for `make bench`, counted with the TSC as ue_bench
 * counts (under QEMU's -icount shift=0,sleep=off the TSC advances one per guest
 * instruction: every instruction of the kernel and of each process in the round trip):
 *   proc_fork_exit_wait           fork(); the child _exit(0)s; the parent waitpid()s it
 *   proc_fork_execve_busybox_true the same with the child execve("/bin/busybox",
 *                                 {"busybox", "true"}): loading a static glibc program
 *                                 and running it to its exit (boot build/busybox/busybox)
 *   proc_signal_kill_handler      kill(getpid(), SIGUSR1) to a handler that counts it,
 *                                 and back through sigreturn
 *   proc_pipe_roundtrip_1byte     one byte to a child through one pipe and back through
 *                                 another: two writes, two reads, two switches
 * Each is the smallest of REPEATS runs of a loop, divided by its iterations. Prints
 * "BENCH NAME N.NN" per row; a row whose calls fail prints "BENCH-ERROR NAME: WHAT: ERRNO
 * (text)" instead of a number (ENOSYS: the kernel lacks the call) and the program goes on
 * to the next row, ending with status 1. The calls go through the library's wrappers
 * (user/lib/process.c, files.c), as a program's would.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define REPEATS 3
#define FORK_LOOPS 20
#define EXEC_LOOPS 5
#define SIGNAL_LOOPS 200
#define PIPE_LOOPS 200

static int errors;

static inline uint64_t rdtsc(void)
{
    uint64_t t;
    asm volatile("rdtsc" : "=A"(t) : : "memory");
    return t;
}

/* Reports a row that could not be measured; errno is the failed call's. Returns 0, the
 * value a measuring function gives for "no number". */
static uint64_t row_error(const char *row, const char *what)
{
    int e = errno;
    printf("BENCH-ERROR %s: %s: %s (%s)\n", row, what, strerrorname_np(e) ? strerrorname_np(e) : "?",
           strerror(e));
    errors++;
    return 0;
}

/* Waits for child pid; false when waitpid fails (its errno) or the child did not exit with
 * status 0 (errno EINVAL). */
static int reap(pid_t pid)
{
    int status = 0;
    if (waitpid(pid, &status, 0) != pid)
        return 0;
    if (status != 0) {
        errno = EINVAL;
        return 0;
    }
    return 1;
}

static const char *const fork_row = "proc_fork_exit_wait";

/* n forks, each child exiting at once and reaped: the total count, or 0 on an error. */
static uint64_t fork_loop(uint32_t n)
{
    uint64_t start = rdtsc();
    for (uint32_t i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid < 0)
            return row_error(fork_row, "fork");
        if (pid == 0)
            _exit(0);
        if (!reap(pid))
            return row_error(fork_row, "waitpid");
    }
    return rdtsc() - start;
}

static const char *const exec_row = "proc_fork_execve_busybox_true";

/* n children each running /bin/busybox true. */
static uint64_t exec_loop(uint32_t n)
{
    char *argv[] = { "busybox", "true", 0 };
    char *envp[] = { 0 };
    uint64_t start = rdtsc();
    for (uint32_t i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid < 0)
            return row_error(exec_row, "fork");
        if (pid == 0) {
            execve("/bin/busybox", argv, envp);
            /* Still here: execve failed. Exit with its errno; the parent reports it. */
            _exit(errno);
        }
        int status = 0;
        if (waitpid(pid, &status, 0) != pid)
            return row_error(exec_row, "waitpid");
        if (status != 0) {
            /* An exit status (bits 8..15) is the child's errno from execve. */
            errno = WIFEXITED(status) ? WEXITSTATUS(status) : EINVAL;
            return row_error(exec_row, "execve /bin/busybox (boot build/busybox/busybox)");
        }
    }
    return rdtsc() - start;
}

static const char *const signal_row = "proc_signal_kill_handler";
static volatile uint32_t signals_caught;

static void count_signal(int sig)
{
    (void)sig;
    signals_caught++;
}

/* n signals sent to this process and handled; each kill returns after the handler ran. */
static uint64_t signal_loop(uint32_t n)
{
    pid_t self = getpid();
    uint32_t before = signals_caught;
    uint64_t start = rdtsc();
    for (uint32_t i = 0; i < n; i++)
        if (kill(self, SIGUSR1) != 0)
            return row_error(signal_row, "kill");
    uint64_t cycles = rdtsc() - start;
    if (signals_caught - before != n) {
        errno = EINVAL;
        return row_error(signal_row, "the handler did not run once per kill");
    }
    return cycles;
}

static const char *const pipe_row = "proc_pipe_roundtrip_1byte";

/* n one-byte round trips through a child that sends back what it reads. */
static uint64_t pipe_loop(uint32_t n)
{
    int to_child[2], to_parent[2];
    if (pipe(to_child) != 0)
        return row_error(pipe_row, "pipe");
    if (pipe(to_parent) != 0) {
        close(to_child[0]);
        close(to_child[1]);
        return row_error(pipe_row, "pipe");
    }
    pid_t pid = fork();
    if (pid < 0) {
        row_error(pipe_row, "fork");
        n = 0;
    } else if (pid == 0) {
        char c;
        close(to_child[1]);
        close(to_parent[0]);
        while (read(to_child[0], &c, 1) == 1)
            if (write(to_parent[1], &c, 1) != 1)
                _exit(1);
        _exit(0);
    }
    close(to_child[0]);
    close(to_parent[1]);
    uint64_t cycles = 0;
    if (n > 0) {
        const char *failed = 0;
        uint64_t start = rdtsc();
        for (uint32_t i = 0; i < n && !failed; i++) {
            char c = (char)i, back;
            if (write(to_child[1], &c, 1) != 1)
                failed = "write";
            else if (read(to_parent[0], &back, 1) != 1 || back != c)
                failed = "read back";
        }
        cycles = failed ? row_error(pipe_row, failed) : rdtsc() - start;
    }
    close(to_child[1]); /* the child reads end-of-file and exits */
    close(to_parent[0]);
    if (pid > 0 && !reap(pid) && cycles)
        cycles = row_error(pipe_row, "waitpid");
    return cycles;
}

/* Runs loop(n) REPEATS times and prints the smallest per iteration, or nothing when a run
 * failed (the failure was reported). */
static void measure(const char *row, uint64_t (*loop)(uint32_t), uint32_t n)
{
    uint64_t best = UINT64_MAX;
    for (int r = 0; r < REPEATS; r++) {
        uint64_t c = loop(n);
        if (c == 0)
            return;
        if (c < best)
            best = c;
    }
    uint64_t hundredths = (best * 100 + n / 2) / n;
    printf("BENCH %s %llu.%02llu\n", row, hundredths / 100, hundredths % 100);
}

int main(void)
{
    measure(fork_row, fork_loop, FORK_LOOPS);
    measure(exec_row, exec_loop, EXEC_LOOPS);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = count_signal;
    if (sigaction(SIGUSR1, &sa, 0) != 0)
        row_error(signal_row, "sigaction");
    else
        measure(signal_row, signal_loop, SIGNAL_LOOPS);
    measure(pipe_row, pipe_loop, PIPE_LOOPS);
    return errors ? 1 : 0;
}
