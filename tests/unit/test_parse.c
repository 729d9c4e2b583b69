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
