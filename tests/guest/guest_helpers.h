/*
 * guest_helpers.h - what several in-kernel self-tests need: a walk over the events in the
 * trace buffer, and a recursion that overflows the kernel stack.
 */
#ifndef TESTS_GUEST_GUEST_HELPERS_H
#define TESTS_GUEST_GUEST_HELPERS_H

#include <stdint.h>

#include "trace/trace.h"

/* Calls fn for each event in CPU 0's buffer, oldest first, without consuming any. The
 * payload is an aligned copy, valid during the call. */
void for_each_buffered_event(void (*fn)(const struct trace_entry *e, uint32_t length, void *ctx),
                             void *ctx);

/* Recurses with a large frame until the stack runs into its guard page (a double fault). */
int recurse_deeply(int depth);

#endif
