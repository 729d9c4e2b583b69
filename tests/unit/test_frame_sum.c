/* test_frame_sum.c - the capture's frame check: the two sums as their definition gives
 * them, the same however the data is cut into pieces, and the errors a serial line makes
 * are seen (every flipped bit, every burst of up to 32 bits, swapped words, a lost byte). */
#include "unit.h"

#include "kernel/lib/frame_sum.h"

/* The definition, the slow way: each word assembled from its bytes, the last padded. */
static void sums_by_definition(const uint8_t *data, size_t len, uint32_t *a, uint32_t *b)
{
    *a = *b = 0;
    for (size_t i = 0; i < len; i += 4) {
        uint32_t w = 0;
        for (size_t k = 0; k < 4 && i + k < len; k++)
            w |= (uint32_t)data[i + k] << (8 * k);
        *a += w;
        *b += *a;
    }
}

static void fill(uint8_t *data, size_t len)
{
    for (size_t i = 0; i < len; i++)
        data[i] = (uint8_t)(i * 97 + 13 + (i >> 7));
}

TEST(known_values)
{
    uint32_t a, b;
    frame_sum("", 0, &a, &b);
    CHECK_EQ_INT(a, 0u);
    CHECK_EQ_INT(b, 0u);
    /* "abcd" is the word 0x64636261; "abcdefgh" adds 0x68676665 */
    frame_sum("abcdefgh", 8, &a, &b);
    CHECK_EQ_INT(a, 0x64636261u + 0x68676665u);
    CHECK_EQ_INT(b, 0x64636261u + (0x64636261u + 0x68676665u));
    frame_sum("abcde", 5, &a, &b); /* the last word: 0x00000065 */
    CHECK_EQ_INT(a, 0x64636261u + 0x65u);
}

TEST(every_length_and_alignment_agrees_with_the_definition)
{
    static uint8_t data[1100];
    fill(data, sizeof data);
    int wrong = 0;
    for (size_t start = 0; start < 4; start++)
        for (size_t len = 0; len + start <= sizeof data; len += 1 + len / 16) {
            uint32_t a, b, ra, rb;
            frame_sum(data + start, len, &a, &b);
            sums_by_definition(data + start, len, &ra, &rb);
            wrong += a != ra || b != rb;
        }
    CHECK_EQ_INT(wrong, 0);
}

TEST(pieces_of_any_size_sum_as_the_whole)
{
    static uint8_t data[700];
    fill(data, sizeof data);
    uint32_t wa, wb;
    frame_sum(data, sizeof data, &wa, &wb);
    int wrong = 0;
    for (size_t piece = 1; piece <= 37; piece++) {
        struct frame_sum s;
        frame_sum_init(&s);
        for (size_t at = 0; at < sizeof data; at += piece)
            frame_sum_update(&s, data + at, at + piece <= sizeof data ? piece : sizeof data - at);
        uint32_t a, b;
        frame_sum_final(&s, &a, &b);
        wrong += a != wa || b != wb;
    }
    CHECK_EQ_INT(wrong, 0);
}

TEST(every_flipped_bit_and_every_burst_of_up_to_32_bits_is_seen)
{
    static uint8_t data[256];
    fill(data, sizeof data);
    uint32_t a0, b0;
    frame_sum(data, sizeof data, &a0, &b0);
    int unseen = 0;
    for (size_t bit = 0; bit + 32 <= sizeof data * 8; bit++)
        for (uint32_t pattern = 1; pattern < 64; pattern = pattern * 3 + 1) {
            /* a burst starting at bit: pattern spread over up to 32 bits, first and last set */
            uint64_t burst = ((uint64_t)pattern << 25) | 1u | (1u << 31);
            for (int k = 0; k < 32; k++)
                if (burst >> k & 1)
                    data[(bit + k) / 8] ^= (uint8_t)(1u << ((bit + k) % 8));
            uint32_t a, b;
            frame_sum(data, sizeof data, &a, &b);
            unseen += a == a0 && b == b0;
            for (int k = 0; k < 32; k++)
                if (burst >> k & 1)
                    data[(bit + k) / 8] ^= (uint8_t)(1u << ((bit + k) % 8));
        }
    CHECK_EQ_INT(unseen, 0);
}

TEST(swapped_words_and_a_lost_byte_are_seen)
{
    static uint8_t data[64], moved[64];
    fill(data, sizeof data);
    uint32_t a0, b0, a, b;
    frame_sum(data, sizeof data, &a0, &b0);
    memcpy(moved, data, sizeof data);
    memcpy(moved + 8, data + 12, 4);
    memcpy(moved + 12, data + 8, 4);
    frame_sum(moved, sizeof moved, &a, &b);
    CHECK(a != a0 || b != b0);
    memcpy(moved, data, 20);
    memcpy(moved + 20, data + 21, sizeof data - 21); /* byte 20 never arrived */
    moved[63] = data[63];
    frame_sum(moved, sizeof moved, &a, &b);
    CHECK(a != a0 || b != b0);
}
