/*
 * format_test.c - a host test of the user library's printf formatter (user/lib/format.c):
 * each format is printed by the library's snprintf and by the host C library's, and the two
 * must agree byte for byte, return value included, also when the output is truncated.
 *
 * Built by user.mk as $(BUILD)/user/format_test (an i386 host program, so that long and
 * pointers have the sizes they have in user programs); run it, it prints
 * "format_test: N passed, M failed" and exits 1 when M is not 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* format.c compiled with its snprintf renamed (see user.mk). */
int user_snprintf(char *buf, size_t size, const char *fmt, ...);

static int passed, failed;

/* Compares the two outputs of one format at three buffer sizes. */
#define CHECK(...)                                                                         \
    do {                                                                                   \
        static const size_t sizes[] = { 64, 5, 0 };                                       \
        for (unsigned i_ = 0; i_ < 3; i_++) {                                              \
            char want[64] = "unchanged", got[64] = "unchanged";                            \
            int want_n = snprintf(want, sizes[i_], __VA_ARGS__);                           \
            int got_n = user_snprintf(got, sizes[i_], __VA_ARGS__);                        \
            if (want_n == got_n && strcmp(want, got) == 0) {                               \
                passed++;                                                                  \
            } else {                                                                       \
                failed++;                                                                  \
                printf("FAIL %s (size %zu): got \"%s\" (%d), want \"%s\" (%d)\n",        \
                       #__VA_ARGS__, sizes[i_], got, got_n, want, want_n);                 \
            }                                                                              \
        }                                                                                  \
    } while (0)

int main(void)
{
    CHECK("plain text");
    CHECK("%d %i %d %d", 0, 42, -42, INT32_MIN);
    CHECK("%u %u", 0u, 4294967295u);
    CHECK("%x %X %x", 0xdeadbeefu, 0xdeadbeefu, 0u);
    CHECK("%ld %lu %lx", -123456789L, 4000000000UL, 0xabcdefUL);
    CHECK("%lld %lld %llu %llx", -1LL, (long long)INT64_MIN, (unsigned long long)UINT64_MAX,
          0x123456789abcdefULL);
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
    printf("format_test: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
