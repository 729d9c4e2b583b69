/*
 * page_builder.h - turns one CPU's CAPTURE_EVENTS frames into Linux's pages
 * (events/header_page's layout, trace/core/raw_page.h), exactly the pages the guest's
 * per_cpu/cpuN/trace_pipe_raw gives (trace/core/trace_raw.c, raw_fill):
 *
 *   - events go on a page in order while they fit; times in the trace clock's nanoseconds
 *     (the CLOCK frame's conversion), the cycle fields it lists converted the same way;
 *   - a page's missed count is the lost_before of its first event; a later event with a
 *     lost_before > 0 ends the page before it, so that the next page reports the loss in
 *     its place;
 *   - a frame with no records and a lost_before > 0 carries trailing losses: the open page
 *     is finished, then a page with no events whose missed count they are (commit 0,
 *     RB_MISSED_EVENTS|RB_MISSED_STORED, the count after the empty data), stamped with the
 *     frame's time: Linux's readers find a count only on a page;
 *   - discarded records are skipped; frames continue each other, so a page may hold events
 *     of several frames.
 *
 * Finished pages go to the emit function given at init. Portable:
 * tests/unit/test_tk_page_builder.c.
 */
#ifndef TOOLS_TKCONVERT_PAGE_BUILDER_H
#define TOOLS_TKCONVERT_PAGE_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/tkconvert/cycle_clock.h"
#include "trace/core/raw_page.h"

/* Takes a finished page (RAW_PAGE_SIZE bytes, valid only during the call). False when
 * memory ran out. */
typedef bool (*page_emit_fn)(void *ctx, unsigned cpu, const uint8_t *page);

struct page_builder {
    unsigned cpu;
    page_emit_fn emit;
    void *ctx;
    struct raw_page page; /* the open page, in bytes */
    uint64_t missed;      /* its missed count: the lost_before of its first event */
    uint64_t lost;        /* events lost before the next event (a frame of discarded records) */
    uint64_t lost_time;   /* cycles: when the last of those was counted */
    _Alignas(8) uint8_t bytes[RAW_PAGE_SIZE];
    _Alignas(8) uint8_t event[RAW_PAGE_SIZE]; /* an event's payload, its cycle fields converted */
};

enum page_builder_result {
    PAGE_BUILDER_OK = 0,
    PAGE_BUILDER_BAD = -1,       /* a record could not be used: the message says which, at
                                  * *bad_offset in the payload; events before it were kept */
    PAGE_BUILDER_NO_MEMORY = -2, /* emit failed */
};

/* Starts cpu's builder with an empty page. */
void page_builder_init(struct page_builder *b, unsigned cpu, page_emit_fn emit, void *ctx);

/* Adds one EVENTS frame's payload (struct capture_events, then records; length is at least
 * the struct's size), times converted by k. */
int page_builder_frame(struct page_builder *b, const struct tk_clock *k, const uint8_t *payload,
                       uint32_t length, uint32_t *bad_offset, char *err, size_t errlen);

/* Ends what is open: the open page if it holds events, then a page of the losses still
 * waiting for an event, if any (the end of a session, or damage that must fall between
 * pages). False when memory ran out. */
bool page_builder_finish(struct page_builder *b, const struct tk_clock *k);

#endif
