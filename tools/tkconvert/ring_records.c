/*
 * ring_records.c - tracekern's ring-buffer records in a capture frame (see ring_records.h).
 */
#include "tools/tkconvert/ring_records.h"

#include <stdio.h>

static uint32_t get32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

void ring_reader_open(struct ring_reader *r, const uint8_t *records, uint32_t len, uint64_t time)
{
    r->records = records;
    r->len = len;
    r->pos = 0;
    r->time = time;
}

/* Reports the record at r->pos as undecodable. */
static int bad(struct ring_reader *r, char *err, size_t errlen, const char *what, uint32_t value)
{
    char detail[96];
    snprintf(detail, sizeof detail, what, value);
    snprintf(err, errlen, "record at byte %u: %s", r->pos, detail);
    return -1;
}

int ring_reader_next(struct ring_reader *r, struct ring_event *ev, char *err, size_t errlen)
{
    while (r->pos < r->len) {
        uint32_t left = r->len - r->pos;
        if (left < 4)
            return bad(r, err, errlen, "a header cut off (%u bytes)", left);
        const uint8_t *at = r->records + r->pos;
        uint32_t header = get32(at), type = header & 31, delta = header >> RING_DELTA_SHIFT;
        if (type >= 1 && type <= RING_TYPE_DATA_MAX) {
            if (type * 4 > left - 4)
                return bad(r, err, errlen, "an event of %u bytes past the frame's end", type * 4);
            r->time += delta;
            *ev = (struct ring_event){ r->time, at + 4, type * 4, r->pos };
            r->pos += 4 + type * 4;
            return 1;
        }
        if (left < 8)
            return bad(r, err, errlen, "type %u, its second word cut off", type);
        uint32_t word = get32(at + 4);
        switch (type) {
        case RING_TYPE_TIME_EXTEND:
            r->time += ((uint64_t)word << RING_DELTA_BITS) + delta;
            r->pos += 8;
            continue;
        case 0:
        case RING_TYPE_DISCARDED:
            if (word % 4)
                return bad(r, err, errlen, "a length of %u bytes, not whole words", word);
            if (word > left - 8)
                return bad(r, err, errlen, "a length of %u bytes past the frame's end", word);
            r->time += delta;
            if (type == 0) {
                *ev = (struct ring_event){ r->time, at + 8, word, r->pos };
                r->pos += 8 + word;
                return 1;
            }
            r->pos += 8 + word; /* discarded: skipped, its delta kept */
            continue;
        default:
            return bad(r, err, errlen, "type %u, which tracekern's ring never writes", type);
        }
    }
    return 0;
}
