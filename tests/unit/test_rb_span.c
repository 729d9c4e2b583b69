/* test_rb_span.c - the binary capture's read (rb_consume_span): the records it copies,
 * decoded as the host decodes them, are the events rb_consume gives, with the same times,
 * payloads and losses in the same places, whatever the writers did (long gaps, discards,
 * long events, overwritten pages, a full buffer's drops) and wherever the reads fell. */
#include "unit.h"

#include <stdint.h>

#include "rb_host_env.h"
#include "tools/tkconvert/ring_records.h"

/* An event as a reader saw it: enough to tell two readings apart. */
struct seen {
    uint64_t ts, lost_before;
    uint32_t length, first_word;
};

#define MAX_SEEN 20000
static struct seen by_event[MAX_SEEN], by_span[MAX_SEEN];
static size_t nr_by_event, nr_by_span;

/* Everything rb_consume gives now. */
static void drain_by_event(struct ring_buffer *rb)
{
    static uint32_t buf[RB_MAX_EVENT / 4];
    struct rb_event ev;
    while (rb_consume(rb, 0, buf, sizeof buf, &ev) && nr_by_event < MAX_SEEN)
        by_event[nr_by_event++] = (struct seen){ ev.ts, ev.lost_before, ev.length, buf[0] };
}

/* Decodes a span's records as the host does (tools/tkconvert/ring_records.c, the one
 * decoder of the ring's format). False on a record that does not decode. */
static bool decode_span(const uint8_t *data, const struct rb_span *span)
{
    struct ring_reader r;
    struct ring_event ev;
    char err[96];
    uint64_t lost = span->lost_before;
    int got;
    ring_reader_open(&r, data, span->length, span->ts);
    while ((got = ring_reader_next(&r, &ev, err, sizeof err)) == 1) {
        uint32_t first = 0;
        memcpy(&first, ev.payload, ev.length < 4 ? ev.length : 4);
        if (nr_by_span < MAX_SEEN)
            by_span[nr_by_span++] = (struct seen){ ev.time, lost, ev.length, first };
        lost = 0;
    }
    return got == 0;
}

/* Everything rb_consume_span gives now: whole pages first, as the capture streams, then
 * the rest. */
static bool drain_by_span(struct ring_buffer *rb)
{
    struct rb_span span;
    bool ok = true;
    for (int pass = 0; pass < 2; pass++)
        while (rb_consume_span(rb, 0, pass == 0, &span)) {
            ok &= span.length > 0 && span.length <= RB_PAGE_DATA && span.entries > 0;
            ok &= decode_span(span.data, &span);
            ok &= rb_span_done(rb, 0, &span);
        }
    return ok;
}

static uint32_t rng = 12345;
static uint32_t next_random(void)
{
    rng = rng * 1103515245u + 12345u;
    return rng >> 8;
}

/* Writes the same event into both buffers at the same time: a payload of its index. */
static void write_both(struct ring_buffer *a, struct ring_buffer *b, uint32_t i, uint32_t length,
                       bool discard)
{
    struct ring_buffer *rbs[2] = { a, b };
    for (int k = 0; k < 2; k++) {
        uint32_t *p = rb_reserve(rbs[k], length);
        if (!p)
            continue;
        for (uint32_t w = 0; w < length / 4; w++)
            p[w] = i;
        if (discard)
            rb_discard(rbs[k], p, length);
        else
            rb_commit(rbs[k]);
    }
}

/* One random history on two identical buffers, read by event and by span at the same
 * moments; the two readings must agree event for event. */
static void compare_readings(bool overwrite, uint32_t pages, uint32_t seed)
{
    host_cycles = 1000;
    host_cpu = 0;
    host_page_budget = -1;
    rng = seed;
    struct ring_buffer *a = rb_create(&host_env, 1, pages), *b = rb_create(&host_env, 1, pages);
    rb_set_overwrite(a, overwrite);
    rb_set_overwrite(b, overwrite);
    nr_by_event = nr_by_span = 0;
    bool spans_ok = true;
    uint64_t lost_a = 0, lost_b = 0;
    for (uint32_t i = 0; i < 6000; i++) {
        uint32_t r = next_random();
        host_cycles += r % 16 == 0 ? (uint64_t)(r % 7) << 26 : r % 300; /* long gaps too */
        uint32_t length = r % 64 == 1 ? 2048 + 4 : r % 8 == 2 ? 116 + 4 * (r % 40) : 4 + 4 * (r % 20);
        if (length > RB_MAX_EVENT)
            length = RB_MAX_EVENT + 4; /* refused: a drop placed here */
        write_both(a, b, i, length, r % 23 == 5);
        if (r % 97 == 3 || i == 5999) {
            drain_by_event(a);
            spans_ok &= drain_by_span(b);
            lost_a += rb_take_lost(a, 0);
            lost_b += rb_take_lost(b, 0);
        }
    }
    CHECK(spans_ok);
    CHECK(nr_by_event > 100);
    CHECK_EQ_INT(nr_by_span, nr_by_event);
    size_t differ = 0;
    for (size_t k = 0; k < nr_by_event && k < nr_by_span; k++)
        differ += memcmp(&by_event[k], &by_span[k], sizeof by_event[k]) != 0;
    CHECK_EQ_INT(differ, 0);
    CHECK_EQ_INT(lost_b, lost_a);
    rb_destroy(a);
    rb_destroy(b);
}

TEST(spans_give_what_events_give_in_overwrite_mode)
{
    compare_readings(true, 4, 1);
    compare_readings(true, 3, 7);
}

TEST(spans_give_what_events_give_with_a_full_buffer_dropping)
{
    compare_readings(false, 4, 3);
    compare_readings(false, 2, 11);
}

TEST(a_span_stops_before_a_drop_and_the_next_reports_it)
{
    host_cycles = 1000;
    struct ring_buffer *rb = rb_create(&host_env, 1, 4);
    CHECK(rb_write(rb, "aaaa", 4));
    CHECK(rb_write(rb, "bbbb", 4));
    CHECK(!rb_reserve(rb, RB_MAX_EVENT + 4)); /* dropped: placed before event 2 */
    CHECK(rb_write(rb, "cccc", 4));
    struct rb_span span;
    CHECK(!rb_consume_span(rb, 0, true, &span)); /* the writer's page stays */
    CHECK(rb_consume_span(rb, 0, false, &span));
    CHECK_EQ_INT(span.first_entry, 0);
    CHECK_EQ_INT(span.entries, 2);
    CHECK_EQ_INT(span.lost_before, 0);
    CHECK_EQ_INT(span.length, 16); /* two events of a header and 4 bytes */
    CHECK(rb_span_done(rb, 0, &span));
    CHECK(rb_consume_span(rb, 0, false, &span));
    CHECK_EQ_INT(span.first_entry, 2);
    CHECK_EQ_INT(span.lost_before, 1);
    CHECK_EQ_INT(span.length, 8);
    CHECK(memcmp(span.data + 4, "cccc", 4) == 0);
    CHECK(rb_span_done(rb, 0, &span));
    CHECK(!rb_consume_span(rb, 0, false, &span));
    rb_destroy(rb);
}

/* A page recycled while its span was being sent: rb_span_done says so, and the span's
 * events and the losses it carried come back as lost before the next event. */
TEST(a_span_whose_page_is_recycled_meanwhile_is_counted_lost)
{
    host_cycles = 1000;
    struct ring_buffer *rb = rb_create(&host_env, 1, 2);
    const uint32_t per_page = RB_PAGE_DATA / 8; /* events of a 4-byte payload */
    uint32_t written = 0;
    for (; written < per_page + 10; written++) /* page 0 full, the writer on page 1 */
        CHECK(rb_write(rb, &written, 4));
    struct rb_span span;
    CHECK(rb_consume_span(rb, 0, true, &span)); /* the oldest page, whole */
    CHECK_EQ_INT(span.lost_before, 0);
    CHECK(span.entries > per_page - 4 && span.entries <= per_page);
    uint32_t in_span = span.entries;
    /* The writer fills page 1 and goes on into the span's slot (overwrite mode). */
    for (uint32_t i = 0; i < per_page; i++, written++)
        CHECK(rb_write(rb, &written, 4));
    CHECK(!rb_span_done(rb, 0, &span));
    struct rb_event ev;
    uint32_t v;
    CHECK(rb_consume(rb, 0, &v, sizeof v, &ev));
    CHECK_EQ_INT(v, ev.number); /* events are numbered as their payloads */
    CHECK_EQ_INT(ev.number, in_span); /* the first of page 1, which survived */
    CHECK_EQ_INT(ev.lost_before, in_span); /* the span's events, sent torn */
    rb_destroy(rb);
}
