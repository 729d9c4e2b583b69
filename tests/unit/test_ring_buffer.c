/* test_ring_buffer.c - the ring buffer: order, timestamps, wrap, both loss modes, nesting,
 * readers side by side, resizing with data in it. */
#include "unit.h"

#include <stdint.h>

#include "rb_host_env.h"

/* Writes an event whose payload is its index i repeated, length bytes (>= 4). */
static bool write_marked(struct ring_buffer *rb, uint32_t i, uint32_t length)
{
    uint32_t *p = rb_reserve(rb, length);
    if (!p)
        return false;
    for (uint32_t k = 0; k < length / 4; k++)
        p[k] = i;
    rb_commit(rb);
    return true;
}

/* True when a payload read back is index i repeated. */
static bool payload_is(const uint32_t *p, uint32_t i, uint32_t length)
{
    for (uint32_t k = 0; k < length / 4; k++)
        if (p[k] != i)
            return false;
    return true;
}

static struct ring_buffer *make(uint32_t pages)
{
    host_cycles = 1000;
    host_cpu = 0;
    host_page_budget = -1;
    return rb_create(&host_env, 1, pages);
}

TEST(write_and_consume_sizes)
{
    struct ring_buffer *rb = make(4);
    const uint32_t sizes[] = { 4, 8, 32, 112, 116, 128, 2048 };
    for (uint32_t i = 0; i < 7; i++) {
        host_cycles += 10;
        CHECK(write_marked(rb, i, sizes[i]));
    }
    static uint32_t buf[RB_MAX_EVENT / 4];
    struct rb_event ev;
    for (uint32_t i = 0; i < 7; i++) {
        CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
        CHECK_EQ_INT(ev.length, sizes[i]);
        CHECK_EQ_INT(ev.ts, 1010 + 10 * i);
        CHECK_EQ_INT(ev.number, i);
        CHECK_EQ_INT(ev.lost_before, 0);
        CHECK(payload_is(buf, i, sizes[i]));
    }
    CHECK(!rb_consume(rb, 0, buf, sizeof buf, &ev));
    rb_destroy(rb);
    CHECK_EQ_INT(host_pages_live, 0);
}

TEST(odd_lengths_round_up_and_short_buffers_truncate)
{
    struct ring_buffer *rb = make(2);
    CHECK(rb_write(rb, "abcde", 5));
    char buf[3];
    struct rb_event ev;
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK_EQ_INT(ev.length, 8);
    CHECK(memcmp(buf, "abc", 3) == 0);
    rb_destroy(rb);
}

TEST(many_pages_in_order)
{
    struct ring_buffer *rb = make(8);
    uint32_t written = 0;
    uint32_t buf[8];
    struct rb_event ev;
    /* Interleave writing and reading so the ring wraps many times without loss. */
    for (uint32_t round = 0; round < 50; round++) {
        for (uint32_t k = 0; k < 300; k++) {
            host_cycles++;
            CHECK(write_marked(rb, written++, 32));
        }
        uint32_t expect = written - 300;
        while (rb_consume(rb, 0, buf, sizeof buf, &ev)) {
            CHECK_EQ_INT(ev.number, expect);
            CHECK(payload_is(buf, expect, 32));
            CHECK_EQ_INT(ev.lost_before, 0);
            expect++;
        }
        CHECK_EQ_INT(expect, written);
    }
    struct rb_stats st;
    rb_get_stats(rb, RB_ALL_CPUS, &st);
    CHECK_EQ_INT(st.entries, 0);
    CHECK_EQ_INT(st.overrun, 0);
    CHECK_EQ_INT(st.read, written);
    rb_destroy(rb);
}

TEST(overwrite_mode_keeps_newest_and_counts_overrun)
{
    struct ring_buffer *rb = make(4);
    const uint32_t total = 1000; /* ~36 bytes each: far more than 4 pages */
    for (uint32_t i = 0; i < total; i++)
        CHECK(write_marked(rb, i, 32));
    struct rb_stats st;
    rb_get_stats(rb, 0, &st);
    CHECK_EQ_INT(st.entries + st.overrun, total);
    CHECK(st.overrun > 0);
    CHECK_EQ_INT(st.dropped, 0);
    uint32_t buf[8], read = 0;
    struct rb_event ev;
    uint64_t lost = 0, expect = st.overrun;
    while (rb_consume(rb, 0, buf, sizeof buf, &ev)) {
        lost += ev.lost_before;
        CHECK_EQ_INT(ev.number, expect);
        CHECK(payload_is(buf, (uint32_t)expect, 32));
        expect++;
        read++;
    }
    CHECK_EQ_INT(lost, st.overrun);
    CHECK_EQ_INT(read, st.entries);
    CHECK_EQ_INT(expect, total); /* the newest event is the last one read */
    rb_destroy(rb);
}

TEST(producer_consumer_mode_drops_new_and_counts)
{
    struct ring_buffer *rb = make(4);
    rb_set_overwrite(rb, false);
    uint32_t accepted = 0, refused = 0;
    for (uint32_t i = 0; i < 1000; i++) {
        if (write_marked(rb, accepted, 32))
            accepted++;
        else
            refused++;
    }
    CHECK(refused > 0);
    struct rb_stats st;
    rb_get_stats(rb, 0, &st);
    CHECK_EQ_INT(st.dropped, refused);
    CHECK_EQ_INT(st.entries, accepted);
    CHECK_EQ_INT(st.overrun, 0);
    uint32_t buf[8];
    struct rb_event ev;
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK_EQ_INT(ev.number, 0); /* the oldest survived */
    uint32_t read = 1;
    while (rb_consume(rb, 0, buf, sizeof buf, &ev)) {
        CHECK_EQ_INT(ev.lost_before, 0); /* the drops came after all of these */
        read++;
    }
    CHECK_EQ_INT(read, accepted);
    /* With room again, writing works again; the drops are reported in their place: before
     * the first event written after them. */
    CHECK(write_marked(rb, accepted, 32));
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK_EQ_INT(ev.number, accepted);
    CHECK_EQ_INT(ev.lost_before, refused);
    CHECK_EQ_INT(rb_take_lost(rb, 0), 0);
    rb_destroy(rb);
}

TEST(drops_at_the_end_are_taken_after_draining)
{
    struct ring_buffer *rb = make(2);
    rb_set_overwrite(rb, false);
    uint32_t refused = 0;
    for (uint32_t i = 0; i < 500; i++)
        refused += !write_marked(rb, i, 32);
    uint32_t buf[8];
    struct rb_event ev;
    while (rb_consume(rb, 0, buf, sizeof buf, &ev))
        CHECK_EQ_INT(ev.lost_before, 0);
    CHECK_EQ_INT(rb_take_lost(rb, 0), refused);
    CHECK_EQ_INT(rb_take_lost(rb, 0), 0);
    rb_destroy(rb);
}

TEST(drop_bursts_between_events_are_placed)
{
    struct ring_buffer *rb = make(2);
    CHECK(write_marked(rb, 0, 8));
    CHECK(!rb_reserve(rb, RB_MAX_EVENT + 1)); /* two drops here */
    CHECK(!rb_reserve(rb, RB_MAX_EVENT + 1));
    CHECK(write_marked(rb, 1, 8));
    CHECK(!rb_reserve(rb, RB_MAX_EVENT + 1)); /* one drop here */
    CHECK(write_marked(rb, 2, 8));
    uint32_t buf[2];
    struct rb_event ev;
    const uint64_t lost[] = { 0, 2, 1 };
    for (int i = 0; i < 3; i++) {
        CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
        CHECK_EQ_INT(ev.number, i);
        CHECK_EQ_INT(ev.lost_before, lost[i]);
    }
    rb_destroy(rb);
}

TEST(time_extend_for_long_gaps)
{
    struct ring_buffer *rb = make(2);
    const uint64_t times[] = { 5, 6, 6 + (1ull << 27), 6 + (1ull << 27) + 3, 90000000000ull };
    for (int i = 0; i < 5; i++) {
        host_cycles = times[i];
        CHECK(write_marked(rb, (uint32_t)i, 4));
    }
    uint32_t buf[1];
    struct rb_event ev;
    for (int i = 0; i < 5; i++) {
        CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
        CHECK_EQ_INT(ev.ts, times[i]);
        CHECK_EQ_INT(buf[0], i);
    }
    rb_destroy(rb);
}

TEST(clock_going_backwards_is_clamped)
{
    struct ring_buffer *rb = make(2);
    host_cycles = 100;
    CHECK(write_marked(rb, 0, 4));
    host_cycles = 50;
    CHECK(write_marked(rb, 1, 4));
    uint32_t buf[1];
    struct rb_event ev;
    CHECK(rb_consume(rb, 0, buf, 4, &ev));
    CHECK(rb_consume(rb, 0, buf, 4, &ev));
    CHECK_EQ_INT(ev.ts, 100);
    rb_destroy(rb);
}

TEST(nested_writer_commits_with_outer)
{
    struct ring_buffer *rb = make(2);
    uint32_t *outer = rb_reserve(rb, 8);
    CHECK(outer != NULL);
    /* An "interrupt" arrives before the outer writer commits and writes its own event. */
    host_cycles++;
    CHECK(write_marked(rb, 7, 8));
    uint32_t buf[2];
    struct rb_event ev;
    CHECK(!rb_consume(rb, 0, buf, sizeof buf, &ev)); /* nothing visible yet */
    outer[0] = outer[1] = 3;
    rb_commit(rb);
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK(payload_is(buf, 3, 8));
    CHECK_EQ_INT(ev.number, 0);
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK(payload_is(buf, 7, 8));
    CHECK_EQ_INT(ev.number, 1);
    rb_destroy(rb);
}

TEST(nested_writer_cannot_recycle_uncommitted_page)
{
    struct ring_buffer *rb = make(2);
    uint32_t *outer = rb_reserve(rb, 8);
    CHECK(outer != NULL);
    uint32_t refused = 0;
    for (uint32_t i = 0; i < 400; i++)
        refused += !write_marked(rb, i, 32);
    CHECK(refused > 0); /* would need the outer writer's page */
    rb_commit(rb);
    struct rb_stats st;
    rb_get_stats(rb, 0, &st);
    CHECK_EQ_INT(st.dropped, refused);
    rb_destroy(rb);
}

TEST(iterator_does_not_consume_and_sees_snapshot)
{
    struct ring_buffer *rb = make(4);
    for (uint32_t i = 0; i < 10; i++)
        CHECK(write_marked(rb, i, 16));
    struct rb_iter it;
    rb_iter_start(rb, 0, &it);
    CHECK(write_marked(rb, 10, 16)); /* after the snapshot: not shown */
    uint32_t buf[4], n = 0;
    struct rb_event ev;
    /* Interleave: the consumer takes two events while the iterator walks. */
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    while (rb_iter_next(&it, buf, sizeof buf, &ev)) {
        CHECK_EQ_INT(ev.number, n);
        CHECK(payload_is(buf, n, 16));
        n++;
    }
    CHECK_EQ_INT(n, 10);
    /* A new iterator starts where the consumer is. */
    rb_iter_start(rb, 0, &it);
    CHECK(rb_iter_next(&it, buf, sizeof buf, &ev));
    CHECK_EQ_INT(ev.number, 2);
    uint64_t ts;
    CHECK(rb_iter_peek_ts(&it, &ts));
    struct rb_stats st;
    rb_get_stats(rb, 0, &st);
    CHECK_EQ_INT(st.entries, 9);
    CHECK_EQ_INT(st.read, 2);
    rb_destroy(rb);
}

TEST(iterator_overtaken_by_writer_reports_skip)
{
    struct ring_buffer *rb = make(3);
    for (uint32_t i = 0; i < 300; i++) /* nearly three pages: nothing recycled yet */
        CHECK(write_marked(rb, i, 32));
    struct rb_iter it;
    rb_iter_start(rb, 0, &it);
    uint32_t buf[8];
    struct rb_event ev;
    CHECK(rb_iter_next(&it, buf, sizeof buf, &ev));
    CHECK_EQ_INT(ev.number, 0);
    for (uint32_t i = 300; i < 450; i++) /* recycles the page the iterator is on */
        CHECK(write_marked(rb, i, 32));
    CHECK(rb_iter_next(&it, buf, sizeof buf, &ev));
    CHECK(ev.number > 1);
    CHECK_EQ_INT(ev.lost_before, ev.number - 1);
    CHECK(payload_is(buf, (uint32_t)ev.number, 32));
    uint64_t last = ev.number;
    while (rb_iter_next(&it, buf, sizeof buf, &ev))
        last = ev.number;
    CHECK_EQ_INT(last, 299); /* the snapshot ends where it ended */
    /* Lapped entirely: the iterator ends, and says how much it skipped. */
    rb_iter_start(rb, 0, &it);
    CHECK(rb_iter_next(&it, buf, sizeof buf, &ev));
    for (uint32_t i = 450; i < 1000; i++)
        CHECK(write_marked(rb, i, 32));
    CHECK(!rb_iter_next(&it, buf, sizeof buf, &ev));
    CHECK(it.skipped > 0);
    rb_destroy(rb);
}

TEST(iterator_peek_keeps_a_skip_for_the_next_event)
{
    struct ring_buffer *rb = make(3);
    for (uint32_t i = 0; i < 300; i++)
        CHECK(write_marked(rb, i, 32));
    struct rb_iter it;
    rb_iter_start(rb, 0, &it);
    uint32_t buf[8];
    struct rb_event ev;
    CHECK(rb_iter_next(&it, buf, sizeof buf, &ev));
    for (uint32_t i = 300; i < 450; i++) /* recycles the page the iterator is on */
        CHECK(write_marked(rb, i, 32));
    /* The peek moves past the recycled page and names the event next will return. */
    uint64_t ts = 0;
    CHECK(rb_iter_peek_ts(&it, &ts));
    CHECK(rb_iter_next(&it, buf, sizeof buf, &ev));
    CHECK_EQ_INT(ev.ts, ts);
    CHECK(ev.number > 1);
    CHECK_EQ_INT(ev.lost_before, ev.number - 1); /* the skip is reported once, here */
    CHECK(payload_is(buf, (uint32_t)ev.number, 32));
    CHECK(rb_iter_next(&it, buf, sizeof buf, &ev));
    CHECK_EQ_INT(ev.lost_before, 0);
    rb_destroy(rb);
}

TEST(peek_after_overrun_counts_nothing_until_consumed)
{
    struct ring_buffer *rb = make(3);
    for (uint32_t i = 0; i < 1000; i++) /* laps the ring: the oldest events are gone */
        CHECK(write_marked(rb, i, 32));
    uint64_t ts = 0;
    CHECK(rb_peek_ts(rb, 0, &ts));
    CHECK(rb_peek_ts(rb, 0, &ts)); /* peeking twice neither moves nor counts */
    struct rb_stats st;
    rb_get_stats(rb, 0, &st);
    CHECK_EQ_INT(st.read, 0);
    uint32_t buf[8];
    struct rb_event ev;
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK_EQ_INT(ev.ts, ts);
    CHECK(ev.number > 0);
    CHECK_EQ_INT(ev.lost_before, ev.number); /* the overrun, reported once */
    CHECK(payload_is(buf, (uint32_t)ev.number, 32));
    rb_get_stats(rb, 0, &st);
    CHECK_EQ_INT(st.overrun, ev.number);
    CHECK_EQ_INT(st.read, 1);
    rb_destroy(rb);
}

/* A reader may copy from a page a writer is recycling under it, and so see any words at
 * all where a header should be (it throws the copy away afterwards). Whatever a header
 * says, the copy stays inside the page. */
TEST(garbage_header_length_never_reads_past_the_page)
{
    struct ring_buffer *rb = make(2);
    CHECK(write_marked(rb, 7, 8));
    uint32_t *word = (uint32_t *)rb->cpu[0].pages[0]->data;
    word[0] = 0;           /* type_len 0: the length is in the next word */
    word[1] = 0xfffffffcu; /* and that length wraps a 32-bit offset back into the page */
    static uint8_t buf[2 * RB_PAGE_SIZE];
    struct rb_event ev;
    CHECK(!rb_consume(rb, 0, buf, sizeof buf, &ev)); /* no whole event: nothing to read */
    struct rb_iter it;
    rb_iter_start(rb, 0, &it);
    CHECK(!rb_iter_next(&it, buf, sizeof buf, &ev));
    rb_destroy(rb);
}

TEST(resize_keeps_data_grow_and_shrink)
{
    struct ring_buffer *rb = make(3);
    for (uint32_t i = 0; i < 150; i++)
        CHECK(write_marked(rb, i, 32));
    uint32_t buf[8];
    struct rb_event ev;
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev)); /* consumer in the middle */
    struct rb_stats before;
    rb_get_stats(rb, 0, &before);
    CHECK_EQ_INT(rb_resize(rb, 8), 0);
    CHECK_EQ_INT(rb_pages_per_cpu(rb), 8);
    struct rb_stats after;
    rb_get_stats(rb, 0, &after);
    CHECK_EQ_INT(after.entries, before.entries);
    CHECK_EQ_INT(after.overrun, before.overrun);
    for (uint32_t i = 150; i < 400; i++) /* the bigger ring holds more */
        CHECK(write_marked(rb, i, 32));
    CHECK_EQ_INT(rb_resize(rb, 2), 0);
    rb_get_stats(rb, 0, &after);
    CHECK(after.overrun > before.overrun);
    uint64_t lost = 0, expect = 0;
    bool first = true;
    while (rb_consume(rb, 0, buf, sizeof buf, &ev)) {
        if (!first)
            CHECK_EQ_INT(ev.number, expect);
        first = false;
        lost += ev.lost_before;
        CHECK(payload_is(buf, (uint32_t)ev.number, 32));
        expect = ev.number + 1;
    }
    CHECK_EQ_INT(expect, 400); /* the newest events survived the shrink */
    rb_get_stats(rb, 0, &after);
    CHECK_EQ_INT(after.read + after.overrun, 400);
    CHECK_EQ_INT(rb_resize(rb, 1), -22);
    rb_destroy(rb);
    CHECK_EQ_INT(host_pages_live, 0);
}

TEST(resize_out_of_memory_changes_nothing)
{
    struct ring_buffer *rb = make(2);
    CHECK(write_marked(rb, 0, 8));
    host_page_budget = host_pages_live + 3;
    CHECK_EQ_INT(rb_resize(rb, 4), -12);
    host_page_budget = -1;
    uint32_t buf[2];
    struct rb_event ev;
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK(payload_is(buf, 0, 8));
    rb_destroy(rb);
    CHECK_EQ_INT(host_pages_live, 0);
}

TEST(reset_and_disable)
{
    struct ring_buffer *rb = make(2);
    for (uint32_t i = 0; i < 200; i++)
        write_marked(rb, i, 32);
    rb_reset(rb);
    struct rb_stats st;
    rb_get_stats(rb, 0, &st);
    CHECK(st.entries == 0 && st.overrun == 0 && st.dropped == 0 && st.read == 0);
    rb_disable_writers(rb, 1); /* as tracing_on = 0: refused, and not a loss */
    CHECK(!write_marked(rb, 0, 8));
    rb_disable_writers(rb, -1);
    rb_get_stats(rb, 0, &st);
    CHECK_EQ_INT(st.dropped, 0);
    CHECK(!rb_reserve(rb, RB_MAX_EVENT + 1)); /* too big: refused and counted */
    rb_get_stats(rb, 0, &st);
    CHECK_EQ_INT(st.dropped, 1);
    rb_destroy(rb);
}

TEST(per_cpu_rings)
{
    host_cycles = 0;
    struct ring_buffer *rb = rb_create(&host_env, 2, 2);
    host_cpu = 1;
    CHECK(write_marked(rb, 11, 4));
    host_cpu = 0;
    CHECK(write_marked(rb, 22, 4));
    CHECK(write_marked(rb, 23, 4));
    struct rb_stats st;
    rb_get_stats(rb, 1, &st);
    CHECK_EQ_INT(st.entries, 1);
    rb_get_stats(rb, RB_ALL_CPUS, &st);
    CHECK_EQ_INT(st.entries, 3);
    uint32_t v;
    struct rb_event ev;
    CHECK(rb_consume(rb, 1, &v, 4, &ev));
    CHECK_EQ_INT(v, 11);
    CHECK_EQ_INT(ev.cpu, 1);
    CHECK(!rb_consume(rb, 1, &v, 4, &ev));
    rb_destroy(rb);
}

TEST(create_rejects_bad_sizes_and_survives_no_memory)
{
    CHECK(rb_create(&host_env, 1, 1) == NULL);
    CHECK(rb_create(&host_env, 0, 4) == NULL);
    CHECK(rb_create(&host_env, RB_MAX_CPUS + 1, 4) == NULL);
    host_page_budget = host_pages_live + 5;
    CHECK(rb_create(&host_env, 2, 4) == NULL); /* the second CPU's pages do not fit */
    host_page_budget = -1;
    CHECK_EQ_INT(host_pages_live, 0);
}

/* rb_peek_event (trace_pipe_raw looks before it takes): it reports what rb_consume then
 * gives, losses included, overwritten and dropped alike, and takes nothing. */
TEST(peek_event_matches_the_next_consume_and_takes_nothing)
{
    struct ring_buffer *rb = make(2);
    for (uint32_t i = 0; i < 400; i++) { /* overwrite mode: the oldest pages go */
        host_cycles += 5;
        CHECK(write_marked(rb, i, 40));
    }
    static uint32_t buf[RB_MAX_EVENT / 4];
    struct rb_event peeked, taken;
    CHECK(rb_peek_event(rb, 0, &peeked));
    CHECK(rb_peek_event(rb, 0, &peeked)); /* twice: still there */
    CHECK(peeked.lost_before > 0);
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &taken));
    CHECK_EQ_INT(peeked.number, taken.number);
    CHECK_EQ_INT(peeked.ts, taken.ts);
    CHECK_EQ_INT(peeked.length, taken.length);
    CHECK_EQ_INT(peeked.lost_before, taken.lost_before);
    CHECK_EQ_INT(taken.lost_before, taken.number); /* everything before it was lost */
    CHECK(rb_peek_event(rb, 0, &peeked));
    CHECK_EQ_INT(peeked.lost_before, 0);
    CHECK_EQ_INT(peeked.number, taken.number + 1);
    /* Drops in producer/consumer mode, placed before the next event written. */
    rb_reset(rb);
    rb_set_overwrite(rb, false);
    uint32_t written = 0;
    for (uint32_t i = 0; i < 400; i++)
        written += write_marked(rb, i, 40);
    while (rb_consume(rb, 0, buf, sizeof buf, &taken))
        ;
    CHECK(write_marked(rb, 999, 40));
    CHECK(rb_peek_event(rb, 0, &peeked));
    CHECK_EQ_INT(peeked.lost_before, 400 - written);
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &taken));
    CHECK_EQ_INT(taken.lost_before, 400 - written);
    CHECK(payload_is(buf, 999, 40));
    rb_destroy(rb);
}

/* --- rb_discard (issue 18: events a filter rejects) ----------------------------------- */

TEST(discarding_the_last_event_leaves_no_trace)
{
    struct ring_buffer *rb = make(2);
    host_cycles += 10;
    CHECK(write_marked(rb, 1, 8));
    const uint32_t sizes[] = { 4, 116, 2048 }; /* short header, long header, the largest */
    for (uint32_t i = 0; i < 3; i++) {
        host_cycles += 50;
        uint32_t *p = rb_reserve(rb, sizes[i]);
        CHECK(p != NULL);
        rb_discard(rb, p, sizes[i]);
    }
    host_cycles += 7;
    CHECK(write_marked(rb, 2, 12));
    struct rb_stats st;
    rb_get_stats(rb, 0, &st);
    CHECK_EQ_INT(st.entries, 2);
    CHECK_EQ_INT(st.dropped, 0);
    static uint32_t buf[RB_MAX_EVENT / 4];
    struct rb_event ev;
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK(payload_is(buf, 1, 8));
    CHECK_EQ_INT(ev.ts, 1010);
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK(payload_is(buf, 2, 12));
    CHECK_EQ_INT(ev.ts, 1010 + 150 + 7); /* its own time, not shifted by the discards */
    CHECK_EQ_INT(ev.number, 1);
    CHECK_EQ_INT(ev.lost_before, 0);
    CHECK(!rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK_EQ_INT(rb_take_lost(rb, 0), 0);
    rb_destroy(rb);
}

TEST(discarding_under_a_nested_event_keeps_the_nested_one_only)
{
    struct ring_buffer *rb = make(2);
    host_cycles += 10;
    uint32_t *outer = rb_reserve(rb, 20);
    CHECK(outer != NULL);
    host_cycles += 5;
    CHECK(write_marked(rb, 7, 8)); /* an interrupt's event after ours */
    rb_discard(rb, outer, 20);
    host_cycles += 5;
    CHECK(write_marked(rb, 8, 8));
    uint32_t buf[8];
    struct rb_event ev;
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK(payload_is(buf, 7, 8));
    CHECK_EQ_INT(ev.ts, 1015);
    CHECK_EQ_INT(ev.lost_before, 0);
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK(payload_is(buf, 8, 8));
    CHECK_EQ_INT(ev.ts, 1020);
    CHECK_EQ_INT(ev.lost_before, 0);
    CHECK(!rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK_EQ_INT(rb_take_lost(rb, 0), 0);
    /* An iterator skips it the same way. */
    struct rb_iter it;
    rb_iter_start(rb, 0, &it);
    CHECK(!rb_iter_next(&it, buf, sizeof buf, &ev));
    rb_destroy(rb);
}

TEST(discards_over_many_pages_keep_the_ring_consistent)
{
    struct ring_buffer *rb = make(3);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < 3000; i++) {
        host_cycles += 3;
        uint32_t len = 4 + (i * 36) % 200;
        uint32_t *p = rb_reserve(rb, len);
        CHECK(p != NULL);
        for (uint32_t k = 0; k < len / 4; k++)
            p[k] = i;
        if (i % 3 == 0) {
            rb_commit(rb);
            kept++;
        } else {
            rb_discard(rb, p, len);
        }
    }
    static uint32_t buf[64];
    struct rb_event ev;
    uint32_t seen = 0, last = 0;
    uint64_t lost = 0;
    while (rb_consume(rb, 0, buf, sizeof buf, &ev)) {
        CHECK(buf[0] % 3 == 0);
        CHECK(seen == 0 || buf[0] > last);
        CHECK_EQ_INT(ev.ts, 1000 + 3 * (buf[0] + 1));
        last = buf[0];
        lost += ev.lost_before;
        seen++;
    }
    CHECK_EQ_INT(seen + lost, kept); /* overwritten ones counted as overrun, not more */
    rb_destroy(rb);
}

/* issue 18, tracing_cpumask: a CPU left out refuses writes without counting a loss, the
 * other CPU records, and rb_reset does not bring the CPU back. */
TEST(cpu_left_out_records_nothing_and_loses_nothing)
{
    host_cycles = 1000;
    host_page_budget = -1;
    struct ring_buffer *rb = rb_create(&host_env, 2, 4);
    uint32_t word = 7;
    rb_set_cpu_recording(rb, 1, false);
    rb_set_cpu_recording(rb, 5, false); /* no such CPU: ignored */
    host_cpu = 1;
    CHECK(!rb_write(rb, &word, sizeof word));
    host_cpu = 0;
    CHECK(rb_write(rb, &word, sizeof word));
    rb_reset(rb);
    host_cpu = 1;
    CHECK(!rb_write(rb, &word, sizeof word));
    struct rb_stats st;
    rb_get_stats(rb, 1, &st);
    CHECK_EQ_INT(st.entries, 0);
    CHECK_EQ_INT(st.dropped, 0);
    rb_set_cpu_recording(rb, 1, true);
    CHECK(rb_write(rb, &word, sizeof word));
    host_cpu = 0;
    rb_destroy(rb);
}

/* --- issue 20: the fast path's nesting, publishing and counting ------------------------ */

/* An interrupt that writes in the middle of another write: the events committed before the
 * outer one stay readable all along (the outer writer published their end when it
 * reserved), the interrupt's event stays hidden with the outer one, and both appear, in
 * reservation order with their own times and numbers, when the outer one commits. */
TEST(interrupt_mid_write_shows_earlier_events_and_hides_its_own_until_the_outer_commit)
{
    struct ring_buffer *rb = make(4);
    for (uint32_t i = 0; i < 3; i++) {
        host_cycles += 10;
        CHECK(write_marked(rb, i, 8));
    }
    host_cycles += 10; /* 1040 */
    uint32_t *outer = rb_reserve(rb, 12);
    CHECK(outer != NULL);
    CHECK(rb_cpu_writing(rb, 0));
    host_cycles += 5; /* the interrupt, 1045 */
    CHECK(write_marked(rb, 9, 8));
    CHECK(rb_cpu_writing(rb, 0)); /* the outer write is still open */
    struct rb_stats st;
    rb_get_stats(rb, 0, &st);
    CHECK_EQ_INT(st.entries, 5); /* open and nested reservations count */
    uint32_t buf[4];
    struct rb_event ev;
    struct rb_iter it;
    rb_iter_start(rb, 0, &it);
    for (uint32_t i = 0; i < 3; i++) {
        CHECK(rb_iter_next(&it, buf, sizeof buf, &ev));
        CHECK_EQ_INT(ev.number, i);
    }
    CHECK(!rb_iter_next(&it, buf, sizeof buf, &ev));
    for (uint32_t i = 0; i < 3; i++) {
        CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
        CHECK(payload_is(buf, i, 8));
    }
    CHECK(!rb_consume(rb, 0, buf, sizeof buf, &ev));
    outer[0] = outer[1] = outer[2] = 4;
    rb_commit(rb);
    CHECK(!rb_cpu_writing(rb, 0));
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK(payload_is(buf, 4, 12));
    CHECK_EQ_INT(ev.ts, 1040);
    CHECK_EQ_INT(ev.number, 3);
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK(payload_is(buf, 9, 8));
    CHECK_EQ_INT(ev.ts, 1045);
    CHECK_EQ_INT(ev.number, 4);
    CHECK_EQ_INT(ev.lost_before, 0);
    CHECK(!rb_consume(rb, 0, buf, sizeof buf, &ev));
    rb_destroy(rb);
}

/* The interrupt fills the outer writer's page and moves on to new pages: readers still stop
 * where the outer event begins, and after its commit read everything, the numbers running
 * on across the pages. */
TEST(interrupt_mid_write_moving_pages_stays_hidden_until_the_outer_commit)
{
    struct ring_buffer *rb = make(8);
    host_cycles += 10;
    CHECK(write_marked(rb, 100, 8));
    uint32_t *outer = rb_reserve(rb, 8);
    CHECK(outer != NULL);
    for (uint32_t i = 0; i < 600; i++) { /* 600 events of 36 bytes: six pages */
        host_cycles += 3;
        CHECK(write_marked(rb, i, 32));
    }
    uint32_t buf[8];
    struct rb_event ev;
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK(payload_is(buf, 100, 8));
    CHECK(!rb_consume(rb, 0, buf, sizeof buf, &ev));
    outer[0] = outer[1] = 101;
    rb_commit(rb);
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK(payload_is(buf, 101, 8));
    CHECK_EQ_INT(ev.number, 1);
    uint64_t last_ts = ev.ts;
    for (uint32_t i = 0; i < 600; i++) {
        CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
        CHECK(payload_is(buf, i, 32));
        CHECK_EQ_INT(ev.number, 2 + i);
        CHECK_EQ_INT(ev.lost_before, 0);
        CHECK(ev.ts == last_ts + 3 || i == 0);
        last_ts = ev.ts;
    }
    CHECK(!rb_consume(rb, 0, buf, sizeof buf, &ev));
    rb_destroy(rb);
}

/* Writers nest at most RB_MAX_NESTING deep (the nesting must not run into RB_REFUSING); one
 * more is refused and counted where it happened. */
TEST(writers_nested_too_deep_are_refused_and_counted)
{
    struct ring_buffer *rb = make(4);
    uint32_t *open[RB_MAX_NESTING];
    for (uint32_t i = 0; i < RB_MAX_NESTING; i++) {
        host_cycles++;
        open[i] = rb_reserve(rb, 4);
        CHECK(open[i] != NULL);
        *open[i] = i;
    }
    CHECK(!rb_reserve(rb, 4));
    for (uint32_t i = 0; i < RB_MAX_NESTING; i++)
        rb_commit(rb);
    CHECK(!rb_cpu_writing(rb, 0));
    CHECK(write_marked(rb, 50, 4));
    uint32_t buf[1];
    struct rb_event ev;
    for (uint32_t i = 0; i < RB_MAX_NESTING; i++) {
        CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
        CHECK_EQ_INT(buf[0], i);
        CHECK_EQ_INT(ev.lost_before, 0);
    }
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK_EQ_INT(buf[0], 50);
    CHECK_EQ_INT(ev.lost_before, 1); /* the refused one, in its place */
    CHECK_EQ_INT(ev.number, RB_MAX_NESTING);
    rb_destroy(rb);
}

/* The fast path stores only the clock's low half: a new high half, a gap of 2^27 or more and
 * a clock gone back (by a little, or by almost 2^32 within one high half, which a 32-bit
 * difference alone would take for a step forward) all take the slow path, and every time
 * read back is exact. */
TEST(clock_high_half_changes_and_long_gaps_keep_times_exact)
{
    const uint64_t times[] = { 0xffffff00u, 0xffffff40u, 0x100000010ull, 0x100000020ull,
                               0x100000020ull + (1u << 27), 0x1ffffffffull, 0x200000001ull,
                               0x200000000ull /* back a little: clamped */, 0x2fff00000ull,
                               0x200000010ull /* back by almost 2^32 in one high half */,
                               0x2fff00008ull };
    const uint64_t expected[] = { 0xffffff00u, 0xffffff40u, 0x100000010ull, 0x100000020ull,
                                  0x100000020ull + (1u << 27), 0x1ffffffffull, 0x200000001ull,
                                  0x200000001ull, 0x2fff00000ull, 0x2fff00000ull,
                                  0x2fff00008ull };
    /* Short events (the inline fast path) and long ones (rb_reserve_long) alike. */
    for (uint32_t length = 8; length <= 200; length += 192) {
        struct ring_buffer *rb = make(8);
        for (uint32_t i = 0; i < 11; i++) {
            host_cycles = times[i];
            CHECK(write_marked(rb, i, length));
        }
        static uint32_t buf[50];
        struct rb_event ev;
        for (uint32_t i = 0; i < 11; i++) {
            CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
            CHECK(payload_is(buf, i, length));
            CHECK_EQ_INT(ev.ts, expected[i]);
            CHECK_EQ_INT(ev.number, i);
        }
        rb_destroy(rb);
    }
}

/* A ring that refuses for a moment (RB_REFUSING set while disabled is back at 0, as when a
 * stopper has not cleared it yet) lets the writer go on, and it publishes as the outermost
 * writer: the event is there and readers see the earlier ones while it is open. */
TEST(refusing_bit_without_a_stop_lets_the_writer_through)
{
    struct ring_buffer *rb = make(4);
    host_cycles += 10;
    CHECK(write_marked(rb, 1, 8));
    __atomic_or_fetch(&rb->cpu[0].writers, RB_REFUSING, __ATOMIC_SEQ_CST);
    host_cycles += 10;
    uint32_t *p = rb_reserve(rb, 8);
    CHECK(p != NULL);
    uint32_t buf[2];
    struct rb_event ev;
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK(payload_is(buf, 1, 8));
    CHECK(!rb_consume(rb, 0, buf, sizeof buf, &ev));
    p[0] = p[1] = 2;
    rb_commit(rb);
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK(payload_is(buf, 2, 8));
    CHECK_EQ_INT(ev.number, 1);
    /* A real stop still refuses (and the stop's own share is no loss), then lets go. */
    rb_disable_writers(rb, 1);
    CHECK(!write_marked(rb, 3, 8));
    rb_disable_writers(rb, -1);
    CHECK(write_marked(rb, 4, 8));
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK(payload_is(buf, 4, 8));
    CHECK_EQ_INT(ev.lost_before, 0);
    CHECK_EQ_INT(ev.number, 2);
    rb_destroy(rb);
}

/* The writers' count of events is 24 bits wide: numbers and the entry count stay exact as
 * it wraps (it is folded into the 64-bit next_entry at least once per page). */
TEST(event_numbers_survive_the_writers_count_wrapping)
{
    struct ring_buffer *rb = make(4);
    rb->cpu[0].writers = (RB_COUNT_MASK - 100) << RB_COUNT_SHIFT; /* 101 events before a wrap */
    rb_reset(rb); /* numbers start at 0 from this count */
    uint32_t buf[2], consumed = 0;
    struct rb_event ev;
    struct rb_stats st;
    for (uint32_t i = 0; i < 1000; i++) {
        host_cycles++;
        CHECK(write_marked(rb, i, 8));
        if (i % 7 == 0) {
            rb_get_stats(rb, 0, &st);
            CHECK_EQ_INT(st.entries, i + 1 - consumed);
            CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
            CHECK_EQ_INT(ev.number, consumed);
            consumed++;
        }
    }
    while (rb_consume(rb, 0, buf, sizeof buf, &ev)) {
        CHECK_EQ_INT(ev.number, consumed);
        CHECK(payload_is(buf, consumed, 8));
        CHECK_EQ_INT(ev.lost_before, 0);
        consumed++;
    }
    CHECK_EQ_INT(consumed, 1000);
    rb_get_stats(rb, 0, &st);
    CHECK(st.entries == 0 && st.overrun == 0 && st.dropped == 0 && st.read == 1000);
    rb_destroy(rb);
}

/* A discarded event after a long gap leaves its time extend at the end of the data. The
 * consumer must wait there, not take the writer's page for finished: the next event goes
 * on the same page, and it must be read, with its own time and number. */
TEST(a_time_extend_left_by_a_discard_does_not_end_the_writers_page)
{
    struct ring_buffer *rb = make(4);
    CHECK(write_marked(rb, 0, 8));
    host_cycles += (uint64_t)3 << 27; /* past the 27-bit delta: a time extend */
    uint32_t *p = rb_reserve(rb, 8);
    CHECK(p != NULL);
    rb_discard(rb, p, 8);
    uint32_t buf[2];
    struct rb_event ev;
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK_EQ_INT(ev.number, 0);
    CHECK(!rb_consume(rb, 0, buf, sizeof buf, &ev)); /* only the time extend is there */
    host_cycles += 5;
    CHECK(write_marked(rb, 1, 8));
    CHECK(rb_consume(rb, 0, buf, sizeof buf, &ev));
    CHECK_EQ_INT(ev.number, 1);
    CHECK_EQ_INT(ev.ts, host_cycles);
    CHECK_EQ_INT(ev.lost_before, 0);
    CHECK(payload_is(buf, 1, 8));
    rb_destroy(rb);
}
