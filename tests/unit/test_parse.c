/* test_parse.c - numbers from user text: accepted forms, rejected forms, overflow. */
#include "unit.h"

#include <ctype.h>
#include <stdint.h>

#include "kernel/lib/errno.h"
#include "kernel/lib/parse.h"

static int uint_of(const char *s, uint64_t *v) { return parse_uint(s, strlen(s), v); }
static int size_of(const char *s, uint64_t *v) { return parse_size(s, strlen(s), v); }

TEST(decimal_and_hex)
{
    uint64_t v = 0;
    CHECK_EQ_INT(uint_of("128000\n", &v), 0);
    CHECK_EQ_INT(v, 128000);
    CHECK_EQ_INT(uint_of("  0x1F ", &v), 0);
    CHECK_EQ_INT(v, 31);
    CHECK_EQ_INT(uint_of("0", &v), 0);
    CHECK_EQ_INT(v, 0);
    CHECK_EQ_INT(uint_of("18446744073709551615", &v), 0);
    CHECK(v == UINT64_MAX);
}

TEST(rejected)
{
    uint64_t v = 7;
    CHECK_EQ_INT(uint_of("", &v), -EINVAL);
    CHECK_EQ_INT(uint_of(" \n", &v), -EINVAL);
    CHECK_EQ_INT(uint_of("12a", &v), -EINVAL);
    CHECK_EQ_INT(uint_of("-1", &v), -EINVAL);
    CHECK_EQ_INT(uint_of("1 2", &v), -EINVAL);
    CHECK_EQ_INT(uint_of("0x", &v), -EINVAL);
    CHECK_EQ_INT(uint_of("0xg", &v), -EINVAL);
    CHECK_EQ_INT(uint_of("18446744073709551616", &v), -ERANGE);
    CHECK_EQ_INT(v, 7); /* untouched on error */
}

/* kstrtoul_from_user's rules, case by case as Linux's lib/kstrtox.c decides them. */
TEST(kstrtoul_user_as_linux)
{
    static const struct {
        const char *text;
        size_t len;
        int err;
        uint64_t value;
    } cases[] = {
        { "1", 1, 0, 1 },          { "1\0", 2, 0, 1 },        { "0\n", 2, 0, 0 },
        { "+1", 2, 0, 1 },         { "1\n\0junk", 8, 0, 1 },  { "42\0\0\0", 5, 0, 42 },
        { " 1", 2, -EINVAL, 0 },   { "1 ", 2, -EINVAL, 0 },   { "0x1", 3, -EINVAL, 0 },
        { "-1", 2, -EINVAL, 0 },   { "", 0, -EINVAL, 0 },     { "\n", 1, -EINVAL, 0 },
        { "\0", 1, -EINVAL, 0 },   { "+", 1, -EINVAL, 0 },    { "1\n\n", 3, -EINVAL, 0 },
        { "++1", 3, -EINVAL, 0 },  { "1a", 2, -EINVAL, 0 },
        { "18446744073709551616", 20, -ERANGE, 0 },
        { "18446744073709551615", 20, 0, UINT64_MAX },
        /* Only 23 bytes count: 23 zeros and then a 1 is 0; 22 zeros and then "1x" is 1. */
        { "000000000000000000000001", 24, 0, 0 },
        { "00000000000000000000001x", 24, 0, 1 },
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t v = 12345;
        int err = parse_kstrtoul_user(cases[i].text, cases[i].len, &v);
        CHECK_EQ_INT(err, cases[i].err);
        if (err == 0)
            CHECK(v == cases[i].value);
        else
            CHECK_EQ_INT(v, 12345);
    }
}

TEST(sizes)
{
    uint64_t v;
    CHECK_EQ_INT(size_of("1441792", &v), 0);
    CHECK_EQ_INT(v, 1441792);
    CHECK_EQ_INT(size_of("64K", &v), 0);
    CHECK_EQ_INT(v, 65536);
    CHECK_EQ_INT(size_of("2m\n", &v), 0);
    CHECK_EQ_INT(v, 2097152);
    CHECK_EQ_INT(size_of("1G", &v), 0);
    CHECK_EQ_INT(v, 1073741824);
    CHECK_EQ_INT(size_of("K", &v), -EINVAL);
    CHECK_EQ_INT(size_of("1KB", &v), -EINVAL);
    CHECK_EQ_INT(size_of("17179869184G", &v), -ERANGE);
}

/* Every parser splits on is_space: it must be C's isspace() (in the "C" locale), byte for
 * byte, and trim_blanks must strip exactly those bytes. */
TEST(is_space_is_c_isspace)
{
    for (int c = 0; c < 256; c++) {
        CHECK_EQ_INT(is_space((char)c), isspace(c) != 0);
        char text[3] = { 'x', (char)c, 'x' };
        size_t start, end;
        trim_blanks(text + 1, 1, &start, &end);
        CHECK_EQ_INT(end - start, isspace(c) ? 0 : 1);
    }
    uint64_t v = 0;
    CHECK_EQ_INT(uint_of("\v\f 42\r\n", &v), 0);
    CHECK_EQ_INT(v, 42);
}

/* The items of list, joined by '|' into out. */
static void list_items(const char *list, char *out, size_t size)
{
    size_t cursor = 0, used = 0, len;
    const char *item;
    out[0] = '\0';
    while (parse_list_next(list, strlen(list), &cursor, &item, &len))
        used += (size_t)snprintf(out + used, size - used, "%s%.*s", used ? "|" : "", (int)len, item);
}

TEST(list_items_split_on_commas_skipping_empty_ones)
{
    char out[64];
    list_items("stream_raw", out, sizeof out);
    CHECK_EQ_STR(out, "stream_raw");
    list_items("stream_raw,nooverwrite", out, sizeof out);
    CHECK_EQ_STR(out, "stream_raw|nooverwrite");
    list_items(",,a,,b,", out, sizeof out);
    CHECK_EQ_STR(out, "a|b");
    list_items("", out, sizeof out);
    CHECK_EQ_STR(out, "");
    list_items(",", out, sizeof out);
    CHECK_EQ_STR(out, "");
    list_items("a b,c", out, sizeof out); /* only commas split */
    CHECK_EQ_STR(out, "a b|c");
}
