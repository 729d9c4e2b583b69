/*
 * klog.c - the in-memory kernel log.
 *
 * Records live in a byte ring: an 8-byte timestamp, a 2-byte length, then the text of one
 * line (without its newline). Text is gathered in a pending line until its newline arrives,
 * so a message printed in pieces is still one record, stamped when its first piece came.
 */
#include "kernel/log/klog.h"

#include <stdbool.h>

#include "kernel/lib/format.h"
#include "kernel/lib/string.h"

#define LINE_MAX 240
#define HEADER_BYTES 10

static char ring[KLOG_SIZE];
static size_t head;   /* offset of the oldest record */
static size_t used;   /* bytes of records in the ring */
static uint32_t lost; /* records pushed out since the last clear */

static char pending[LINE_MAX];
static size_t pending_len;
static uint64_t pending_ns;
static bool pending_started;

/* Copies n bytes into the ring at offset off, wrapping at the end. */
static void ring_put(size_t off, const void *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ring[(off + i) % KLOG_SIZE] = ((const char *)src)[i];
}

/* Copies n bytes out of the ring from offset off, wrapping at the end. */
static void ring_get(size_t off, void *dst, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ((char *)dst)[i] = ring[(off + i) % KLOG_SIZE];
}

/* Size in the ring of the record starting at off. */
static size_t record_size(size_t off)
{
    uint16_t len;
    ring_get(off + 8, &len, sizeof len);
    return HEADER_BYTES + len;
}

/* Stores the pending line as a record, dropping the oldest records to make room. */
static void commit_pending(void)
{
    size_t need = HEADER_BYTES + pending_len;
    while (KLOG_SIZE - used < need) {
        size_t old = record_size(head);
        head = (head + old) % KLOG_SIZE;
        used -= old;
        lost++;
    }
    size_t tail = (head + used) % KLOG_SIZE;
    uint16_t len = (uint16_t)pending_len;
    ring_put(tail, &pending_ns, 8);
    ring_put(tail + 8, &len, sizeof len);
    ring_put(tail + HEADER_BYTES, pending, pending_len);
    used += need;
    pending_len = 0;
    pending_started = false;
}

void klog_write(const char *text, size_t len, uint64_t now_ns)
{
    for (size_t i = 0; i < len; i++) {
        if (!pending_started) {
            pending_started = true;
            pending_ns = now_ns;
        }
        if (text[i] == '\n') {
            commit_pending();
            continue;
        }
        if (text[i] == '\r')
            continue;
        pending[pending_len++] = text[i];
        if (pending_len == LINE_MAX) /* an overlong line is split, never truncated */
            commit_pending();
    }
}

/* Formats one record as dmesg prints it and hands it to emit. */
static void emit_record(uint64_t ns, const char *text, size_t len,
                        void (*emit)(void *, const char *, size_t), void *ctx)
{
    char line[LINE_MAX + 32];
    uint32_t seconds = (uint32_t)(ns / 1000000000u);
    uint32_t micros = (uint32_t)((ns % 1000000000u) / 1000u);
    int n = ksnprintf(line, sizeof line, "[%5u.%06u] %.*s\n", seconds, micros, (int)len, text);
    emit(ctx, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

void klog_dump(void (*emit)(void *ctx, const char *text, size_t len), void *ctx)
{
    if (lost) {
        char msg[64];
        int n = ksnprintf(msg, sizeof msg, "(%u earlier messages were overwritten)\n", lost);
        emit(ctx, msg, (size_t)n);
    }
    size_t off = head, left = used;
    while (left) {
        uint64_t ns;
        uint16_t len;
        char text[LINE_MAX];
        ring_get(off, &ns, 8);
        ring_get(off + 8, &len, sizeof len);
        ring_get(off + HEADER_BYTES, text, len);
        emit_record(ns, text, len, emit, ctx);
        off = (off + HEADER_BYTES + len) % KLOG_SIZE;
        left -= HEADER_BYTES + len;
    }
    if (pending_len)
        emit_record(pending_ns, pending, pending_len, emit, ctx);
}

void klog_clear(void)
{
    head = used = pending_len = 0;
    pending_started = false;
    lost = 0;
}
