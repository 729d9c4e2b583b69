/*
 * string.h - the C string and memory functions the kernel provides (kernel/lib/string.c).
 *
 * Portable modules include this instead of <string.h>. The prototypes are the standard ones,
 * so when a module is compiled for the host (tests/) the same names bind to the host's libc.
 * Helpers that are not in standard C live in kernel/strutil.h.
 */
#ifndef KERNEL_LIB_STRING_H
#define KERNEL_LIB_STRING_H

#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
void *memchr(const void *s, int c, size_t n);
char *strstr(const char *haystack, const char *needle);
/* Copies src into dst[size] (size > 0), always NUL-terminated, cut if too long; returns
 * strlen(src), so a result >= size means it was cut. */
size_t strlcpy(char *dst, const char *src, size_t size);

#endif
