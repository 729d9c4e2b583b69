/*
 * page_builder.c - one CPU's capture records into Linux's pages (see page_builder.h).
 */
#include "tools/tkconvert/page_builder.h"

#include <stdio.h>
#include <string.h>

#include "tools/tkconvert/ring_records.h"
#include "uapi/trace_capture.h"

static uint32_t get32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

/* a + b, or the most a u64 holds (hostile counts must not wrap to few). */
static uint64_t add_saturated(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

void page_builder_init(struct page_builder *b, unsigned cpu, page_emit_fn emit, void *ctx)
{
    b->cpu = cpu;
    b->emit = emit;
    b->ctx = ctx;
    b->missed = 0;
    b->lost = 0;
    b->lost_time = 0;
    raw_page_start(&b->page, b->bytes);
}

/* Finishes the open page with missed as its missed count, hands it on, starts the next. */
static bool emit_page(struct page_builder *b, uint64_t missed)
{
    raw_page_finish(&b->page, missed);
    bool ok = b->emit(b->ctx, b->cpu, b->bytes);
    raw_page_start(&b->page, b->bytes);
    b->missed = 0;
    return ok;
}

/* A page of no events, carrying only lost events counted at cycle count `when`. */
static bool emit_losses(struct page_builder *b, const struct tk_clock *k, uint64_t lost,
                        uint64_t when)
{
    raw_page_set_stamp(&b->page, tk_clock_ns(k, when));
    return emit_page(b, lost);
}

bool page_builder_finish(struct page_builder *b, const struct tk_clock *k)
{
    if (b->page.events && !emit_page(b, b->missed))
        return false;
    if (b->lost) {
        uint64_t lost = b->lost;
        b->lost = 0;
        return emit_losses(b, k, lost, b->lost_time);
    }
    return true;
}

/* Adds one event, as raw_fill does: a loss before it, or no room left, ends the open page
 * first. */
static int add_event(struct page_builder *b, const struct tk_clock *k, const struct ring_event *ev,
                     uint64_t lost_before, char *err, size_t errlen)
{
    if (ev->length > RAW_PAGE_DATA - 8) { /* no page holds it, even with nothing else on */
        snprintf(err, errlen, "record at byte %u: an event of %u bytes, more than a page holds",
                 ev->offset, ev->length);
        return PAGE_BUILDER_BAD;
    }
    memcpy(b->event, ev->payload, ev->length);
    tk_clock_convert_fields(k, b->event, ev->length);
    uint64_t ns = tk_clock_ns(k, ev->time);
    if (b->page.events && (lost_before || raw_page_event_size(&b->page, ns, ev->length) >
                                              RAW_PAGE_DATA - b->page.used)) {
        if (!emit_page(b, b->missed))
            return PAGE_BUILDER_NO_MEMORY;
    }
    if (b->page.events == 0)
        b->missed = lost_before;
    raw_page_add(&b->page, ns, b->event, ev->length); /* fits: an empty page holds any */
    return PAGE_BUILDER_OK;
}

int page_builder_frame(struct page_builder *b, const struct tk_clock *k, const uint8_t *payload,
                       uint32_t length, uint32_t *bad_offset, char *err, size_t errlen)
{
    const uint32_t head = (uint32_t)sizeof(struct capture_events);
    uint64_t time = get64(payload), lost_before = get64(payload + 16);
    if (length == head) { /* no records: trailing losses, if any */
        if (!lost_before)
            return PAGE_BUILDER_OK;
        if (b->page.events && !emit_page(b, b->missed))
            return PAGE_BUILDER_NO_MEMORY;
        uint64_t lost = add_saturated(b->lost, lost_before);
        b->lost = 0;
        return emit_losses(b, k, lost, time) ? PAGE_BUILDER_OK : PAGE_BUILDER_NO_MEMORY;
    }
    /* Losses before this frame's first record wait for its first event (the first records
     * may all be discarded ones: then for a later frame's). */
    if (lost_before) {
        b->lost = add_saturated(b->lost, lost_before);
        b->lost_time = time;
    }
    struct ring_reader r;
    struct ring_event ev;
    int got;
    ring_reader_open(&r, payload + head, length - head, time);
    while ((got = ring_reader_next(&r, &ev, err, errlen)) > 0) {
        int rc = add_event(b, k, &ev, b->lost, err, errlen);
        if (rc == PAGE_BUILDER_BAD)
            *bad_offset = head + ev.offset;
        if (rc != PAGE_BUILDER_OK)
            return rc;
        b->lost = 0;
    }
    if (got < 0) {
        *bad_offset = head + r.pos;
        return PAGE_BUILDER_BAD;
    }
    return PAGE_BUILDER_OK;
}
