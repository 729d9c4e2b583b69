/*
 * parse.h - numbers from text written by users (files, command line, shell commands).
 * Portable: tests/unit/test_parse.c and tests/fuzz/fuzz_parse.c.
 */
#ifndef KERNEL_PARSE_H
#define KERNEL_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* An unsigned decimal, or hex with 0x, in text[0..len) with blanks and newlines allowed
 * around it. Returns 0, -EINVAL (not a number, or anything else in the text) or -ERANGE. */
int parse_uint(const char *text, size_t len, uint64_t *out);

/* Like parse_uint, with an optional K, M or G suffix (times 1024, ...), as Linux's
 * memparse. */
int parse_size(const char *text, size_t len, uint64_t *out);

/* The value of digit c in base (2 to 16, either case), or -1. */
int parse_digit(char c, unsigned base);

/* Bounds [start, end) of text without leading and trailing blanks and newlines. */
void trim_blanks(const char *text, size_t len, size_t *start, size_t *end);

#endif
