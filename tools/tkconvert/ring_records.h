/*
 * ring_records.h - decodes the records of one CAPTURE_EVENTS frame: tracekern's own ring
 * buffer format (trace/core/ring_buffer.h, uapi/trace_capture.h), not Linux's page layout.
 *
 * A record is a 32-bit header, type_len in bits 0-4 and a time delta in cycles in bits 5-31
 * (since the record before it, or since the frame's time for the first), then:
 *   type_len 1..28  an event of type_len * 4 payload bytes
 *   type_len 0      a word holding the payload's length in bytes (a multiple of 4; Linux's
 *                   pages hold length + 4 there, this ring does not), then the payload
 *   type_len 29     a discarded event: a word holding the bytes that follow, skipped (its
 *                   delta still counts)
 *   type_len 30     a time extend: the next word holds delta >> 27, the header the low bits
 * Type 31 (an absolute time stamp) is never written by tracekern's ring.
 *
 * The records are hostile: every length is checked against the frame, and a record that
 * cannot be decoded ends the frame with a message saying at which offset. Portable:
 * tests/unit/test_tk_ring_records.c.
 */
#ifndef TOOLS_TKCONVERT_RING_RECORDS_H
#define TOOLS_TKCONVERT_RING_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#define RING_TYPE_DATA_MAX 28
#define RING_TYPE_DISCARDED 29
#define RING_TYPE_TIME_EXTEND 30
#define RING_DELTA_SHIFT 5
#define RING_DELTA_BITS 27

struct ring_reader {
    const uint8_t *records;
    uint32_t len;
    uint32_t pos;  /* offset of the next record; of the bad one after an error */
    uint64_t time; /* cycles: of the last record read, or the frame's time */
};

/* An event: its absolute time in cycles and its payload inside the frame. */
struct ring_event {
    uint64_t time;
    const uint8_t *payload;
    uint32_t length; /* payload bytes, a multiple of 4 */
    uint32_t offset; /* of its header among the records */
};

/* Starts reading records[0..len), the first record's delta counting from time. */
void ring_reader_open(struct ring_reader *r, const uint8_t *records, uint32_t len, uint64_t time);

/* The next event (time extends and discarded events are stepped over): 1 with ev filled,
 * 0 at the end of the records, -1 with a message when the record at r->pos cannot be
 * decoded (the rest of the frame is lost). */
int ring_reader_next(struct ring_reader *r, struct ring_event *ev, char *err, size_t errlen);

#endif
