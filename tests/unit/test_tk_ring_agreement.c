/* test_tk_ring_agreement.c - the converter's record decoder (tools/tkconvert/ring_records.c)
 * against the ring buffer itself (trace/core/ring_buffer.c, built for the host): each ring
 * page's bytes, as an EVENTS frame carries them, decode to exactly the events the ring's
 * own consuming reader returns: same times in cycles, lengths and payloads, through short
 * and long events, time extends, and events discarded under a nested writer (padding). */
#include "unit.h"

#include "rb_host_env.h"
#include "tools/tkconvert/ring_records.h"

#define EVENTS 400

/* A payload of length bytes, each byte i's low bits. */
static void fill(uint8_t *p, uint32_t length, uint32_t i)
{
    for (uint32_t k = 0; k < length; k++)
        p[k] = (uint8_t)(i + k);
}

TEST(the_decoder_reads_each_ring_page_as_the_ring_reads_it)
{
    host_cycles = 5000;
    host_cpu = 0;
    host_page_budget = -1;
    struct ring_buffer *rb = rb_create(&host_env, 1, 64); /* room for all: nothing recycled */
    CHECK(rb != NULL);
    uint8_t payload[RB_MAX_EVENT];
    uint32_t x = 12345, written = 0, discarded = 0;
    for (uint32_t i = 0; i < EVENTS; i++) {
        x = x * 1103515245u + 12345u;
        uint32_t length = (x >> 8) % 300; /* 0 (type 0, no payload), small, and long */
        if (i % 17 == 3)
            host_cycles += (1ull << 27) + i; /* a time extend */
        else if (i % 61 == 7)
            host_cycles += 1ull << 35;
        else
            host_cycles += (x >> 20) % 2000;
        if (i % 23 == 5) { /* discarded under a nested writer: it stays, as padding */
            void *outer = rb_reserve(rb, 40);
            CHECK(outer != NULL);
            host_cycles += 7;
            fill(payload, 16, i);
            CHECK(rb_write(rb, payload, 16));
            rb_discard(rb, outer, 40);
            written++;
            discarded++;
            continue;
        }
        fill(payload, length, i);
        CHECK(rb_write(rb, payload, length));
        written++;
    }
    /* Decode every page the writer used, as frames: the page's bytes from its time stamp. */
    static struct ring_event decoded[EVENTS];
    uint32_t n = 0;
    const struct rb_cpu *c = &rb->cpu[0];
    char err[128];
    for (uint64_t seq = 0; seq <= c->write_seq; seq++) {
        const struct rb_page *p = c->pages[seq % c->npages];
        uint32_t size = seq < c->write_seq ? p->size : c->write_pos - (uint32_t)seq * RB_PAGE_SIZE;
        struct ring_reader r;
        struct ring_event ev;
        int got;
        ring_reader_open(&r, p->data, size, p->time_stamp);
        while ((got = ring_reader_next(&r, &ev, err, sizeof err)) > 0 && n < EVENTS)
            decoded[n++] = ev;
        CHECK_EQ_INT(got, 0);
    }
    CHECK(c->write_seq >= 8); /* the events spread over pages */
    CHECK(discarded > 10);
    /* The ring's own reader gives the same events, in the same order. */
    static uint8_t buf[RB_MAX_EVENT];
    struct rb_event ev;
    uint32_t k = 0;
    while (rb_consume(rb, 0, buf, sizeof buf, &ev)) {
        CHECK(k < n);
        if (k >= n)
            break;
        CHECK(decoded[k].time == ev.ts);
        CHECK_EQ_INT(decoded[k].length, ev.length);
        CHECK(memcmp(decoded[k].payload, buf, ev.length) == 0);
        k++;
    }
    CHECK_EQ_INT(k, n);
    CHECK_EQ_INT(n, written);
    rb_destroy(rb);
}
