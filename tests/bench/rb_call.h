/*
 * rb_call.h - one ring-buffer reserve+commit as a benchmark's measured function (bench_cost),
 * shared by trace_bench.c's rows and the scale curve ring_reserve_commit_by_buffer_kib, so
 * both measure the same call. The length is read from memory, not a constant the inline
 * rb_reserve could fold (with the constant 8 it costs 45, not 58).
 */
#ifndef TESTS_BENCH_RB_CALL_H
#define TESTS_BENCH_RB_CALL_H

#include "trace/core/ring_buffer.h"

struct rb_call {
    struct ring_buffer *rb;
    uint32_t length;
};

static inline void reserve_commit(void *arg)
{
    struct rb_call *c = arg;
    if (rb_reserve(c->rb, c->length))
        rb_commit(c->rb);
}

#endif
