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
