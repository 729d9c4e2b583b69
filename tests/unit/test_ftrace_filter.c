/* test_ftrace_filter.c - set_ftrace_filter & co: each glob form, '!', indexes, append vs
 * truncate, atomic failures, separators, printing. */
#include "unit.h"

#include "collect_writer.h"
#include "kernel/lib/errno.h"
#include "trace/ftrace/ftrace_filter.h"

static const struct symbol_entry entries[] = {
    { 0x1000, 0 },  /* do_fork */
    { 0x1100, 8 },  /* do_exit */
    { 0x1200, 16 }, /* schedule */
    { 0x1300, 25 }, /* schedule_timeout */
    { 0x1400, 42 }, /* sys_read */
    { 0x1500, 51 }, /* sys_write */
    { 0x1600, 61 }, /* vfs_read */
    { 0x1700, 70 }, /* vfs_write */
    { 0x1800, 80 }, /* end */
};
static const char names[] = "do_fork\0do_exit\0schedule\0schedule_timeout\0sys_read\0"
                            "sys_write\0vfs_read\0vfs_write\0end";
static const struct symbol_table table = { 9, entries, names };

/* The call sites: one a function, at its start plus a little. */
static const uint32_t funcs[] = { 0x1004, 0x1104, 0x1204, 0x1304,
                                  0x1404, 0x1504, 0x1604, 0x1704 };
enum { DO_FORK, DO_EXIT, SCHEDULE, SCHEDULE_TIMEOUT, SYS_READ, SYS_WRITE, VFS_READ, VFS_WRITE,
       NFUNCS };

static uint32_t bits[1], scratch[1];
static struct ftrace_func_set set;

static void fresh(void)
{
    ftrace_func_set_init(&set, bits, NFUNCS);
}

static int wr(const char *text, bool append)
{
    return ftrace_filter_write(&set, scratch, text, strlen(text), append, funcs, &table);
}

/* The set as a bit string, index 0 first: "10100000". */
static const char *members(void)
{
    static char s[NFUNCS + 1];
    for (int i = 0; i < NFUNCS; i++)
        s[i] = ftrace_func_set_has(&set, (uint32_t)i) ? '1' : '0';
    s[NFUNCS] = '\0';
    return s;
}

TEST(glob_forms)
{
    CHECK(ftrace_glob_match("schedule", 8, "schedule"));
    CHECK(!ftrace_glob_match("schedule", 8, "schedule_timeout"));
    CHECK(!ftrace_glob_match("schedule", 8, "schedul"));
    CHECK(ftrace_glob_match("sched*", 6, "schedule_timeout"));
    CHECK(ftrace_glob_match("sched*", 6, "sched"));
    CHECK(!ftrace_glob_match("sched*", 6, "resched"));
    CHECK(ftrace_glob_match("*_read", 6, "vfs_read"));
    CHECK(!ftrace_glob_match("*_read", 6, "vfs_readv"));
    CHECK(ftrace_glob_match("*ead*", 5, "vfs_readv"));
    CHECK(ftrace_glob_match("*ead*", 5, "read"));
    CHECK(!ftrace_glob_match("*ead*", 5, "write"));
    CHECK(ftrace_glob_match("*", 1, ""));
    CHECK(ftrace_glob_match("**", 2, "x"));
    CHECK(ftrace_glob_match("", 0, ""));
    CHECK(!ftrace_glob_match("", 0, "x"));
}

TEST(glob_full_syntax)
{
    CHECK(ftrace_glob_match("s*_w*e", 7, "sys_write"));
    CHECK(!ftrace_glob_match("s*_w*e", 7, "sys_writev"));
    CHECK(ftrace_glob_match("vfs_?ead", 8, "vfs_read"));
    CHECK(!ftrace_glob_match("vfs_?ead", 8, "vfs_ead"));
    CHECK(ftrace_glob_match("[sv]*", 5, "vfs_read"));
    CHECK(!ftrace_glob_match("[!sv]*", 6, "vfs_read"));
    CHECK(ftrace_glob_match("[a-e]o*", 7, "do_fork"));
    CHECK(!ftrace_glob_match("[f-z]o*", 7, "do_fork"));
    CHECK(ftrace_glob_match("[]]", 3, "]"));
    CHECK(ftrace_glob_match("[a-]", 4, "-"));
    CHECK(ftrace_glob_match("a\\*", 3, "a*"));
    CHECK(!ftrace_glob_match("a\\*", 3, "ab"));
    CHECK(ftrace_glob_match("a\\", 2, "a")); /* a trailing backslash ends the pattern */
    CHECK(ftrace_glob_match("[ab", 3, "[ab")); /* unterminated class: '[' is literal */
    CHECK(!ftrace_glob_match("[ab", 3, "a"));
    /* plen bounds the pattern: the rest of the buffer is not read. */
    CHECK(ftrace_glob_match("do_forkXYZ", 7, "do_fork"));
}

TEST(write_each_form)
{
    fresh();
    CHECK_EQ_INT(wr("schedule\n", false), 0);
    CHECK_EQ_STR(members(), "00100000");
    CHECK_EQ_INT(set.count, 1);
    CHECK_EQ_INT(wr("sched*\n", false), 0);
    CHECK_EQ_STR(members(), "00110000");
    CHECK_EQ_INT(wr("*_write\n", false), 0);
    CHECK_EQ_STR(members(), "00000101");
    CHECK_EQ_INT(wr("*rea*\n", false), 0);
    CHECK_EQ_STR(members(), "00001010");
    CHECK_EQ_INT(wr("do_*t\n", false), 0); /* a middle '*': MATCH_GLOB */
    CHECK_EQ_STR(members(), "01000000");
    CHECK_EQ_INT(wr("*\n", false), 0);
    CHECK_EQ_STR(members(), "11111111");
    CHECK_EQ_INT(set.count, 8);
}

TEST(append_and_truncate)
{
    fresh();
    CHECK_EQ_INT(wr("do_fork\n", false), 0);
    CHECK_EQ_INT(wr("do_exit\n", true), 0);
    CHECK_EQ_STR(members(), "11000000");
    CHECK_EQ_INT(set.count, 2);
    CHECK_EQ_INT(wr("vfs_read\n", false), 0);
    CHECK_EQ_STR(members(), "00000010");
    CHECK_EQ_INT(wr("\n", false), 0); /* echo > file: empties it */
    CHECK_EQ_STR(members(), "00000000");
    CHECK_EQ_INT(set.count, 0);
    CHECK_EQ_INT(wr("", true), 0);
    CHECK_EQ_INT(set.count, 0);
}

TEST(bang_removes)
{
    fresh();
    CHECK_EQ_INT(wr("*\n", false), 0);
    CHECK_EQ_INT(wr("!sys_*\n", true), 0);
    CHECK_EQ_STR(members(), "11110011");
    CHECK_EQ_INT(set.count, 6);
    /* Removing something absent is fine as long as the word matches a function. */
    CHECK_EQ_INT(wr("!sys_read\n", true), 0);
    CHECK_EQ_STR(members(), "11110011");
    /* Within one write, words apply in order. */
    CHECK_EQ_INT(wr("*read !vfs_read sys_write", false), 0);
    CHECK_EQ_STR(members(), "00001100");
    CHECK_EQ_INT(wr("!*", true), 0);
    CHECK_EQ_INT(set.count, 0);
}

TEST(no_match_leaves_set_unchanged)
{
    fresh();
    CHECK_EQ_INT(wr("do_fork vfs_write\n", false), 0);
    CHECK_EQ_INT(wr("nosuch\n", false), -EINVAL);
    CHECK_EQ_STR(members(), "10000001");
    CHECK_EQ_INT(set.count, 2);
    /* A good word before the bad one does not stick either. */
    CHECK_EQ_INT(wr("schedule nosuch\n", true), -EINVAL);
    CHECK_EQ_STR(members(), "10000001");
    CHECK_EQ_INT(wr("!nosuch\n", true), -EINVAL);
    CHECK_EQ_INT(wr("sched\n", false), -EINVAL); /* a full name, not a prefix */
    CHECK_EQ_STR(members(), "10000001");
    CHECK_EQ_INT(set.count, 2);
}

TEST(malformed_words)
{
    fresh();
    CHECK_EQ_INT(wr("do_fork\n", false), 0);
    CHECK_EQ_INT(wr("!\n", false), -EINVAL);
    CHECK_EQ_INT(wr("schedule:traceoff\n", false), -EINVAL);
    CHECK_EQ_INT(wr(":mod:ext4\n", false), -EINVAL);
    CHECK_EQ_INT(wr("3abc\n", false), -EINVAL);
    CHECK_EQ_STR(members(), "10000000");
    /* '**' is Linux's MATCH_MIDDLE_ONLY with an empty string: everything. */
    CHECK_EQ_INT(wr("**\n", false), 0);
    CHECK_EQ_INT(set.count, 8);
}

TEST(indexes)
{
    fresh();
    CHECK_EQ_INT(wr("1 3\n", false), 0); /* available_filter_functions counts from 1 */
    CHECK_EQ_STR(members(), "10100000");
    CHECK_EQ_INT(wr("0x8 010\n", true), 0); /* kstrtoul base 0: hex and octal */
    CHECK_EQ_STR(members(), "10100001");
    CHECK_EQ_INT(wr("!1\n", true), 0);
    CHECK_EQ_STR(members(), "00100001");
    CHECK_EQ_INT(wr("0\n", true), -EINVAL);
    CHECK_EQ_INT(wr("9\n", true), -EINVAL);
    CHECK_EQ_INT(wr("99999999999\n", true), -EINVAL);
    CHECK_EQ_INT(wr("09\n", true), -EINVAL); /* not octal */
    CHECK_EQ_STR(members(), "00100001");
}

TEST(separators)
{
    fresh();
    CHECK_EQ_INT(wr("  do_fork\t\tdo_exit\r\n\nschedule \v\f vfs_write   ", false), 0);
    CHECK_EQ_STR(members(), "11100001");
    CHECK_EQ_INT(set.count, 4);
    /* The length bounds the text: no terminator needed, none read past. */
    static const char text[] = { 'v', 'f', 's', '_', 'r', 'e', 'a', 'd' };
    CHECK_EQ_INT(ftrace_filter_write(&set, scratch, text, sizeof text, false, funcs, &table), 0);
    CHECK_EQ_STR(members(), "00000010");
    CHECK_EQ_INT(ftrace_filter_write(&set, scratch, "sys_read\0sys_write", 18, false, funcs,
                                     &table), 0);
    CHECK_EQ_STR(members(), "00001100");
}

TEST(allows)
{
    uint32_t nbits[1];
    struct ftrace_func_set notrace;
    ftrace_func_set_init(&notrace, nbits, NFUNCS);
    fresh();
    CHECK(ftrace_filter_allows(&set, &notrace, SCHEDULE)); /* empty filter: all */
    CHECK_EQ_INT(ftrace_filter_write(&notrace, scratch, "schedule", 8, false, funcs, &table), 0);
    CHECK(!ftrace_filter_allows(&set, &notrace, SCHEDULE));
    CHECK(ftrace_filter_allows(&set, &notrace, DO_FORK));
    CHECK_EQ_INT(wr("sched* do_exit", false), 0);
    CHECK(!ftrace_filter_allows(&set, &notrace, SCHEDULE)); /* notrace wins */
    CHECK(ftrace_filter_allows(&set, &notrace, SCHEDULE_TIMEOUT));
    CHECK(!ftrace_filter_allows(&set, &notrace, DO_FORK));
    CHECK(ftrace_filter_allows(&set, NULL, SCHEDULE));
    CHECK(ftrace_filter_allows(NULL, NULL, VFS_READ));
    CHECK(!ftrace_func_set_has(&set, NFUNCS));
}

TEST(print)
{
    fresh();
    collect_reset();
    ftrace_filter_print(&set, &collect_writer, funcs, &table, "#### all functions enabled ####\n");
    CHECK_EQ_STR(collected, "#### all functions enabled ####\n");
    collect_reset();
    ftrace_filter_print(&set, &collect_writer, funcs, &table, NULL);
    CHECK_EQ_STR(collected, "");
    CHECK_EQ_INT(wr("vfs_write do_fork *_read", false), 0);
    collect_reset();
    ftrace_filter_print(&set, &collect_writer, funcs, &table, "unused");
    CHECK_EQ_STR(collected, "do_fork\nsys_read\nvfs_read\nvfs_write\n");
}

TEST(unnamed_addresses_and_many_functions)
{
    /* 40 call sites: two words of bits; the last two lie outside every symbol. */
    uint32_t many[40];
    for (int i = 0; i < 38; i++)
        many[i] = 0x1000 + (uint32_t)i * 0x40;
    many[38] = 0x2000;
    many[39] = 0xc0100abc;
    uint32_t b[2], s[2];
    struct ftrace_func_set big;
    ftrace_func_set_init(&big, b, 40);
    CHECK_EQ_INT(ftrace_filter_write(&big, s, "*", 1, false, many, &table), 0);
    CHECK_EQ_INT(big.count, 40);
    CHECK_EQ_INT(ftrace_filter_write(&big, s, "do_exit", 7, false, many, &table), 0);
    CHECK_EQ_INT(big.count, 4); /* 0x1100..0x11c0 */
    CHECK(ftrace_func_set_has(&big, 4) && ftrace_func_set_has(&big, 7));
    CHECK_EQ_INT(ftrace_filter_write(&big, s, "39 40 !*", 8, false, many, &table), 0);
    CHECK_EQ_INT(big.count, 0);
    CHECK_EQ_INT(ftrace_filter_write(&big, s, "39 40 sys_write", 15, false, many, &table), 0);
    CHECK_EQ_INT(big.count, 6);
    collect_reset();
    ftrace_filter_print(&big, &collect_writer, many, &table, NULL);
    CHECK_EQ_STR(collected, "sys_write\nsys_write\nsys_write\nsys_write\n0x2000\n0xc0100abc\n");
}
