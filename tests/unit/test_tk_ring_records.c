/* test_tk_ring_records.c - the decoder of tracekern's ring records in an EVENTS frame
 * (tools/tkconvert/ring_records.c): times from deltas and time extends, long events of
 * type 0 (whose length word is the payload's, not Linux's + 4), discarded records skipped
 * with their delta kept, and hostile records ending the frame with a message. */
#include "unit.h"

#include "tests/unit/tk_capture_build.h"
#include "tools/tkconvert/ring_records.h"

static char err[128];

/* Reads every event of r into times/lengths; returns the last ring_reader_next result. */
static int read_all(struct ring_records *rr, uint64_t time, uint64_t *times, uint32_t *lengths,
                    int *n, struct ring_reader *r)
{
    struct ring_event ev;
    int got;
    *n = 0;
    err[0] = '\0';
    ring_reader_open(r, rr->bytes, rr->len, time);
    while ((got = ring_reader_next(r, &ev, err, sizeof err)) > 0) {
        CHECK(ev.payload >= rr->bytes && ev.payload + ev.length <= rr->bytes + rr->len);
        times[*n] = ev.time;
        lengths[*n] = ev.length;
        (*n)++;
    }
    return got;
}

TEST(deltas_count_from_the_frame_time_then_from_each_record)
{
    static struct ring_records rr;
    rr.len = 0;
    uint8_t p[16] = {1};
    rr_event(&rr, 5, p, 12);
    rr_event(&rr, 0, p, 16);
    rr_event(&rr, (1u << 27) - 1, p, 4); /* the largest delta a header holds */
    uint64_t t[8];
    uint32_t l[8];
    int n;
    struct ring_reader r;
    CHECK_EQ_INT(read_all(&rr, 1000000, t, l, &n, &r), 0);
    CHECK_EQ_INT(n, 3);
    CHECK_EQ_INT(t[0], 1000005);
    CHECK_EQ_INT(t[1], 1000005);
    CHECK_EQ_INT(t[2], 1000005 + (1u << 27) - 1);
    CHECK_EQ_INT(l[0], 12);
    CHECK_EQ_INT(l[1], 16);
    CHECK_EQ_INT(l[2], 4);
}

TEST(a_time_extend_adds_its_high_and_low_bits)
{
    static struct ring_records rr;
    rr.len = 0;
    uint8_t p[8] = {2};
    uint64_t big = (7ull << 40) + 12345; /* far past 2^27, and past 2^32 */
    rr_event(&rr, big, p, 8);           /* extend, then the event with delta 0 */
    rr_extend(&rr, 1u << 27);            /* an extend alone, then an event's own delta */
    rr_event(&rr, 3, p, 8);
    CHECK_EQ_INT(rr.len, 8 + 12 + 8 + 12);
    uint64_t t[8];
    uint32_t l[8];
    int n;
    struct ring_reader r;
    CHECK_EQ_INT(read_all(&rr, 100, t, l, &n, &r), 0);
    CHECK_EQ_INT(n, 2);
    CHECK(t[0] == 100 + big);
    CHECK(t[1] == 100 + big + (1u << 27) + 3);
}

TEST(a_long_event_of_type_0_holds_its_payload_length)
{
    static struct ring_records rr;
    rr.len = 0;
    uint8_t p[300];
    for (int i = 0; i < 300; i++)
        p[i] = (uint8_t)i;
    rr_event(&rr, 9, p, 300);
    rr_event(&rr, 1, p, 0); /* no payload at all: type 0 too, length 0 */
    uint32_t w;
    memcpy(&w, rr.bytes + 4, 4);
    CHECK_EQ_INT(w, 300); /* not 304, as a Linux page would say */
    struct ring_reader r;
    struct ring_event ev;
    ring_reader_open(&r, rr.bytes, rr.len, 0);
    CHECK_EQ_INT(ring_reader_next(&r, &ev, err, sizeof err), 1);
    CHECK_EQ_INT(ev.length, 300);
    CHECK_EQ_INT(ev.time, 9);
    CHECK(memcmp(ev.payload, p, 300) == 0);
    CHECK_EQ_INT(ev.offset, 0);
    CHECK_EQ_INT(ring_reader_next(&r, &ev, err, sizeof err), 1);
    CHECK_EQ_INT(ev.length, 0);
    CHECK_EQ_INT(ev.time, 10);
    CHECK_EQ_INT(ev.offset, 308);
    CHECK_EQ_INT(ring_reader_next(&r, &ev, err, sizeof err), 0);
}

TEST(discarded_records_are_skipped_but_their_delta_counts)
{
    static struct ring_records rr;
    rr.len = 0;
    uint8_t p[8] = {3};
    rr_event(&rr, 10, p, 8);
    rr_discarded(&rr, 20, 16);
    rr_discarded(&rr, 5, 0);
    rr_event(&rr, 1, p, 8);
    uint64_t t[8];
    uint32_t l[8];
    int n;
    struct ring_reader r;
    CHECK_EQ_INT(read_all(&rr, 0, t, l, &n, &r), 0);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(t[0], 10);
    CHECK_EQ_INT(t[1], 36);
}

/* A hostile record: everything before it is read, then -1 with r.pos at it. */
static void check_bad(struct ring_records *rr, int events_before, uint32_t bad_at, const char *msg)
{
    uint64_t t[64];
    uint32_t l[64];
    int n;
    struct ring_reader r;
    CHECK_EQ_INT(read_all(rr, 0, t, l, &n, &r), -1);
    CHECK_EQ_INT(n, events_before);
    CHECK_EQ_INT(r.pos, bad_at);
    CHECK_EQ_STR(err, msg);
}

TEST(hostile_records_end_the_frame_with_a_message)
{
    static struct ring_records rr;
    uint8_t p[8] = {4};
    /* An event whose type_len runs past the frame. */
    rr.len = 0;
    rr_event(&rr, 1, p, 8);
    rr_word(&rr, 28); /* 112 bytes promised, none there */
    check_bad(&rr, 1, 12, "record at byte 12: an event of 112 bytes past the frame's end");
    /* Type 0 with a huge length. */
    rr.len = 0;
    rr_word(&rr, 0);
    rr_word(&rr, 0xfffffffcu);
    check_bad(&rr, 0, 0, "record at byte 0: a length of 4294967292 bytes past the frame's end");
    /* Type 0 with a length that is not whole words. */
    rr.len = 0;
    rr_event(&rr, 1, p, 8);
    rr_word(&rr, 0);
    rr_word(&rr, 6);
    rr_word(&rr, 0);
    rr_word(&rr, 0);
    check_bad(&rr, 1, 12, "record at byte 12: a length of 6 bytes, not whole words");
    /* A time extend cut off after its header. */
    rr.len = 0;
    rr_event(&rr, 1, p, 8);
    rr_word(&rr, 30 | 5 << 5);
    check_bad(&rr, 1, 12, "record at byte 12: type 30, its second word cut off");
    /* A discarded record longer than the frame. */
    rr.len = 0;
    rr_word(&rr, 29);
    rr_word(&rr, 8);
    rr_word(&rr, 0);
    check_bad(&rr, 0, 0, "record at byte 0: a length of 8 bytes past the frame's end");
    /* Bytes that are not a whole header. */
    rr.len = 0;
    rr_event(&rr, 1, p, 8);
    rr.bytes[rr.len++] = 1;
    check_bad(&rr, 1, 12, "record at byte 12: a header cut off (1 bytes)");
    /* An absolute time stamp: Linux's, never this ring's. */
    rr.len = 0;
    rr_word(&rr, 31);
    rr_word(&rr, 0);
    check_bad(&rr, 0, 0, "record at byte 0: type 31, which tracekern's ring never writes");
}

TEST(no_records_is_the_end_at_once)
{
    struct ring_reader r;
    struct ring_event ev;
    ring_reader_open(&r, NULL, 0, 42);
    CHECK_EQ_INT(ring_reader_next(&r, &ev, err, sizeof err), 0);
}
