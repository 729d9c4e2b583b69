/* test_cpumask_text.c - tracing_cpumask's text: Linux's bitmap_parse and "%*pb" cases. */
#include "unit.h"

#include <stdint.h>

#include "kernel/lib/errno.h"
#include "trace/core/cpumask_text.h"

static uint32_t mask[CPUMASK_TEXT_WORDS];

static int parse(const char *text, unsigned ncpus)
{
    for (unsigned i = 0; i < CPUMASK_TEXT_WORDS; i++)
        mask[i] = 0xdeadbeef;
    return cpumask_text_parse(text, strlen(text), ncpus, mask);
}

static const char *print(unsigned ncpus)
{
    static char buf[128];
    cpumask_text_print(buf, sizeof buf, mask, ncpus);
    return buf;
}

TEST(one_cpu)
{
    CHECK_EQ_INT(parse("1\n", 1), 0);
    CHECK_EQ_INT(mask[0], 1);
    CHECK_EQ_STR(print(1), "1");
    CHECK_EQ_INT(parse("0", 1), 0);
    CHECK_EQ_INT(mask[0], 0);
    CHECK_EQ_STR(print(1), "0");
    CHECK_EQ_INT(parse("\n", 1), 0); /* no groups: the empty mask */
    CHECK_EQ_INT(mask[0], 0);
    CHECK_EQ_INT(parse("00000001", 1), 0);
    CHECK_EQ_INT(mask[0], 1);
}

TEST(groups_and_widths)
{
    CHECK_EQ_INT(parse("ff", 8), 0);
    CHECK_EQ_STR(print(8), "ff");
    CHECK_EQ_INT(parse("1,ffffffff", 33), 0);
    CHECK_EQ_INT(mask[0], 0xffffffffu);
    CHECK_EQ_INT(mask[1], 1);
    CHECK_EQ_STR(print(33), "1,ffffffff");
    CHECK_EQ_INT(parse("5", 40), 0); /* a missing high group is zero */
    CHECK_EQ_STR(print(40), "00,00000005");
    CHECK_EQ_INT(parse("A", 12), 0);
    CHECK_EQ_STR(print(12), "00a");
    CHECK_EQ_INT(parse(" 3 , ", 2), 0);
    CHECK_EQ_INT(mask[0], 3);
}

TEST(refused)
{
    CHECK_EQ_INT(parse("2", 1), -EOVERFLOW);   /* CPU 1 does not exist */
    CHECK_EQ_INT(parse("1,1", 1), -EOVERFLOW); /* more groups than the mask has */
    CHECK_EQ_INT(parse("100000000", 33), -EOVERFLOW); /* 9 digits in a group */
    CHECK_EQ_INT(parse("0x1", 1), -EINVAL);
    CHECK_EQ_INT(parse("g", 8), -EINVAL);
    CHECK_EQ_INT(parse("-1", 8), -EINVAL);
    CHECK_EQ_INT(mask[0], 0xdeadbeef); /* untouched on error */
    CHECK_EQ_INT(cpumask_text_parse("1\0junk", 6, 1, mask), 0); /* the text ends at NUL */
    CHECK_EQ_INT(mask[0], 1);
}
