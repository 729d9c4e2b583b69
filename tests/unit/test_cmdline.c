/* test_cmdline.c - kernel/lib/cmdline.c: splitting, lookup, the unused-key report, and limits. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "kernel/lib/cmdline.h"
#include "unit.h"

/* A struct cmdline is over a kilobyte: tests share one instead of each putting one on the stack. */
static struct cmdline cl;

/* Whether p points into cl.storage. */
static bool in_storage(const char *p)
{
    return p >= cl.storage && p < cl.storage + CMDLINE_MAX_LEN;
}

TEST(flags_and_key_values)
{
    cmdline_parse(&cl, "quiet console=ttyS0 debug loglevel=7");
    CHECK_EQ_INT(cl.count, 4);
    CHECK(!cl.truncated);
    CHECK(cl.image == NULL);
    CHECK_EQ_STR(cl.params[0].key, "quiet");
    CHECK_EQ_STR(cl.params[0].value, "");
    CHECK_EQ_STR(cl.params[1].key, "console");
    CHECK_EQ_STR(cl.params[1].value, "ttyS0");
    CHECK_EQ_STR(cmdline_get(&cl, "debug"), "");
    CHECK_EQ_STR(cmdline_get(&cl, "loglevel"), "7");
    CHECK(cmdline_get(&cl, "missing") == NULL);
    CHECK(cmdline_get(&cl, "consol") == NULL); /* whole keys only */
    CHECK(cmdline_get(&cl, "ttyS0") == NULL);  /* values are not keys */
}

TEST(only_the_first_equals_splits)
{
    cmdline_parse(&cl, "a==b opt=x=y empty=");
    CHECK_EQ_INT(cl.count, 3);
    CHECK_EQ_STR(cmdline_get(&cl, "a"), "=b");
    CHECK_EQ_STR(cmdline_get(&cl, "opt"), "x=y");
    CHECK_EQ_STR(cmdline_get(&cl, "empty"), "");
}

TEST(quoted_values_keep_spaces)
{
    cmdline_parse(&cl, "name=\"a b  c\" next=1 \"whole=quoted word\" mid=x\"y z\"w \"\"glued");
    CHECK_EQ_INT(cl.count, 5);
    CHECK_EQ_STR(cmdline_get(&cl, "name"), "a b  c");
    CHECK_EQ_STR(cmdline_get(&cl, "next"), "1");
    CHECK_EQ_STR(cmdline_get(&cl, "whole"), "quoted word");
    CHECK_EQ_STR(cmdline_get(&cl, "mid"), "xy zw");
    CHECK_EQ_STR(cmdline_get(&cl, "glued"), "");
}

TEST(empty_quotes_give_an_empty_value)
{
    cmdline_parse(&cl, "title=\"\" x");
    CHECK_EQ_INT(cl.count, 2);
    CHECK_EQ_STR(cmdline_get(&cl, "title"), "");
    CHECK_EQ_STR(cmdline_get(&cl, "x"), "");
}

TEST(unterminated_quote_takes_the_rest_of_the_line)
{
    cmdline_parse(&cl, "a=1 msg=\"hello there b=2\tc");
    CHECK_EQ_INT(cl.count, 2);
    CHECK(!cl.truncated);
    CHECK_EQ_STR(cmdline_get(&cl, "msg"), "hello there b=2\tc");
    CHECK(cmdline_get(&cl, "b") == NULL);
}

TEST(image_path_is_skipped)
{
    cmdline_parse(&cl, "/boot/tracekern.elf console=ttyS0");
    CHECK_EQ_STR(cl.image, "/boot/tracekern.elf");
    CHECK(in_storage(cl.image));
    CHECK_EQ_INT(cl.count, 1);
    CHECK_EQ_STR(cl.params[0].key, "console");

    cmdline_parse(&cl, "  build/tracekern.elf");
    CHECK_EQ_STR(cl.image, "build/tracekern.elf");
    CHECK_EQ_INT(cl.count, 0);
}

TEST(image_path_only_as_a_slashed_first_word_without_equals)
{
    cmdline_parse(&cl, "root=/dev/sda1 /not/an/image");
    CHECK(cl.image == NULL);
    CHECK_EQ_INT(cl.count, 2);
    CHECK_EQ_STR(cmdline_get(&cl, "root"), "/dev/sda1");
    CHECK_EQ_STR(cmdline_get(&cl, "/not/an/image"), "");

    cmdline_parse(&cl, "tracekern.elf quiet");
    CHECK(cl.image == NULL); /* no '/': a flag like any other */
    CHECK_EQ_INT(cl.count, 2);
}

TEST(later_value_overrides_earlier)
{
    cmdline_parse(&cl, "loglevel=3 quiet loglevel=8 loglevel");
    CHECK_EQ_INT(cl.count, 4);
    CHECK_EQ_STR(cmdline_get(&cl, "loglevel"), "");
    cmdline_parse(&cl, "loglevel=3 loglevel=8");
    CHECK_EQ_STR(cmdline_get(&cl, "loglevel"), "8");
}

TEST(get_marks_every_word_with_the_key_used)
{
    cmdline_parse(&cl, "a=1 b a=2");
    CHECK(!cl.params[0].used && !cl.params[1].used && !cl.params[2].used);
    cmdline_get(&cl, "a");
    CHECK(cl.params[0].used);
    CHECK(!cl.params[1].used);
    CHECK(cl.params[2].used);
    cmdline_get(&cl, "nothing");
    CHECK(!cl.params[1].used);
}

TEST(unused_lists_each_key_once_in_order)
{
    char buf[64];

    cmdline_parse(&cl, "/boot/k b=1 a c=2 b=3 a d");
    CHECK_EQ_INT(cmdline_unused(&cl, buf, sizeof buf), 4);
    CHECK_EQ_STR(buf, "b a c d");
    cmdline_get(&cl, "a");
    cmdline_get(&cl, "d");
    CHECK_EQ_INT(cmdline_unused(&cl, buf, sizeof buf), 2);
    CHECK_EQ_STR(buf, "b c");
    cmdline_get(&cl, "b");
    cmdline_get(&cl, "c");
    CHECK_EQ_INT(cmdline_unused(&cl, buf, sizeof buf), 0);
    CHECK_EQ_STR(buf, "");
}

TEST(unused_with_small_buffers_keeps_whole_keys)
{
    char buf[16];

    cmdline_parse(&cl, "alpha beta gamma");
    memset(buf, 'x', sizeof buf);
    CHECK_EQ_INT(cmdline_unused(&cl, NULL, 0), 3);
    CHECK_EQ_INT(cmdline_unused(&cl, buf, 0), 3);
    CHECK(buf[0] == 'x');
    CHECK_EQ_INT(cmdline_unused(&cl, buf, 1), 3);
    CHECK_EQ_STR(buf, "");
    CHECK_EQ_INT(cmdline_unused(&cl, buf, 5), 3); /* "alpha" needs 6 bytes */
    CHECK_EQ_STR(buf, "");
    CHECK_EQ_INT(cmdline_unused(&cl, buf, 6), 3);
    CHECK_EQ_STR(buf, "alpha");
    CHECK_EQ_INT(cmdline_unused(&cl, buf, 11), 3); /* "alpha beta" + NUL */
    CHECK_EQ_STR(buf, "alpha beta");
    CHECK_EQ_INT(cmdline_unused(&cl, buf, 16), 3); /* the whole list needs 17 */
    CHECK_EQ_STR(buf, "alpha beta");

    /* A short key after a cut is not squeezed in: what is shown stays a prefix of the list. */
    cmdline_parse(&cl, "a longkey b");
    CHECK_EQ_INT(cmdline_unused(&cl, buf, 5), 3);
    CHECK_EQ_STR(buf, "a");
}

TEST(empty_and_blank_input)
{
    static const char *const blanks[] = { "", " ", "   \t\n\r\v\f  ", "\n" };

    for (size_t i = 0; i < sizeof blanks / sizeof blanks[0]; i++) {
        cmdline_parse(&cl, blanks[i]);
        CHECK_EQ_INT(cl.count, 0);
        CHECK(cl.image == NULL);
        CHECK(!cl.truncated);
    }
    cmdline_parse(&cl, NULL);
    CHECK_EQ_INT(cl.count, 0);
    char buf[4];
    CHECK_EQ_INT(cmdline_unused(&cl, buf, sizeof buf), 0);
    CHECK_EQ_STR(buf, "");
}

TEST(tabs_and_newlines_separate_words)
{
    cmdline_parse(&cl, "\ta=1\tb\n c=3\r\n\nd\v\fe=\"x\ty\"\n");
    CHECK_EQ_INT(cl.count, 5);
    CHECK_EQ_STR(cl.params[0].key, "a");
    CHECK_EQ_STR(cl.params[1].key, "b");
    CHECK_EQ_STR(cl.params[2].key, "c");
    CHECK_EQ_STR(cl.params[2].value, "3");
    CHECK_EQ_STR(cl.params[3].key, "d");
    CHECK_EQ_STR(cmdline_get(&cl, "e"), "x\ty");
}

TEST(words_without_a_key_are_skipped)
{
    cmdline_parse(&cl, "=x \"\" a =");
    CHECK_EQ_INT(cl.count, 1);
    CHECK_EQ_STR(cl.params[0].key, "a");
    CHECK(!cl.truncated);
}

TEST(too_many_words_truncates)
{
    char text[CMDLINE_MAX_PARAMS * 8 + 16];
    size_t len = 0;

    for (int i = 0; i < CMDLINE_MAX_PARAMS; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "k%d=%d ", i, i);
    cmdline_parse(&cl, text);
    CHECK_EQ_INT(cl.count, CMDLINE_MAX_PARAMS);
    CHECK(!cl.truncated);

    snprintf(text + len, sizeof text - len, "extra=1 k0=late");
    cmdline_parse(&cl, text);
    CHECK_EQ_INT(cl.count, CMDLINE_MAX_PARAMS);
    CHECK(cl.truncated);
    CHECK(cmdline_get(&cl, "extra") == NULL);
    CHECK_EQ_STR(cmdline_get(&cl, "k0"), "0"); /* the dropped override is gone too */
    CHECK_EQ_STR(cmdline_get(&cl, "k31"), "31");
}

TEST(image_does_not_count_as_a_param)
{
    char text[CMDLINE_MAX_PARAMS * 4 + 32] = "/boot/k";
    size_t len = strlen(text);

    for (int i = 0; i < CMDLINE_MAX_PARAMS; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, " f%c", 'A' + i);
    cmdline_parse(&cl, text);
    CHECK_EQ_STR(cl.image, "/boot/k");
    CHECK_EQ_INT(cl.count, CMDLINE_MAX_PARAMS);
    CHECK(!cl.truncated);
}

TEST(too_long_input_truncates_at_a_whole_word)
{
    static char text[CMDLINE_MAX_LEN * 2];

    /* "a=" and 1020 x's take 1023 bytes of storage (key, NUL, value, NUL) ... */
    memset(text, 0, sizeof text);
    memcpy(text, "a=", 2);
    memset(text + 2, 'x', CMDLINE_MAX_LEN - 4);
    cmdline_parse(&cl, text);
    CHECK_EQ_INT(cl.count, 1);
    CHECK(!cl.truncated);
    CHECK_EQ_INT(strlen(cmdline_get(&cl, "a")), CMDLINE_MAX_LEN - 4);

    /* ... so the flag "b" (2 bytes) no longer fits; the empty word after it is no word. */
    strcat(text, " b \"\"");
    cmdline_parse(&cl, text);
    CHECK_EQ_INT(cl.count, 1);
    CHECK(cl.truncated);
    CHECK(cmdline_get(&cl, "b") == NULL);

    /* A flag that fills storage exactly. */
    memset(text, 0, sizeof text);
    memset(text, 'f', CMDLINE_MAX_LEN - 1);
    cmdline_parse(&cl, text);
    CHECK_EQ_INT(cl.count, 1);
    CHECK(!cl.truncated);
    CHECK_EQ_STR(cl.params[0].value, "");
    CHECK(in_storage(cl.params[0].value));

    /* One byte longer: the only word is dropped rather than kept cut. */
    text[CMDLINE_MAX_LEN - 1] = 'f';
    cmdline_parse(&cl, text);
    CHECK_EQ_INT(cl.count, 0);
    CHECK(cl.truncated);

    /* A long blank run is not stored, so it does not count against storage. */
    memset(text, 0, sizeof text);
    memset(text, ' ', sizeof text - 8);
    memcpy(text + sizeof text - 8, "k=v", 3);
    cmdline_parse(&cl, text);
    CHECK_EQ_INT(cl.count, 1);
    CHECK(!cl.truncated);
    CHECK_EQ_STR(cmdline_get(&cl, "k"), "v");
}

TEST(every_pointer_points_into_storage)
{
    cmdline_parse(&cl, "/img a=1 flag b=\"x y\" c=");
    CHECK(in_storage(cl.image));
    for (int i = 0; i < cl.count; i++) {
        CHECK(in_storage(cl.params[i].key));
        CHECK(in_storage(cl.params[i].value));
    }
}

TEST(parse_resets_previous_state)
{
    cmdline_parse(&cl, "/img a b c");
    cmdline_get(&cl, "a");
    cmdline_parse(&cl, "a");
    CHECK(cl.image == NULL);
    CHECK_EQ_INT(cl.count, 1);
    CHECK(!cl.params[0].used);
}
