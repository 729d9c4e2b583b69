/*
 * frame_sum.h - the binary capture's frame check (uapi/trace_capture.h): Fletcher's
 * checksum over 32-bit little-endian words, both sums modulo 2^32.
 *
 *   for each word w of the data (the last one padded with zero bytes):
 *       a += w;  b += a;
 *
 * Why not CRC-32: a CRC costs a table lookup per byte (about 9 instructions a byte on the
 * i386), more than everything else the capture does with a page; these two sums cost two
 * adds per 4 bytes. What they catch: any change within one word (a changes), any burst of
 * up to 32 bits (it touches at most two neighbouring words, and b tells those apart), a
 * swap of two words and bytes dropped or inserted on the line (everything after them moves
 * to another weight in b). Modulo 2^32 rather than Fletcher's 2^32 - 1: one add per sum,
 * and unlike the end-around carry, 0x00000000 and 0xffffffff are not the same word to it
 * (ZFS's fletcher checksums work modulo 2^64 for the same reasons).
 *
 * The guest that writes frames and the host that reads them share this one implementation.
 * Portable: tests/unit/test_frame_sum.c.
 */
#ifndef KERNEL_LIB_FRAME_SUM_H
#define KERNEL_LIB_FRAME_SUM_H

#include <stddef.h>
#include <stdint.h>

/* A sum being computed over data that comes in pieces of any length. */
struct frame_sum {
    uint32_t a, b;
    uint32_t partial; /* the bytes of an unfinished word, little-endian */
    uint32_t filled;  /* how many bytes of it (0..3) */
};

/* Starts a sum of nothing: a = b = 0. */
void frame_sum_init(struct frame_sum *s);

/* Adds data[0..len) after what was added before: the pieces sum as their concatenation. */
void frame_sum_update(struct frame_sum *s, const void *data, size_t len);

/* Ends the sum: an unfinished last word counts padded with zero bytes. */
void frame_sum_final(struct frame_sum *s, uint32_t *a, uint32_t *b);

/* The sums of data[0..len) in one call; the fast path for a page (data 4-byte aligned and
 * len a multiple of 4 costs about half an instruction a byte). */
void frame_sum(const void *data, size_t len, uint32_t *a, uint32_t *b);

#endif
