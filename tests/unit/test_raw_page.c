/* test_raw_page.c - Linux's ring-buffer page layout as trace_pipe_raw serves it: header,
 * event headers with their deltas, long events, time extends, the missed-events flags. */
#include "unit.h"

#include <stdint.h>

#include "trace/core/raw_page.h"

static uint8_t page_bytes[RAW_PAGE_SIZE] __attribute__((aligned(8)));

static uint32_t word_at(uint32_t offset)
{
    uint32_t v;
    memcpy(&v, page_bytes + offset, 4);
    return v;
}

static uint64_t stamp(void)
{
    uint64_t v;
    memcpy(&v, page_bytes, 8);
    return v;
}

TEST(small_events_carry_type_len_and_deltas)
{
    struct raw_page p;
    raw_page_start(&p, page_bytes);
    CHECK(raw_page_add(&p, 1000, "abcdefgh", 8));
    CHECK(raw_page_add(&p, 1250, "xyz", 3)); /* padded to a word */
    raw_page_finish(&p, 0);
    CHECK_EQ_INT(stamp(), 1000);
    CHECK_EQ_INT(word_at(8), 12 + 8); /* commit: bytes of events, no flags */
    CHECK_EQ_INT(word_at(12), 2);     /* type_len 2, delta 0 */
    CHECK(memcmp(page_bytes + 16, "abcdefgh", 8) == 0);
    CHECK_EQ_INT(word_at(24), 1 | 250u << 5);
    CHECK(memcmp(page_bytes + 28, "xyz\0", 4) == 0);
    CHECK_EQ_INT(word_at(32), 0); /* the rest is zeros */
}

TEST(long_event_has_its_length_plus_four_in_array0)
{
    static uint8_t payload[200];
    for (unsigned i = 0; i < sizeof payload; i++)
        payload[i] = (uint8_t)i;
    struct raw_page p;
    raw_page_start(&p, page_bytes);
    CHECK(raw_page_add(&p, 5, payload, 112)); /* the largest with type_len */
    CHECK(raw_page_add(&p, 7, payload, 113));
    raw_page_finish(&p, 0);
    CHECK_EQ_INT(word_at(12), 28);
    CHECK_EQ_INT(word_at(12 + 116), 2u << 5); /* type_len 0 */
    CHECK_EQ_INT(word_at(12 + 120), 116 + 4);
    CHECK(memcmp(page_bytes + 12 + 124, payload, 113) == 0);
    CHECK_EQ_INT(word_at(8), 116 + 8 + 116);
}

TEST(large_delta_gets_a_time_extend)
{
    struct raw_page p;
    raw_page_start(&p, page_bytes);
    uint64_t delta = (5ull << 27) + 12345;
    CHECK(raw_page_add(&p, 100, "aaaa", 4));
    CHECK(raw_page_add(&p, 100 + delta, "bbbb", 4));
    raw_page_finish(&p, 0);
    CHECK_EQ_INT(word_at(20), RAW_TYPE_TIME_EXTEND | 12345u << 5);
    CHECK_EQ_INT(word_at(24), 5);
    CHECK_EQ_INT(word_at(28), 1); /* the event itself: delta 0 after the extend */
    CHECK_EQ_INT(word_at(8), 8 + 8 + 8);
}

TEST(missed_events_set_flags_and_store_the_count)
{
    struct raw_page p;
    raw_page_start(&p, page_bytes);
    CHECK(raw_page_add(&p, 1, "aaaa", 4));
    raw_page_finish(&p, 42);
    CHECK_EQ_INT(word_at(8), 8u | RAW_MISSED_EVENTS | RAW_MISSED_STORED);
    CHECK_EQ_INT(word_at(20), 42);
}

TEST(full_page_refuses_and_keeps_the_missed_flag_without_room_for_the_count)
{
    static uint8_t payload[108];
    struct raw_page p;
    raw_page_start(&p, page_bytes);
    unsigned n = 0;
    while (raw_page_add(&p, 10 + n, payload, sizeof payload))
        n++;
    CHECK_EQ_INT(n, RAW_PAGE_DATA / 112); /* 36 events of 112 bytes: 4032 of 4084 */
    uint32_t used = p.used;
    CHECK(raw_page_add(&p, 99, payload, 40)); /* 44 more bytes still fit */
    CHECK(!raw_page_add(&p, 99, payload, 8));  /* 12 do not */
    CHECK_EQ_INT(p.used, used + 44);
    CHECK(raw_page_add(&p, 99, payload, 1)); /* ...but 8 do: the page is now full */
    CHECK_EQ_INT(p.used, RAW_PAGE_DATA);
    raw_page_finish(&p, 3);
    CHECK_EQ_INT(word_at(8), RAW_PAGE_DATA | RAW_MISSED_EVENTS); /* no room for the count */
}
