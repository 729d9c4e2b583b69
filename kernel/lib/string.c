/*
 * string.c - the C library's memory and string functions, for the kernel.
 * The compiler also calls memcpy/memset/memmove/memcmp on its own (structure copies), so
 * these names must exist. Only the kernel links this file; host tests use their libc.
 */
#include "kernel/lib/string.h"

#include <stdint.h>

/* Word-aligned copies go four bytes at a time: every message, page and record copy of the
 * kernel comes through here. (The kernel is built with -fno-strict-aliasing.) */
void *memcpy(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
    if ((((uintptr_t)d | (uintptr_t)s) & 3) == 0)
        for (; n >= 4; n -= 4, d += 4, s += 4)
            *(uint32_t *)d = *(const uint32_t *)s;
    while (n--)
        *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
    if (d < s || d >= s + n)
        return memcpy(dst, src, n);
    while (n--)
        d[n] = s[n];
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    char *d = dst;
    if (((uintptr_t)d & 3) == 0) {
        uint32_t word = (uint8_t)c * 0x01010101u;
        for (; n >= 4; n -= 4, d += 4)
            *(uint32_t *)d = word;
    }
    while (n--)
        *d++ = (char)c;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return x[i] - y[i];
    return 0;
}

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

int strcmp(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i] || !a[i])
            return (unsigned char)a[i] - (unsigned char)b[i];
    }
    return 0;
}

char *strchr(const char *s, int c)
{
    for (;; s++) {
        if (*s == (char)c)
            return (char *)s;
        if (!*s)
            return 0;
    }
}

size_t strlcpy(char *dst, const char *src, size_t size)
{
    size_t len = strlen(src);
    size_t n = len < size - 1 ? len : size - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
    return len;
}

void *memchr(const void *s, int c, size_t n)
{
    const unsigned char *p = s;
    for (size_t i = 0; i < n; i++)
        if (p[i] == (unsigned char)c)
            return (void *)(p + i);
    return 0;
}

char *strstr(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    for (; *haystack; haystack++)
        if (strncmp(haystack, needle, n) == 0)
            return (char *)haystack;
    return n == 0 ? (char *)haystack : 0;
}
