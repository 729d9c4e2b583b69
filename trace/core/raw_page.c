/*
 * raw_page.c - encodes events into Linux's ring-buffer page layout (see raw_page.h).
 */
#include "trace/core/raw_page.h"

#include "kernel/lib/string.h"

#define DELTA_LIMIT (1ull << RAW_DELTA_BITS)
#define SMALL_DATA_MAX (RAW_TYPE_DATA_MAX * 4u)

static void put32(uint8_t *at, uint32_t v) { memcpy(at, &v, 4); }

/* Payload bytes stored: rounded up to whole words, at least one. */
static uint32_t body_size(uint32_t length)
{
    uint32_t body = (length + 3) & ~3u;
    return body ? body : 4;
}

void raw_page_start(struct raw_page *p, void *bytes)
{
    p->bytes = bytes;
    p->used = 0;
    p->events = 0;
    p->last_ts = 0;
    memset(bytes, 0, RAW_PAGE_HEADER);
}

/* The delta of an event at ts from the previous one (0 for a page's first event). */
static uint64_t delta_of(const struct raw_page *p, uint64_t ts)
{
    return p->events && ts > p->last_ts ? ts - p->last_ts : 0;
}

uint32_t raw_page_event_size(const struct raw_page *p, uint64_t ts, uint32_t length)
{
    uint32_t body = body_size(length);
    uint32_t size = (body <= SMALL_DATA_MAX ? 4 : 8) + body;
    return size + (delta_of(p, ts) >= DELTA_LIMIT ? 8 : 0);
}

bool raw_page_add(struct raw_page *p, uint64_t ts, const void *payload, uint32_t length)
{
    uint32_t size = raw_page_event_size(p, ts, length);
    if (size > RAW_PAGE_DATA - p->used)
        return false;
    uint64_t delta = delta_of(p, ts);
    if (p->events == 0) {
        uint64_t stamp = ts;
        memcpy(p->bytes, &stamp, 8);
    } else if (ts < p->last_ts) {
        ts = p->last_ts;
    }
    uint8_t *at = p->bytes + RAW_PAGE_HEADER + p->used;
    if (delta >= DELTA_LIMIT) {
        put32(at, RAW_TYPE_TIME_EXTEND | (uint32_t)((delta & (DELTA_LIMIT - 1)) << 5));
        put32(at + 4, (uint32_t)(delta >> RAW_DELTA_BITS));
        at += 8;
        delta = 0;
    }
    uint32_t body = body_size(length);
    if (body <= SMALL_DATA_MAX) {
        put32(at, body / 4 | (uint32_t)delta << 5);
        at += 4;
    } else {
        put32(at, (uint32_t)delta << 5); /* type_len 0: the length is in the next word */
        put32(at + 4, body + 4);
        at += 8;
    }
    memcpy(at, payload, length);
    memset(at + length, 0, body - length);
    p->used += size;
    p->events++;
    p->last_ts = ts;
    return true;
}

void raw_page_set_stamp(struct raw_page *p, uint64_t ts)
{
    if (p->events == 0)
        memcpy(p->bytes, &ts, 8);
}

void raw_page_finish(struct raw_page *p, uint64_t missed)
{
    uint32_t commit = p->used, end = p->used;
    if (missed) {
        if (RAW_PAGE_DATA - end >= 4) {
            put32(p->bytes + RAW_PAGE_HEADER + end,
                  missed > 0xffffffffu ? 0xffffffffu : (uint32_t)missed);
            end += 4;
            commit |= RAW_MISSED_STORED;
        }
        commit |= RAW_MISSED_EVENTS;
    }
    put32(p->bytes + 8, commit);
    memset(p->bytes + RAW_PAGE_HEADER + end, 0, RAW_PAGE_DATA - end);
}
