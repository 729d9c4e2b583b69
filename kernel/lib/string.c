/*
 * string.c - the C library's memory and string functions, for the kernel.
 * The compiler also calls memcpy/memset/memmove/memcmp on its own (structure copies), so
 * these names must exist. Only the kernel links this file; host tests use their libc.
 */
#include "kernel/lib/string.h"

#include <stdint.h>

/* Four bytes per step, then the rest byte by byte, each a string instruction (`rep movsl`,
 * `rep movsb`): every message, page and record copy of the kernel comes through here, and
 * the CPU's own loop beats a compiled one (under -icount each step counts as one
 * instruction: a 4 KiB page is 1,024, where a loop of moves was over 5,000). */
void *memcpy(void *dst, const void *src, size_t n)
{
    void *d = dst;
    size_t words = n / 4, bytes = n % 4;
    __asm__ volatile("rep movsl\n\tmov %[bytes], %%ecx\n\trep movsb"
                     : "+D"(d), "+S"(src), "+c"(words)
                     : [bytes] "r"(bytes)
                     : "memory");
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

/* As memcpy: `rep stosl` for the words, `rep stosb` for the rest. */
void *memset(void *dst, int c, size_t n)
{
    void *d = dst;
    size_t words = n / 4, bytes = n % 4;
    uint32_t word = (uint8_t)c * 0x01010101u;
    __asm__ volatile("rep stosl\n\tmov %[bytes], %%ecx\n\trep stosb"
                     : "+D"(d), "+c"(words)
                     : "a"(word), [bytes] "r"(bytes)
                     : "memory");
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
