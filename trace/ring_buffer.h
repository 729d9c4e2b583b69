/*
 * ring_buffer.h - the per-CPU event buffers every tracer writes into.
 *
 * Modelled on Linux's ring buffer: each CPU has a ring of 4 KiB pages; an event is a 32-bit
 * header (5-bit type/length, 27-bit time delta in ns) followed by its payload, so a small
 * event costs 4 bytes of overhead and timestamps cost nothing until 134 ms pass between two
 * events (then an 8-byte time-extend record carries the larger delta).
 *
 * Writers: rb_reserve() claims space and returns where the payload goes; rb_commit()
 * publishes it. Both run with interrupts off for a few instructions only, never while the
 * caller fills the payload. A writer interrupted between reserve and commit (by an interrupt
 * or exception handler that traces too) is *nested*: the nested event is reserved after the
 * outer one and becomes visible when the outermost writer commits, so readers see events in
 * reservation order and never a half-written one. Each CPU writes only its own buffer.
 *
 * Readers never make a writer wait. In overwrite mode the writer recycles the oldest page
 * even while a reader is copying from it; the reader notices (page sequence numbers), throws
 * the copy away, and counts what it missed as overrun. In producer/consumer mode the writer
 * refuses to enter a page holding unread events and counts the refused event as dropped.
 * Every event gets a number in writing order, so every loss is counted exactly.
 *
 * Portable: tests/unit/test_ring_buffer.c, tests/fuzz/fuzz_ring_buffer.c.
 */
#ifndef TRACE_RING_BUFFER_H
#define TRACE_RING_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RB_PAGE_SIZE 4096u
#define RB_MAX_CPUS 8
#define RB_MAX_EVENT 2048u /* largest payload; must fit a page with its headers */
#define RB_DROP_MARKS 16

/* What the buffer needs from its host: memory, a clock, the current CPU. */
struct rb_env {
    void *(*alloc_page)(void);   /* RB_PAGE_SIZE bytes, aligned to 4; NULL when exhausted */
    void (*free_page)(void *page);
    void *(*alloc)(size_t size); /* small structures (kmalloc) */
    void (*free)(void *p);
    uint64_t (*clock_ns)(void);
    unsigned (*cpu_id)(void);
};

struct rb_page;

/* One CPU's ring. Fields are private to ring_buffer.c; the struct is here for sizeof. */
struct rb_cpu {
    struct rb_page **pages;
    uint32_t npages;
    /* writer side (this CPU only, updated with interrupts off) */
    uint64_t write_seq;      /* logical number of the page being written */
    uint32_t write_offset;   /* next free byte in it */
    uint64_t last_ts;        /* timestamp of the last reserved event */
    uint64_t next_entry;     /* number the next event gets */
    uint32_t nesting;        /* writers between reserve and commit */
    uint64_t dropped;        /* refused: buffer full (producer/consumer), too big, resizing */
    /* published state (seqcount-protected for readers) */
    volatile uint32_t gen;   /* odd while the writer updates the fields below */
    uint64_t commit_seq;
    uint32_t commit_offset;
    uint64_t committed_entries;
    uint64_t oldest_seq;     /* oldest page not recycled */
    /* consuming reader */
    uint64_t read_seq;
    uint32_t read_offset;
    uint64_t read_ts;
    uint64_t read_entry;     /* number of the next event the reader expects */
    uint64_t overrun;        /* events overwritten before the reader got them (counted) */
    uint64_t reported_overrun; /* overrun already told to the reader */
    /* Where drops happened: a burst of count drops before event number before_entry was
     * written, so the reader reports them in their place in the stream. A single-producer
     * single-consumer queue; when it is full, drops go to unplaced (reported next). */
    struct rb_drop_mark { uint64_t before_entry, count; } drop_marks[RB_DROP_MARKS];
    volatile uint32_t drop_head, drop_tail;
    uint64_t unplaced_drops, reported_unplaced;
};

struct ring_buffer {
    struct rb_env env;
    unsigned ncpus;
    bool overwrite;          /* true: recycle oldest pages; false: drop new events */
    volatile int record_disabled; /* > 0: writers refuse (tracing_on=0, resizing) */
    volatile bool resizing;  /* refusals now count as dropped */
    struct rb_cpu cpu[RB_MAX_CPUS];
};

/* An event as a reader receives it. */
struct rb_event {
    uint64_t ts;          /* ns, the clock_ns() of its reservation */
    uint64_t number;      /* per-CPU writing order */
    unsigned cpu;
    uint32_t length;      /* payload bytes (rounded up to a multiple of 4) */
    uint64_t lost_before; /* events lost on this CPU since the previous event read */
};

/* Creates a buffer of ncpus rings of pages_per_cpu pages (at least 2). NULL on no memory. */
struct ring_buffer *rb_create(const struct rb_env *env, unsigned ncpus, uint32_t pages_per_cpu);
void rb_destroy(struct ring_buffer *rb);

/* Writer API. rb_reserve returns where to put length payload bytes, or NULL if the event
 * was not accepted (dropped and counted, or recording disabled). */
void *rb_reserve(struct ring_buffer *rb, uint32_t length);
void rb_commit(struct ring_buffer *rb);
/* reserve + copy + commit. */
bool rb_write(struct ring_buffer *rb, const void *data, uint32_t length);

/* Consuming read of cpu's oldest unread event: copies its payload into buf (up to size
 * bytes) and fills *ev. Returns false when cpu has nothing to read. */
bool rb_consume(struct ring_buffer *rb, unsigned cpu, void *buf, uint32_t size,
                struct rb_event *ev);
/* Losses on cpu not yet reported through lost_before (drops after the last event read,
 * typically); reports them now. Call after draining, before a stream ends. */
uint64_t rb_take_lost(struct ring_buffer *rb, unsigned cpu);
/* Peeks at the next event's timestamp without consuming it (to merge CPUs in order). */
bool rb_peek_ts(struct ring_buffer *rb, unsigned cpu, uint64_t *ts);

/* Non-consuming reader over what is in a CPU's ring at rb_iter_start. If writers recycle
 * pages under it, it skips to the oldest surviving page and reports the skipped events in
 * the next event's lost_before; skips with no event after them stay in it->skipped. */
struct rb_iter {
    struct ring_buffer *rb;
    unsigned cpu;
    uint64_t seq, ts, entry, end_seq, skipped;
    uint32_t offset, end_offset;
};
void rb_iter_start(struct ring_buffer *rb, unsigned cpu, struct rb_iter *it);
bool rb_iter_next(struct rb_iter *it, void *buf, uint32_t size, struct rb_event *ev);
bool rb_iter_peek_ts(struct rb_iter *it, uint64_t *ts);

/* Counts for the trace header, per CPU or summed over all (cpu = RB_ALL_CPUS). */
#define RB_ALL_CPUS 0xffffffffu
struct rb_stats {
    uint64_t entries;  /* committed and not yet consumed (nor overwritten) */
    uint64_t overrun;  /* overwritten before being read */
    uint64_t dropped;  /* refused by the writer */
    uint64_t read;     /* consumed */
};
void rb_get_stats(struct ring_buffer *rb, unsigned cpu, struct rb_stats *st);

void rb_set_overwrite(struct ring_buffer *rb, bool overwrite);
/* Empties every ring and zeroes every count. */
void rb_reset(struct ring_buffer *rb);
/* Changes every ring to pages_per_cpu pages keeping the newest unread events (the oldest
 * that no longer fit count as overrun; events written meanwhile count as dropped). Returns
 * 0, -EINVAL (fewer than 2 pages) or -ENOMEM, leaving the buffer as it was. Call with no
 * consumer reading (the tracing core holds its reader lock). */
int rb_resize(struct ring_buffer *rb, uint32_t pages_per_cpu);
uint32_t rb_pages_per_cpu(const struct ring_buffer *rb);
/* Payload bytes a page holds, for converting sizes to counts. */
uint32_t rb_page_data_size(void);

#endif
