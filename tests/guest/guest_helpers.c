/*
 * guest_helpers.c - helpers shared by the in-kernel self-tests (guest_helpers.h).
 */
#include "tests/guest/guest_helpers.h"

#include "trace/trace_internal.h"

void for_each_buffered_event(void (*fn)(const struct trace_entry *e, uint32_t length, void *ctx),
                             void *ctx)
{
    static union trace_event_copy copy;
    struct rb_iter it;
    struct rb_event ev;
    rb_iter_start(trace_buffer(), 0, &it);
    while (rb_iter_next(&it, copy.bytes, sizeof copy, &ev))
        fn((const struct trace_entry *)copy.bytes, ev.length, ctx);
}

/* The limit is far beyond what the 16 KiB stack holds; it is only there so the compiler
 * sees an end. */
int __attribute__((noinline)) recurse_deeply(int depth)
{
    volatile char frame[512];
    frame[0] = (char)depth;
    if (depth > 1000000)
        return 0;
    return recurse_deeply(depth + 1) + frame[0];
}
