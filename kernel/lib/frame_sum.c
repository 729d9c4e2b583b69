/*
 * frame_sum.c - the sum of 32-bit words that checks a capture frame (see frame_sum.h).
 */
#include "kernel/lib/frame_sum.h"

/* A 32-bit word read at any alignment (x86 loads it in one instruction; may_alias: the
 * data is whatever type its owner wrote). */
typedef uint32_t __attribute__((may_alias, aligned(1))) loose_u32;

/* The sum of n whole words at p. Thirty-two words per turn, the turn's adds unrolled, so
 * that the loop's own pointer step, compare and jump are a thirty-second of its cost: on
 * the i386 a turn is 32 adds with their loads folded in and 4 more instructions, for 128
 * bytes (0.28 instructions a byte; one add per word, 0.25, is the least there is). */
#define SUM_TURN 32
static uint32_t sum_words(const uint8_t *p, size_t n)
{
    const loose_u32 *w = (const loose_u32 *)p, *end_turns = w + n / SUM_TURN * SUM_TURN,
                    *end = w + n;
    uint32_t sum = 0;
    for (; w != end_turns; w += SUM_TURN) {
        uint32_t turn = 0;
#pragma GCC unroll 32
        for (int k = 0; k < SUM_TURN; k++)
            turn += w[k];
        sum += turn;
    }
    for (; w != end; w++)
        sum += *w;
    return sum;
}

void frame_sum_init(struct frame_sum *s) { *s = (struct frame_sum){ 0, 0, 0 }; }

void frame_sum_update(struct frame_sum *s, const void *data, size_t len)
{
    const uint8_t *p = data;
    while (s->filled && len) { /* finish the word the last piece began */
        s->partial |= (uint32_t)*p++ << (8 * s->filled);
        len--;
        if (++s->filled == 4) {
            s->sum += s->partial;
            s->partial = 0;
            s->filled = 0;
        }
    }
    s->sum += sum_words(p, len / 4);
    p += len / 4 * 4;
    for (size_t i = 0; i < len % 4; i++)
        s->partial |= (uint32_t)p[i] << (8 * s->filled++);
}

uint32_t frame_sum_value(const struct frame_sum *s) { return s->sum + s->partial; }

uint32_t frame_sum(const void *data, size_t len)
{
    struct frame_sum s;
    frame_sum_init(&s);
    frame_sum_update(&s, data, len);
    return frame_sum_value(&s);
}
