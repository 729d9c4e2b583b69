/*
 * frame_sum.c - Fletcher's checksum over 32-bit words (see frame_sum.h).
 */
#include "kernel/lib/frame_sum.h"

void frame_sum_init(struct frame_sum *s) { *s = (struct frame_sum){ 0, 0, 0, 0 }; }

/* A 32-bit word read at any alignment (x86 loads it in one instruction; may_alias: the
 * data is whatever type its owner wrote). */
typedef uint32_t __attribute__((may_alias, aligned(1))) loose_u32;

/* Adds n whole words at p. Four words per turn, so that the loop's own compare and jump
 * are a quarter of a turn's cost: on the i386 a turn is 8 adds and 3 more instructions for
 * 16 bytes, about 0.7 instructions a byte. */
static void add_words(struct frame_sum *s, const uint8_t *p, size_t n)
{
    const loose_u32 *w = (const loose_u32 *)p, *end4 = w + n / 4 * 4, *end = w + n;
    uint32_t a = s->a, b = s->b;
    for (; w != end4; w += 4) {
        a += w[0]; b += a;
        a += w[1]; b += a;
        a += w[2]; b += a;
        a += w[3]; b += a;
    }
    for (; w != end; w++) {
        a += *w;
        b += a;
    }
    s->a = a;
    s->b = b;
}

/* Adds one word (a whole one, from partial bytes). */
static void add_word(struct frame_sum *s, uint32_t w)
{
    s->a += w;
    s->b += s->a;
}

void frame_sum_update(struct frame_sum *s, const void *data, size_t len)
{
    const uint8_t *p = data;
    while (s->filled && len) { /* finish the word the last piece began */
        s->partial |= (uint32_t)*p++ << (8 * s->filled);
        len--;
        if (++s->filled == 4) {
            add_word(s, s->partial);
            s->partial = 0;
            s->filled = 0;
        }
    }
    add_words(s, p, len / 4);
    p += len / 4 * 4;
    for (size_t i = 0; i < len % 4; i++)
        s->partial |= (uint32_t)p[i] << (8 * s->filled++);
}

void frame_sum_final(struct frame_sum *s, uint32_t *a, uint32_t *b)
{
    if (s->filled)
        add_word(s, s->partial);
    s->partial = 0;
    s->filled = 0;
    *a = s->a;
    *b = s->b;
}

void frame_sum(const void *data, size_t len, uint32_t *a, uint32_t *b)
{
    struct frame_sum s;
    frame_sum_init(&s);
    frame_sum_update(&s, data, len);
    frame_sum_final(&s, a, b);
}
