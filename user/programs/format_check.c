/*
 * format_check.c - prints what the user library's snprintf makes of every case of
 * tests/user/format_cases.h, as a 32-bit user program formats it, one line per case and
 * buffer size:
 *
 *     format_check: FORMAT, ARGS | SIZE | RETURN | TEXT
 *
 * then "format_check: N lines". tests/shell/user_format.check compares the lines with what
 * the host's snprintf gives (format_test --expected), so the formatter's 32-bit build is
 * checked against a reference without running a 32-bit program on the host.
 */
#include <stdint.h>
#include <stdio.h>

static int lines;

/* Formats one case into each buffer size and prints the result and the return value. */
#define CHECK(...)                                                                         \
    do {                                                                                   \
        for (unsigned i_ = 0; i_ < FORMAT_CASE_SIZES; i_++) {                              \
            char got[64] = "unchanged";                                                    \
            int n = snprintf(got, format_case_sizes[i_], __VA_ARGS__);                     \
            printf("format_check: %s | %u | %d | %s\n", #__VA_ARGS__, format_case_sizes[i_], \
                   n, got);                                                                \
            lines++;                                                                       \
        }                                                                                  \
    } while (0)

#include "tests/user/format_cases.h"

int main(void)
{
    format_cases();
    printf("format_check: %d lines\n", lines);
    return 0;
}
