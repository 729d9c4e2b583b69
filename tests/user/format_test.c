/*
 * format_test.c - a host test of the user library's printf formatter (user/lib/format.c):
 * each case of format_cases.h is printed by the library's snprintf and by the host C
 * library's, and the two must agree byte for byte, return value included, also when the
 * output is truncated.
 *
 * Built by user.mk as $(BUILD)/user/format_test, a native host program (format.c compiled
 * for the host's architecture). Run without arguments, it prints
 * "format_test: N passed, M failed" and exits 1 when M is not 0. With --expected it prints
 * instead what the host's snprintf makes of every case, in the lines the guest program
 * format_check prints, for tests/shell/user_format.check to compare.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* format.c compiled with its snprintf renamed (see user.mk). */
int user_snprintf(char *buf, size_t size, const char *fmt, ...);

static int passed, failed;
static int print_expected;

/* Compares the two outputs of one case at each buffer size, or prints the host's. */
#define CHECK(...)                                                                         \
    do {                                                                                   \
        for (unsigned i_ = 0; i_ < FORMAT_CASE_SIZES; i_++) {                              \
            size_t size_ = format_case_sizes[i_];                                          \
            char want[64] = "unchanged", got[64] = "unchanged";                            \
            int want_n = snprintf(want, size_, __VA_ARGS__);                               \
            int got_n = user_snprintf(got, size_, __VA_ARGS__);                            \
            if (print_expected) {                                                          \
                printf("format_check: %s | %zu | %d | %s\n", #__VA_ARGS__, size_, want_n, \
                       want);                                                              \
            } else if (want_n == got_n && strcmp(want, got) == 0) {                        \
                passed++;                                                                  \
            } else {                                                                       \
                failed++;                                                                  \
                printf("FAIL %s (size %zu): got \"%s\" (%d), want \"%s\" (%d)\n",        \
                       #__VA_ARGS__, size_, got, got_n, want, want_n);                     \
            }                                                                              \
        }                                                                                  \
    } while (0)

#include "format_cases.h"

int main(int argc, char **argv)
{
    print_expected = argc > 1 && strcmp(argv[1], "--expected") == 0;
    format_cases();
    if (print_expected)
        return 0;
    printf("format_test: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
