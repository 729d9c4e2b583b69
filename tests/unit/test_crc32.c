/* test_crc32.c - the capture's frame check equals zlib's crc32(): the check value of the
 * standard, the empty input, and continuation across pieces. */
#include "unit.h"

#include "kernel/lib/crc32.h"

TEST(check_value_of_the_standard)
{
    CHECK_EQ_INT(crc32_update(0, "123456789", 9), 0xcbf43926u);
}

TEST(empty_input_changes_nothing)
{
    CHECK_EQ_INT(crc32_update(0, "", 0), 0u);
    CHECK_EQ_INT(crc32_update(0x12345678u, "", 0), 0x12345678u);
}

TEST(pieces_continue_the_whole)
{
    uint32_t part = crc32_update(0, "1234", 4);
    CHECK_EQ_INT(crc32_update(part, "56789", 5), 0xcbf43926u);
}

TEST(one_flipped_bit_is_seen)
{
    CHECK(crc32_update(0, "123456788", 9) != 0xcbf43926u);
}

/* The CRC-32 of data the slow way, one bit at a time: what the table stands for. */
static uint32_t crc32_bitwise(const uint8_t *data, size_t len)
{
    uint32_t crc = ~0u;
    for (size_t i = 0; i < len; i++) {
        crc ^= data[i];
        for (int bit = 0; bit < 8; bit++)
            crc = (crc & 1) ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
    }
    return ~crc;
}

TEST(table_is_the_polynomial_entry_by_entry)
{
    int wrong = 0;
    for (uint32_t v = 0; v < 256; v++) {
        uint32_t c = v;
        for (int bit = 0; bit < 8; bit++)
            c = (c & 1) ? (c >> 1) ^ 0xedb88320u : c >> 1;
        wrong += c != crc32_byte_table[v];
    }
    CHECK_EQ_INT(wrong, 0);
}

TEST(every_byte_value_at_every_length_agrees_with_the_bitwise_crc)
{
    uint8_t data[300];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 97 + 13);
    int wrong = 0;
    for (size_t len = 0; len <= sizeof data; len++)
        wrong += crc32_update(0, data, len) != crc32_bitwise(data, len);
    CHECK_EQ_INT(wrong, 0);
}
