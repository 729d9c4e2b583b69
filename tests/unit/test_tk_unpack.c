/* test_tk_unpack.c - the converter's --unpack (tools/tkconvert/unpack.c): the capture's
 * paths land in the guest's layout under ROOT, hostile paths are refused, and nothing is
 * written outside ROOT, even through a symbolic link already in it. */
#include "unit.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/tk_capture_build.h"
#include "tools/tkconvert/unpack.h"

static void refused(const char *path)
{
    char out[UNPACK_PATH_MAX + 64];
    if (unpack_path(path, out, sizeof out) != -1)
        unit_fail(__FILE__, __LINE__, path);
}

TEST(paths_map_to_the_guest_layout)
{
    char out[UNPACK_PATH_MAX + 64];
    CHECK_EQ_INT(unpack_path("events/ftrace/print/format", out, sizeof out), 0);
    CHECK_EQ_STR(out, "sys/kernel/tracing/events/ftrace/print/format");
    CHECK_EQ_INT(unpack_path("/proc/kallsyms", out, sizeof out), 0);
    CHECK_EQ_STR(out, "proc/kallsyms");
    CHECK_EQ_INT(unpack_path("a..b/..c", out, sizeof out), 0);
}

TEST(hostile_paths_are_refused)
{
    refused("..");
    refused("../x");
    refused("events/../../../etc/passwd");
    refused("/../etc/passwd");
    refused("/");
    refused("//etc/passwd");
    refused("a//b");
    refused("a/");
    refused("a/./b");
    refused(".");
    refused("a\nb");
    refused("a/\x7f");
    static char long_path[UNPACK_PATH_MAX + 10];
    memset(long_path, 'a', sizeof long_path - 1);
    refused(long_path);
}

static char *read_back(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[16384];
    *size = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return buf;
}

TEST(unpack_writes_files_and_pages_and_refuses_escapes)
{
    char root[] = "/tmp/tk_unpack_XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    char outside[] = "/tmp/tk_outside_XXXXXX";
    CHECK(mkdtemp(outside) != NULL);
    /* A symbolic link already under ROOT pointing out of it. */
    char link_path[128], target[160];
    snprintf(link_path, sizeof link_path, "%s/proc", root);
    CHECK(symlink(outside, link_path) == 0);

    struct capture_buf b = {0};
    cb_start(&b, 2);
    cb_clock_ns(&b);
    cb_file(&b, "events/header_page", "hp\n");
    cb_file(&b, "../escape", "no\n");
    cb_file(&b, "/proc/kallsyms", "through the link\n");
    static struct ring_records rr;
    uint8_t payload[16];
    for (int i = 0; i < 3; i++) { /* a loss before each later frame: a page each */
        memset(payload, 'a' + i, sizeof payload);
        rr.len = 0;
        rr_event(&rr, 0, payload, sizeof payload);
        cb_events(&b, 1, 1000 * (i + 1), 0, i ? 1 : 0, rr.bytes, rr.len);
    }
    struct capture c;
    char err[256];
    CHECK_EQ_INT(capture_read(&c, b.bytes, b.len, 0, err, sizeof err), 0);
    FILE *warn = tmpfile();
    CHECK_EQ_INT(unpack_capture(&c, root, warn, err, sizeof err), 3); /* hp, cpu0, cpu1 */

    size_t size;
    char path[256];
    snprintf(path, sizeof path, "%s/sys/kernel/tracing/events/header_page", root);
    char *text = read_back(path, &size);
    CHECK(text && size == 3 && memcmp(text, "hp\n", 3) == 0);
    snprintf(path, sizeof path, "%s/sys/kernel/tracing/per_cpu/cpu1/trace_pipe_raw", root);
    text = read_back(path, &size);
    /* each page: its 12-byte header, the event's 4-byte header, then its payload */
    CHECK(text && size == 3 * 4096 && text[16] == 'a' && text[4096 + 16] == 'b' &&
          text[8192 + 31] == 'c');
    snprintf(path, sizeof path, "%s/sys/kernel/tracing/per_cpu/cpu0/trace_pipe_raw", root);
    CHECK(read_back(path, &size) && size == 0);
    snprintf(target, sizeof target, "%s/kallsyms", outside);
    CHECK(access(target, F_OK) != 0); /* the link was not followed */
    snprintf(path, sizeof path, "%s/sys/kernel/escape", root);
    CHECK(access(path, F_OK) != 0);

    char messages[1024] = "";
    rewind(warn);
    size_t n = fread(messages, 1, sizeof messages - 1, warn);
    messages[n] = '\0';
    CHECK(strstr(messages, "refusing the capture's file \"../escape\"") != NULL);
    CHECK(strstr(messages, "/proc/kallsyms: cannot write proc/kallsyms") != NULL);
    fclose(warn);
    capture_free(&c);
    free(b.bytes);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", root, outside);
    CHECK(system(cmd) == 0);
}

/* An --unpack DIR holding an older capture's files is refused: a stale per_cpu/cpu1 or
 * format would be read with the new capture's by trace-cmd restore. A missing or empty
 * directory is fine. */
TEST(unpack_refuses_a_directory_that_is_not_empty)
{
    char root[] = "/tmp/tk_unpack_XXXXXX", err[512], path[256], cmd[512];
    CHECK(mkdtemp(root) != NULL);
    CHECK_EQ_INT(unpack_root_unused(root, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/new", root);
    CHECK_EQ_INT(unpack_root_unused(path, err, sizeof err), 0);
    FILE *stale = fopen(path, "w");
    CHECK(stale != NULL);
    fclose(stale);
    CHECK_EQ_INT(unpack_root_unused(root, err, sizeof err), -1);
    CHECK(strstr(err, "exists and is not empty") != NULL);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
}
