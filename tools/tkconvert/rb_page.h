/*
 * rb_page.h - decodes one page of Linux's ring buffer (events/header_page's layout, what
 * per_cpu/cpuN/trace_pipe_raw gives): the page's time stamp, its commit word with the
 * missed-events flags, and each event with its absolute time.
 *
 * Event headers are 32-bit words: type_len in bits 0-4, time_delta in bits 5-31. type_len
 * 1..28: a payload of type_len * 4 bytes; 0: the payload length + 4 in the next word, then
 * the payload; 29: padding (array[0] its length; a delta of 0 means the page ends here),
 * 30: a time extend (delta += next word << 27), 31: an absolute time stamp.
 *
 * The page is hostile: every length is checked against the commit and the page, and a bad
 * one ends the page with a message saying at which offset. Portable:
 * tests/unit/test_tk_rb_page.c.
 */
#ifndef TOOLS_TKCONVERT_RB_PAGE_H
#define TOOLS_TKCONVERT_RB_PAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RB_PAGE_HEADER 12u
#define RB_MISSED_EVENTS (1u << 31)
#define RB_MISSED_STORED (1u << 30)

struct rb_page_reader {
    const uint8_t *page;
    uint32_t page_size;
    uint32_t end;            /* RB_PAGE_HEADER + the committed bytes */
    uint32_t pos;            /* offset of the next event header */
    uint64_t stamp;          /* the page's time stamp */
    uint64_t ts;             /* time of the last event read */
    bool missed;             /* events were lost before this page */
    bool missed_stored;      /* and missed_count says how many */
    uint32_t missed_count;
};

struct rb_event {
    uint64_t ts;             /* absolute: the page's stamp plus the deltas */
    const uint8_t *data;     /* the payload (a struct trace_entry first) */
    uint32_t length;         /* payload bytes (whole words: may end in padding) */
    uint32_t offset;         /* of its header in the page */
};

/* Opens page[0..page_size). Returns 0, or -1 with a message (a commit beyond the page). */
int rb_page_open(struct rb_page_reader *r, const uint8_t *page, uint32_t page_size, char *err,
                 size_t errlen);
/* The next data event: 1 with ev filled, 0 at the end of the page, -1 with a message when
 * the rest of the page cannot be decoded. */
int rb_page_next(struct rb_page_reader *r, struct rb_event *ev, char *err, size_t errlen);

#endif
