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
#define RB_STOP_RESIZE 0x10000  /* disabled's share of a resize (rb_writers_stop) */
#define RB_CPU_OFF 0x40000000   /* disabled's share of a CPU left out (rb_set_cpu_recording) */
/* rb_cpu.writers: the nesting depth in the low byte (interrupts, exceptions and NMIs nest
 * a few levels deep, never 255), the reservations begun counted above it. */
#define RB_NESTING_MASK 0xffu
#define RB_WRITER 0x101u        /* one more writer nesting, one more reservation begun */

/* One CPU's ring. Fields are private to ring_buffer.c; the struct is here for sizeof.
 * Its size is RB_CPU_STRIDE, a power of two (the stride member pads it): finding this CPU's
 * ring, rb->cpu[cpu] on every reserve and commit, is then one shift, not a multiply. */
#define RB_CPU_STRIDE 512
struct rb_cpu {
  union {
   struct {
    /* Writers between reserve and commit (RB_NESTING_MASK: how deep they nest on this CPU)
     * and, above it, a count of reservations begun (RB_WRITER adds one to each): the word
     * the outermost commit changes with one compare-and-swap, which fails when an interrupt
     * reserved meanwhile (rb_commit_on). First, with disabled and stopped_drops: reset and
     * resize rewrite everything after them and never these (ring_buffer.c, RB_CPU_STATE). */
    volatile uint32_t writers;
    /* > 0: this CPU's writers refuse. Each reset adds 1 (and rb_disable_writers' callers
     * what they like), each resize RB_STOP_RESIZE, a CPU tracing_cpumask leaves out
     * RB_CPU_OFF: one load tells a writer whether it may write and whether a refusal is a
     * loss (a resize's is; the others' are not). Per CPU, next to writers, so that the
     * fast path's test is one compare on the line it writes anyway. */
    volatile int32_t disabled;
    /* Events refused while the writers were stopped for a resize: a count only the writers
     * add to (atomically, whenever they are refused), outside what the resize rewrites. */
    volatile uint32_t stopped_drops;
    struct ring_buffer *rb; /* the buffer this ring belongs to (rb_reserve_slow's) */
    struct rb_page **pages;
    uint32_t npages;
    /* writer side (this CPU only, updated with interrupts off) */
    struct rb_page *write_page; /* the slot of write_seq */
    uint64_t write_seq;      /* logical number of the page being written */
    uint32_t write_offset;   /* next free byte in it */
    /* Timestamp of the last reserved event. The fast path reads and writes only its low
     * half (little-endian: the first word) while the high half stays the same. */
    union {
        uint64_t last_ts;
        struct { uint32_t low, high; } last_ts_half;
    };
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
    /* issue 18, tracing_cpumask: true: that CPU's writers refuse, and it is no loss (as a
     * CPU outside Linux's mask); kept across rb_reset. rb_set_cpu_recording sets it (and
     * RB_CPU_OFF in that CPU's disabled, which is what writers read). A CPU the buffer has
     * no ring for (ncpus and up) is off for good. */
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

/* Adds share (negative: takes it back) to every CPU's disabled count: writers refuse while
 * it is above zero (rb_cpu.disabled says which refusals are losses). It does not wait for
 * writers already past the test: rb_writers_stop does. */
void rb_disable_writers(struct ring_buffer *rb, int share);
/* True while a writer on cpu is between reserve and commit. */
static inline bool rb_cpu_writing(const struct ring_buffer *rb, unsigned cpu)
{
    return (rb->cpu[cpu].writers & RB_NESTING_MASK) != 0;
}

/* --- the writer's fast path ----------------------------------------------------------
 * Inline because it runs for every traced event: a call and its register saving would cost
 * as much as the work. Everything uncommon is in ring_buffer.c; docs/tracing-core.md
 * ("The cost of an event") counts the instructions. */

#include "kernel/arch.h"

/* The fast path's calls out, for what is rare: cold (laid out away from it), and on the
 * i386 with their arguments in registers, so that the fast path needs no stack space
 * for them (every other kernel function takes its arguments on the stack). */
#if defined(__i386__)
#define RB_SLOW __attribute__((cold, regparm(3)))
#else
#define RB_SLOW __attribute__((cold))
#endif
RB_SLOW void *rb_reserve_slow(struct rb_cpu *c, uint32_t length);
RB_SLOW void *rb_reserve_nested(struct rb_cpu *c, uint32_t length);
void rb_count_drop(struct rb_cpu *c);
void rb_refuse(struct rb_cpu *c, int disabled);

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

/* This CPU's ring, as one pointer in one register: the compiler would otherwise keep rb
 * and cpu * RB_CPU_STRIDE apart, two registers for every use (the empty asm hides where
 * the pointer came from). */
static inline __attribute__((always_inline)) struct rb_cpu *rb_cpu_of(struct ring_buffer *rb,
                                                                      unsigned cpu)
{
    struct rb_cpu *c = &rb->cpu[cpu];
    __asm__("" : "+r"(c));
    return c;
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

/*
 * Reserves an event of length bytes now on c at offset (c->write_offset, which the caller
 * read), c->writers already counting it (the slow path's refusal takes it back), with
 * interrupts off. The common case takes no branch:
 * a clock whose high half is the last event's and whose low half is less than 2^27 ahead
 * of it (so the 27-bit delta holds the difference; a clock that went backwards wraps past
 * the limit too), a payload of 1..112 bytes (its length fits the header's type_len), and
 * room on the page (">=": an offset never reaches RB_PAGE_DATA, so commit_pos names one
 * page only). A page's first event needs nothing more: the ring keeps its time_stamp equal
 * to last_ts while its write offset is 0 (ring_buffer.c, "A page's time"). The event then
 * costs its header word, the new write offset, the low half of the time (moved by the
 * delta) and the event's number. Anything else, and every refusal, is rb_reserve_slow's,
 * which reads the clock again. The order below keeps few values alive at once: the i386
 * has six registers to spare, and each value more is a store to the stack and a load back.
 */
static inline __attribute__((always_inline)) void *
rb_reserve_fast(struct rb_cpu *c, uint32_t length, uint32_t offset)
{
    uint64_t ts = arch_cycles();
    if (__builtin_expect((uint32_t)(ts >> 32) != c->last_ts_half.high, 0))
        return rb_reserve_slow(c, length);
    uint32_t delta = (uint32_t)ts - c->last_ts_half.low;
    uint32_t body = (length + 3) & ~3u;
    if (__builtin_expect(delta >= RB_DELTA_LIMIT || length - 1 >= RB_TYPE_DATA_MAX * 4 ||
                         offset + 4 + body >= RB_PAGE_DATA, 0))
        return rb_reserve_slow(c, length);
    c->last_ts_half.low += delta;
    uint32_t *word = (uint32_t *)(c->write_page->data + offset);
    word[0] = (body / 4) | (delta << RB_DELTA_SHIFT);
    c->write_offset = offset + 4 + body;
    c->next_entry++;
    return &word[1];
}

/*
 * Ends a reservation on c: one locked decrement of the nesting, whatever the depth. The
 * outermost writer published at its reservation where the committed data ended
 * (rb_reserve_cpu); when its commit brings the nesting to zero, everything written so far
 * is committed, and readers then take the write position itself as the end (ring_buffer.c,
 * read_published). Interrupts may stay on: an interrupting writer nests, and has committed
 * before this one goes on. The decrement is a full barrier: a reader or a stopper on
 * another CPU that sees the nesting at zero sees the event's bytes too.
 */
static inline void rb_commit_on(struct rb_cpu *c)
{
    __atomic_fetch_sub(&c->writers, 1, __ATOMIC_RELEASE);
}

/*
 * rb_reserve for a caller that has interrupts off already and knows its CPU number: cpu is
 * arch_cpu_id(), read once by a caller that needs it for more than this (the trace core,
 * the function tracers). Commit with rb_commit_cpu(rb, cpu) or rb_commit, on this CPU (the
 * kernel is not preempted between the two: kernel/proc/sched.h).
 *
 * The writer counts itself in writers BEFORE it looks at disabled, with a full fence
 * between (the one store-then-load order x86 does not keep by itself), and rb_writers_stop
 * does the mirror image: raise every CPU's disabled, fence, then wait for every CPU's
 * nesting to drop to zero. So either the writer sees the stop and backs out, or the
 * stopper sees the writer and waits for its commit: a resize never moves pages under a
 * writer on another CPU. The fence is the one price SMP adds to the fast path: the
 * increment becomes a locked instruction (on this CPU's own cache line, which no other CPU
 * writes).
 *
 * The outermost writer (nesting 0 before it) stores the write position as it finds it in
 * commit_pos: every event before it is committed, since the nesting was zero. That is what
 * readers use while writers are at work. A nested writer (an interrupt that traces) stores
 * nothing, since the outer event before it is not committed yet; it and its reservation
 * take the out-of-line path, as refusals do.
 */
static inline __attribute__((always_inline)) void *
rb_reserve_cpu(struct ring_buffer *rb, unsigned cpu, uint32_t length)
{
    struct rb_cpu *c = rb_cpu_of(rb, cpu);
    uint32_t before = __atomic_fetch_add(&c->writers, RB_WRITER, __ATOMIC_SEQ_CST); /* lock xadd */
    /* disabled with acquire order: the ring's state is read after it, never from before a
     * resize that ended just now. */
    if (__builtin_expect((before & RB_NESTING_MASK) | __atomic_load_n(&c->disabled,
                                                                      __ATOMIC_ACQUIRE), 0))
        return rb_reserve_nested(c, length);
    uint32_t offset = c->write_offset;
    __atomic_store_n(&c->commit_pos, c->write_base + offset, __ATOMIC_RELEASE);
    return rb_reserve_fast(c, length, offset);
}

/* rb_reserve_cpu on this CPU. */
static inline void *rb_reserve_irqs_off(struct ring_buffer *rb, uint32_t length)
{
    return rb_reserve_cpu(rb, arch_cpu_id(), length);
}

/* Interrupts are off for the reservation only: between reading the write position and
 * booking the event an interrupting writer would take the same bytes. Two copies of the
 * fast path, one for each state interrupts were in, so that the state is not one more
 * value kept across it (arch_irq_restore of a flags word known to be non-zero is an sti). */
static inline void *rb_reserve(struct ring_buffer *rb, uint32_t length)
{
    unsigned long flags = arch_irq_save();
    if (!flags)
        return rb_reserve_irqs_off(rb, length);
    void *payload = rb_reserve_irqs_off(rb, length);
    arch_irq_restore(flags);
    return payload;
}

/* Any context, interrupts on or off (rb_commit_on says why they may stay on). */
static inline void rb_commit(struct ring_buffer *rb)
{
    rb_commit_on(rb_cpu_of(rb, arch_cpu_id()));
}

/* rb_commit for a caller that knows its CPU number (arch_cpu_id()). */
static inline void rb_commit_cpu(struct ring_buffer *rb, unsigned cpu)
{
    rb_commit_on(rb_cpu_of(rb, cpu));
}

#endif
