/* test_tk_page_builder.c - one CPU's EVENTS frames become Linux's pages
 * (tools/tkconvert/page_builder.c) as the guest's trace_pipe_raw fills them (raw_fill):
 * times in nanoseconds of the CLOCK, cycle fields converted, a page that fills continues on
 * the next, a loss before a later event ends the page so the next reports it, trailing
 * losses get a page of their own, discarded records are skipped, frames continue each
 * other. The pages are read back with the converter's own page decoder (rb_page.c). */
#include "unit.h"

#include "tests/unit/tk_capture_build.h"
#include "tools/tkconvert/page_builder.h"
#include "tools/tkconvert/rb_page.h"

#define MAX_PAGES 8

static uint8_t pages[MAX_PAGES][RAW_PAGE_SIZE];
static unsigned nr_pages;
static char err[128];

static bool collect(void *ctx, unsigned cpu, const uint8_t *page)
{
    CHECK(ctx == &nr_pages);
    CHECK_EQ_INT(cpu, 3);
    if (nr_pages == MAX_PAGES)
        return false;
    memcpy(pages[nr_pages++], page, RAW_PAGE_SIZE);
    return true;
}

static struct page_builder builder;
static struct tk_clock clock;

/* A builder of cpu 3 and a clock of ns = (c - boot) * mult >> 22. */
static void setup(uint64_t boot, uint32_t mult, const struct capture_cycle_field *f, uint32_t n)
{
    nr_pages = 0;
    page_builder_init(&builder, 3, collect, &nr_pages);
    memset(&clock, 0, sizeof clock);
    clock.boot_cycles = boot;
    clock.mult = mult;
    clock.shift = 22;
    clock.nr_fields = n;
    if (n)
        memcpy(clock.fields, f, n * sizeof *f);
}

/* Feeds one EVENTS frame; returns page_builder_frame's result. */
static int frame(uint64_t time, uint64_t lost_before, const struct ring_records *rr,
                 uint32_t *bad)
{
    static uint8_t payload[sizeof(struct capture_events) + sizeof rr->bytes];
    struct capture_events e = {time, 0, lost_before};
    memcpy(payload, &e, sizeof e);
    uint32_t len = rr ? rr->len : 0;
    if (len)
        memcpy(payload + sizeof e, rr->bytes, len);
    uint32_t unused;
    return page_builder_frame(&builder, &clock, payload, (uint32_t)sizeof e + len,
                              bad ? bad : &unused, err, sizeof err);
}

/* Page n's events into ts[], counts[] (the byte at payload offset 8); returns how many. */
static int read_page(unsigned n, struct rb_page_reader *r, uint64_t *ts, uint8_t *marks)
{
    struct rb_event ev;
    int got, k = 0;
    CHECK_EQ_INT(rb_page_open(r, pages[n], RAW_PAGE_SIZE, err, sizeof err), 0);
    while ((got = rb_page_next(r, &ev, err, sizeof err)) > 0) {
        if (ts)
            ts[k] = ev.ts;
        if (marks)
            marks[k] = ev.data[8];
        k++;
    }
    CHECK_EQ_INT(got, 0);
    return k;
}

/* A payload of type 1 whose byte 8 is mark, length bytes long (at least 12). */
static const uint8_t *marked(uint8_t mark, uint32_t length)
{
    static uint8_t p[4096];
    memset(p, 0, length);
    p[0] = 1;
    p[8] = mark;
    return p;
}

TEST(times_become_the_clocks_nanoseconds_deltas_included)
{
    setup(1000, 1u << 21, NULL, 0); /* half a nanosecond per cycle from cycle 1000 */
    static struct ring_records rr;
    rr.len = 0;
    rr_event(&rr, 100, marked(1, 12), 12);
    rr_event(&rr, 3, marked(2, 12), 12);
    rr_event(&rr, 1ull << 33, marked(3, 12), 12); /* a time extend */
    CHECK_EQ_INT(frame(2000, 0, &rr, NULL), PAGE_BUILDER_OK);
    CHECK_EQ_INT(nr_pages, 0); /* still open */
    CHECK(page_builder_finish(&builder, &clock));
    CHECK_EQ_INT(nr_pages, 1);
    struct rb_page_reader r;
    uint64_t ts[4];
    uint8_t m[4];
    CHECK_EQ_INT(read_page(0, &r, ts, m), 3);
    CHECK_EQ_INT(r.stamp, 550);         /* (2100 - 1000) / 2 */
    CHECK_EQ_INT(ts[1], 551);           /* (2103 - 1000) / 2, floored */
    CHECK(ts[2] == ((2103 - 1000) + (1ull << 33)) / 2);
    CHECK(!r.missed);
    CHECK_EQ_INT(m[0] * 100 + m[1] * 10 + m[2], 123);
    CHECK(page_builder_finish(&builder, &clock)); /* nothing open: no page */
    CHECK_EQ_INT(nr_pages, 1);
}

TEST(a_page_that_fills_continues_on_the_next)
{
    setup(0, 1u << 22, NULL, 0);
    static struct ring_records rr;
    unsigned mark = 0;
    for (int f = 0; f < 3; f++) { /* 3 frames of 33 events: frames continue each other */
        rr.len = 0;
        for (int i = 0; i < 33; i++, mark++)
            rr_event(&rr, 10, marked((uint8_t)mark, 100), 100);
        CHECK_EQ_INT(frame(100000u * (f + 1), 0, &rr, NULL), PAGE_BUILDER_OK);
    }
    CHECK(page_builder_finish(&builder, &clock));
    /* 104 bytes an event: 39 on a page of 4084 data bytes */
    CHECK_EQ_INT(nr_pages, 3);
    struct rb_page_reader r;
    uint64_t ts[64];
    uint8_t m[64];
    CHECK_EQ_INT(read_page(0, &r, ts, m), 39);
    CHECK_EQ_INT(m[38], 38);
    CHECK_EQ_INT(ts[32], 100000 + 330);
    CHECK_EQ_INT(ts[33], 200000 + 10); /* the second frame's time base is its own */
    CHECK_EQ_INT(read_page(1, &r, ts, m), 39);
    CHECK_EQ_INT(m[0], 39);
    CHECK_EQ_INT(r.stamp, 200000 + 70);
    CHECK(!r.missed);
    CHECK_EQ_INT(read_page(2, &r, ts, m), 21);
    CHECK_EQ_INT(m[20], 98);
}

TEST(a_loss_ends_the_page_and_the_next_page_reports_it)
{
    setup(0, 1u << 22, NULL, 0);
    static struct ring_records rr;
    rr.len = 0;
    rr_event(&rr, 1, marked(1, 12), 12);
    rr_event(&rr, 1, marked(2, 12), 12);
    CHECK_EQ_INT(frame(100, 4, &rr, NULL), PAGE_BUILDER_OK); /* lost before the first */
    rr.len = 0;
    rr_event(&rr, 1, marked(3, 12), 12);
    CHECK_EQ_INT(frame(200, 0, &rr, NULL), PAGE_BUILDER_OK); /* same page */
    rr.len = 0;
    rr_event(&rr, 1, marked(4, 12), 12);
    CHECK_EQ_INT(frame(300, 9, &rr, NULL), PAGE_BUILDER_OK); /* ends the page */
    CHECK_EQ_INT(nr_pages, 1);
    CHECK(page_builder_finish(&builder, &clock));
    CHECK_EQ_INT(nr_pages, 2);
    struct rb_page_reader r;
    uint64_t ts[4];
    uint8_t m[4];
    CHECK_EQ_INT(read_page(0, &r, ts, m), 3);
    CHECK(r.missed && r.missed_stored);
    CHECK_EQ_INT(r.missed_count, 4);
    CHECK_EQ_INT(ts[2], 201);
    CHECK_EQ_INT(read_page(1, &r, ts, m), 1);
    CHECK(r.missed && r.missed_stored);
    CHECK_EQ_INT(r.missed_count, 9);
    CHECK_EQ_INT(m[0], 4);
    CHECK_EQ_INT(r.stamp, 301);
}

TEST(trailing_losses_get_a_page_of_no_events)
{
    setup(0, 1u << 22, NULL, 0);
    static struct ring_records rr;
    rr.len = 0;
    rr_event(&rr, 5, marked(1, 12), 12);
    CHECK_EQ_INT(frame(100, 0, &rr, NULL), PAGE_BUILDER_OK);
    CHECK_EQ_INT(frame(900, 0, NULL, NULL), PAGE_BUILDER_OK); /* no records, no loss: nothing */
    CHECK_EQ_INT(nr_pages, 0);
    CHECK_EQ_INT(frame(1000, 1741, NULL, NULL), PAGE_BUILDER_OK);
    CHECK_EQ_INT(nr_pages, 2); /* the open page, then the losses' */
    struct rb_page_reader r;
    CHECK_EQ_INT(read_page(0, &r, NULL, NULL), 1);
    CHECK(!r.missed);
    CHECK_EQ_INT(read_page(1, &r, NULL, NULL), 0);
    CHECK(r.missed && r.missed_stored);
    CHECK_EQ_INT(r.missed_count, 1741);
    CHECK_EQ_INT(r.stamp, 1000);
    uint32_t commit;
    memcpy(&commit, pages[1] + 8, 4);
    CHECK_EQ_INT(commit, RAW_MISSED_EVENTS | RAW_MISSED_STORED);
    CHECK(page_builder_finish(&builder, &clock));
    CHECK_EQ_INT(nr_pages, 2);
}

TEST(cycle_fields_are_converted_and_discarded_records_skipped)
{
    static const struct capture_cycle_field f[] = {{5, 16}, {6, 16}, {6, 24}};
    setup(0, 1u << 23, f, 3); /* two nanoseconds per cycle */
    uint8_t entry[24] = {5}, ret[36] = {6};
    uint64_t call = 1000, rettime = 1500;
    memcpy(entry + 16, &call, 8);
    memcpy(ret + 16, &call, 8);
    memcpy(ret + 24, &rettime, 8);
    static struct ring_records rr;
    rr.len = 0;
    rr_event(&rr, 0, entry, sizeof entry);
    rr_discarded(&rr, 100, 24); /* its delta counts */
    rr_event(&rr, 400, ret, sizeof ret);
    CHECK_EQ_INT(frame(1000, 0, &rr, NULL), PAGE_BUILDER_OK);
    CHECK(page_builder_finish(&builder, &clock));
    struct rb_page_reader r;
    struct rb_event ev;
    uint64_t v;
    CHECK_EQ_INT(rb_page_open(&r, pages[0], RAW_PAGE_SIZE, err, sizeof err), 0);
    CHECK_EQ_INT(rb_page_next(&r, &ev, err, sizeof err), 1);
    CHECK_EQ_INT(ev.ts, 2000);
    memcpy(&v, ev.data + 16, 8);
    CHECK_EQ_INT(v, 2000);
    CHECK_EQ_INT(rb_page_next(&r, &ev, err, sizeof err), 1);
    CHECK_EQ_INT(ev.ts, 3000);
    CHECK_EQ_INT(ev.length, 36);
    memcpy(&v, ev.data + 16, 8);
    CHECK_EQ_INT(v, 2000);
    memcpy(&v, ev.data + 24, 8);
    CHECK_EQ_INT(v, 3000);
    CHECK_EQ_INT(rb_page_next(&r, &ev, err, sizeof err), 0);
}

TEST(a_loss_before_only_discarded_records_waits_for_the_next_event)
{
    setup(0, 1u << 22, NULL, 0);
    static struct ring_records rr;
    rr.len = 0;
    rr_event(&rr, 1, marked(1, 12), 12);
    CHECK_EQ_INT(frame(100, 0, &rr, NULL), PAGE_BUILDER_OK);
    rr.len = 0;
    rr_discarded(&rr, 1, 8);
    CHECK_EQ_INT(frame(200, 6, &rr, NULL), PAGE_BUILDER_OK);
    rr.len = 0;
    rr_event(&rr, 1, marked(2, 12), 12);
    CHECK_EQ_INT(frame(300, 0, &rr, NULL), PAGE_BUILDER_OK);
    CHECK(page_builder_finish(&builder, &clock));
    CHECK_EQ_INT(nr_pages, 2);
    struct rb_page_reader r;
    CHECK_EQ_INT(read_page(1, &r, NULL, NULL), 1);
    CHECK_EQ_INT(r.missed_count, 6);
    /* And when no event comes after it, the end gives it a page of its own. */
    setup(0, 1u << 22, NULL, 0);
    rr.len = 0;
    rr_discarded(&rr, 1, 8);
    CHECK_EQ_INT(frame(200, 6, &rr, NULL), PAGE_BUILDER_OK);
    CHECK_EQ_INT(nr_pages, 0);
    CHECK(page_builder_finish(&builder, &clock));
    CHECK_EQ_INT(nr_pages, 1);
    CHECK_EQ_INT(read_page(0, &r, NULL, NULL), 0);
    CHECK_EQ_INT(r.missed_count, 6);
    CHECK_EQ_INT(r.stamp, 200);
}

TEST(a_bad_record_ends_the_frame_and_keeps_what_came_before)
{
    setup(0, 1u << 22, NULL, 0);
    static struct ring_records rr;
    rr.len = 0;
    rr_event(&rr, 1, marked(1, 12), 12);
    rr_event(&rr, 1, marked(2, 4080), 4080); /* bigger than a Linux page holds */
    uint32_t bad = 0;
    CHECK_EQ_INT(frame(100, 0, &rr, &bad), PAGE_BUILDER_BAD);
    CHECK_EQ_INT(bad, sizeof(struct capture_events) + 16);
    CHECK_EQ_STR(err, "record at byte 16: an event of 4080 bytes, more than a page holds");
    rr.len = 0;
    rr_event(&rr, 1, marked(3, 12), 12);
    rr_word(&rr, 30); /* a time extend cut off */
    CHECK_EQ_INT(frame(200, 0, &rr, &bad), PAGE_BUILDER_BAD);
    CHECK_EQ_INT(bad, sizeof(struct capture_events) + 16);
    CHECK_EQ_STR(err, "record at byte 16: type 30, its second word cut off");
    CHECK(page_builder_finish(&builder, &clock));
    struct rb_page_reader r;
    uint8_t m[4];
    CHECK_EQ_INT(read_page(0, &r, NULL, m), 2);
    CHECK_EQ_INT(m[0] * 10 + m[1], 13);
}

TEST(a_failed_emit_is_reported)
{
    setup(0, 1u << 22, NULL, 0);
    nr_pages = MAX_PAGES; /* collect refuses */
    static struct ring_records rr;
    rr.len = 0;
    rr_event(&rr, 1, marked(1, 12), 12);
    CHECK_EQ_INT(frame(100, 0, &rr, NULL), PAGE_BUILDER_OK);
    CHECK(!page_builder_finish(&builder, &clock));
    CHECK_EQ_INT(frame(200, 3, NULL, NULL), PAGE_BUILDER_NO_MEMORY);
}
