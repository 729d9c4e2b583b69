/*
 * rb_page.c - the ring-buffer page decoder (see rb_page.h).
 */
#include "tools/tkconvert/rb_page.h"

#include <stdio.h>
#include <string.h>

#define TYPE_DATA_MAX 28u
#define TYPE_PADDING 29u
#define TYPE_TIME_EXTEND 30u
#define TYPE_TIME_STAMP 31u
#define DELTA_SHIFT 27
#define MISSED_FLAGS (RB_MISSED_EVENTS | RB_MISSED_STORED)

static uint32_t word(const struct rb_page_reader *r, uint32_t at)
{
    uint32_t v;
    memcpy(&v, r->page + at, 4);
    return v;
}

int rb_page_open(struct rb_page_reader *r, const uint8_t *page, uint32_t page_size, char *err,
                 size_t errlen)
{
    memset(r, 0, sizeof *r);
    if (page_size < RB_PAGE_HEADER) {
        snprintf(err, errlen, "page of %u bytes is shorter than its header", page_size);
        return -1;
    }
    r->page = page;
    r->page_size = page_size;
    memcpy(&r->stamp, page, 8);
    r->ts = r->stamp;
    uint32_t commit = word(r, 8);
    uint32_t bytes = commit & ~MISSED_FLAGS;
    if (bytes > page_size - RB_PAGE_HEADER) {
        snprintf(err, errlen, "commit %u is beyond the page's %u data bytes", bytes,
                 page_size - RB_PAGE_HEADER);
        return -1;
    }
    r->end = RB_PAGE_HEADER + bytes;
    r->pos = RB_PAGE_HEADER;
    r->missed = (commit & RB_MISSED_EVENTS) != 0;
    if ((commit & RB_MISSED_STORED) && r->end + 4 <= page_size) {
        r->missed_stored = true;
        r->missed_count = word(r, r->end);
    }
    return 0;
}

int rb_page_next(struct rb_page_reader *r, struct rb_event *ev, char *err, size_t errlen)
{
    while (r->pos < r->end) {
        uint32_t at = r->pos, left = r->end - at;
        if (left < 4) {
            snprintf(err, errlen, "event header at page offset %u cut off by the commit", at);
            r->pos = r->end;
            return -1;
        }
        uint32_t head = word(r, at), type_len = head & 31u, delta = head >> 5;
        uint32_t size, skip, length = 0;
        if (type_len >= 1 && type_len <= TYPE_DATA_MAX) {
            length = type_len * 4;
            skip = 4;
            size = 4 + length;
        } else if (type_len == TYPE_PADDING && delta == 0) {
            r->pos = r->end; /* the rest of the page is empty */
            return 0;
        } else {
            if (left < 8) {
                snprintf(err, errlen, "event at page offset %u (type_len %u) cut off by the commit",
                         at, type_len);
                r->pos = r->end;
                return -1;
            }
            uint32_t array0 = word(r, at + 4);
            if (type_len == TYPE_TIME_EXTEND) {
                r->ts += (uint64_t)array0 << DELTA_SHIFT | delta;
                r->pos += 8;
                continue;
            }
            if (type_len == TYPE_TIME_STAMP) {
                uint64_t stamp = (uint64_t)array0 << DELTA_SHIFT | delta;
                r->ts = (r->ts & ~((1ull << 59) - 1)) | stamp;
                r->pos += 8;
                continue;
            }
            /* type_len 0 or padding: array[0] says the length. */
            if (array0 < 4 || array0 > left - 4) {
                snprintf(err, errlen, "event at page offset %u has a length word %u beyond the commit",
                         at, array0);
                r->pos = r->end;
                return -1;
            }
            size = array0 + 4;
            if (type_len == TYPE_PADDING) { /* a discarded event: its time still counts */
                r->ts += delta;
                r->pos += (size + 3) & ~3u;
                continue;
            }
            length = array0 - 4;
            skip = 8;
        }
        if (size > left) {
            snprintf(err, errlen, "event at page offset %u of %u bytes is beyond the commit", at, size);
            r->pos = r->end;
            return -1;
        }
        r->ts += delta;
        ev->ts = r->ts;
        ev->data = r->page + at + skip;
        ev->length = length;
        ev->offset = at;
        r->pos += (size + 3) & ~3u;
        if (r->pos > r->end)
            r->pos = r->end;
        return 1;
    }
    return 0;
}
