/*
 * fuzz_ipc_log_page.c - the IPC logging writer, reader and decoder (trace/ipc_logging/ipc_log_page.c)
 * on arbitrary events.
 *
 * The input is first one event as a reader would find it: checking and formatting it must
 * stay within its bytes and the line buffer. Then it is a list of raw events for a log of
 * 1 + data[0] % 3 pages, each as <length, type, payload bytes taken from the input in
 * turn>, written over and over until the pages have wrapped. Invariants: an event is
 * written exactly when it is at most IPC_LOG_MAX_MSG_SIZE bytes; reading from the oldest
 * gives written - dropped events, in order, the last one being the last written; the
 * stream rebuilt from the page headers alone (as from a dump) is byte for byte the live one.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/errno.h"
#include "trace/ipc_logging/ipc_log_page.h"

static uint64_t clock_ns;
/* Page start and end times: a clock that moves a nanosecond per reading. */
static uint64_t fake_clock(void) { return ++clock_ns; }

/* Checks and formats one event (an exactly-sized heap copy), into buffers of several sizes. */
static void decode_one(const uint8_t *data, size_t size)
{
    uint8_t *ev = malloc(size ? size : 1);
    char line[IPC_LOG_LINE_MAX];
    memcpy(ev, data, size);
    int n = ipc_log_event_check(ev, size);
    if (n > (int)size || (n < 0 && n != -EINVAL))
        abort();
    static const size_t sizes[] = { 1, 13, 40, IPC_LOG_LINE_MAX };
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t len = ipc_log_format_line(ev, size, line, sizes[i]);
        if (len >= sizes[i] || line[len] != '\0' || strlen(line) != len)
            abort();
        if (sizes[i] == IPC_LOG_LINE_MAX && (len == 0 || line[len - 1] != '\n' ||
                                             memchr(line, '\n', len) != line + len - 1))
            abort();
    }
    free(ev);
}

/* The stream from the page headers alone must equal the live reading from the oldest. */
static void compare_with_dump_view(const struct ipc_log *log, const uint8_t *last, int last_len)
{
    const struct ipc_log_page_header *hdrs[3];
    struct ipc_log_span spans[4];
    static uint8_t stream[4 * IPC_LOG_DATA_SIZE];
    size_t len = 0, at = 0;
    for (uint32_t i = 0; i < log->page_count; i++)
        hdrs[i] = &log->pages[i]->hdr;
    uint32_t count = ipc_log_dump_spans(hdrs, log->page_count, spans);
    for (uint32_t s = 0; s < count; s++) {
        memcpy(stream + len, log->pages[spans[s].page]->data + spans[s].start,
               spans[s].end - spans[s].start);
        len += spans[s].end - spans[s].start;
    }

    struct ipc_log_cursor c = ipc_log_oldest(log);
    uint8_t ev[IPC_LOG_EVENT_MAX];
    uint64_t events = 0;
    int n, prev = 0;
    while ((n = ipc_log_read_event(log, &c, ev)) > 0) {
        if (at + (size_t)n > len || memcmp(stream + at, ev, (size_t)n) != 0)
            abort();
        at += (size_t)n;
        events++;
        prev = n;
    }
    if (n < 0 || at != len || events != log->written - log->dropped)
        abort();
    if (last_len > 0 && (prev != last_len || memcmp(stream + len - prev, last, (size_t)prev) != 0))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    decode_one(data, size);
    if (size < 3)
        return 0;

    struct ipc_log_page *pages[3];
    struct ipc_log log;
    uint32_t count = 1 + data[0] % 3u;
    for (uint32_t i = 0; i < count; i++) {
        pages[i] = aligned_alloc(IPC_LOG_PAGE_SIZE, IPC_LOG_PAGE_SIZE);
        memset(pages[i], 0, IPC_LOG_PAGE_SIZE);
    }
    ipc_log_init(&log, pages, count, "fuzz", 0, fake_clock);

    uint8_t ev[IPC_LOG_EVENT_MAX], last[IPC_LOG_EVENT_MAX];
    int last_len = 0;
    size_t take = 1;
    for (int pass = 0; pass < 64 && (pass < 2 || log.dropped == 0); pass++) {
        for (size_t at = 1; at + 1 < size; at += 2) {
            uint32_t payload = data[at];
            ev[0] = data[at + 1];
            ev[1] = (uint8_t)payload;
            for (uint32_t i = 0; i < payload; i++, take++)
                ev[2 + i] = data[take % size];
            uint64_t oversize = log.oversize;
            int r = ipc_log_append(&log, ev, 2 + payload);
            if (2 + payload > IPC_LOG_MAX_MSG_SIZE) {
                if (r != -EMSGSIZE || log.oversize != oversize + 1)
                    abort();
            } else if (ev[0] == TSV_TYPE_INVALID) {
                if (r != -EINVAL)
                    abort(); /* type 0 is no event: refused */
            } else if (r < 0) {
                abort();
            } else {
                last_len = (int)(2 + payload);
                memcpy(last, ev, (size_t)last_len);
            }
        }
        if (pass == 0)
            compare_with_dump_view(&log, last, last_len); /* before wrapping, most likely */
    }
    compare_with_dump_view(&log, last, last_len);
    for (uint32_t i = 0; i < count; i++)
        free(pages[i]);
    return 0;
}
