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
 * so writers on different CPUs never wait for each other nor share a written line. The
 * reservation runs with interrupts off for a few instructions, never while the caller fills
 * the payload; the commit is one locked decrement, interrupts on or off. A writer interrupted
 * between reserve and commit (by an interrupt or exception handler that traces too) is
 * *nested*: the nested event is reserved after the outer one and becomes visible when the
 * outermost writer commits, so readers see events in reservation order and never a
 * half-written one. docs/tracing-core.md, section 9, counts the fast path's instructions.
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
/* rb_cpu.writers, the word every reservation adds RB_WRITER to: the nesting depth in the
 * low 7 bits (interrupts, exceptions and NMIs nest a few levels deep; rb_reserve_nested
 * refuses beyond RB_MAX_NESTING), RB_REFUSING, and above them the events reserved, modulo
 * 2^24 (the low bits of the events' numbers: ring_buffer.c, "Event numbers"). */
#define RB_NESTING_MASK 0x7fu
#define RB_REFUSING 0x80u       /* disabled is not 0: writers go to rb_reserve_nested */
#define RB_WRITER 0x101u        /* one more writer nesting, one more event reserved */
#define RB_EVENT 0x100u
#define RB_COUNT_SHIFT 8
#define RB_COUNT_MASK 0xffffffu
#define RB_MAX_NESTING 16

/* One CPU's ring. Fields are private to ring_buffer.c; the struct is here for sizeof.
 * Its size is RB_CPU_STRIDE, a power of two (the stride member pads it): finding this CPU's
 * ring, rb->cpu[cpu] on every reserve and commit, is then one shift, not a multiply. */
#define RB_CPU_STRIDE 512
struct rb_cpu {
  union {
   struct {
    /* Writers between reserve and commit, whether they must refuse, and the events reserved
     * (RB_NESTING_MASK, RB_REFUSING, RB_COUNT_SHIFT): one locked add tells a writer all it
     * needs to know before it writes. Changed only by locked instructions, since a stopper
     * on another CPU sets and clears RB_REFUSING in it. First, with disabled and
     * stopped_drops: reset and resize rewrite everything after them and never these
     * (ring_buffer.c, RB_CPU_STATE). */
    volatile uint32_t writers;
    /* > 0: this CPU's writers refuse (RB_REFUSING mirrors it in writers). Each reset adds 1
     * (and rb_disable_writers' callers what they like), each resize RB_STOP_RESIZE, a CPU
     * tracing_cpumask leaves out RB_CPU_OFF: the value tells a refused writer whether its
     * refusal is a loss (a resize's is; the others' are not). */
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
    /* The next free byte as a position: write_seq * RB_PAGE_SIZE + its offset in the page's
     * data, modulo 2^32 (a page never straddles the wrap: 2^32 is a multiple of the
     * stride). Positions are what commit_pos publishes, so the fast path stores the one it
     * reads; write_limit is the last position an event may end at on this page (offsets
     * stay below RB_PAGE_DATA, so a position names one page only), and write_bias turns a
     * position on this page into its address. */
    uint32_t write_pos;
    uint32_t write_limit;
    uintptr_t write_bias;
    uint64_t last_ts;        /* timestamp of the last reserved event */
    /* Event numbers: what writers' count of events (RB_COUNT_SHIFT) had reached when
     * last folded in here (count_base), and the number the next event got then. */
    uint64_t next_entry;
    uint32_t count_base;
    uint64_t dropped;        /* refused: buffer full (producer/consumer), too big, resizing */
    /* published to readers */
    volatile uint32_t commit_pos; /* where committed data ends while writers are at work */
    volatile uint32_t gen;   /* odd while the writer updates oldest_seq or next_entry */
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
/* A stretch of one CPU's records, as they lie on a ring page (rb_consume_span). */
struct rb_span {
    const uint8_t *data;  /* the records, on the page: whole until rb_span_done says */
    uint64_t seq;         /* the page's number */
    uint64_t ts;          /* the time (cycles) the first record's delta counts from */
    uint64_t first_entry; /* the number of its first record */
    uint64_t lost_before; /* events lost since the previous event or span consumed */
    uint32_t length;      /* bytes of records */
    uint32_t entries;     /* records in it, discarded ones included */
};
/* Consuming read for the binary capture (uapi/trace_capture.h), which sends pages without
 * copying them: finds cpu's unread records, headers, time extends and discarded ones
 * included, from the consumer to the end of its page's committed data or to the first
 * event a loss comes before, whichever is first, moves the consumer past them and fills
 * *span. With whole_pages, records on the page the writer is still on stay (to go later in
 * one piece). False when there is nothing to take. It looks at each record only for a span
 * that ends inside a page. The page stays the consumer's (a writer in producer/consumer
 * mode keeps off it) until rb_span_done, which the caller must call next, under the same
 * reader lock as this (not necessarily held in between). */
bool rb_consume_span(struct ring_buffer *rb, unsigned cpu, bool whole_pages, struct rb_span *span);
/* Ends the use of a span. True if its page was not recycled meanwhile: whatever was read
 * from span->data is whole. False if a writer (overwrite mode) recycled it: what was read
 * may be torn, and the span's entries and lost_before are counted as overwritten, reported
 * with the next event read. */
bool rb_span_done(struct ring_buffer *rb, unsigned cpu, const struct rb_span *span);
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

/* The fast path's calls out: on the i386 with their arguments in registers, so that the
 * fast path sets up no stack for them (every other kernel function takes its arguments on
 * the stack); those for what is rare also cold (laid out away from it). */
#if defined(__i386__)
#define RB_CALL __attribute__((regparm(3)))
#else
#define RB_CALL
#endif
#define RB_SLOW RB_CALL __attribute__((cold))
RB_CALL void *rb_reserve_long(struct rb_cpu *c, uint32_t length);
RB_SLOW void *rb_reserve_slow(struct rb_cpu *c, uint32_t length);
RB_SLOW void *rb_reserve_retime(struct rb_cpu *c, uint32_t *word);
RB_SLOW void *rb_reserve_nested(struct rb_cpu *c, uint32_t length, uint32_t before);

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
 * Reserves an event of length bytes now on c, the outermost writer there, counted in
 * c->writers already, with interrupts off; pos is c->write_pos, which the caller read. The
 * common case takes no branch: a payload of 1..112 bytes (its length fits the header's
 * type_len), room on the page (the event ends by write_limit), and a clock less than 2^27
 * past the last event's (arch_cycles_since: so the 27-bit delta holds the difference; a
 * clock that went back is far past it, its 64-bit difference negative). A page's
 * first event needs nothing more: the ring keeps its time_stamp equal to last_ts while
 * nothing is written on it (ring_buffer.c, "A page's time"). The event's number is in
 * c->writers already. A payload of more than 112 bytes (or none) goes out of line, its
 * length in a second header word (rb_reserve_long); the rest is rb_reserve_slow's.
 *
 * The order keeps few values alive at once (the i386 has six registers to spare, and each
 * value more is a store to the stack and a load back): the bytes are booked and the
 * header's type_len written first, so that across the clock read only the header's address
 * is left; the delta is or-ed into the header after. The header is complete long before
 * any reader may look at it: readers see an event only once its commit brings the nesting
 * to zero. When the clock needs the slow path, rb_reserve_retime gives the bytes back.
 */
static inline __attribute__((always_inline)) void *
rb_reserve_fast(struct rb_cpu *c, uint32_t length, uint32_t pos)
{
    if (__builtin_expect(length - 1 >= RB_TYPE_DATA_MAX * 4, 0))
        return rb_reserve_long(c, length);
    uint32_t type_len = (length + 3) / 4;
    uint32_t end = pos + 4 * (type_len + 1);
    if (__builtin_expect(end > c->write_limit, 0))
        return rb_reserve_slow(c, type_len * 4);
    uint32_t *word = (uint32_t *)(c->write_bias + pos);
    *word = type_len;
    c->write_pos = end;
    uint32_t delta;
    if (__builtin_expect(!arch_cycles_since(&c->last_ts, &delta), 0))
        return rb_reserve_retime(c, word);
    if (__builtin_expect(delta >= RB_DELTA_LIMIT, 0))
        return rb_reserve_retime(c, word);
    arch_cycles_add(&c->last_ts, delta);
    *word |= delta << RB_DELTA_SHIFT;
    return word + 1;
}

/*
 * rb_reserve for a caller that has interrupts off already and knows its CPU number: cpu is
 * arch_cpu_id(), read once by a caller that needs it for more than this (the trace core,
 * the function tracers). Commit with rb_commit_cpu(rb, cpu) or rb_commit, on this CPU (the
 * kernel is not preempted between the two: kernel/proc/sched.h).
 *
 * One locked add to c->writers counts the writer in the nesting and its event in the
 * count, and returns what the word was: whether a writer of this CPU is between reserve
 * and commit already (this one is nested in it: an interrupt that traces) and whether the
 * ring refuses (RB_REFUSING). The common case is neither: the outermost writer of a ring
 * that accepts. Everything else goes out of line (rb_reserve_nested).
 *
 * Stopping the writers (rb_writers_stop) sets RB_REFUSING in every CPU's writers, then
 * waits for every nesting to drop to zero. Both sides change the same word with locked
 * instructions, which happen in one order: either the writer's add comes first and the
 * stopper sees the writer and waits for its commit, or the writer sees the bit and backs
 * out. A resize never moves pages under a writer on another CPU, and the fast path pays
 * nothing for it but the lock prefix (on this CPU's own cache line, which no other CPU
 * writes but to stop it).
 *
 * The outermost writer stores the write position as it finds it in commit_pos: every
 * event before it is committed, since the nesting was zero. That is what readers use
 * while this CPU's writers are at work (ring_buffer.c, read_commit_pos).
 */
static inline __attribute__((always_inline)) void *
rb_reserve_cpu(struct ring_buffer *rb, unsigned cpu, uint32_t length)
{
    struct rb_cpu *c = &rb->cpu[cpu];
    __asm__("" : "+r"(c)); /* one pointer in one register, not rb and cpu * 512 in two */
    uint32_t before = __atomic_fetch_add(&c->writers, RB_WRITER, __ATOMIC_SEQ_CST);
    if (__builtin_expect(before & (RB_NESTING_MASK | RB_REFUSING), 0))
        return rb_reserve_nested(c, length, before);
    uint32_t pos = c->write_pos;
    __atomic_store_n(&c->commit_pos, pos, __ATOMIC_RELEASE);
    return rb_reserve_fast(c, length, pos);
}

/* rb_reserve_cpu on this CPU. */
static inline __attribute__((always_inline)) void *
rb_reserve_irqs_off(struct ring_buffer *rb, uint32_t length)
{
    return rb_reserve_cpu(rb, arch_cpu_id(), length);
}

/* Interrupts are off for the reservation only: between reading the write position and
 * booking the event an interrupting writer would take the same bytes. Two copies of the
 * fast path, one for each state interrupts were in, so that the state is not one more
 * value kept across it (arch_irq_restore of a flags word known to be non-zero is an sti). */
static inline __attribute__((always_inline)) void *rb_reserve(struct ring_buffer *rb,
                                                             uint32_t length)
{
    unsigned long flags = arch_irq_save();
    if (!flags)
        return rb_reserve_irqs_off(rb, length);
    void *payload = rb_reserve_irqs_off(rb, length);
    arch_irq_restore(flags);
    return payload;
}

/*
 * Ends a reservation on cpu's ring: one locked decrement of the nesting, whatever the
 * depth. The outermost writer published at its reservation where the committed data ended
 * (rb_reserve_cpu); when its commit brings the nesting to zero, everything written so far
 * is committed, and readers then take the write position itself as the end (ring_buffer.c,
 * read_commit_pos). Interrupts may be on: an interrupting writer nests, and has committed
 * before this one goes on. The decrement is a full barrier: a reader or a stopper on
 * another CPU that sees the nesting at zero sees the event's bytes too.
 */
static inline void rb_commit_cpu(struct ring_buffer *rb, unsigned cpu)
{
    __atomic_fetch_sub(&rb->cpu[cpu].writers, 1, __ATOMIC_RELEASE);
}

/* Any context, interrupts on or off. */
static inline void rb_commit(struct ring_buffer *rb)
{
    rb_commit_cpu(rb, arch_cpu_id());
}

#endif
