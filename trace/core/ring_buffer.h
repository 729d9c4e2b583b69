/*
 * ring_buffer.h - the per-CPU event buffers every tracer writes into.
 *
 * Modelled on Linux's ring buffer: each CPU has a ring of 4 KiB pages; an event is a 32-bit
 * header (5-bit type/length, 27-bit time delta) followed by its payload, so a small event
 * costs 4 bytes of overhead and timestamps cost nothing until 2^27 cycles pass between two
 * events (then an 8-byte time-extend record carries the larger delta). Timestamps are raw
 * cycle counts, the cheapest clock there is; readers convert them to nanoseconds.
 *
 * Writers: rb_reserve() claims space and returns where the payload goes; rb_commit()
 * publishes it. Each CPU writes only its own ring (struct rb_cpu, a cache line of its own),
 * so writers on different CPUs never wait for each other nor share a written line. Both run with interrupts off for a few instructions only, never while the
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
#ifndef TRACE_CORE_RING_BUFFER_H
#define TRACE_CORE_RING_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RB_PAGE_SIZE 4096u
#define RB_MAX_CPUS 8
#define RB_MAX_EVENT 2048u /* largest payload; must fit a page with its headers */
#define RB_DROP_MARKS 16

/* Memory the buffer gets from its host. Timestamps come from arch_cycles() and the CPU
 * number from arch_cpu_id() (kernel/arch.h): inline instructions in the kernel, variables
 * in host tests. */
struct rb_env {
    void *(*alloc_page)(void);   /* RB_PAGE_SIZE bytes, aligned to 4; NULL when exhausted */
    void (*free_page)(void *page);
    void *(*alloc)(size_t size); /* small structures (kmalloc) */
    void (*free)(void *p);
};

/* A page of a ring: this header, then events. */
struct rb_page {
    uint64_t seq;         /* logical page number this slot holds */
    uint64_t time_stamp;  /* clock of the page's first event; deltas start from it */
    uint64_t first_entry; /* number of the page's first event */
    uint32_t size;        /* bytes of events, final once the writer has moved on */
    uint32_t reserved;
    uint8_t data[];
};

#define RB_PAGE_DATA (RB_PAGE_SIZE - (uint32_t)sizeof(struct rb_page))
/* Event header: type_len in the low 5 bits, time delta in the high 27. */
#define RB_DELTA_SHIFT 5
#define RB_DELTA_LIMIT (1u << 27)
#define RB_TYPE_DATA_MAX 28 /* type_len 1..28: payload is type_len * 4 bytes */

/* Writers on different CPUs must never share a cache line (each store would steal the
 * line from the other CPU), nor a writer with the consuming reader: every rb_cpu starts a
 * line of its own, and so does its reader part. 64 bytes is the line of every x86 since the
 * Pentium 4. */
#define RB_CACHE_LINE 64
#define RB_STOP_RESIZE 0x10000 /* record_disabled's share of a resize (rb_writers_stop) */

/* One CPU's ring. Fields are private to ring_buffer.c; the struct is here for sizeof.
 * Its size is RB_CPU_STRIDE, a power of two (the stride member pads it): finding this CPU's
 * ring, rb->cpu[cpu] on every reserve and commit, is then one shift, not a multiply. */
#define RB_CPU_STRIDE 512
struct rb_cpu {
  union {
   struct {
    /* Writers between reserve and commit: the writer's own count, which a writer backing
     * out of a stopped ring changes at any moment. First, so that reset and resize, which
     * rewrite everything after it, never write it (ring_buffer.c, RB_CPU_STATE). */
    uint32_t nesting;
    /* Events refused while the writers were stopped for a resize: a count only the writers
     * add to (atomically, whenever they are refused), outside what the resize rewrites. */
    volatile uint32_t stopped_drops;
    struct rb_page **pages;
    uint32_t npages;
    /* writer side (this CPU only, updated with interrupts off) */
    struct rb_page *write_page; /* the slot of write_seq */
    uint64_t write_seq;      /* logical number of the page being written */
    uint32_t write_offset;   /* next free byte in it */
    uint64_t last_ts;        /* timestamp of the last reserved event */
    uint64_t next_entry;     /* number the next event gets */
    uint64_t dropped;        /* refused: buffer full (producer/consumer), too big, resizing */
    /* published state (seqcount-protected for readers) */
    uint32_t write_base;     /* write_seq * RB_PAGE_DATA, modulo 2^32 */
    /* published to readers */
    volatile uint32_t commit_pos; /* end of visible data: page * RB_PAGE_DATA + offset, mod 2^32 */
    volatile uint32_t gen;   /* odd while the writer updates oldest_seq */
    uint64_t oldest_seq;     /* oldest page not recycled */
    /* Where drops happened: a burst of drops before event number before_entry was written,
     * so the reader reports them in their place in the stream. A single-producer
     * single-consumer queue; when it is full, drops go to unplaced (reported next). count's
     * top bit (RB_DROP_TAKEN) is set by the reader taking the mark: from then on the writer
     * starts a new mark instead of adding to it (ring_buffer.c, rb_count_drop). */
    struct rb_drop_mark { uint64_t before_entry; volatile uint32_t count; } drop_marks[RB_DROP_MARKS];
    volatile uint32_t drop_tail;
    volatile uint32_t unplaced_drops;
    /* consuming reader: written by whichever CPU reads (under the tracing core's reader
     * lock), on a line of its own */
    _Alignas(RB_CACHE_LINE) uint64_t read_seq;
    volatile uint32_t read_seq_low; /* its low half, what the writer reads (one load) */
    uint32_t read_offset;
    uint64_t read_ts;
    uint64_t read_entry;     /* number of the next event the reader expects */
    uint64_t overrun;        /* events overwritten before the reader got them (counted) */
    uint64_t reported_overrun; /* overrun already told to the reader */
    volatile uint32_t drop_head;
    uint32_t reported_unplaced;
    uint32_t reported_stopped; /* stopped_drops already told to the reader */
    uint32_t stopped_base;     /* stopped_drops at the last reset (counts start from it) */
   };
   uint8_t stride[RB_CPU_STRIDE];
  };
} __attribute__((aligned(RB_CACHE_LINE)));
_Static_assert(sizeof(struct rb_cpu) == RB_CPU_STRIDE, "rb_cpu's fields outgrew RB_CPU_STRIDE");

struct ring_buffer {
    struct rb_env env;
    void *allocation;        /* what env.alloc returned (the struct is aligned inside it) */
    unsigned ncpus;
    bool overwrite;          /* true: recycle oldest pages; false: drop new events */
    /* > 0: writers refuse. Each tracing_on=0 and reset adds 1, each resize RB_STOP_RESIZE:
     * one read tells a writer both whether it may write and whether a refusal is a loss
     * (a resize's is; the others' are not). */
    volatile int record_disabled;
    /* issue 18, tracing_cpumask: true: that CPU's writers refuse, and it is no loss (as a
     * CPU outside Linux's mask); kept across rb_reset. rb_set_cpu_recording sets it. A CPU
     * the buffer has no ring for (ncpus and up) is off for good. */
    volatile bool cpu_off[RB_MAX_CPUS];
    struct rb_cpu cpu[RB_MAX_CPUS];
};

/* An event as a reader receives it. */
struct rb_event {
    uint64_t ts;          /* arch_cycles() at its reservation */
    uint64_t number;      /* per-CPU writing order */
    unsigned cpu;
    uint32_t length;      /* payload bytes (rounded up to a multiple of 4) */
    uint64_t lost_before; /* events lost on this CPU since the previous event read */
};

/* Creates a buffer of ncpus rings of pages_per_cpu pages (at least 2). NULL on no memory. */
struct ring_buffer *rb_create(const struct rb_env *env, unsigned ncpus, uint32_t pages_per_cpu);
void rb_destroy(struct ring_buffer *rb);

/* Writer API (inline, at the end of this file). rb_reserve returns where to put length
 * payload bytes, or NULL if the event was not accepted (dropped and counted, or recording
 * disabled); rb_commit publishes it. */
static inline void *rb_reserve(struct ring_buffer *rb, uint32_t length);
static inline void rb_commit(struct ring_buffer *rb);
/* Instead of rb_commit: gives back the event at payload, the last one this CPU reserved
 * (of length bytes, as reserved), uncommitted: it never becomes visible and is not counted
 * as lost (ring_buffer.c says how). Call on the CPU that reserved it. */
void rb_discard(struct ring_buffer *rb, void *payload, uint32_t length);
/* reserve + copy + commit. */
bool rb_write(struct ring_buffer *rb, const void *data, uint32_t length);
/* Counts one event this CPU's writer could not even try to record (no room for it outside
 * the ring: issue 18's instances) as dropped, where readers see losses. Interrupts off. */
void rb_count_lost_event(struct ring_buffer *rb);
/* issue 18, tracing_cpumask: whether writers on cpu record (true) or refuse, without
 * counting a loss (false). A cpu the buffer does not have is ignored. */
void rb_set_cpu_recording(struct ring_buffer *rb, unsigned cpu, bool on);

/* Consuming read of cpu's oldest unread event: copies its payload into buf (up to size
 * bytes) and fills *ev. Returns false when cpu has nothing to read. */
bool rb_consume(struct ring_buffer *rb, unsigned cpu, void *buf, uint32_t size,
                struct rb_event *ev);
/* Losses on cpu not yet reported through lost_before (drops after the last event read,
 * typically); reports them now. Call after draining, before a stream ends. */
uint64_t rb_take_lost(struct ring_buffer *rb, unsigned cpu);
/* Peeks at the next event's timestamp without consuming it (to merge CPUs in order). */
bool rb_peek_ts(struct ring_buffer *rb, unsigned cpu, uint64_t *ts);
/* Fills *ev as rb_consume would for cpu's next unread event (lost_before included) without
 * consuming it or reporting losses: lets a reader decide whether the event fits first. */
bool rb_peek_event(struct ring_buffer *rb, unsigned cpu, struct rb_event *ev);

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
    uint64_t entries;  /* reserved and not yet consumed (nor overwritten); an open
                        * reservation counts, since it will be committed */
    uint64_t overrun;  /* overwritten before being read */
    uint64_t dropped;  /* refused by the writer */
    uint64_t read;     /* consumed */
};
void rb_get_stats(struct ring_buffer *rb, unsigned cpu, struct rb_stats *st);

void rb_set_overwrite(struct ring_buffer *rb, bool overwrite);
/* Empties every ring and zeroes every count. Writers on other CPUs are stopped for it
 * (rb_writers_stop's wait, their refusals meanwhile no loss). Call with no consumer
 * reading. */
void rb_reset(struct ring_buffer *rb);
/* Stops every CPU's writers (their refusals count as dropped) and waits until none is
 * between reserve and commit; rb_writers_start lets them go again. Nests. Between the two
 * the rings are quiet, which is what rb_resize_swap needs. */
void rb_writers_stop(struct ring_buffer *rb);
void rb_writers_start(struct ring_buffer *rb);
/* rb_writers_stop that gives up (writers going again, false) when some CPU's writer is
 * still between reserve and commit after max_cycles (arch_cycles) of waiting. */
bool rb_writers_stop_within(struct ring_buffer *rb, uint64_t max_cycles);
/* Changes every ring to pages_per_cpu pages keeping the newest unread events (the oldest
 * that no longer fit count as overrun; events written meanwhile count as dropped). Returns
 * 0, -EINVAL (fewer than 2 pages) or -ENOMEM, leaving the buffer as it was. Call with no
 * consumer reading (the tracing core holds its reader lock). */
int rb_resize(struct ring_buffer *rb, uint32_t pages_per_cpu);
/* rb_resize in three steps, so that only the middle one need exclude consumers: the two
 * that allocate and free (the long ones) can run with interrupts on and no lock held.
 * rb_resize_alloc gets pages_per_cpu pages for every ring into r: 0, -EINVAL or -ENOMEM
 * (r then holds nothing, the buffer is untouched). rb_resize_swap moves the rings onto
 * r's pages as rb_resize does (call it as rb_resize is called, between rb_writers_stop and
 * rb_writers_start) and leaves the old pages in r; rb_resize_free gives r's pages back. */
struct rb_resize_pages {
    uint32_t npages;                        /* per ring */
    struct rb_page **pages[RB_MAX_CPUS];
};
int rb_resize_alloc(struct ring_buffer *rb, uint32_t pages_per_cpu, struct rb_resize_pages *r);
void rb_resize_swap(struct ring_buffer *rb, struct rb_resize_pages *r);
void rb_resize_free(struct ring_buffer *rb, struct rb_resize_pages *r);
uint32_t rb_pages_per_cpu(const struct ring_buffer *rb);
/* Payload bytes a page holds, for converting sizes to counts. */
uint32_t rb_page_data_size(void);

/* --- the writer's fast path ----------------------------------------------------------
 * Inline because it runs for every traced event: a call and its register saving would cost
 * as much as the work. Everything uncommon is in ring_buffer.c. */

#include "kernel/arch.h"

void *rb_reserve_slow(struct ring_buffer *rb, struct rb_cpu *c, uint32_t body, uint32_t size,
                      uint64_t ts);
void rb_count_drop(struct rb_cpu *c);
void rb_refuse(struct ring_buffer *rb, struct rb_cpu *c, unsigned cpu, int disabled);

static inline void rb_publish_begin(struct rb_cpu *c)
{
    c->gen++;
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void rb_publish_end(struct rb_cpu *c)
{
    __atomic_thread_fence(__ATOMIC_RELEASE);
    c->gen++;
}

/* Writes the header of an event of body payload bytes with time delta at word; returns
 * where the payload goes. */
static inline void *rb_put_header(uint32_t *word, uint32_t body, uint32_t delta)
{
    if (body - 1 < RB_TYPE_DATA_MAX * 4) { /* 1..112 bytes: the length fits in type_len */
        word[0] = (body / 4) | (delta << RB_DELTA_SHIFT);
        return &word[1];
    }
    word[0] = delta << RB_DELTA_SHIFT; /* type_len 0: the length is in the next word */
    word[1] = body;
    return &word[2];
}

/* Books size bytes just written at the write position (the caller counted itself in
 * nesting already: rb_reserve_irqs_off). */
static inline void *rb_account(struct rb_cpu *c, uint32_t size, uint64_t ts, void *payload)
{
    c->write_offset += size;
    c->last_ts = ts;
    c->next_entry++;
    return payload;
}

/* Reserves an event at time ts on c with interrupts off, c->nesting already counting it
 * (a refusal takes it back). The common case (room on the page,
 * a delta that fits 27 bits) takes no branch; the rest is rb_reserve_slow. */
static inline void *rb_reserve_on(struct ring_buffer *rb, struct rb_cpu *c, uint32_t length,
                                  uint64_t ts)
{
    uint32_t body = (length + 3) & ~3u;
    uint32_t size = body - 1 < RB_TYPE_DATA_MAX * 4 ? 4 + body : 8 + body;
    /* The 64-bit delta: a clock that went backwards wraps it past RB_DELTA_LIMIT too. */
    uint64_t delta = ts - c->last_ts;
    uint32_t offset = c->write_offset;
    /* One test for a page's first event (offset 0: offset - 1 wraps to the top) and for an
     * event the page has no room for, offset + size >= RB_PAGE_DATA (">=": an offset never
     * reaches RB_PAGE_DATA, so commit_pos names one page only). */
    if (__builtin_expect(delta >= RB_DELTA_LIMIT || offset - 1 >= RB_PAGE_DATA - 1 - size, 0))
        return rb_reserve_slow(rb, c, body, size, ts);
    uint32_t *word = (uint32_t *)(c->write_page->data + offset);
    return rb_account(c, size, ts, rb_put_header(word, body, (uint32_t)delta));
}

/* Ends a reservation on c; the outermost makes everything reserved so far visible. One
 * 32-bit store publishes it; readers turn it back into (page, offset). nesting drops only
 * after that store (release order): a stopper on another CPU that sees it at zero also
 * sees the commit, and no late commit_pos store can land on a ring it has rewritten. */
static inline void rb_commit_on(struct rb_cpu *c)
{
    uint32_t nesting = c->nesting;
    if (nesting == 1)
        __atomic_store_n(&c->commit_pos, c->write_base + c->write_offset, __ATOMIC_RELEASE);
    __atomic_store_n(&c->nesting, nesting - 1, __ATOMIC_RELEASE);
}

/*
 * rb_reserve for a caller that has interrupts off already and knows its CPU number: cpu is
 * arch_cpu_id(), read once by a caller that needs it for more than this (the trace core,
 * the function tracers). Commit with rb_commit_cpu(rb, cpu) before interrupts go back on,
 * or with rb_commit.
 *
 * The writer counts itself in nesting BEFORE it looks at record_disabled, with a full
 * fence between (the one store-then-load order x86 does not keep by itself), and
 * rb_writers_stop does the mirror image: raise record_disabled, fence, then wait for every
 * CPU's nesting to drop to zero. So either the writer sees the stop and backs out, or the
 * stopper sees the writer and waits for its commit: a resize never moves pages under a
 * writer on another CPU. The fence is the one price SMP adds to the fast path: the
 * increment becomes a locked instruction (on this CPU's own cache line, which no other CPU
 * writes).
 */
static inline void *rb_reserve_cpu(struct ring_buffer *rb, unsigned cpu, uint32_t length)
{
    struct rb_cpu *c = &rb->cpu[cpu];
    __atomic_fetch_add(&c->nesting, 1, __ATOMIC_SEQ_CST); /* lock add: the count and the fence */
    /* Read once (rb_refuse judges by the same value), with acquire order: the ring's state
     * is read after it, never from before a resize that ended just now. */
    int disabled = __atomic_load_n(&rb->record_disabled, __ATOMIC_ACQUIRE);
    if (__builtin_expect(!(disabled | rb->cpu_off[cpu]) && length <= RB_MAX_EVENT, 1))
        return rb_reserve_on(rb, c, length, arch_cycles());
    rb_refuse(rb, c, cpu, disabled);
    return 0;
}

/* rb_reserve_cpu on this CPU. */
static inline void *rb_reserve_irqs_off(struct ring_buffer *rb, uint32_t length)
{
    return rb_reserve_cpu(rb, arch_cpu_id(), length);
}

static inline void *rb_reserve(struct ring_buffer *rb, uint32_t length)
{
    unsigned long flags = arch_irq_save();
    void *payload = rb_reserve_irqs_off(rb, length);
    arch_irq_restore(flags);
    return payload;
}

/* Interrupts go off for the decrement and the store: a writer interrupting in between
 * could otherwise publish its event and see our older position stored over it. */
static inline void rb_commit(struct ring_buffer *rb)
{
    unsigned long flags = arch_irq_save();
    rb_commit_on(&rb->cpu[arch_cpu_id()]);
    arch_irq_restore(flags);
}

/* rb_commit for a caller with interrupts off since its rb_reserve_cpu(rb, cpu, ...). */
static inline void rb_commit_cpu(struct ring_buffer *rb, unsigned cpu)
{
    rb_commit_on(&rb->cpu[cpu]);
}

#endif
