/*
 * guest_helpers.h - what several in-kernel self-tests need: a walk over the events in the
 * trace buffer, reading and writing files, the profiler's counts, and a recursion that
 * overflows the kernel stack.
 */
#ifndef TESTS_GUEST_GUEST_HELPERS_H
#define TESTS_GUEST_GUEST_HELPERS_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/core/trace.h"

/* Calls fn for each event in CPU 0's buffer, oldest first, without consuming any. The
 * payload is an aligned copy, valid during the call. */
void for_each_buffered_event(void (*fn)(const struct trace_entry *e, uint32_t length, void *ctx),
                             void *ctx);

/* Reads a file of the tree as `cat` in a script would (no following) into one shared
 * 32 KiB buffer; returns its text (valid until the next call), or "<error>". */
const char *guest_read_file(const char *path);

/* What `echo -n DATA > PATH` (`>>` with append) returns: 0, the file's -errno, -ENOENT for
 * no such file, or -EACCES for a file that takes no writes (as the shell says). */
int guest_write_file(const char *path, const char *data, bool append);

/* The Hit column of name's line in the text of a trace_stat/function* file, or -1 when the
 * function has no line. */
long trace_stat_hits(const char *text, const char *name);

/* Recurses with a large frame until the stack runs into its guard page (a double fault). */
int recurse_deeply(int depth);

#endif
