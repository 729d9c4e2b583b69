/* test_klog.c - the dmesg ring: line assembly, timestamps, overwrite accounting. */
#include "unit.h"

#include <stdlib.h>

#include "kernel/log/klog.h"

static char out[KLOG_SIZE * 2];
static size_t out_len;

static void collect(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    memcpy(out + out_len, text, len);
    out_len += len;
    out[out_len] = '\0';
}

static const char *dump(void)
{
    out_len = 0;
    out[0] = '\0';
    klog_dump(collect, NULL);
    return out;
}

TEST(lines_get_their_first_timestamp)
{
    klog_clear();
    klog_write("hello ", 6, 1500000000ull);
    klog_write("world\nsecond\n", 13, 2000001000ull);
    CHECK_EQ_STR(dump(), "[    1.500000] hello world\n[    2.000001] second\n");
}

TEST(pending_line_is_shown)
{
    klog_clear();
    klog_write("no newline yet", 14, 0);
    CHECK_EQ_STR(dump(), "[    0.000000] no newline yet\n");
}

TEST(carriage_returns_dropped)
{
    klog_clear();
    klog_write("a\r\n", 3, 0);
    CHECK_EQ_STR(dump(), "[    0.000000] a\n");
}

TEST(oldest_records_overwritten_and_counted)
{
    klog_clear();
    char line[101];
    memset(line, 'x', 99);
    line[99] = '\n';
    for (int i = 0; i < 2000; i++)
        klog_write(line, 100, (uint64_t)i * 1000);
    const char *d = dump();
    unsigned lost = 0;
    CHECK(sscanf(d, "(%u earlier messages were overwritten)", &lost) == 1);
    size_t lines = 0;
    for (const char *p = d; *p; p++)
        lines += *p == '\n';
    CHECK_EQ_INT(lines - 1 + lost, 2000); /* every record is either shown or counted */
    CHECK(strstr(d, "[    0.001999] ") != NULL); /* the newest survived */
}

TEST(overlong_line_split_not_lost)
{
    klog_clear();
    char big[600];
    memset(big, 'y', sizeof big);
    klog_write(big, sizeof big, 0);
    klog_write("\n", 1, 0);
    const char *d = dump();
    size_t ys = 0;
    for (const char *p = d; *p; p++)
        ys += *p == 'y';
    CHECK_EQ_INT(ys, 600);
}
