/*
 * tk_capture_build.h - builds binary captures (uapi/trace_capture.h, format 2) in memory for
 * the converter's tests: frames with a correct frame check, which a test may then damage,
 * and the ring buffer's records that CAPTURE_EVENTS frames carry.
 */
#ifndef TESTS_UNIT_TK_CAPTURE_BUILD_H
#define TESTS_UNIT_TK_CAPTURE_BUILD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/frame_sum.h"
#include "uapi/trace_capture.h"

struct capture_buf {
    uint8_t *bytes;
    size_t len;
};

/* Appends a frame; returns its offset in the capture. */
static inline size_t cb_frame(struct capture_buf *b, unsigned type, unsigned cpu,
                              const void *payload, uint32_t length)
{
    size_t at = b->len;
    struct capture_frame_header h = {CAPTURE_MAGIC, (uint16_t)type, (uint16_t)cpu, length,
                                     length ? frame_sum(payload, length) : 0};
    b->bytes = realloc(b->bytes, b->len + CAPTURE_HEADER_SIZE + length);
    memcpy(b->bytes + at, &h, sizeof h);
    if (length)
        memcpy(b->bytes + at + CAPTURE_HEADER_SIZE, payload, length);
    b->len += CAPTURE_HEADER_SIZE + length;
    return at;
}

static inline size_t cb_start(struct capture_buf *b, uint32_t nr_cpus)
{
    struct capture_start s = {CAPTURE_VERSION, nr_cpus, 4096, 4};
    return cb_frame(b, CAPTURE_START, 0, &s, sizeof s);
}

/* A CLOCK frame: ns = (c - boot) * mult >> shift, with n cycle fields. */
static inline size_t cb_clock(struct capture_buf *b, uint64_t boot, uint32_t mult, uint32_t shift,
                              const struct capture_cycle_field *fields, uint32_t n)
{
    uint8_t payload[sizeof(struct capture_clock) + 64 * sizeof(struct capture_cycle_field)];
    struct capture_clock k = {boot, mult, shift, n, 0};
    memcpy(payload, &k, sizeof k);
    if (n)
        memcpy(payload + sizeof k, fields, n * sizeof *fields);
    return cb_frame(b, CAPTURE_CLOCK, 0, payload, (uint32_t)(sizeof k + n * sizeof *fields));
}

/* The clock most tests use: one cycle is one nanosecond from cycle 0 (mult 1 << 22). */
static inline size_t cb_clock_ns(struct capture_buf *b)
{
    return cb_clock(b, 0, 1u << 22, 22, NULL, 0);
}

/* A FILE frame: path, NUL, the text (without its NUL). */
static inline size_t cb_file(struct capture_buf *b, const char *path, const char *text)
{
    size_t pl = strlen(path) + 1, tl = strlen(text);
    uint8_t *payload = malloc(pl + tl);
    memcpy(payload, path, pl);
    memcpy(payload + pl, text, tl);
    size_t at = cb_frame(b, CAPTURE_FILE, 0, payload, (uint32_t)(pl + tl));
    free(payload);
    return at;
}

/* Appends raw bytes (garbage between frames). */
static inline void cb_raw(struct capture_buf *b, const void *bytes, size_t len)
{
    b->bytes = realloc(b->bytes, b->len + len);
    memcpy(b->bytes + b->len, bytes, len);
    b->len += len;
}

/* Records of tracekern's ring buffer being written, as an EVENTS frame carries them. */
struct ring_records {
    uint8_t bytes[8192];
    uint32_t len;
};

static inline void rr_word(struct ring_records *r, uint32_t w)
{
    memcpy(r->bytes + r->len, &w, 4);
    r->len += 4;
}

/* A time extend carrying delta (whole: the record after it then has a delta of 0). */
static inline void rr_extend(struct ring_records *r, uint64_t delta)
{
    rr_word(r, 30u | (uint32_t)(delta & ((1u << 27) - 1)) << 5);
    rr_word(r, (uint32_t)(delta >> 27));
}

/* An event delta cycles after the record before it, as the ring writes it: a time extend
 * first when the delta needs one, type_len 1..28 for 1..112 payload bytes, else type 0 and
 * a length word. length is rounded up to whole words (zeros). */
static inline void rr_event(struct ring_records *r, uint64_t delta, const void *payload,
                            uint32_t length)
{
    uint32_t body = (length + 3) & ~3u;
    if (delta >= (1u << 27)) {
        rr_extend(r, delta);
        delta = 0;
    }
    if (body >= 4 && body <= 112) {
        rr_word(r, body / 4 | (uint32_t)delta << 5);
    } else {
        rr_word(r, (uint32_t)delta << 5);
        rr_word(r, body);
    }
    memset(r->bytes + r->len, 0, body);
    memcpy(r->bytes + r->len, payload, length);
    r->len += body;
}

/* A discarded event of body bytes (type_len 29), delta cycles after the record before it. */
static inline void rr_discarded(struct ring_records *r, uint32_t delta, uint32_t body)
{
    rr_word(r, 29u | delta << 5);
    rr_word(r, body);
    memset(r->bytes + r->len, 0xdd, body);
    r->len += body;
}

/* An EVENTS frame of cpu: struct capture_events, then records[0..len). */
static inline size_t cb_events(struct capture_buf *b, unsigned cpu, uint64_t time,
                               uint64_t first_entry, uint64_t lost_before, const void *records,
                               uint32_t len)
{
    struct capture_events e = {time, first_entry, lost_before};
    uint8_t *payload = malloc(sizeof e + len);
    memcpy(payload, &e, sizeof e);
    if (len)
        memcpy(payload + sizeof e, records, len);
    size_t at = cb_frame(b, CAPTURE_EVENTS, cpu, payload, (uint32_t)(sizeof e + len));
    free(payload);
    return at;
}

/* A marker-like payload: struct trace_entry of type, then n bytes of text. */
static inline uint32_t tk_entry(uint8_t *out, uint16_t type, int32_t pid, const char *text)
{
    uint32_t n = (uint32_t)strlen(text);
    memset(out, 0, 8);
    memcpy(out, &type, 2);
    memcpy(out + 4, &pid, 4);
    memcpy(out + 8, text, n);
    return 8 + n;
}

#endif
