/*
 * parse.c - strict number parsing: a value or an error, never a guess.
 */
#include "kernel/lib/parse.h"

#include <stdbool.h>

#include "kernel/lib/errno.h"

void trim_blanks(const char *text, size_t len, size_t *start, size_t *end)
{
    size_t s = 0, e = len;
    while (s < e && is_space(text[s]))
        s++;
    while (e > s && is_space(text[e - 1]))
        e--;
    *start = s;
    *end = e;
}

int parse_digit(char c, unsigned base)
{
    int v = -1;
    if (c >= '0' && c <= '9')
        v = c - '0';
    else if (c >= 'a' && c <= 'f')
        v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
        v = c - 'A' + 10;
    return v >= 0 && (unsigned)v < base ? v : -1;
}

/* Parses digits in text[s..e) exactly; the whole range must be digits. */
static int parse_digits(const char *text, size_t s, size_t e, uint64_t *out)
{
    unsigned base = 10;
    if (e - s > 2 && text[s] == '0' && (text[s + 1] == 'x' || text[s + 1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (s == e)
        return -EINVAL;
    uint64_t value = 0;
    for (size_t i = s; i < e; i++) {
        int d = parse_digit(text[i], base);
        if (d < 0)
            return -EINVAL;
        if (value > (UINT64_MAX - (uint64_t)d) / base)
            return -ERANGE;
        value = value * base + (uint64_t)d;
    }
    *out = value;
    return 0;
}

int parse_uint(const char *text, size_t len, uint64_t *out)
{
    size_t s, e;
    trim_blanks(text, len, &s, &e);
    return parse_digits(text, s, e, out);
}

int parse_size(const char *text, size_t len, uint64_t *out)
{
    size_t s, e;
    trim_blanks(text, len, &s, &e);
    unsigned shift = 0;
    if (e > s) {
        char last = text[e - 1];
        if (last == 'k' || last == 'K')
            shift = 10;
        else if (last == 'm' || last == 'M')
            shift = 20;
        else if (last == 'g' || last == 'G')
            shift = 30;
        if (shift)
            e--;
    }
    uint64_t value;
    int err = parse_digits(text, s, e, &value);
    if (err)
        return err;
    if (shift && value > (UINT64_MAX >> shift))
        return -ERANGE;
    *out = value << shift;
    return 0;
}

int parse_kstrtoul_user(const char *text, size_t len, uint64_t *out)
{
    if (len > KSTRTOUL_USER_MAX)
        len = KSTRTOUL_USER_MAX;
    size_t end = 0;
    while (end < len && text[end] != '\0')
        end++; /* Linux's copy is a C string: it stops at the first NUL */
    size_t s = end > 0 && text[0] == '+' ? 1 : 0;
    size_t e = end;
    if (e > s && text[e - 1] == '\n')
        e--;
    if (e == s)
        return -EINVAL;
    for (size_t i = s; i < e; i++)
        if (text[i] < '0' || text[i] > '9')
            return -EINVAL;
    return parse_digits(text, s, e, out);
}

bool parse_list_next(const char *text, size_t len, size_t *cursor, const char **item,
                     size_t *item_len)
{
    size_t at = *cursor;
    while (at < len && text[at] == ',')
        at++;
    size_t start = at;
    while (at < len && text[at] != ',')
        at++;
    *cursor = at;
    *item = text + start;
    *item_len = at - start;
    return at > start;
}
