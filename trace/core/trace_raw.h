/*
 * trace_raw.h - one CPU's events made into Linux pages (raw_page.h), for
 * per_cpu/cpuN/trace_pipe_raw (trace_raw.c) and its self-test. The binary capture on COM2
 * sends the ring's own records instead, and the host builds these same pages from them
 * with the same rules (tools/tkconvert):
 *
 *  - events in the CPU's writing order, consumed from the ring;
 *  - events lost before a page's first event are that page's missed count (Linux's
 *    RB_MISSED_EVENTS flag), and a loss after an event ends the page there, so that the
 *    next page reports it in its place: a loss is never silent;
 *  - timestamps in nanoseconds of the trace clock (`local`), as Linux's pages have them
 *    (the ring keeps TSC cycles), and the fields declared to hold cycles converted too
 *    (trace_declare_cycle_field, trace.h: function_graph's times).
 *
 * A page may stay open across calls and is finished only when its owner wants to hand it
 * out.
 */
#ifndef TRACE_CORE_TRACE_RAW_H
#define TRACE_CORE_TRACE_RAW_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/core/raw_page.h"
#include "trace/core/ring_buffer.h"

struct trace_array; /* issue 18, instances (trace_internal.h) */

struct raw_filler {
    unsigned cpu;
    struct raw_page page;  /* being filled; page.events == 0 while empty */
    uint64_t missed;       /* events lost before the page's first event */
    bool have_carry;       /* an event consumed that could not go on the last page (only when
                            * a writer recycled pages between the look and the take) */
    struct rb_event carry_ev;
    uint8_t bytes[RAW_PAGE_SIZE] __attribute__((aligned(8)));
    uint8_t carry[RB_MAX_EVENT + 4] __attribute__((aligned(8)));
    const struct trace_array *tr; /* issue 18: whose buffer; NULL (raw_fill_init) the top's */
};

/* Why raw_fill stopped. */
enum raw_fill_stop {
    RAW_FILL_DRAINED, /* the CPU has no more events now */
    RAW_FILL_FULL,    /* the next event does not fit, or losses come before it */
};

/* Starts f on cpu with an empty page. */
void raw_fill_init(struct raw_filler *f, unsigned cpu);
/* Adds the CPU's oldest events to the open page until it is full or the CPU has none left.
 * Takes the reader lock per event. At most a page of copying: a caller bounded in time
 * looks at the clock between pages (the page's sending costs more than its filling, and a
 * page cut short by a deadline would go out nearly empty when the writer overruns it). */
enum raw_fill_stop raw_fill(struct raw_filler *f);
/* Finishes the page for handing out (commit word, missed count, zeroed tail) and returns
 * true if it holds events; f->bytes is then the page until raw_fill_next. With no events
 * it returns false and leaves the page open. */
bool raw_fill_finish(struct raw_filler *f);
/* After a finished page was handed out: starts the next, empty one. */
void raw_fill_next(struct raw_filler *f);
#endif
