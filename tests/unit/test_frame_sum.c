/* test_frame_sum.c - the capture's frame check: the sum its definition gives, the same
 * however the data is cut into pieces, and the errors a serial line makes are seen (every
 * flipped bit, every burst of up to 32 bits, a lost or an extra byte). */
#include "unit.h"

#include "kernel/lib/frame_sum.h"

/* The definition, the slow way: each word assembled from its bytes, the last padded. */
static uint32_t sum_by_definition(const uint8_t *data, size_t len)
{
    uint32_t sum = 0;
    for (size_t i = 0; i < len; i += 4) {
        uint32_t w = 0;
        for (size_t k = 0; k < 4 && i + k < len; k++)
            w |= (uint32_t)data[i + k] << (8 * k);
        sum += w;
    }
    return sum;
}

static void fill(uint8_t *data, size_t len)
{
    for (size_t i = 0; i < len; i++)
        data[i] = (uint8_t)(i * 97 + 13 + (i >> 7));
}

TEST(known_values)
{
    CHECK_EQ_INT(frame_sum("", 0), 0u);
    /* "abcd" is the word 0x64636261, "efgh" 0x68676665 */
    CHECK_EQ_INT(frame_sum("abcdefgh", 8), 0x64636261u + 0x68676665u);
    CHECK_EQ_INT(frame_sum("abcde", 5), 0x64636261u + 0x65u); /* the last word 0x00000065 */
    CHECK_EQ_INT(frame_sum("\xff\xff\xff\xff\x01\x00\x00\x00", 8), 0u); /* modulo 2^32 */
}

TEST(every_length_and_alignment_agrees_with_the_definition)
{
    static uint8_t data[1100];
    fill(data, sizeof data);
    int wrong = 0;
    for (size_t start = 0; start < 4; start++)
        for (size_t len = 0; len + start <= sizeof data; len += 1 + len / 16)
            wrong += frame_sum(data + start, len) != sum_by_definition(data + start, len);
    CHECK_EQ_INT(wrong, 0);
}

TEST(pieces_of_any_size_sum_as_the_whole)
{
    static uint8_t data[700];
    fill(data, sizeof data);
    uint32_t whole = frame_sum(data, sizeof data);
    int wrong = 0;
    for (size_t piece = 1; piece <= 37; piece++) {
        struct frame_sum s;
        frame_sum_init(&s);
        for (size_t at = 0; at < sizeof data; at += piece)
            frame_sum_update(&s, data + at, at + piece <= sizeof data ? piece : sizeof data - at);
        wrong += frame_sum_value(&s) != whole;
        wrong += frame_sum_value(&s) != whole; /* reading the value changes nothing */
    }
    CHECK_EQ_INT(wrong, 0);
}

TEST(every_flipped_bit_and_every_burst_of_up_to_32_bits_is_seen)
{
    static uint8_t data[256];
    fill(data, sizeof data);
    uint32_t good = frame_sum(data, sizeof data);
    int unseen = 0;
    for (size_t bit = 0; bit + 32 <= sizeof data * 8; bit++)
        for (uint32_t len = 1; len <= 32; len++)
            for (uint32_t pattern = 0; pattern < 4; pattern++) {
                /* a burst of len bits from bit on: its first and last bits flipped, and
                 * those between after one of four patterns */
                uint32_t burst = 1u | (len > 1 ? 1u << (len - 1) : 0);
                uint32_t inner = len > 2 ? ((0x5a3c96e1u >> pattern * 3) | (pattern == 3 ? ~0u : 0)) &
                                               ((1u << (len - 1)) - 2u)
                                         : 0;
                burst |= inner;
                for (uint32_t k = 0; k < len; k++)
                    if (burst >> k & 1)
                        data[(bit + k) / 8] ^= (uint8_t)(1u << ((bit + k) % 8));
                unseen += frame_sum(data, sizeof data) == good;
                for (uint32_t k = 0; k < len; k++)
                    if (burst >> k & 1)
                        data[(bit + k) / 8] ^= (uint8_t)(1u << ((bit + k) % 8));
            }
    CHECK_EQ_INT(unseen, 0);
}

TEST(a_lost_byte_or_an_extra_one_is_seen)
{
    static uint8_t data[64], moved[64];
    fill(data, sizeof data);
    uint32_t good = frame_sum(data, sizeof data);
    int unseen = 0;
    for (size_t at = 0; at < sizeof data - 1; at++) {
        memcpy(moved, data, at); /* byte at never arrived: the rest moves up, a byte of the */
        memcpy(moved + at, data + at + 1, sizeof data - at - 1); /* next frame at the end */
        moved[sizeof moved - 1] = 0x54;
        unseen += frame_sum(moved, sizeof moved) == good;
        memcpy(moved, data, at); /* a byte too many at at */
        moved[at] = 0xa5;
        memcpy(moved + at + 1, data + at, sizeof data - at - 1);
        unseen += frame_sum(moved, sizeof moved) == good;
    }
    CHECK_EQ_INT(unseen, 0);
}
