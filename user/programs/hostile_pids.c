/*
 * hostile_pids.c - attacks on the pid filter files and the graph controls (issue 18):
 * malformed and out-of-range pids, a huge list, the pids of exited processes, and a fork
 * flood racing the fork-following lists (tests/shell/hostile_pids.script). Each refused
 * write must be EINVAL and leave the file as it was.
 *
 * tracing_cpumask gets a few too (EOVERFLOW and EINVAL, as Linux's bitmap_parse).
 *
 * Usage: hostile_pids    every attack, one check line each (tracekern/check.h)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <tracekern/check.h>
#include <unistd.h>

#define DIR "/sys/kernel/tracing/"
#define EVENT_PID DIR "set_event_pid"
#define FTRACE_PID DIR "set_ftrace_pid"
#define NOTRACE_PID DIR "set_event_notrace_pid"

static char big[65536];
static char before[131072], after[131072];

/* Opens path (O_TRUNC unless append: `>` or `>>`) and writes len bytes of text in one
 * call: 0 or -errno. */
static long write_to(const char *path, const char *text, size_t len, bool append)
{
    int fd = open(path, O_WRONLY | (append ? 0 : O_TRUNC));
    if (fd < 0)
        return -errno;
    long r = write(fd, text, len);
    long err = r < 0 ? -errno : 0;
    close(fd);
    return err;
}

/* What path reads as, into buf (NUL-terminated). */
static const char *read_all(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY);
    size_t used = 0;
    long n = 0;
    while (fd >= 0 && used + 1 < size && (n = read(fd, buf + used, size - 1 - used)) > 0)
        used += (size_t)n;
    close(fd);
    buf[used] = '\0';
    return buf;
}

static unsigned lines(const char *text)
{
    unsigned n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

/* A write that must be refused with errno err and leave path reading as before. */
static void refused_with(const char *what, const char *path, const char *text, size_t len,
                         int err)
{
    read_all(path, before, sizeof before);
    check_errno(what, (int)-write_to(path, text, len, true), err);
    read_all(path, after, sizeof after);
    char also[160];
    snprintf(also, sizeof also, "%s: the file reads as before", what);
    check_true(also, strcmp(before, after) == 0);
}

static void refused(const char *what, const char *path, const char *text, size_t len)
{
    refused_with(what, path, text, len, EINVAL);
}

/* big holds the pids from first up, "%d " each, as many as fit in n bytes (whole pids). */
static size_t pid_run(int first, size_t n, const char *tail, int *count)
{
    size_t len = 0;
    *count = 0;
    for (int p = first; len + 16 + strlen(tail) < n; p++) {
        len += (size_t)snprintf(big + len, sizeof big - len, "%d ", p);
        ++*count;
    }
    len += (size_t)snprintf(big + len, sizeof big - len, "%s", tail);
    return len;
}

int main(void)
{
    char text[64];
    int me = getpid();
    int n = snprintf(text, sizeof text, "%d\n", me);
    check_call("set_ftrace_pid takes our pid", write_to(FTRACE_PID, text, (size_t)n, false), 0);

    refused("a word that is no number", FTRACE_PID, "abc\n", 4);
    refused("a number with junk after it", FTRACE_PID, "12x\n", 4);
    refused("a negative pid", FTRACE_PID, "-1\n", 3);
    refused("pid 32768 (pid_max)", FTRACE_PID, "32768\n", 6);
    refused("0x8000 (pid_max in hex)", FTRACE_PID, "0x8000\n", 7);
    refused("4294967297 (wraps to 1 in 32 bits)", FTRACE_PID, "4294967297\n", 11);
    refused("good pids, then a bad one", FTRACE_PID, "5 6 7 bogus\n", 12);
    refused("an octal pid with an 8", FTRACE_PID, "018\n", 4);
    refused("a NUL between pids", FTRACE_PID, "5\0 6\n", 5);
    for (int i = 0; i < 256; i++)
        big[i] = (char)(255 - i);
    refused("256 bytes of binary junk", EVENT_PID, big, 256);

    /* A huge list: all taken, and listed once each, in the same bounded bitmap. */
    int count;
    size_t len = pid_run(1, sizeof big, "\n", &count);
    check_call("64 KiB of pids", write_to(NOTRACE_PID, big, len, false), 0);
    read_all(NOTRACE_PID, after, sizeof after);
    check_number("each pid is listed once", lines(after), count);
    len = pid_run(1, sizeof big, "40000\n", &count);
    refused("64 KiB of pids ending past pid_max", NOTRACE_PID, big, len);
    check_call("echo > set_event_notrace_pid empties it", write_to(NOTRACE_PID, "\n", 1, false), 0);
    check_number("and it reads empty", (long long)strlen(read_all(NOTRACE_PID, after, sizeof after)), 0);

    /* The pid of a process that has exited and been reaped: Linux takes it. */
    int child = fork();
    if (child == 0)
        _exit(0);
    waitpid(child, 0, 0);
    n = snprintf(text, sizeof text, "%d\n", child);
    check_call("the pid of a reaped child is taken", write_to(FTRACE_PID, text, (size_t)n, true), 0);
    snprintf(text, sizeof text, "%d\n%d\n", me < child ? me : child, me < child ? child : me);
    check_true("set_ftrace_pid lists both, in order",
               strcmp(read_all(FTRACE_PID, after, sizeof after), text) == 0);

    /* A fork flood with event-fork on, racing appends to the list: every child joins the
     * list at fork and leaves it when freed. Each child is reaped (freed) right after an
     * append, before the next one, while a second process appends too; so frees happen
     * between and during appends, and, as on Linux, only what was written stays. */
    check_call("options/event-fork on", write_to(DIR "options/event-fork", "1\n", 2, false), 0);
    n = snprintf(text, sizeof text, "%d\n", me);
    check_call("set_event_pid takes our pid", write_to(EVENT_PID, text, (size_t)n, false), 0);
    int appender = fork();
    if (appender == 0) {
        int taken = 0;
        for (int i = 0; i < 300; i++)
            taken += write_to(EVENT_PID, "30001\n", 6, true) == 0;
        _exit(taken == 300 ? 0 : 1);
    }
    int forked = 0, appended = 0, reaped = 0;
    for (int i = 0; i < 60; i++) {
        int c = fork();
        if (c == 0)
            _exit(0);
        forked += c > 0;
        appended += write_to(EVENT_PID, "30000\n", 6, true) == 0;
        reaped += c > 0 && waitpid(c, 0, 0) == c;
    }
    int status = -1;
    check_true("the second process's 300 appends were taken",
               waitpid(appender, &status, 0) == appender && WIFEXITED(status) &&
                   WEXITSTATUS(status) == 0);
    check_number("60 children forked", forked, 60);
    check_number("60 appends taken meanwhile", appended, 60);
    check_number("each child reaped before the next append", reaped, 60);
    snprintf(text, sizeof text, "%d\n30000\n30001\n", me);
    check_true("after the flood the list is our pid, 30000 and 30001 (no freed pid)",
               strcmp(read_all(EVENT_PID, after, sizeof after), text) == 0);
    write_to(DIR "options/event-fork", "0\n", 2, false);
    write_to(EVENT_PID, "", 0, false);
    write_to(FTRACE_PID, "", 0, false);

    /* The graph controls refuse what Linux's kstrtoul_from_user refuses. */
    refused("max_graph_depth: a word", DIR "max_graph_depth", "deep\n", 5);
    refused("max_graph_depth: negative", DIR "max_graph_depth", "-1\n", 3);
    refused("tracing_thresh: hex", DIR "tracing_thresh", "0x10\n", 5);
    refused_with("tracing_thresh: past i386's unsigned long", DIR "tracing_thresh",
                 "4294967296\n", 11, ERANGE);

    /* tracing_cpumask refuses what Linux's bitmap_parse refuses, and stays as it was. */
    memset(big, 'f', sizeof big);
    refused_with("tracing_cpumask: 64 KiB of hex digits", DIR "tracing_cpumask", big, sizeof big,
                 EOVERFLOW);
    refused_with("tracing_cpumask: a group per CPU too many", DIR "tracing_cpumask", "1,1\n", 4,
                 EOVERFLOW);
    refused("tracing_cpumask: no hex digit", DIR "tracing_cpumask", "zz\n", 3);
    for (int i = 0; i < 256; i++)
        big[i] = (char)(1 + i % 250);
    refused("tracing_cpumask: binary junk", DIR "tracing_cpumask", big, 256);
    return check_summary("hostile_pids");
}
