/*
 * format_cases.h - the printf cases the user library's formatter is checked with, shared by
 * the host test (tests/user/format_test.c, against the host's snprintf) and the guest
 * program (user/programs/format_check.c, whose output the host compares in
 * tests/shell/user_format.check).
 *
 * The includer defines CHECK(...) to take one format and its arguments, then calls
 * format_cases(). Values fit in 32 bits wherever the type (long, size_t, pointers) is 32
 * bits in user programs and 64 on the host, so both print the same text: the guest run
 * shows that the 32-bit build takes each argument with the right width.
 */
#ifndef TESTS_USER_FORMAT_CASES_H
#define TESTS_USER_FORMAT_CASES_H

#include <stdint.h>

/* The buffer sizes each case is formatted into: room to spare, truncated, none at all. */
static const unsigned format_case_sizes[] = { 64, 5, 0 };
#define FORMAT_CASE_SIZES 3

static void format_cases(void)
{
    CHECK("plain text");
    CHECK("%d %i %d %d", 0, 42, -42, INT32_MIN);
    CHECK("%u %u", 0u, 4294967295u);
    CHECK("%x %X %x", 0xdeadbeefu, 0xdeadbeefu, 0u);
    CHECK("%ld %lu %lx", -123456789L, 4000000000UL, 0xabcdefUL);
    CHECK("%lld %lld %llu %llx", -1LL, (long long)INT64_MIN, (unsigned long long)UINT64_MAX,
          0x123456789abcdefULL);
    CHECK("%ld|%d|%lld|%d", -7L, 8, -9LL, 10); /* a wrong width shifts every later field */
    CHECK("%zu", (size_t)12345);
    CHECK("[%5d] [%-5d] [%05d]", 42, 42, 42);
    const char *left_wins = "[%-05d]"; /* a variable: gcc warns of the flag pair it holds */
    CHECK(left_wins, 42);
    CHECK("[%5d] [%05d] [%-6d]", -42, -42, -42);
    CHECK("[%08x] [%8X] [%-8x]", 0xbeefu, 0xbeefu, 0xbeefu);
    CHECK("[%2d] [%02x]", 12345, 0x12345u);
    CHECK("[%s] [%10s] [%-10s] [%2s]", "abc", "abc", "abc", "abcdef");
    CHECK("[%c] [%3c] [%-3c]", 'x', 'y', 'z');
    CHECK("100%% %s", "done");
    CHECK("%p %p", (void *)0x40001000, (void *)0x1);
    CHECK("[%12p] [%-12p]", (void *)0xbeef, (void *)0xbeef);
    CHECK("%s=%u;%s=%d", "count", 7u, "delta", -3);
}

#endif
