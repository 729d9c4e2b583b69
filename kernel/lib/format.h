/*
 * format.h - printf-style formatting into a buffer, for a kernel without libc.
 *
 * Portable: tests/unit/test_format.c compares it with the host's snprintf.
 */
#ifndef KERNEL_LIB_FORMAT_H
#define KERNEL_LIB_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

/*
 * Same contract as C99 vsnprintf: writes at most size-1 characters plus a NUL (nothing when
 * size is 0) and returns the length the full result would have had.
 * Conversions: d i u x X o c s p %; flags - 0 + space #; width and precision (also *);
 * length modifiers hh h l ll z t. No floating point.
 */
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
