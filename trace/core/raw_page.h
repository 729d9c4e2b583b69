/*
 * raw_page.h - ring-buffer pages in Linux's binary layout: what per_cpu/cpuN/trace_pipe_raw
 * serves and what trace-cmd and libtraceevent's kbuffer parse. It is Linux's struct
 * buffer_data_page as an i386 kernel has it (a 4-byte local_t, 4-byte data alignment):
 *
 *   offset 0   u64 time_stamp  the clock (ns, trace_clock "local") of the first event
 *   offset 8   u32 commit      bytes of events in data, plus two flags:
 *                              RAW_MISSED_EVENTS: events were lost before this page;
 *                              RAW_MISSED_STORED: their count, a 32-bit unsigned long, lies
 *                              in data right after the events
 *   offset 12  data[4084]      events, then zeros
 *
 * An event is a 32-bit word, type_len in bits 0-4 and time_delta in bits 5-31 (ns since the
 * previous event, or since time_stamp for the first), then:
 *   type_len 1..28  the payload, type_len * 4 bytes
 *   type_len 0      a word holding the payload length + 4, then the payload (over 112 bytes)
 *   type_len 30     a time extend: the next word holds delta >> 27, the header the low bits
 * (29, padding, and 31, an absolute time stamp, are never written here.)
 *
 * tracekern's own pages keep more in their header and count raw cycles, so trace_pipe_raw
 * builds these pages from consumed events (trace/core/trace_raw.c). This encoder is
 * portable: tests/unit/test_raw_page.c.
 */
#ifndef TRACE_CORE_RAW_PAGE_H
#define TRACE_CORE_RAW_PAGE_H

#include <stdbool.h>
#include <stdint.h>

#define RAW_PAGE_SIZE 4096u
#define RAW_PAGE_HEADER 12u
#define RAW_PAGE_DATA (RAW_PAGE_SIZE - RAW_PAGE_HEADER)
#define RAW_MISSED_EVENTS (1u << 31)
#define RAW_MISSED_STORED (1u << 30)
#define RAW_TYPE_DATA_MAX 28
#define RAW_TYPE_PADDING 29
#define RAW_TYPE_TIME_EXTEND 30
#define RAW_TYPE_TIME_STAMP 31
#define RAW_DELTA_BITS 27

/* A page being filled. */
struct raw_page {
    uint8_t *bytes;   /* RAW_PAGE_SIZE bytes */
    uint32_t used;    /* bytes of events in data so far */
    uint32_t events;  /* data events in it */
    uint64_t last_ts; /* of the last event added */
};

/* Starts an empty page in bytes (RAW_PAGE_SIZE of them, 4-byte aligned). */
void raw_page_start(struct raw_page *p, void *bytes);
/* Bytes an event of length payload bytes at time ts takes on p (header, time extend). */
uint32_t raw_page_event_size(const struct raw_page *p, uint64_t ts, uint32_t length);
/* Appends an event at time ts (ns; a time before the last event's counts as the same
 * time). False, and p unchanged, when it does not fit. */
bool raw_page_add(struct raw_page *p, uint64_t ts, const void *payload, uint32_t length);
/* Sets the time_stamp of a page with no events (one that carries only a missed count);
 * a page's first event sets it otherwise. */
void raw_page_set_stamp(struct raw_page *p, uint64_t ts);
/* Writes the commit word (with missed, the count of events lost before this page, stored
 * after the events when there is room) and zeroes the rest of the page. */
void raw_page_finish(struct raw_page *p, uint64_t missed);

#endif
