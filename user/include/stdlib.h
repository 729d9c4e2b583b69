/*
 * stdlib.h - leaving the process and converting numbers.
 */
#ifndef _STDLIB_H
#define _STDLIB_H

#include <stddef.h>

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1

/* Flushes stdout and ends the process with status (the low 8 bits reach the parent). */
void exit(int status) __attribute__((noreturn));
/* Ends the process abnormally, without flushing: status 134, as a shell shows SIGABRT. */
void abort(void) __attribute__((noreturn));

/* Parse an integer as strtol(3)/strtoul(3): leading spaces, a sign, base 0 (prefix 0x or 0
 * picks 16 or 8), 2..36; *end (when end is not NULL) gets the first unparsed character; a
 * value out of range gives LONG_MIN/LONG_MAX/ULONG_MAX and errno ERANGE. */
long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
/* strtol(s, NULL, 10) as an int. */
int atoi(const char *s);

#endif
