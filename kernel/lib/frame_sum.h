/*
 * frame_sum.h - the binary capture's frame check (uapi/trace_capture.h): the sum, modulo
 * 2^32, of the data's little-endian 32-bit words, the last one padded with zero bytes.
 *
 * Why a sum and not a CRC: the check runs over every byte the capture sends, and a CRC
 * costs a table lookup per byte (about 9 instructions a byte on the i386), four times what
 * the serial port itself costs per byte; the sum costs one add per 4 bytes. What it must
 * catch are the errors of a serial line, and it does: a changed bit or byte, any change
 * within one word, a burst of up to 32 bits (it lies in at most two neighbouring words,
 * whose changes cannot cancel), and bytes dropped or inserted (every later word shifts;
 * the frame's length and the next frame's magic catch those too). What it does not catch,
 * and a UART does not do, is two whole words swapped. It is the Internet checksum's
 * choice (RFC 1071), in 32-bit words.
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
    uint32_t sum;
    uint32_t partial; /* the bytes of an unfinished word, little-endian */
    uint32_t filled;  /* how many bytes of it (0..3) */
};

/* Starts a sum of nothing. */
void frame_sum_init(struct frame_sum *s);

/* Adds data[0..len) after what was added before: the pieces sum as their concatenation. */
void frame_sum_update(struct frame_sum *s, const void *data, size_t len);

/* The sum: an unfinished last word counts padded with zero bytes. s is left as it was. */
uint32_t frame_sum_value(const struct frame_sum *s);

/* The sum of data[0..len) in one call: the fast path for a page (about a third of an
 * instruction a byte). */
uint32_t frame_sum(const void *data, size_t len);

#endif
