/* test_tk_rb_page.c - the converter's ring-buffer page decoder (tools/tkconvert/rb_page.c)
 * reading back what the guest's encoder (trace/core/raw_page.c) writes, and refusing
 * hostile pages with a message naming the offset. */
#include "unit.h"

#include <stdint.h>

#include "tools/tkconvert/rb_page.h"
#include "trace/core/raw_page.h"

static uint8_t page[RAW_PAGE_SIZE] __attribute__((aligned(8)));

static void put32(uint32_t at, uint32_t v) { memcpy(page + at, &v, 4); }

TEST(round_trip_small_long_and_extended_events)
{
    static uint8_t big[300];
    for (unsigned i = 0; i < sizeof big; i++)
        big[i] = (uint8_t)(i * 7);
    uint64_t times[] = {5000, 5001, 5001 + (3ull << 27) + 99, 5001 + (3ull << 27) + 100};
    uint32_t lengths[] = {8, 113, 4, 300};
    struct raw_page p;
    raw_page_start(&p, page);
    for (int i = 0; i < 4; i++)
        CHECK(raw_page_add(&p, times[i], big, lengths[i]));
    raw_page_finish(&p, 0);

    struct rb_page_reader r;
    struct rb_event ev;
    char err[128];
    CHECK_EQ_INT(rb_page_open(&r, page, RAW_PAGE_SIZE, err, sizeof err), 0);
    CHECK_EQ_INT(r.stamp, 5000);
    CHECK(!r.missed);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ_INT(rb_page_next(&r, &ev, err, sizeof err), 1);
        CHECK_EQ_INT(ev.ts, times[i]);
        CHECK_EQ_INT(ev.length, (lengths[i] + 3) & ~3u);
        CHECK(memcmp(ev.data, big, lengths[i]) == 0);
    }
    CHECK_EQ_INT(rb_page_next(&r, &ev, err, sizeof err), 0);
}

TEST(a_full_page_gives_back_every_event)
{
    struct raw_page p;
    raw_page_start(&p, page);
    uint32_t n = 0;
    while (raw_page_add(&p, 100 + n * 3, &n, 4))
        n++;
    raw_page_finish(&p, 0);
    struct rb_page_reader r;
    struct rb_event ev;
    char err[128];
    CHECK_EQ_INT(rb_page_open(&r, page, RAW_PAGE_SIZE, err, sizeof err), 0);
    uint32_t got = 0, value;
    while (rb_page_next(&r, &ev, err, sizeof err) == 1) {
        memcpy(&value, ev.data, 4);
        CHECK_EQ_INT(value, got);
        CHECK_EQ_INT(ev.ts, 100 + got * 3);
        got++;
    }
    CHECK_EQ_INT(got, n);
    CHECK_EQ_INT(n, RAW_PAGE_DATA / 8);
}

TEST(missed_events_and_their_count)
{
    struct raw_page p;
    raw_page_start(&p, page);
    raw_page_add(&p, 1, "abcd", 4);
    raw_page_finish(&p, 1306);
    struct rb_page_reader r;
    char err[128];
    CHECK_EQ_INT(rb_page_open(&r, page, RAW_PAGE_SIZE, err, sizeof err), 0);
    CHECK(r.missed && r.missed_stored);
    CHECK_EQ_INT(r.missed_count, 1306);
    CHECK_EQ_INT(r.end, RAW_PAGE_HEADER + 8);
}

TEST(padding_time_stamp_and_null_padding)
{
    memset(page, 0, sizeof page);
    uint64_t stamp = 1000;
    memcpy(page, &stamp, 8);
    put32(12, 29 | 10u << 5);        /* a discarded event: 8 bytes, its delta counts */
    put32(16, 4);
    put32(20, 1 | 5u << 5);          /* data, 4 bytes: at 1015 */
    put32(24, 0xabcd);
    put32(28, 31 | 7u << 5);         /* absolute time stamp 7 + (2 << 27) */
    put32(32, 2);
    put32(36, 1 | 1u << 5);          /* data at that + 1 */
    put32(40, 0x1234);
    put32(44, 29);                   /* null padding: the page ends */
    put32(8, 44 - 12 + 8);
    struct rb_page_reader r;
    struct rb_event ev;
    char err[128];
    CHECK_EQ_INT(rb_page_open(&r, page, RAW_PAGE_SIZE, err, sizeof err), 0);
    CHECK_EQ_INT(rb_page_next(&r, &ev, err, sizeof err), 1);
    CHECK_EQ_INT(ev.ts, 1015);
    CHECK_EQ_INT(ev.offset, 20);
    CHECK_EQ_INT(rb_page_next(&r, &ev, err, sizeof err), 1);
    CHECK_EQ_INT(ev.ts, 7 + (2ull << 27) + 1);
    CHECK_EQ_INT(rb_page_next(&r, &ev, err, sizeof err), 0);
}

TEST(hostile_pages_are_refused_with_the_offset)
{
    struct rb_page_reader r;
    struct rb_event ev;
    char err[128];
    memset(page, 0, sizeof page);
    put32(8, 5000); /* commit beyond the page */
    CHECK_EQ_INT(rb_page_open(&r, page, RAW_PAGE_SIZE, err, sizeof err), -1);
    CHECK_EQ_STR(err, "commit 5000 is beyond the page's 4084 data bytes");

    put32(8, 16);
    put32(12, 1);
    put32(20, 0);   /* a long event whose length word is past the commit */
    put32(24, 400);
    CHECK_EQ_INT(rb_page_open(&r, page, RAW_PAGE_SIZE, err, sizeof err), 0);
    CHECK_EQ_INT(rb_page_next(&r, &ev, err, sizeof err), 1);
    CHECK_EQ_INT(rb_page_next(&r, &ev, err, sizeof err), -1);
    CHECK_EQ_STR(err, "event at page offset 20 has a length word 400 beyond the commit");
    CHECK_EQ_INT(rb_page_next(&r, &ev, err, sizeof err), 0);

    put32(8, 8);
    put32(12, 3);   /* 12 bytes of payload in an 8-byte commit */
    CHECK_EQ_INT(rb_page_open(&r, page, RAW_PAGE_SIZE, err, sizeof err), 0);
    CHECK_EQ_INT(rb_page_next(&r, &ev, err, sizeof err), -1);
    CHECK_EQ_STR(err, "event at page offset 12 of 16 bytes is beyond the commit");
}
