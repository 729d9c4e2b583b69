/*
 * parse.h - numbers and blanks in text written by users (files, command line, shell
 * commands).
 * Portable: tests/unit/test_parse.c and tests/fuzz/fuzz_parse.c.
 */
#ifndef KERNEL_LIB_PARSE_H
#define KERNEL_LIB_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The one test for white space every parser uses: C's isspace() in ASCII (space, \t, \n,
 * \v, \f, \r), the bytes Linux's skip_spaces() and strim() skip. */
static inline bool is_space(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* An unsigned decimal, or hex with 0x, in text[0..len) with white space (is_space)
 * allowed around it. Returns 0, -EINVAL (not a number, or anything else in the text) or -ERANGE. */
int parse_uint(const char *text, size_t len, uint64_t *out);

/*
 * What Linux's kstrtoul_from_user(buf, len, 10, &v) makes of a write of len bytes, for
 * files Linux parses that way (an event's `enable`): only the first KSTRTOUL_USER_MAX bytes
 * count; then an optional '+', one or more decimal digits, an optional '\n', and nothing
 * more up to the first NUL byte ("1", "1\n", "1\0", "+1" pass; " 1", "0x1", "1 ", "-1",
 * "" do not). Returns 0, -EINVAL or -ERANGE (more than 64 bits; the caller checks its own
 * range, as unsigned long is 32 bits on i386 Linux).
 */
#define KSTRTOUL_USER_MAX 23
int parse_kstrtoul_user(const char *text, size_t len, uint64_t *out);

/* Like parse_uint, with an optional K, M or G suffix (times 1024, ...), as Linux's
 * memparse. */
int parse_size(const char *text, size_t len, uint64_t *out);

/* The next item of a comma-separated list in text[0..len) (a boot parameter such as
 * trace_options=stream_raw,nooverwrite), from *cursor (0 to begin), which it moves past the
 * item: true with *item and *item_len set to a non-empty item without commas (empty items,
 * ",,", are skipped), false at the end of the list. */
bool parse_list_next(const char *text, size_t len, size_t *cursor, const char **item,
                     size_t *item_len);

/* The value of digit c in base (2 to 16, either case), or -1. */
int parse_digit(char c, unsigned base);

/* Bounds [start, end) of text without the white space (is_space) around it. */
void trim_blanks(const char *text, size_t len, size_t *start, size_t *end);

#endif
