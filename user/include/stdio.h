/*
 * stdio.h - formatted output.
 *
 * There is no FILE: printf, puts and putchar write to fd 1 through one line buffer that is
 * written out at every '\n', when it fills, before anything else writes to fd 1 or 2 through
 * this library (dprintf, perror), and at exit(). Formats: %d %i %u %x %X %p %s %c %%, with
 * l and ll on the integer ones, a width, and the flags '0' and '-'.
 */
#ifndef _STDIO_H
#define _STDIO_H

#include <stdarg.h>
#include <stddef.h>

#define EOF (-1)

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
int dprintf(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
int puts(const char *s);
int putchar(int c);
/* Prints "s: strerror(errno)\n" (or just the message when s is NULL or empty) to fd 2. */
void perror(const char *s);

#endif
