/* fuzz_parse.c - parse_uint/parse_size/parse_kstrtoul_user/parse_list_next on arbitrary bytes: never read
 * outside the input, every accepted text must print back to the same value, and a list's items are whole. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t v;
    if (parse_uint((const char *)data, size, &v) == 0) {
        /* Re-parse our own rendering: a parser that accepts must agree with itself. */
        char text[32];
        int n = snprintf(text, sizeof text, "%llu", (unsigned long long)v);
        uint64_t again;
        if (parse_uint(text, (size_t)n, &again) != 0 || again != v)
            abort();
    }
    /* kstrtoul_from_user's rules: what passes is digits (after an optional '+') that
     * parse_uint reads as the same number. */
    if (parse_kstrtoul_user((const char *)data, size, &v) == 0) {
        size_t n = size < KSTRTOUL_USER_MAX ? size : KSTRTOUL_USER_MAX;
        size_t s = data[0] == '+' ? 1 : 0, e = s;
        while (e < n && data[e] >= '0' && data[e] <= '9')
            e++;
        uint64_t same;
        if (e == s || parse_uint((const char *)data + s, e - s, &same) != 0 || same != v)
            abort();
    }
    if (parse_size((const char *)data, size, &v) == 0 && size == 0)
        abort(); /* empty text is never a size */
    /* A comma-separated list: items lie inside the text, in order, never empty, never
     * holding a comma, and the walk ends. */
    size_t cursor = 0, len, last_end = 0, items = 0;
    const char *item;
    while (parse_list_next((const char *)data, size, &cursor, &item, &len)) {
        size_t at = (size_t)(item - (const char *)data);
        if (len == 0 || at < last_end || at + len > size || memchr(item, ',', len) || ++items > size)
            abort();
        last_end = at + len;
    }
    return 0;
}
