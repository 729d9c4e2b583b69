/*
 * string.h - memory and string functions, and the text of error numbers.
 *
 * gcc may call memcpy, memmove, memset and memcmp on its own (structure copies and
 * initialisation), so they exist even for programs that never name them.
 */
#ifndef _STRING_H
#define _STRING_H

#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strstr(const char *haystack, const char *needle);

/* "No such file or directory" for ENOENT: glibc's text; "Unknown error N" otherwise. */
char *strerror(int errnum);
/* "ENOENT" for ENOENT (glibc 2.32's name for it); NULL for a number it does not know. */
const char *strerrorname_np(int errnum);

#endif
