/*
 * tracedat.c - trace.dat from an unpacked capture, built by trace-cmd itself.
 *
 * trace-cmd can rebuild a recording from a copy of a machine's tracefs metadata and its raw
 * per-CPU pages (`trace-cmd restore`, meant for a partial record taken on a small target).
 * That is exactly what an unpacked capture is, so the file is written by Debian's trace-cmd
 * in two steps, and nothing of its format is re-implemented here:
 *
 *   trace-cmd restore -c -t ROOT/sys/kernel/tracing -k ROOT/proc/kallsyms -o OUT.head
 *       the file header, header_page/header_event, every event format, kallsyms,
 *       printk_formats and saved_cmdlines, all read from the -t directory;
 *   trace-cmd restore -i OUT.head -o OUT ROOT/.../per_cpu/cpu0/trace_pipe_raw ...
 *       the same, followed by each CPU's pages as flyrecord data.
 *
 * Two fields of the file header do not come from the -t directory: trace-cmd writes its own
 * sizeof(long) (8 on an x86-64 host) and the host's page size (from the host's tracefs, or
 * getpagesize()), and the second step writes them again. After each step they are
 * overwritten with the guest's (the second step takes the page size it splits the CPU data
 * by from the first's header): the size of header_page's `commit` field (a local_t, so
 * Linux's long: 4 on i386) and the page's size (data's offset plus its size: 4096). The
 * result reads the same on any little-endian host, with or without tracefs mounted.
 */
#include "tools/tkconvert/tracedat.h"
#include "tools/tkconvert/read_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TRACEFS_SUBDIR "/sys/kernel/tracing"
#define MAX_CPUS 64
#define ROOT_MAX 2048 /* bytes of the tracefs directory's path; a file's under it has 64 more */
/* trace.dat begins "\027\010\104tracing", then the version as a string ("6" or "7") and its
 * NUL, then one byte of endianness, one of sizeof(long) and four of the page size. */
#define MAGIC_LEN 10
#define HEADER_FIELDS_AT 12
#define MIN_PAGE 512u
#define MAX_PAGE (1u << 20)
#define OUTPUT_TAIL 512 /* bytes of trace-cmd's own messages kept for an error */

/* Puts a printf-style message in err; returns -1 for the caller to return. */
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* Finds "field: ... NAME;" in a header_page description and its offset and size; 0 when
 * found with both at most MAX_PAGE, -1 otherwise. */
static int header_field(const char *text, const char *name, unsigned *offset, unsigned *size)
{
    char want[64];
    snprintf(want, sizeof(want), " %s;", name);
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *hit = strstr(line, want);
        if (hit && hit < line + len) {
            const char *o = strstr(line, "offset:"), *s = strstr(line, "size:");
            if (!o || !s || o >= line + len || s >= line + len)
                return -1;
            unsigned long long off = strtoull(o + 7, NULL, 10), sz = strtoull(s + 5, NULL, 10);
            if (off > MAX_PAGE || sz > MAX_PAGE)
                return -1;
            *offset = (unsigned)off;
            *size = (unsigned)sz;
            return 0;
        }
        if (!end)
            break;
        line = end + 1;
    }
    return -1;
}

int tracedat_guest_sizes(const char *header_page, unsigned *long_size, unsigned *page_size)
{
    unsigned commit_off, commit_size, data_off, data_size;
    if (header_field(header_page, "commit", &commit_off, &commit_size) ||
        header_field(header_page, "data", &data_off, &data_size))
        return -1;
    if ((commit_size != 4 && commit_size != 8) || data_off + data_size < MIN_PAGE ||
        data_off + data_size > MAX_PAGE)
        return -1;
    *long_size = commit_size;
    *page_size = data_off + data_size;
    return 0;
}

/* The guest's sizeof(long) and page size, read from its events/header_page; 0 or -1. */
static int guest_sizes(const char *tracefs, unsigned *long_size, unsigned *page_size, char *err,
                       size_t errlen)
{
    char path[ROOT_MAX + 64];
    snprintf(path, sizeof(path), "%s/events/header_page", tracefs);
    size_t size;
    char *text = tk_read_file(path, 1u << 20, &size);
    if (!text)
        return fail(err, errlen, "%s: %s", path, strerror(errno));
    int bad = tracedat_guest_sizes(text, long_size, page_size);
    free(text);
    if (bad)
        return fail(err, errlen, "%s: no usable commit and data fields", path);
    return 0;
}

/* Runs trace-cmd with argv (argv[0] "trace-cmd"), its output kept in a pipe; 0 when it exits
 * with 0, else -1 with the end of what it printed in err. */
static int run_trace_cmd(char *const argv[], char *err, size_t errlen)
{
    int out[2];
    if (pipe(out) < 0)
        return fail(err, errlen, "pipe: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0) {
        close(out[0]);
        close(out[1]);
        return fail(err, errlen, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0)
            dup2(null, 0);
        dup2(out[1], 1);
        dup2(out[1], 2);
        close(out[0]);
        execvp(argv[0], argv);
        fprintf(stderr, "cannot run trace-cmd (Debian package trace-cmd): %s\n", strerror(errno));
        _exit(127);
    }
    close(out[1]);
    char tail[OUTPUT_TAIL + 1];
    size_t kept = 0;
    char chunk[1024];
    ssize_t n;
    while ((n = read(out[0], chunk, sizeof(chunk))) != 0) {
        if (n < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (ssize_t i = 0; i < n; i++) {
            if (kept == OUTPUT_TAIL) {
                memmove(tail, tail + 1, OUTPUT_TAIL - 1);
                kept--;
            }
            tail[kept++] = chunk[i];
        }
    }
    close(out[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return fail(err, errlen, "waitpid: %s", strerror(errno));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    while (kept && (tail[kept - 1] == '\n' || tail[kept - 1] == '\r'))
        kept--;
    tail[kept] = '\0';
    const char *last = strrchr(tail, '\n');
    return fail(err, errlen, "trace-cmd %s failed (%s %d): %s", argv[1],
                WIFEXITED(status) ? "exit" : "signal",
                WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), last ? last + 1 : tail);
}

/* Overwrites the file header's sizeof(long) and page size of the trace.dat at path with the
 * guest's; the endianness byte stays (little-endian, as the guest). 0 or -1. */
static int set_header_sizes(const char *path, unsigned long_size, unsigned page_size, char *err,
                            size_t errlen)
{
    int fd = open(path, O_RDWR);
    if (fd < 0)
        return fail(err, errlen, "%s: %s", path, strerror(errno));
    unsigned char head[HEADER_FIELDS_AT + 6];
    if (pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
        memcmp(head, "\027\010\104tracing", MAGIC_LEN) != 0 ||
        (head[MAGIC_LEN] != '6' && head[MAGIC_LEN] != '7') || head[MAGIC_LEN + 1] != '\0') {
        close(fd);
        return fail(err, errlen, "%s: not a trace.dat of version 6 or 7", path);
    }
    if (head[HEADER_FIELDS_AT] != 0) {
        close(fd);
        return fail(err, errlen, "%s: trace-cmd wrote a big-endian file; the guest is little-endian", path);
    }
    unsigned char sizes[5] = {(unsigned char)long_size, (unsigned char)page_size,
                              (unsigned char)(page_size >> 8), (unsigned char)(page_size >> 16),
                              (unsigned char)(page_size >> 24)};
    int ok = pwrite(fd, sizes, sizeof(sizes), HEADER_FIELDS_AT + 1) == (ssize_t)sizeof(sizes);
    if (close(fd) < 0 || !ok)
        return fail(err, errlen, "%s: cannot write its header", path);
    return 0;
}

int tracedat_write(const char *root, unsigned nr_cpus, const char *out_path, char *err,
                   size_t errlen)
{
    if (nr_cpus == 0 || nr_cpus > MAX_CPUS)
        return fail(err, errlen, "trace.dat: %u CPUs (1 to %d)", nr_cpus, MAX_CPUS);
    /* Paths are given to trace-cmd as arguments: one that began with '-' would be read as an
     * option, so such a relative path gets "./" in front. The first step's file is
     * OUT.head, removed afterwards. */
    const char *root_dot = root[0] == '-' ? "./" : "", *out_dot = out_path[0] == '-' ? "./" : "";
    char tracefs[ROOT_MAX], kallsyms[ROOT_MAX], head[ROOT_MAX], out[ROOT_MAX];
    if (snprintf(tracefs, sizeof(tracefs), "%s%s" TRACEFS_SUBDIR, root_dot, root) >= (int)sizeof(tracefs) ||
        snprintf(head, sizeof(head), "%s%s.head", out_dot, out_path) >= (int)sizeof(head) ||
        snprintf(out, sizeof(out), "%s%s", out_dot, out_path) >= (int)sizeof(out))
        return fail(err, errlen, "trace.dat: path too long");
    unsigned long_size = 0, page_size = 0;
    if (guest_sizes(tracefs, &long_size, &page_size, err, errlen) < 0)
        return -1;
    /* Without the guest's kallsyms, an empty one: trace-cmd would otherwise copy the host's. */
    if (snprintf(kallsyms, sizeof(kallsyms), "%s%s/proc/kallsyms", root_dot, root) >= (int)sizeof(kallsyms) ||
        access(kallsyms, R_OK) != 0)
        snprintf(kallsyms, sizeof(kallsyms), "/dev/null");

    char *create[] = {"trace-cmd", "restore", "-c", "-t", tracefs, "-k", kallsyms, "-o", head, NULL};
    if (run_trace_cmd(create, err, errlen) < 0 ||
        set_header_sizes(head, long_size, page_size, err, errlen) < 0) {
        unlink(head);
        return -1;
    }

    char *append[6 + MAX_CPUS + 1] = {"trace-cmd", "restore", "-i", head, "-o", out};
    /* 130 KiB, off the stack; one call at a time (tkconvert runs one thread). */
    static char cpu_files[MAX_CPUS][ROOT_MAX + 64];
    for (unsigned cpu = 0; cpu < nr_cpus; cpu++) {
        snprintf(cpu_files[cpu], sizeof(cpu_files[cpu]), "%s/per_cpu/cpu%u/trace_pipe_raw", tracefs, cpu);
        struct stat st;
        const char *why = stat(cpu_files[cpu], &st) < 0 ? strerror(errno)
                          : st.st_size % page_size != 0 ? "not whole pages" : NULL;
        if (why) {
            unlink(head);
            return fail(err, errlen, "%s: %s", cpu_files[cpu], why);
        }
        append[6 + cpu] = cpu_files[cpu];
    }
    append[6 + nr_cpus] = NULL;
    int rc = run_trace_cmd(append, err, errlen);
    unlink(head);
    if (rc == 0)
        rc = set_header_sizes(out, long_size, page_size, err, errlen);
    if (rc < 0)
        unlink(out);
    return rc;
}
