/*
 * strtol.c - text to integers: strtoul(), strtol(), atoi().
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

/* The value of digit c in base, or -1 when c is not one. */
static int digit_value(char c, int base)
{
    int v;
    if (c >= '0' && c <= '9')
        v = c - '0';
    else if (c >= 'a' && c <= 'z')
        v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'Z')
        v = c - 'A' + 10;
    else
        return -1;
    return v < base ? v : -1;
}

/*
 * The common part of strtol and strtoul: skips spaces, reads a sign and the base prefix, and
 * accumulates the magnitude, saturating at ULONG_MAX (*overflow set). *neg tells the sign.
 * *end is the first character not used; s itself when there were no digits.
 */
static unsigned long parse_magnitude(const char *s, char **end, int base, bool *neg,
                                     bool *overflow)
{
    const char *p = s;
    *neg = false;
    *overflow = false;
    while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
        p++;
    if (*p == '+' || *p == '-')
        *neg = *p++ == '-';
    if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
        digit_value(p[2], 16) >= 0) {
        p += 2;
        base = 16;
    } else if (base == 0) {
        base = p[0] == '0' ? 8 : 10;
    }
    if (base < 2 || base > 36) {
        errno = EINVAL;
        if (end)
            *end = (char *)s;
        return 0;
    }
    const char *digits = p;
    unsigned long value = 0;
    for (int d; (d = digit_value(*p, base)) >= 0; p++) {
        if (value > (ULONG_MAX - (unsigned long)d) / (unsigned long)base)
            *overflow = true;
        else
            value = value * (unsigned long)base + (unsigned long)d;
    }
    if (end)
        *end = (char *)(p == digits ? s : p);
    return *overflow ? ULONG_MAX : value;
}

/* As C says: a negative number is negated in unsigned arithmetic ("-1" is ULONG_MAX). */
unsigned long strtoul(const char *s, char **end, int base)
{
    bool neg, overflow;
    unsigned long v = parse_magnitude(s, end, base, &neg, &overflow);
    if (overflow) {
        errno = ERANGE;
        return ULONG_MAX;
    }
    return neg ? -v : v;
}

long strtol(const char *s, char **end, int base)
{
    bool neg, overflow;
    unsigned long v = parse_magnitude(s, end, base, &neg, &overflow);
    unsigned long limit = neg ? (unsigned long)LONG_MAX + 1 : (unsigned long)LONG_MAX;
    if (overflow || v > limit) {
        errno = ERANGE;
        return neg ? LONG_MIN : LONG_MAX;
    }
    return neg ? (long)(0 - v) : (long)v;
}

int atoi(const char *s) { return (int)strtol(s, 0, 10); }
