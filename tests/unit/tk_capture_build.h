/*
 * tk_capture_build.h - builds binary captures (uapi/trace_capture.h) in memory for the
 * converter's tests: frames with a correct CRC, which a test may then damage.
 */
#ifndef TESTS_UNIT_TK_CAPTURE_BUILD_H
#define TESTS_UNIT_TK_CAPTURE_BUILD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/crc32.h"
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
    b->bytes = realloc(b->bytes, b->len + CAPTURE_HEADER_SIZE + length);
    struct capture_frame_header h = {CAPTURE_MAGIC, (uint16_t)type, (uint16_t)cpu, length,
                                     crc32_update(0, payload, length)};
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

#endif
