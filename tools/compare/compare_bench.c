/*
 * compare_bench.c - the one program `make compare` runs on Linux 6.1 and on tracekern, so
 * that every user-space row is measured by the same instructions on both kernels. Built on
 * the host with `gcc -m32 -static` against glibc (tools/compare/compare.mk) and never run
 * there: it runs in the guest, from the Linux initramfs's /init or from tracekern's boot
 * script (tools/compare/tracekern.script).
 *
 * Every row is timed with rdtsc around N iterations. Under QEMU's -icount shift=0,sleep=off
 * the TSC advances one per guest instruction; the first line this program prints checks
 * that on the kernel it runs on (a loop of known length, "COMPARE tsc_per_insn"). Each
 * measurement is repeated REPEATS times and the smallest taken (a timer interrupt inside
 * one only makes it larger), then divided by N, minus the same loop without the work.
 * System calls are made with `int $0x80` directly, never through glibc's wrappers, so
 * the entry path is the same on both kernels (glibc would use the vDSO's sysenter on Linux).
 *
 * Output, one line per row (tools/compare/compare_table.py reads it):
 *   COMPARE NAME VALUE               guest instructions per operation (two decimals)
 *   COMPARE-SKIP NAME: WHY           the row could not run on this kernel, and why
 *   COMPARE-INFO NAME: TEXT          how a row was derived (traced calls per getpid)
 *   COMPARE-END                      all rows done
 * Exit status 0 once every row has printed a value or a reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include "uapi/user_events.h"

#define TRACEFS "/sys/kernel/tracing/"
#define REPEATS 7
#define TSC_CHECK_LOOPS 100000
#define COUNT_CALLS 100 /* getpid calls whose traced functions are counted from the trace */

/* i386 system call numbers (the same on Linux and tracekern). */
#define NR_exit_group 252
#define NR_fork 2
#define NR_read 3
#define NR_write 4
#define NR_getpid 20
#define NR_pipe 42
#define NR_writev 146
#define NR_wait4 114

/* The TSC: guest instructions so far under -icount shift=0 (check_tsc proves it). */
static inline uint64_t rdtsc(void)
{
    uint64_t t;
    asm volatile("rdtsc" : "=A"(t) : : "memory");
    return t;
}

/* The raw system calls: one `int $0x80` each, the result in eax (-errno on failure). */
static inline long sys0(long nr)
{
    long ret;
    asm volatile("int $0x80" : "=a"(ret) : "a"(nr) : "memory");
    return ret;
}

static inline long sys3(long nr, long a, long b, long c)
{
    long ret;
    asm volatile("int $0x80" : "=a"(ret) : "a"(nr), "b"(a), "c"(b), "d"(c) : "memory");
    return ret;
}

static inline long sys4(long nr, long a, long b, long c, long d)
{
    long ret;
    asm volatile("int $0x80" : "=a"(ret) : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d) : "memory");
    return ret;
}

/* What one row does per iteration; returns 0, or -errno when a call failed. */
typedef long (*work_fn)(void);

static int marker_fd = -1, null_fd = -1, ue_fd = -1;
static uint32_t ue_write_index;
static volatile uint32_t ue_enabled;
static const char twelve[12] = "compare 12b\n";

/* The per-iteration work of the simple rows; do_nothing is the loop every row subtracts. */
static long do_nothing(void) { return 0; }
static long do_getpid(void) { long r = sys0(NR_getpid); return r < 0 ? r : 0; }
static long do_marker(void) { long r = sys3(NR_write, marker_fd, (long)twelve, 12); return r < 0 ? r : 0; }
static long do_null(void) { long r = sys3(NR_write, null_fd, (long)twelve, 12); return r < 0 ? r : 0; }

/* One writev of [write_index, u32 value] to the enabled user event. */
static long do_ue_writev(void)
{
    static uint32_t value = 7;
    struct iovec io[2] = { { &ue_write_index, 4 }, { &value, 4 } };
    long r = sys3(NR_writev, ue_fd, (long)io, 2);
    return r < 0 ? r : 0;
}

/* fork; the child exits at once with exit_group(0); the parent collects it with wait4. */
static long do_fork_exit_wait(void)
{
    long pid = sys0(NR_fork);
    if (pid == 0)
        sys3(NR_exit_group, 0, 0, 0);
    if (pid < 0)
        return pid;
    int status;
    long r = sys4(NR_wait4, pid, (long)&status, 0, 0);
    return r < 0 ? r : 0;
}

static int to_child[2], to_parent[2];
static char pipe_buf[16];

/* 16 bytes to the echoing child and the same 16 back. */
static long do_pipe_roundtrip(void)
{
    long r = sys3(NR_write, to_child[1], (long)pipe_buf, 16);
    if (r != 16)
        return r < 0 ? r : -EIO;
    r = sys3(NR_read, to_parent[0], (long)pipe_buf, 16);
    return r == 16 ? 0 : r < 0 ? r : -EIO;
}

/* The smallest TSC delta over REPEATS runs of n calls of work, or -errno. */
static int64_t best_of(work_fn work, int n)
{
    int64_t best = -1;
    for (int rep = 0; rep < REPEATS; rep++) {
        uint64_t start = rdtsc();
        for (int i = 0; i < n; i++) {
            long r = work();
            if (r < 0)
                return r;
        }
        int64_t delta = (int64_t)(rdtsc() - start);
        if (best < 0 || delta < best)
            best = delta;
    }
    return best;
}

/* Instructions per call of work: its best loop minus the empty loop's, over n. Returns a
 * negative errno (as a double) when work failed. */
static double per_call(work_fn work, int n)
{
    int64_t with = best_of(work, n);
    if (with < 0)
        return (double)with;
    int64_t empty = best_of(do_nothing, n);
    return (double)(with - empty) / n;
}

/* One measured row: "COMPARE NAME VALUE". */
static void print_row(const char *name, double value)
{
    printf("COMPARE %s %.2f\n", name, value);
}

/* One row this kernel could not run: "COMPARE-SKIP NAME: WHAT: ERROR". */
static void skip_row(const char *name, const char *what, int err)
{
    printf("COMPARE-SKIP %s: %s: %s\n", name, what, strerror(err));
}

/* Writes text to the tracefs file name (relative to TRACEFS), truncating it first; 0 or
 * errno. A short write goes on with the rest: Linux's set_ftrace_filter takes one word per
 * write() and returns how much of the text that word used. */
static int tracefs_write(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, TRACEFS "%s", name);
    int fd = open(path, O_WRONLY | O_TRUNC);
    if (fd < 0)
        return errno;
    int err = 0;
    for (size_t done = 0, length = strlen(text); done < length && err == 0;) {
        ssize_t n = write(fd, text + done, length - done);
        if (n > 0)
            done += (size_t)n;
        else
            err = n < 0 ? errno : EIO;
    }
    close(fd);
    return err;
}

/* The first loop: dec+jnz TSC_CHECK_LOOPS times is 2 * TSC_CHECK_LOOPS instructions, so the
 * TSC's advance over it, divided by that, is 1.00 where the TSC counts instructions. */
static void check_tsc(void)
{
    int64_t best = -1;
    for (int rep = 0; rep < REPEATS; rep++) {
        uint64_t start = rdtsc();
        asm volatile("1: dec %%ecx\n\tjnz 1b" : : "c"(TSC_CHECK_LOOPS) : "cc");
        int64_t delta = (int64_t)(rdtsc() - start);
        if (best < 0 || delta < best)
            best = delta;
    }
    print_row("tsc_per_insn", (double)best / (2.0 * TSC_CHECK_LOOPS));
}

/* Whether line names our task: a word "COMM-PID" with our pid, whatever COMM shows (the
 * function tracer prints the whole comm, function_graph's funcgraph-proc cuts it to 7
 * characters as Linux's print_graph_proc does, and a comm no longer in the saved-comm
 * table is "<...>"). */
static int names_own_task(const char *line, const char *own_pid)
{
    size_t tail = strlen(own_pid);
    for (const char *at = line; *at != '\0';) {
        at += strspn(at, " \t|");
        size_t word = strcspn(at, " \t|\n");
        if (word > tail && strncmp(at + word - tail, own_pid, tail) == 0)
            return 1;
        at += word;
    }
    return 0;
}

/* How often each function appeared in our task's lines of one counting run; the functions
 * whose count grows by a multiple of COUNT_CALLS between the run with no getpid and the run
 * with COUNT_CALLS of them are getpid's (printed as COMPARE-INFO). */
#define MAX_FUNCTIONS 256
static struct {
    char name[64];
    long seen[2]; /* [0]: the run with no getpid, [1]: with COUNT_CALLS */
} functions[MAX_FUNCTIONS];
static int function_count;

/* Adds one sighting of the function whose name ends at end (exclusive) to run's counts. */
static void count_function(const char *line, const char *end, int run)
{
    const char *start = end;
    while (start > line && start[-1] != ' ' && start[-1] != '|' && start[-1] != '\t')
        start--;
    size_t length = (size_t)(end - start);
    if (length == 0 || length >= sizeof functions[0].name)
        return;
    for (int i = 0; i < function_count; i++) {
        if (strlen(functions[i].name) == length && strncmp(functions[i].name, start, length) == 0) {
            functions[i].seen[run]++;
            return;
        }
    }
    if (function_count < MAX_FUNCTIONS) {
        memcpy(functions[function_count].name, start, length);
        functions[function_count].name[length] = '\0';
        functions[function_count].seen[0] = functions[function_count].seen[1] = 0;
        functions[function_count++].seen[run] = 1;
    }
}

/* Lines of the trace that our task wrote and that match the tracer's "one call" shape:
 * "name <-parent" (function tracer), or "name();" / "name() {" (function_graph, whose lines
 * carry the task with options/funcgraph-proc); each call's function is counted for run.
 * -1 when the trace cannot be read. */
static long count_own_calls(int graph, int run)
{
    char own_pid[24];
    snprintf(own_pid, sizeof own_pid, "-%d", getpid());
    FILE *trace = fopen(TRACEFS "trace", "r");
    if (trace == NULL)
        return -1;
    char line[512];
    long calls = 0;
    while (fgets(line, sizeof line, trace) != NULL) {
        if (line[0] == '#' || !names_own_task(line, own_pid))
            continue;
        const char *end = graph ? strstr(line, "();") : strstr(line, " <-");
        if (end == NULL && graph)
            end = strstr(line, "() {");
        if (end == NULL)
            continue;
        count_function(line, end, run);
        calls++;
    }
    fclose(trace);
    return calls;
}

/* Traced calls of count getpids: the trace is emptied, tracing turned on, the calls made,
 * tracing turned off, and our task's calls in the trace counted (for run 0 or 1). */
static long traced_calls(int graph, int count, int run)
{
    if (tracefs_write("tracing_on", "0") || tracefs_write("trace", "") ||
        tracefs_write("tracing_on", "1"))
        return -1;
    for (int i = 0; i < count; i++)
        sys0(NR_getpid);
    if (tracefs_write("tracing_on", "0"))
        return -1;
    long calls = count_own_calls(graph, run);
    tracefs_write("tracing_on", "1");
    return calls;
}

/* Whether functions[i] is one of getpid's: its count grew by about one per getpid. */
static int is_getpid_function(int i)
{
    return functions[i].seen[1] - functions[i].seen[0] >= COUNT_CALLS / 2;
}

/* Prints "COMPARE-INFO row: getpid's functions: name xN, ..." from the two counting runs. */
static void print_getpid_functions(const char *row)
{
    printf("COMPARE-INFO %s: getpid's functions:", row);
    const char *separator = " ";
    for (int i = 0; i < function_count; i++) {
        if (is_getpid_function(i)) {
            printf("%s%s x%.2f", separator, functions[i].name,
                (double)(functions[i].seen[1] - functions[i].seen[0]) / COUNT_CALLS);
            separator = ", ";
        }
    }
    printf("\n");
}

/* With the tracer on: getpid's cost, the calls per getpid counted from the trace, the
 * row's value (the extra cost over getpid_cost per traced call) and its COMPARE-INFO lines. */
static void measure_traced(const char *row, int graph, double getpid_cost)
{
    double traced = per_call(do_getpid, 500);
    function_count = 0;
    long none = traced_calls(graph, 0, 0);
    long some = traced_calls(graph, COUNT_CALLS, 1);
    if (none < 0 || some < 0) {
        skip_row(row, "reading the trace", errno ? errno : EIO);
        return;
    }
    double calls = (double)(some - none) / COUNT_CALLS;
    printf("COMPARE-INFO %s: %.2f traced calls per getpid (%ld in %d getpids, %ld in none); getpid %.2f with it, %.2f without\n",
        row, calls, some, COUNT_CALLS, none, traced, getpid_cost);
    print_getpid_functions(row);
    if (calls <= 0) {
        skip_row(row, "no traced calls counted", ENOENT);
        return;
    }
    print_row(row, (traced - getpid_cost) / calls);
}

/* Per traced function call of a tracer (function or function_graph), twice: unfiltered
 * (row), then with set_ftrace_filter naming only getpid's functions as the unfiltered
 * count found them (filtered_row). Each is getpid with the tracer on minus getpid without,
 * divided by the functions the tracer records per getpid (counted from the trace:
 * COUNT_CALLS getpids minus none, so the calls that turn tracing on and off cancel out). */
static void tracer_row(const char *row, const char *filtered_row, const char *tracer, int graph,
    double getpid_cost)
{
    int err = tracefs_write("current_tracer", tracer);
    if (err) {
        skip_row(row, "current_tracer", err);
        skip_row(filtered_row, "current_tracer", err);
        return;
    }
    measure_traced(row, graph, getpid_cost);
    static char filter[MAX_FUNCTIONS * 66];
    size_t used = 0;
    for (int i = 0; i < function_count; i++)
        if (is_getpid_function(i))
            used += (size_t)snprintf(filter + used, sizeof filter - used, "%s ", functions[i].name);
    err = used == 0 ? ENOENT : tracefs_write("set_ftrace_filter", filter);
    if (err)
        skip_row(filtered_row, "set_ftrace_filter", err);
    else
        measure_traced(filtered_row, graph, getpid_cost);
    tracefs_write("set_ftrace_filter", "");
    tracefs_write("current_tracer", "nop");
}

/* user_events: register "compare_ue u32 value" (Linux 6.4's ABI), enable it, writev. */
static void user_events_row(void)
{
    const char *row = "user_events_writev_4byte";
    ue_fd = open(TRACEFS "user_events_data", O_RDWR);
    if (ue_fd < 0) {
        skip_row(row, TRACEFS "user_events_data", errno);
        return;
    }
    struct user_reg reg = { 0 };
    reg.size = sizeof reg;
    reg.enable_size = sizeof ue_enabled;
    reg.enable_addr = (uintptr_t)&ue_enabled;
    reg.name_args = (uintptr_t)"compare_ue u32 value";
    if (ioctl(ue_fd, DIAG_IOCSREG, &reg) < 0) {
        skip_row(row, "DIAG_IOCSREG", errno);
        return;
    }
    ue_write_index = reg.write_index;
    int err = tracefs_write("events/user_events/compare_ue/enable", "1");
    if (err) {
        skip_row(row, "events/user_events/compare_ue/enable", err);
        return;
    }
    if (!ue_enabled) {
        skip_row(row, "the enable word stayed 0", EINVAL);
        return;
    }
    double v = per_call(do_ue_writev, 500);
    tracefs_write("events/user_events/compare_ue/enable", "0");
    if (v < 0)
        skip_row(row, "writev", (int)-v);
    else
        print_row(row, v);
}

/* The pipe row's echo child: reads 16 bytes and writes them back until end of file. */
static void pipe_child(void)
{
    char buf[16];
    close(to_child[1]);
    close(to_parent[0]);
    while (sys3(NR_read, to_child[0], (long)buf, 16) == 16)
        sys3(NR_write, to_parent[1], (long)buf, 16);
    sys3(NR_exit_group, 0, 0, 0);
}

/* Round trips of 16 bytes with an echoing child over two pipes. */
static void pipe_row(void)
{
    const char *row = "pipe_roundtrip_16";
    if (pipe(to_child) < 0 || pipe(to_parent) < 0) {
        skip_row(row, "pipe", errno);
        return;
    }
    long pid = sys0(NR_fork);
    if (pid < 0) {
        skip_row(row, "fork", (int)-pid);
        return;
    }
    if (pid == 0)
        pipe_child();
    close(to_child[0]);
    close(to_parent[1]);
    double v = per_call(do_pipe_roundtrip, 300);
    close(to_child[1]);
    int status;
    sys4(NR_wait4, pid, (long)&status, 0, 0);
    close(to_parent[0]);
    if (v < 0)
        skip_row(row, "write/read", (int)-v);
    else
        print_row(row, v);
}

/* A row that is a difference of two per-call costs, or its error. */
static void diff_row(const char *row, double with, double without, const char *what)
{
    if (with < 0 || without < 0)
        skip_row(row, what, (int)-(with < 0 ? with : without));
    else
        print_row(row, with - without);
}

/* Every row, in docs/compare.md's order; the tracers are left off and tracing on. */
int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    check_tsc();
    tracefs_write("current_tracer", "nop");
    tracefs_write("tracing_on", "1");

    double getpid_cost = per_call(do_getpid, 1000);
    print_row("getpid", getpid_cost);

    marker_fd = open(TRACEFS "trace_marker", O_WRONLY);
    null_fd = open("/dev/null", O_WRONLY);
    if (marker_fd < 0 || null_fd < 0)
        skip_row("trace_marker_12_minus_null", marker_fd < 0 ? "trace_marker" : "/dev/null", errno);
    else
        diff_row("trace_marker_12_minus_null", per_call(do_marker, 1000), per_call(do_null, 1000),
            "write");

    int err = tracefs_write("events/syscalls/sys_enter_getpid/enable", "1");
    if (err) {
        skip_row("syscall_event_getpid", "events/syscalls/sys_enter_getpid/enable", err);
    } else {
        double with = per_call(do_getpid, 1000);
        tracefs_write("events/syscalls/sys_enter_getpid/enable", "0");
        diff_row("syscall_event_getpid", with, getpid_cost, "getpid");
    }

    user_events_row();

    double fork_cost = per_call(do_fork_exit_wait, 30);
    if (fork_cost < 0)
        skip_row("fork_exit_wait", "fork/wait4", (int)-fork_cost);
    else
        print_row("fork_exit_wait", fork_cost);

    pipe_row();

    /* Function tracing: the graph tracer shows the task on each line with funcgraph-proc. */
    tracer_row("function_per_traced_call", "function_filtered_per_traced_call", "function", 0,
        getpid_cost);
    err = tracefs_write("options/funcgraph-proc", "1");
    if (err) {
        skip_row("function_graph_per_traced_call", "options/funcgraph-proc", err);
        skip_row("function_graph_filtered_per_traced_call", "options/funcgraph-proc", err);
    } else {
        tracer_row("function_graph_per_traced_call", "function_graph_filtered_per_traced_call",
            "function_graph", 1, getpid_cost);
    }
    tracefs_write("options/funcgraph-proc", "0");

    /* Compiled in but off: getpid after the function tracer was on and is off again (its
     * call sites patched back), minus getpid before it was ever on. */
    diff_row("tracing_off_after_on_getpid", per_call(do_getpid, 1000), getpid_cost, "getpid");

    printf("COMPARE-END\n");
    return 0;
}
