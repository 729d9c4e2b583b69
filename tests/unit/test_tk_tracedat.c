/* test_tk_tracedat.c - tracedat_write (tools/tkconvert/tracedat.c) on small unpacked
 * captures made here: the file header gets the guest's sizeof(long) and page size from its
 * header_page (whatever the host's), bad input is refused with a message naming the file,
 * and nothing is left behind by a failure. Runs Debian's trace-cmd (tools/install-deps.sh). */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/tkconvert/tracedat.h"

#define HEADER_PAGE_I386                                                                  \
    "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"                            \
    "\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"                           \
    "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"                            \
    "\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;\n"
#define HEADER_PAGE_X86_64                                                                \
    "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"                            \
    "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"                           \
    "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"                            \
    "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n"

static char root[64];

/* Writes text to root/path, making its folders. */
static void put_file(const char *path, const char *text, size_t len)
{
    char full[512];
    snprintf(full, sizeof full, "%s/%s", root, path);
    for (char *slash = strchr(full + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        mkdir(full, 0755);
        *slash = '/';
    }
    FILE *f = fopen(full, "w");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0)
        unit_fail(__FILE__, __LINE__, full);
}

/* A fresh unpacked capture of one CPU with no pages and the given header_page. */
static void make_capture(const char *header_page)
{
    char cmd[128];
    if (root[0]) {
        snprintf(cmd, sizeof cmd, "rm -rf %s", root);
        if (system(cmd) != 0)
            unit_fail(__FILE__, __LINE__, cmd);
    }
    strcpy(root, "/tmp/test_tracedat.XXXXXX");
    if (!mkdtemp(root))
        unit_fail(__FILE__, __LINE__, "mkdtemp");
    const char *event =
        "\tfield: type_len : 5;\toffset:0;\tsize:0;\tsigned:0;\n"
        "\tfield: time_delta : 27;\toffset:0;\tsize:0;\tsigned:0;\n"
        "\tfield: array : 32;\toffset:4;\tsize:0;\tsigned:0;\n";
    const char *print = "name: print\nID: 5\nformat:\n"
                        "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
                        "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
                        "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
                        "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
                        "\tfield:unsigned long ip;\toffset:8;\tsize:4;\tsigned:0;\n"
                        "\tfield:char buf[];\toffset:12;\tsize:0;\tsigned:1;\n\n"
                        "print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";
    put_file("sys/kernel/tracing/events/header_page", header_page, strlen(header_page));
    put_file("sys/kernel/tracing/events/header_event", event, strlen(event));
    put_file("sys/kernel/tracing/events/ftrace/print/format", print, strlen(print));
    put_file("sys/kernel/tracing/saved_cmdlines", "1 sh\n", 5);
    put_file("sys/kernel/tracing/printk_formats", "", 0);
    put_file("sys/kernel/tracing/trace_clock", "[local]\n", 8);
    put_file("sys/kernel/tracing/per_cpu/cpu0/trace_pipe_raw", "", 0);
    put_file("proc/kallsyms", "c0100000 T kmain\n", 17);
}

/* The file header's sizeof(long) and page size of the trace.dat at path. */
static void header_sizes(const char *path, unsigned *long_size, unsigned *page_size)
{
    unsigned char h[18] = {0};
    FILE *f = fopen(path, "rb");
    if (!f || fread(h, 1, sizeof h, f) != sizeof h)
        unit_fail(__FILE__, __LINE__, path);
    fclose(f);
    CHECK(memcmp(h, "\027\010\104tracing", 10) == 0);
    *long_size = h[13];
    *page_size = h[14] | h[15] << 8 | (unsigned)h[16] << 16 | (unsigned)h[17] << 24;
}

static int exists(const char *path) { return access(path, F_OK) == 0; }

TEST(the_header_has_the_guests_long_and_page_size)
{
    make_capture(HEADER_PAGE_I386);
    char out[128], err[512] = "";
    snprintf(out, sizeof out, "%s/trace.dat", root);
    CHECK_EQ_INT(tracedat_write(root, 1, out, err, sizeof err), 0);
    unsigned long_size, page_size;
    header_sizes(out, &long_size, &page_size);
    CHECK_EQ_INT(long_size, 4);
    CHECK_EQ_INT(page_size, 4096);
    char head[160];
    snprintf(head, sizeof head, "%s.head", out);
    CHECK(!exists(head));
    /* A 64-bit guest's header_page gives 8: the value is read, not assumed. */
    make_capture(HEADER_PAGE_X86_64);
    snprintf(out, sizeof out, "%s/trace.dat", root);
    CHECK_EQ_INT(tracedat_write(root, 1, out, err, sizeof err), 0);
    header_sizes(out, &long_size, &page_size);
    CHECK_EQ_INT(long_size, 8);
    CHECK_EQ_INT(page_size, 4096);
}

TEST(bad_input_is_refused_with_the_file_named)
{
    char out[128], err[512];
    make_capture(HEADER_PAGE_I386);
    snprintf(out, sizeof out, "%s/trace.dat", root);
    CHECK_EQ_INT(tracedat_write(root, 0, out, err, sizeof err), -1);
    CHECK(strstr(err, "0 CPUs") != NULL);
    CHECK_EQ_INT(tracedat_write(root, 65, out, err, sizeof err), -1);
    /* A second CPU that has no pages file. */
    CHECK_EQ_INT(tracedat_write(root, 2, out, err, sizeof err), -1);
    CHECK(strstr(err, "per_cpu/cpu1/trace_pipe_raw") != NULL);
    CHECK(!exists(out));
    /* Pages that are not whole pages. */
    put_file("sys/kernel/tracing/per_cpu/cpu0/trace_pipe_raw", "short", 5);
    CHECK_EQ_INT(tracedat_write(root, 1, out, err, sizeof err), -1);
    CHECK(strstr(err, "not whole pages") != NULL);
    CHECK(!exists(out));
    /* A header_page without a commit field. */
    const char *no_commit = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
                            "\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;\n";
    put_file("sys/kernel/tracing/events/header_page", no_commit, strlen(no_commit));
    CHECK_EQ_INT(tracedat_write(root, 1, out, err, sizeof err), -1);
    CHECK(strstr(err, "events/header_page: no usable commit and data fields") != NULL);
    /* No tracefs copy at all. */
    CHECK_EQ_INT(tracedat_write("/nonexistent", 1, out, err, sizeof err), -1);
    CHECK(strstr(err, "/nonexistent/sys/kernel/tracing/events/header_page") != NULL);
}

TEST(trace_cmd_failing_is_reported_and_leaves_nothing)
{
    char out[128], err[512];
    make_capture(HEADER_PAGE_I386);
    /* An output folder that does not exist: trace-cmd restore cannot create the file. */
    snprintf(out, sizeof out, "%s/missing/trace.dat", root);
    CHECK_EQ_INT(tracedat_write(root, 1, out, err, sizeof err), -1);
    CHECK(strstr(err, "trace-cmd restore failed") != NULL);
    CHECK(!exists(out));
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    CHECK_EQ_INT(system(cmd), 0);
}
