/* test_trace_pid_list.c - the pid lists of set_event_pid and set_ftrace_pid: Linux's
 * syntax (kstrtoul base 0 per word), the bound, and listing in order. */
#include "unit.h"

#include "kernel/lib/errno.h"
#include "trace/core/trace_pid_list.h"

static struct trace_pid_list list;

static int parse(const char *text) { return trace_pid_list_parse(&list, text, strlen(text)); }

TEST(pids_in_every_base)
{
    trace_pid_list_clear(&list);
    CHECK_EQ_INT(parse("5 0x10\t010\n+7 0\n"), 0);
    CHECK_EQ_INT(list.count, 5);
    CHECK(trace_pid_list_has(&list, 5));
    CHECK(trace_pid_list_has(&list, 16));
    CHECK(trace_pid_list_has(&list, 8));
    CHECK(trace_pid_list_has(&list, 7));
    CHECK(trace_pid_list_has(&list, 0));
    CHECK(!trace_pid_list_has(&list, 10));
}

TEST(duplicates_count_once_and_blank_text_adds_nothing)
{
    trace_pid_list_clear(&list);
    CHECK_EQ_INT(parse("3 3 3"), 0);
    CHECK_EQ_INT(list.count, 1);
    CHECK_EQ_INT(parse(""), 0);
    CHECK_EQ_INT(parse(" \n\t "), 0);
    CHECK_EQ_INT(list.count, 1);
}

TEST(refused_words)
{
    static const char *const bad[] = {
        "abc", "12x", "-1", "32768", "0x8000", "4294967297", "0x", "08", "+", "++1", "1-",
        "99999999999999999999999", "0x1g",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        trace_pid_list_clear(&list);
        CHECK_EQ_INT(parse(bad[i]), -EINVAL);
    }
    trace_pid_list_clear(&list);
    CHECK_EQ_INT(trace_pid_list_parse(&list, "1\0 2", 4), -EINVAL); /* a NUL is no blank */
}

TEST(the_bound_is_pid_max)
{
    trace_pid_list_clear(&list);
    CHECK_EQ_INT(parse("32767"), 0);
    CHECK(trace_pid_list_has(&list, 32767));
    CHECK(!trace_pid_list_has(&list, 32768));
    CHECK(!trace_pid_list_has(&list, -1));
    trace_pid_list_set(&list, 40000, true); /* ignored, as are negative pids */
    trace_pid_list_set(&list, -5, true);
    CHECK_EQ_INT(list.count, 1);
}

TEST(listing_in_order_and_removal)
{
    trace_pid_list_clear(&list);
    CHECK_EQ_INT(parse("900 31 32 1 32767"), 0);
    int32_t expect[] = { 1, 31, 32, 900, 32767 }, got[8];
    int n = 0;
    for (int32_t p = trace_pid_list_next(&list, 0); p >= 0 && n < 8; p = trace_pid_list_next(&list, p + 1))
        got[n++] = p;
    CHECK_EQ_INT(n, 5);
    for (int i = 0; i < 5 && i < n; i++)
        CHECK_EQ_INT(got[i], expect[i]);
    trace_pid_list_set(&list, 31, false);
    trace_pid_list_set(&list, 31, false);
    CHECK_EQ_INT(list.count, 4);
    CHECK_EQ_INT(trace_pid_list_next(&list, 2), 32);
    CHECK_EQ_INT(trace_pid_list_next(&list, 32768), -1);
}
