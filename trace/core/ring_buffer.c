/*
 * ring_buffer.c - per-CPU rings of pages holding timestamped events (see ring_buffer.h).
 *
 * Positions are (logical page number, byte offset), or one 32-bit number, page number *
 * RB_PAGE_SIZE + offset modulo 2^32 (write_pos, commit_pos). Logical page numbers only
 * grow; page number s lives in slot s % npages and records s in its header, so anyone can
 * tell whether a slot still holds the page they expect. Per CPU, the state moves like this:
 *
 *   oldest_seq <= read position <= commit position <= write position
 *
 * oldest_seq is the oldest page not yet recycled, the read position is the consuming
 * reader's, the commit position ends the data readers may see, and the write position is
 * where the next event is reserved.
 *
 * On several CPUs (issue 19). A ring has one writer, its CPU, and readers on any CPU: the
 * consumer (trace_pipe, per_cpu/cpuN/trace_pipe and trace_pipe_raw, the COM2 stream; one at
 * a time, under the tracing core's reader lock) and iterators (trace, per_cpu/cpuN/trace).
 * Linux swaps a whole reader page out of the ring with cmpxchg so that its reader owns a
 * page no writer touches; here readers own nothing and the writer never waits or retries.
 * What a reader may use it learns from words the writer writes (writers, which a stopper
 * changes too, by locked instructions only), with release order, and reads with acquire
 * order:
 *   writers      the writers between reserve and commit: with none, everything up to
 *                write_pos is committed (read_commit_pos);
 *   commit_pos   stored by the outermost writer at its reservation: what came before it is
 *                complete, and readers stop there while writers are at work;
 *   oldest_seq   under the gen seqcount, raised BEFORE the writer touches a recycled page;
 *   page->seq    written after oldest_seq moved, so a reader that copied from a page checks
 *                afterwards that the page still holds its number and is not older than
 *                oldest_seq, and otherwise throws the copy away (READ_RECYCLED) and counts
 *                what it missed as overrun.
 * The writer, for its part, reads only read_seq_low (producer/consumer mode: one 32-bit
 * load; the consumer stores it after it is done with the page) and the drop marks' taken
 * bit. So a writer mid-write on another CPU is invisible to readers until its commit brings
 * the nesting to zero, and a reader mid-copy on another CPU costs the writer nothing.
 * Stopping the writers (resize) is the one place the two sides wait for each other:
 * rb_writers_stop.
 */
#include "trace/core/ring_buffer.h"

#include "kernel/arch.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"

#define PAGE_DATA RB_PAGE_DATA
#define TYPE_LEN_MASK 0x1fu
#define DELTA_SHIFT RB_DELTA_SHIFT
#define DELTA_LIMIT RB_DELTA_LIMIT
#define TYPE_DATA_MAX RB_TYPE_DATA_MAX
#define TYPE_PADDING 29     /* a discarded event: the next word holds the bytes after it */
#define TYPE_TIME_EXTEND 30 /* the next word holds delta >> 27 */
#define MAX_RETRIES 100000
#define REFUSAL_WAIT 1000 /* read_commit_pos's wait for a refused writer to leave, in tries */

_Static_assert(RB_MAX_EVENT + 16 <= PAGE_DATA, "the largest event must fit a page");

/* x modulo n, for a 64-bit x: on the i386 without libgcc's 64-bit division (a call of some
 * 40 instructions, and slot() is on every reader's path): divl divides a 64-bit number by
 * a 32-bit one when the quotient fits in 32 bits, which reducing the high half first
 * makes sure of. */
static inline uint32_t mod_u64(uint64_t x, uint32_t n)
{
#if defined(__i386__)
    uint32_t quotient, rest, high = (uint32_t)(x >> 32) % n;
    __asm__("divl %4" : "=a"(quotient), "=d"(rest) : "a"((uint32_t)x), "d"(high), "rm"(n));
    (void)quotient;
    return rest;
#else
    return (uint32_t)(x % n);
#endif
}

static struct rb_page *slot(const struct rb_cpu *c, uint64_t seq)
{
    return c->pages[mod_u64(seq, c->npages)];
}

/* Positions (rb_cpu.write_pos): page seq's data starts at page_pos(seq). */
static uint32_t page_pos(uint64_t seq) { return (uint32_t)seq * RB_PAGE_SIZE; }

/* The writer's offset in its page's data. */
static uint32_t write_offset(const struct rb_cpu *c)
{
    return c->write_pos - page_pos(c->write_seq);
}

/* Makes page p, numbered seq, the one being written, from its start. */
static void set_write_page(struct rb_cpu *c, uint64_t seq, struct rb_page *p)
{
    c->write_seq = seq;
    c->write_page = p;
    c->write_pos = page_pos(seq);
    c->write_limit = c->write_pos + PAGE_DATA - 1;
    c->write_bias = (uintptr_t)p->data - c->write_pos;
}

/* --- publishing: a seqcount so readers on other CPUs (or interrupted readers) never see a
 * half-updated oldest page or event number. Writers update with interrupts off, so they
 * never nest here. */
static void publish_begin(struct rb_cpu *c)
{
    c->gen++;
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

static void publish_end(struct rb_cpu *c)
{
    __atomic_thread_fence(__ATOMIC_RELEASE);
    c->gen++;
}

/* A reservation that ends without anything to publish, at any depth (rb_commit_cpu's
 * decrement, for a ring named by its rb_cpu). */
static void leave_writers(struct rb_cpu *c)
{
    __atomic_fetch_sub(&c->writers, 1, __ATOMIC_RELEASE);
}

/*
 * Event numbers. Every event has a number in writing order, which readers use to count
 * what they missed. The fast path does not count events itself: its locked add to
 * c->writers counts one more event in the word's top 24 bits (a reservation refused
 * after it takes the one back: refuse). The writer folds that count into the 64-bit
 * next_entry whenever it needs a number (a new page's first_entry, a drop's place, a
 * discard), and then at least once per page, so fewer than 2^24 events are ever
 * waiting to be folded. Readers on other CPUs add the unfolded part themselves
 * (read_entries), under the gen seqcount, as the fold changes two fields.
 */
static uint32_t unfolded_events(uint32_t writers, uint32_t count_base)
{
    return ((writers >> RB_COUNT_SHIFT) - count_base) & RB_COUNT_MASK;
}

/* Folds the events counted in writers into next_entry, and returns next_entry: the
 * number of events reserved so far, every open reservation included. The writer's. */
static uint64_t fold_events(struct rb_cpu *c)
{
    uint32_t writers = __atomic_load_n(&c->writers, __ATOMIC_RELAXED);
    uint32_t events = unfolded_events(writers, c->count_base);
    if (events) {
        publish_begin(c);
        c->next_entry += events;
        c->count_base = writers >> RB_COUNT_SHIFT;
        publish_end(c);
    }
    return c->next_entry;
}

/* The count of writers when no reservation is half done (nesting 0): a refused writer
 * holds one event in it until it takes it back. For reset and resize, which stopped the
 * writers, so that only refusals (a few instructions each) can be under way. */
static uint32_t quiet_count(const struct rb_cpu *c)
{
    uint32_t writers;
    while ((writers = __atomic_load_n(&c->writers, __ATOMIC_ACQUIRE)) & RB_NESTING_MASK)
        arch_cpu_relax();
    return writers >> RB_COUNT_SHIFT;
}

struct published {
    uint64_t commit_seq, oldest_seq;
    uint32_t commit_offset;
};

/* oldest_seq, read consistently (a 64-bit value a 32-bit CPU loads in two halves). Gives up
 * waiting after MAX_RETRIES so that a crash dump taken while a writer was stopped midway
 * still makes progress. */
static uint64_t read_oldest(const struct rb_cpu *c)
{
    for (int tries = 0;; tries++) {
        uint32_t gen = c->gen;
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        uint64_t oldest = c->oldest_seq;
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if ((!(gen & 1) && gen == c->gen) || tries == MAX_RETRIES)
            return oldest;
    }
}

/* The number of events reserved on c (open reservations included), read consistently from
 * any CPU (see "Event numbers"); like read_oldest, it gives up waiting after MAX_RETRIES. */
static uint64_t read_entries(const struct rb_cpu *c)
{
    for (int tries = 0;; tries++) {
        uint32_t gen = c->gen;
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        uint64_t next = c->next_entry;
        uint32_t base = c->count_base;
        uint32_t writers = __atomic_load_n(&c->writers, __ATOMIC_ACQUIRE);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if ((!(gen & 1) && gen == c->gen) || tries == MAX_RETRIES)
            return next + unfolded_events(writers, base);
    }
}

/*
 * Where the committed data ends, as a position (page * RB_PAGE_SIZE + offset, modulo 2^32:
 * rb_cpu.write_pos). With no writer between reserve and commit on the ring's CPU, everything
 * written is committed: the write position itself, read between two reads of writers that
 * agree with a nesting of zero (a writer that began meanwhile changed the count of
 * reservations, and what it changed is then not trusted; the count would have to wrap, 2^24
 * reservations, between the two reads to fool it). Otherwise commit_pos, which the outermost
 * writer stored at its reservation: everything before its event was committed. Events after
 * it, its own and those nested in it, become visible when its commit brings the nesting to
 * zero.
 */
static uint32_t read_commit_pos(const struct rb_cpu *c)
{
    for (int tries = 0;; tries++) {
        uint32_t writers = __atomic_load_n(&c->writers, __ATOMIC_ACQUIRE);
        if (!(writers & RB_NESTING_MASK)) {
            uint32_t pos = __atomic_load_n(&c->write_pos, __ATOMIC_ACQUIRE);
            if (__atomic_load_n(&c->writers, __ATOMIC_ACQUIRE) == writers)
                return pos;
        } else if (!(writers & RB_REFUSING) || tries == REFUSAL_WAIT) {
            return __atomic_load_n(&c->commit_pos, __ATOMIC_ACQUIRE);
        }
        /* A ring that refuses (stopped, or a snapshot swapped out): a writer in it now is
         * most likely being refused, a few instructions: worth a short wait, so that a
         * read of a stopped ring gets all of it. */
        arch_cpu_relax();
    }
}

/*
 * The published state: the oldest page, and the commit position turned back into (page,
 * offset). The position counts RB_PAGE_SIZE per page, modulo 2^32; the commit page is never
 * older than oldest_seq (a writer does not recycle the page an uncommitted event may be on:
 * move_to_next_page), so the distance from oldest_seq's position decodes it exactly.
 * oldest_seq is read first: it only grows, so the commit position read after it is never
 * behind it.
 */
static void read_published(const struct rb_cpu *c, struct published *p)
{
    p->oldest_seq = read_oldest(c);
    uint32_t pos = read_commit_pos(c);
    uint32_t distance = pos - page_pos(p->oldest_seq);
    p->commit_seq = p->oldest_seq + distance / RB_PAGE_SIZE;
    p->commit_offset = distance % RB_PAGE_SIZE;
}

/* --- writing ------------------------------------------------------------------------- */

/*
 * A page's time. Readers take a page's first event's time as the page's time_stamp plus
 * the event's delta, and every later one's as the time before it plus its delta; the
 * writer takes every delta from last_ts. The two agree because whenever the write offset
 * is 0, the page's time_stamp equals last_ts: a new page gets the time of the event that
 * opens it (move_to_next_page, and that event follows with delta 0), an empty ring has both
 * at 0 (reset_cpu), a resize that copied nothing sets it (rb_resize_swap), and a discard
 * that takes a page's first event back restores last_ts to that event's time, its delta
 * being 0. So the fast path (rb_reserve_fast) writes a page's first event like any other.
 */

/* Moves the writer to the next page, recycling the slot's old page if the mode allows.
 * False: the event cannot be stored (producer/consumer mode and the reader is behind, or
 * the slot holds an event a nested-over writer has not committed). */
static bool move_to_next_page(struct ring_buffer *rb, struct rb_cpu *c, uint64_t ts)
{
    uint64_t next = c->write_seq + 1;
    struct published pub;
    read_published(c, &pub);
    if (next - pub.commit_seq >= c->npages)
        return false; /* the page holds an event a writer we interrupted has not committed */
    /* The consumer's page, in 32 bits (a 64-bit load is two on a 32-bit CPU and could mix
     * two positions); the distance is below npages, so the low halves give it exactly. */
    uint32_t read_low = __atomic_load_n(&c->read_seq_low, __ATOMIC_ACQUIRE);
    if (!rb->overwrite && (uint32_t)next - read_low >= c->npages)
        return false;
    c->write_page->size = write_offset(c); /* final: readers use it once we have left */
    if (next >= c->npages && c->oldest_seq < next + 1 - c->npages) {
        /* Announce the recycling before touching the page: a reader that copied from it
         * checks oldest_seq afterwards and sees the copy may be torn. */
        publish_begin(c);
        c->oldest_seq = next + 1 - c->npages;
        publish_end(c);
    }
    struct rb_page *p = slot(c, next);
    p->seq = next;
    p->time_stamp = ts;
    p->first_entry = fold_events(c) - 1; /* the number of the event that opens it */
    p->size = 0;
    set_write_page(c, next, p);
    return true;
}

static void count_drop(struct rb_cpu *c);

/*
 * Books an event refused (the writer counted itself and its event in writers, then found
 * it may not write or has no room, disabled being what it read, or 0 for a loss) and
 * leaves writers: the event's count is taken back first, so the numbers stay the events
 * stored. tracing_on=0, a reset and a CPU tracing_cpumask leaves out are no loss; an
 * oversized event or one without room (disabled 0) is counted in its place in the stream,
 * while the writer still counts in the nesting, so that a stopper waits for the count to
 * be written before it rewrites the ring; a refusal because a resize stopped the writers
 * goes to stopped_drops, which the resize does not rewrite (readers report those with the
 * next event they read, like unplaced drops).
 */
static void refuse(struct rb_cpu *c, int disabled)
{
    __atomic_fetch_sub(&c->writers, RB_EVENT, __ATOMIC_RELAXED);
    if (!disabled)
        count_drop(c);
    else if (disabled >= RB_STOP_RESIZE && !(disabled & RB_CPU_OFF))
        __atomic_add_fetch(&c->stopped_drops, 1, __ATOMIC_RELAXED);
    leave_writers(c);
}

/* As a writer that was refused: counted in writers first, with the fence (see
 * rb_reserve_cpu), so that a resize never rewrites the ring under the count. */
void rb_count_lost_event(struct ring_buffer *rb)
{
    unsigned long flags = arch_irq_save();
    struct rb_cpu *c = &rb->cpu[arch_cpu_id()];
    __atomic_fetch_add(&c->writers, RB_WRITER, __ATOMIC_SEQ_CST);
    refuse(c, __atomic_load_n(&c->disabled, __ATOMIC_ACQUIRE));
    arch_irq_restore(flags);
}

#define DROP_TAKEN 0x80000000u /* a drop mark's count: the reader has taken it */

/* Adds one drop to the newest mark if it is the same burst (no event written since) and no
 * reader has taken it; the compare-and-swap loses to a reader taking the mark at the same
 * moment on another CPU, and then the caller places a new one. */
static bool add_to_last_mark(struct rb_cpu *c, uint32_t tail, uint64_t next)
{
    if (tail == __atomic_load_n(&c->drop_head, __ATOMIC_ACQUIRE))
        return false;
    struct rb_drop_mark *last = &c->drop_marks[(tail - 1) % RB_DROP_MARKS];
    if (last->before_entry != next)
        return false;
    uint32_t count = last->count;
    while (!(count & DROP_TAKEN) && count + 1 < DROP_TAKEN)
        if (__atomic_compare_exchange_n(&last->count, &count, count + 1, false,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            return true;
    return false;
}

/* Counts one refused event and remembers where in the stream it was refused: before the
 * event that gets the next number. Not the fast path: a locked instruction here costs
 * nothing that matters. */
static void count_drop(struct rb_cpu *c)
{
    c->dropped++;
    uint64_t next = fold_events(c);
    uint32_t tail = c->drop_tail;
    if (add_to_last_mark(c, tail, next))
        return;
    if (tail - __atomic_load_n(&c->drop_head, __ATOMIC_ACQUIRE) == RB_DROP_MARKS) {
        __atomic_store_n(&c->unplaced_drops, c->unplaced_drops + 1, __ATOMIC_RELEASE);
        return;
    }
    c->drop_marks[tail % RB_DROP_MARKS].before_entry = next;
    c->drop_marks[tail % RB_DROP_MARKS].count = 1;
    __atomic_store_n(&c->drop_tail, tail + 1, __ATOMIC_RELEASE);
}

/*
 * A reservation at time ts, for any case: the fast path's uncommon ones (rb_reserve_fast),
 * and copy_ring's events, which keep their time. An event too big for the buffer
 * (refused and counted), one of more than 112 bytes or none (its length in a second header
 * word), the first event of a page (its timestamp becomes the page's base), a delta too
 * large for 27 bits or a new high half of the clock (a time-extend record goes first when
 * the delta needs it), a clock that went backwards (the event takes the previous one's
 * time), and a full page (move on, or drop and count).
 */
static void *reserve_at(struct ring_buffer *rb, struct rb_cpu *c, uint32_t length, uint64_t ts)
{
    if (length > RB_MAX_EVENT) {
        refuse(c, 0);
        return 0;
    }
    uint32_t body = (length + 3) & ~3u;
    uint32_t size = body - 1 < TYPE_DATA_MAX * 4 ? 4 + body : 8 + body;
    if (ts < c->last_ts)
        ts = c->last_ts; /* never back in time: the event counts as simultaneous */
    uint64_t delta = ts - c->last_ts;
    uint32_t offset = write_offset(c);
    uint32_t extend = (offset && delta >= DELTA_LIMIT) ? 8 : 0;
    if (offset + extend + size >= PAGE_DATA) { /* see rb_reserve_fast */
        if (!move_to_next_page(rb, c, ts)) {
            refuse(c, 0);
            return 0;
        }
        extend = 0;
        offset = 0;
    }
    if (offset == 0) {
        c->write_page->time_stamp = ts;
        delta = 0;
    }
    uint32_t *word = (uint32_t *)(c->write_page->data + offset);
    if (extend) {
        word[0] = TYPE_TIME_EXTEND | (uint32_t)((delta & (DELTA_LIMIT - 1)) << DELTA_SHIFT);
        word[1] = (uint32_t)(delta >> 27);
        word += 2;
        delta = 0;
    }
    c->write_pos += extend + size;
    c->last_ts = ts;
    return rb_put_header(word, body, (uint32_t)delta);
}

/* rb_reserve_fast for a payload of more than 112 bytes, or none: the header's second word
 * holds the length. Out of line (the fast path's callers would carry its code for sizes
 * they never write); the uncommon cases are reserve_at's, as in the fast path. */
RB_CALL void *rb_reserve_long(struct rb_cpu *c, uint32_t length)
{
    uint64_t now = arch_cycles();
    uint32_t body = (length + 3) & ~3u;
    uint32_t pos = c->write_pos, end = pos + 8 + body;
    uint64_t delta = now - c->last_ts; /* 64 bits: a clock gone backwards is far past 2^27 */
    if (length > RB_MAX_EVENT || end > c->write_limit || delta >= DELTA_LIMIT)
        return reserve_at(c->rb, c, length, now);
    uint32_t *word = (uint32_t *)(c->write_bias + pos);
    word[0] = (uint32_t)delta << DELTA_SHIFT; /* type_len 0 */
    word[1] = body;
    c->write_pos = end;
    c->last_ts = now;
    return &word[2];
}

RB_SLOW void *rb_reserve_slow(struct rb_cpu *c, uint32_t length)
{
    return reserve_at(c->rb, c, length, arch_cycles());
}

/*
 * The fast path booked the bytes from word on and wrote the header's type_len, then found the
 * clock needs the slow path (a delta of 2^27 or more, a clock gone back): the bytes are given
 * back and the event reserved the general way.
 */
RB_SLOW void *rb_reserve_retime(struct rb_cpu *c, uint32_t *word)
{
    uint32_t type_len = *word & TYPE_LEN_MASK;
    c->write_pos = (uint32_t)((uintptr_t)word - c->write_bias);
    return reserve_at(c->rb, c, type_len * 4, arch_cycles());
}

/*
 * rb_reserve_cpu's other cases, counted in writers already, before being what writers was
 * before: a ring that refuses (disabled read once, refuse judges by it; RB_REFUSING may
 * still be set a moment after disabled went back to 0, and then the writer goes on), a
 * writer nested more than RB_MAX_NESTING deep (refused and counted: the nesting must not
 * overflow into RB_REFUSING), or a writer nested in another on this CPU (an interrupt
 * that traces), which reserves after the outer event and publishes nothing, since the
 * outer event is not committed. An outermost writer that came here for RB_REFUSING
 * publishes as rb_reserve_cpu does.
 */
RB_SLOW void *rb_reserve_nested(struct rb_cpu *c, uint32_t length, uint32_t before)
{
    if (before & RB_REFUSING) {
        int disabled = __atomic_load_n(&c->disabled, __ATOMIC_ACQUIRE);
        if (disabled) {
            refuse(c, disabled);
            return 0;
        }
    }
    uint32_t depth = before & RB_NESTING_MASK;
    if (depth >= RB_MAX_NESTING) {
        refuse(c, 0);
        return 0;
    }
    if (depth == 0)
        __atomic_store_n(&c->commit_pos, c->write_pos, __ATOMIC_RELEASE);
    return reserve_at(c->rb, c, length, arch_cycles());
}

/*
 * Gives back the event just reserved on this CPU instead of committing it (Linux's
 * ring_buffer_discard_commit). When nothing was reserved after it, the write position and
 * the clock and number the next event starts from go back to where they were before it, as
 * if it had never been reserved: no byte, number or loss remains. When a nested writer
 * (an interrupt that traced) reserved after it, its bytes cannot be taken back: the event
 * becomes padding (type_len 29, its time delta kept, the next word the bytes that follow),
 * which readers skip as if absent, and only the trace header's entry count sees it until
 * it is read. A time-extend record written for it stays: it only carries time.
 */
void rb_discard(struct ring_buffer *rb, void *payload, uint32_t length)
{
    unsigned long flags = arch_irq_save();
    struct rb_cpu *c = &rb->cpu[arch_cpu_id()];
    uint32_t body = (length + 3) & ~3u;
    uint32_t header = body - 1 < TYPE_DATA_MAX * 4 ? 4 : 8;
    uint32_t *word = (uint32_t *)((uint8_t *)payload - header);
    uint32_t delta = word[0] >> DELTA_SHIFT;
    if ((uintptr_t)payload + body == c->write_bias + c->write_pos) {
        c->write_pos -= header + body;
        c->last_ts -= delta;
        /* Its number goes back too. Not by taking its count out of writers: readers take
         * an unchanged writers for "no reservation meanwhile" (read_commit_pos). */
        fold_events(c);
        publish_begin(c);
        c->next_entry--;
        publish_end(c);
    } else {
        word[0] = TYPE_PADDING | (delta << DELTA_SHIFT);
        word[1] = header + body - 8;
    }
    leave_writers(c);
    arch_irq_restore(flags);
}

bool rb_write(struct ring_buffer *rb, const void *data, uint32_t length)
{
    void *payload = rb_reserve(rb, length);
    if (!payload)
        return false;
    memcpy(payload, data, length);
    rb_commit(rb);
    return true;
}

/* --- reading --------------------------------------------------------------------------- */

/* A reader's position; the consumer keeps one in rb_cpu, an iterator its own. */
struct read_pos {
    uint64_t seq, ts, entry;
    uint32_t offset;
};

/*
 * A reader for the length of one read (rb_consume, rb_peek_ts, an iterator's step, or
 * copy_ring's walk): where it is, where the data it may read ends, where the payload goes,
 * and what it skipped. reader_next fills in the rest.
 */
struct reader {
    const struct rb_cpu *c;
    struct read_pos at;    /* the next event to read */
    struct read_pos after; /* once an event is read: the position after it */
    uint64_t end_seq;      /* committed data ends at (end_seq, end_offset) ... */
    uint32_t end_offset;
    bool end_fixed;        /* ... fixed (an iterator's snapshot) or re-read each try */
    uint64_t skipped;      /* events recycled before the reader got to them */
    void *buf;             /* up to size payload bytes go here (buf may be NULL if 0) */
    uint32_t size;
};

/* An event found on a page: its time, and where its payload lies. */
struct page_event {
    uint64_t ts;
    uint32_t payload, length;
    bool padding; /* a discarded event (rb_discard): skipped, though it has a number */
};

/*
 * Finds the next whole event on page p between offsets off and end; ts is the time just
 * before off. Time-extend records on the way add to the time. False if no whole event lies
 * before end. The page may be being recycled under the reader, so every word is read once
 * and no length is trusted: the event found always lies inside [off, end), and the caller
 * checks afterwards whether the page was still the one it expected.
 */
static bool find_event(const struct rb_page *p, uint32_t off, uint32_t end, uint64_t ts,
                       struct page_event *e)
{
    while (off + 4 <= end) {
        const uint32_t *word = (const uint32_t *)(p->data + off);
        uint32_t w0 = word[0], type = w0 & TYPE_LEN_MASK;
        if (off + 8 > end && !(type >= 1 && type <= TYPE_DATA_MAX))
            return false; /* a record needing a second word that is not there */
        if (type == TYPE_TIME_EXTEND) {
            ts += ((uint64_t)word[1] << 27) + (w0 >> DELTA_SHIFT);
            off += 8;
            continue;
        }
        uint32_t header = 4, length = type * 4;
        if (!(type >= 1 && type <= TYPE_DATA_MAX)) {
            header = 8;
            length = word[1];
        }
        if (length > end - off - header)
            return false;
        e->ts = ts + (w0 >> DELTA_SHIFT);
        e->payload = off + header;
        e->length = length;
        e->padding = type == TYPE_PADDING;
        return true;
    }
    return false;
}

enum read_result { READ_RECYCLED = -1, READ_END = 0, READ_EVENT = 1 };

/*
 * One try at reading the event at r->at: copies up to r->size payload bytes to r->buf,
 * fills ev (all but cpu and lost_before) and r->after. A page read to its end moves r->at
 * to the next one. READ_RECYCLED: a page changed under the reader, and what it read
 * (r->at included) cannot be trusted.
 */
static enum read_result read_step(struct reader *r, struct rb_event *ev)
{
    const struct rb_cpu *c = r->c;
    struct read_pos *at = &r->at;
    for (;;) {
        if (at->seq > r->end_seq || (at->seq == r->end_seq && at->offset >= r->end_offset))
            return READ_END;
        const struct rb_page *p = slot(c, at->seq);
        uint64_t page_seq = p->seq;
        uint32_t end = at->seq < r->end_seq ? p->size : r->end_offset;
        if (end > PAGE_DATA)
            end = PAGE_DATA;
        struct page_event e;
        bool found = find_event(p, at->offset, end, at->offset ? at->ts : p->time_stamp, &e);
        if (found && r->size)
            memcpy(r->buf, p->data + e.payload, e.length < r->size ? e.length : r->size);
        /* Everything above came from the page: trust it only if the page was not recycled. */
        if (page_seq != at->seq || read_oldest(c) > at->seq)
            return READ_RECYCLED;
        if (found && e.padding) { /* discarded: step over it, counting its number */
            *at = (struct read_pos){ at->seq, e.ts, at->entry + 1, e.payload + e.length };
            continue;
        }
        if (found) {
            ev->ts = e.ts;
            ev->number = at->entry;
            ev->length = e.length;
            r->after = (struct read_pos){ at->seq, e.ts, at->entry + 1, e.payload + e.length };
            return READ_EVENT;
        }
        /* Nothing whole is left before end. On the last page readable, where the writer
         * is, that is the end for now: its data may end in a time extend with no event
         * after it yet (a discarded event leaves the one written for it), and the next
         * event will follow it on this page. Any other page is exhausted: go on at the
         * start of the next one. */
        if (at->seq >= r->end_seq)
            return READ_END;
        at->seq++;
        at->offset = 0;
        if (at->seq <= r->end_seq)
            at->entry = slot(c, at->seq)->first_entry;
        if (read_oldest(c) > at->seq)
            return READ_RECYCLED;
    }
}

/* The number of page seq's first event into *first; false if the page was recycled
 * meanwhile (a writer on another CPU, or an interrupt on this one, got there first), when
 * what was read may belong to a newer page. */
static bool page_first_entry(const struct rb_cpu *c, uint64_t seq, uint64_t *first)
{
    const struct rb_page *p = slot(c, seq);
    uint64_t page_seq = p->seq;
    *first = p->first_entry;
    return page_seq == seq && read_oldest(c) <= seq;
}

/* Moves a reader that fell behind the oldest page to that page; returns events skipped.
 * The page may be recycled while its first number is read: then the reader goes to the
 * newer oldest page, until it reads a number it can trust. */
static uint64_t skip_to_oldest(const struct rb_cpu *c, struct read_pos *pos, uint64_t oldest)
{
    uint64_t first;
    for (int tries = 0; !page_first_entry(c, oldest, &first) && tries < MAX_RETRIES; tries++)
        oldest = read_oldest(c);
    uint64_t skipped = first > pos->entry ? first - pos->entry : 0;
    pos->seq = oldest;
    pos->offset = 0;
    pos->entry = first > pos->entry ? first : pos->entry;
    return skipped;
}

/*
 * Reads the event at r->at, trying again while writers recycle pages under the reader; a
 * reader left behind the oldest page moves up to it and adds what it missed to r->skipped.
 * True: ev holds the event (all but cpu and lost_before), its payload is in r->buf, r->at
 * is at it and r->after after it. False: nothing to read (r->at keeps the pages it moved
 * past), or the pages kept changing MAX_RETRIES times (a crash dump taken while a writer
 * was stopped midway must still end).
 */
static bool reader_next(struct reader *r, struct rb_event *ev)
{
    for (int tries = 0; tries < MAX_RETRIES; tries++) {
        struct published pub;
        read_published(r->c, &pub);
        if (!r->end_fixed) {
            r->end_seq = pub.commit_seq;
            r->end_offset = pub.commit_offset;
        }
        if (r->at.seq < pub.oldest_seq) {
            r->skipped += skip_to_oldest(r->c, &r->at, pub.oldest_seq);
            continue;
        }
        struct read_pos start = r->at;
        enum read_result got = read_step(r, ev);
        if (got == READ_RECYCLED) {
            r->at = start;
            continue;
        }
        return got == READ_EVENT;
    }
    return false;
}

static struct read_pos consumer_pos(const struct rb_cpu *c)
{
    struct read_pos pos = { c->read_seq, c->read_ts, c->read_entry, c->read_offset };
    return pos;
}

/* Moves the consumer but leaves read_seq_low where it is: the page it leaves is still in
 * use (rb_consume_span, until rb_span_done). */
static void set_consumer_pos_keeping_page(struct rb_cpu *c, const struct read_pos *pos)
{
    c->read_seq = pos->seq;
    c->read_ts = pos->ts;
    c->read_entry = pos->entry;
    c->read_offset = pos->offset;
}

/* Moves the consumer. read_seq_low is stored with release order, after the copy from the
 * page it leaves: a writer in producer/consumer mode reuses that page only once it sees the
 * new value. */
static void set_consumer_pos(struct rb_cpu *c, const struct read_pos *pos)
{
    __atomic_store_n(&c->read_seq_low, (uint32_t)pos->seq, __ATOMIC_RELEASE);
    set_consumer_pos_keeping_page(c, pos);
}

/* Losses to report before event number entry (UINT64_MAX: all of them): events overwritten
 * since the last report, and drops placed before that event. */
static uint64_t take_lost(struct rb_cpu *c, uint64_t entry)
{
    uint64_t lost = c->overrun - c->reported_overrun;
    c->reported_overrun = c->overrun;
    uint32_t head = c->drop_head, tail = __atomic_load_n(&c->drop_tail, __ATOMIC_ACQUIRE);
    while (head != tail && c->drop_marks[head % RB_DROP_MARKS].before_entry <= entry) {
        /* Taken atomically: the writer may be adding to this mark right now. */
        lost += __atomic_exchange_n(&c->drop_marks[head % RB_DROP_MARKS].count, DROP_TAKEN,
                                    __ATOMIC_ACQ_REL) & ~DROP_TAKEN;
        head++;
    }
    __atomic_store_n(&c->drop_head, head, __ATOMIC_RELEASE);
    uint32_t unplaced = __atomic_load_n(&c->unplaced_drops, __ATOMIC_ACQUIRE);
    lost += (uint32_t)(unplaced - c->reported_unplaced);
    uint32_t stopped = __atomic_load_n(&c->stopped_drops, __ATOMIC_ACQUIRE);
    lost += (uint32_t)(stopped - c->reported_stopped);
    c->reported_stopped = stopped;
    c->reported_unplaced = unplaced;
    return lost;
}

/* What take_lost(c, entry) would report, without reporting it. */
static uint64_t pending_lost(const struct rb_cpu *c, uint64_t entry)
{
    uint64_t lost = c->overrun - c->reported_overrun;
    uint32_t head = c->drop_head, tail = __atomic_load_n(&c->drop_tail, __ATOMIC_ACQUIRE);
    for (; head != tail && c->drop_marks[head % RB_DROP_MARKS].before_entry <= entry; head++)
        lost += c->drop_marks[head % RB_DROP_MARKS].count & ~DROP_TAKEN;
    return lost + (uint32_t)(c->unplaced_drops - c->reported_unplaced) +
           (uint32_t)(c->stopped_drops - c->reported_stopped);
}

bool rb_consume(struct ring_buffer *rb, unsigned cpu, void *buf, uint32_t size, struct rb_event *ev)
{
    struct rb_cpu *c = &rb->cpu[cpu];
    struct reader r = { .c = c, .at = consumer_pos(c), .buf = buf, .size = size };
    bool got = reader_next(&r, ev);
    c->overrun += r.skipped;
    set_consumer_pos(c, got ? &r.after : &r.at); /* nothing read: keep the page moves */
    if (!got)
        return false;
    ev->cpu = cpu;
    ev->lost_before = take_lost(c, ev->number);
    return true;
}

/* The number of the event before which the oldest drop mark not yet taken places its
 * losses, if it lies after entry (UINT64_MAX if none does): a span must end before it. The
 * marks before or at entry are what take_lost(c, entry) reports. */
static uint64_t next_mark_after(const struct rb_cpu *c, uint64_t entry)
{
    uint32_t head = c->drop_head, tail = __atomic_load_n(&c->drop_tail, __ATOMIC_ACQUIRE);
    for (; head != tail; head++) {
        uint64_t before = c->drop_marks[head % RB_DROP_MARKS].before_entry;
        if (before > entry)
            return before;
    }
    return UINT64_MAX;
}

/*
 * Walks records copied from a page (data[0..len), whole and committed), the first of number
 * *entry at time *ts after the deltas before it, and stops at the end or before the record
 * numbered stop_entry. Time extends count toward the record after them. Returns the bytes
 * walked; *entry and *ts are then the next record's number and the time before it.
 */
static uint32_t walk_records(const uint8_t *data, uint32_t len, uint64_t stop_entry,
                             uint64_t *entry, uint64_t *ts)
{
    uint32_t off = 0;
    while (off + 4 <= len && *entry < stop_entry) {
        uint32_t w[2] = { 0, 0 };
        memcpy(w, data + off, off + 8 <= len ? 8 : 4);
        uint32_t type = w[0] & TYPE_LEN_MASK, header = 4, length = type * 4;
        if (type == TYPE_TIME_EXTEND) {
            *ts += ((uint64_t)w[1] << 27) + (w[0] >> DELTA_SHIFT);
            off += 8;
            continue;
        }
        if (!(type >= 1 && type <= TYPE_DATA_MAX)) {
            header = 8;
            length = w[1];
        }
        if (length > len - off - header)
            break; /* cannot happen in committed data; never walk past it */
        *ts += w[0] >> DELTA_SHIFT;
        *entry += 1;
        off += header + length;
    }
    return off;
}

/*
 * The binary capture's read: the records after the consumer, where they lie on its page,
 * with no look at each event and no copy. What the span may hold: up to where the page's
 * committed data ends, and never past an event a loss comes before (a drop mark: the loss
 * then starts the next span, in its place). Only when it ends inside a page, at the commit
 * position or at such a mark, are its records walked, to know the number and the time the
 * consumer goes on from; a span that ends its page takes them from the next page's header.
 * What was read from the page is trusted only if the page was not recycled meanwhile, as
 * everywhere; pages recycled before the consumer got to them are lost_before. The consumer
 * moves on, but read_seq_low, what a producer/consumer writer heeds, stays on the span's
 * page until rb_span_done.
 */
bool rb_consume_span(struct ring_buffer *rb, unsigned cpu, bool whole_pages, struct rb_span *span)
{
    struct rb_cpu *c = &rb->cpu[cpu];
    struct read_pos at = consumer_pos(c), after = at;
    uint64_t skipped = 0;
    bool got = false;
    for (int tries = 0; tries < MAX_RETRIES; tries++) {
        struct published pub;
        read_published(c, &pub);
        if (at.seq < pub.oldest_seq) {
            skipped += skip_to_oldest(c, &at, pub.oldest_seq);
            continue;
        }
        bool writing = at.seq >= pub.commit_seq; /* the writer's page: data ends at commit */
        const struct rb_page *p = slot(c, at.seq);
        uint64_t page_seq = p->seq, next_first = 0;
        uint32_t end = writing ? pub.commit_offset : p->size;
        if (end > PAGE_DATA)
            end = PAGE_DATA;
        uint64_t ts = at.offset ? at.ts : p->time_stamp;
        uint32_t len = end > at.offset ? end - at.offset : 0;
        bool take = len && !(writing && whole_pages);
        after = (struct read_pos){ at.seq, ts, at.entry, at.offset };
        uint64_t mark = next_mark_after(c, at.entry);
        if (!writing) { /* the next page's header is whole: the writer has been on it */
            const struct rb_page *next = slot(c, at.seq + 1);
            next_first = next->first_entry;
            if (next->seq != at.seq + 1)
                continue; /* recycled: then so is this page, which the next turn sees */
        }
        if (take && (writing || mark < next_first)) {
            len = walk_records(p->data + at.offset, len, mark, &after.entry, &after.ts);
            after.offset += len;
        } else {
            after = (struct read_pos){ at.seq + 1, 0, next_first, 0 };
        }
        if (page_seq != at.seq || read_oldest(c) > at.seq)
            continue; /* recycled under the reader: the next turn skips to the oldest page */
        if (!len && !writing) {
            at = after; /* an empty page's end */
            continue;
        }
        if (take && len) {
            *span = (struct rb_span){ p->data + at.offset, at.seq, ts, at.entry, 0, len,
                                      (uint32_t)(after.entry - at.entry) };
            got = true;
        }
        break; /* nothing committed after the consumer, or the writer's page is kept whole */
    }
    c->overrun += skipped;
    if (!got) {
        set_consumer_pos(c, &at); /* nothing read: keep the page moves */
        return false;
    }
    span->lost_before = take_lost(c, span->first_entry);
    set_consumer_pos_keeping_page(c, &after); /* the span's page: at or after read_seq_low */
    return true;
}

bool rb_span_done(struct ring_buffer *rb, unsigned cpu, const struct rb_span *span)
{
    struct rb_cpu *c = &rb->cpu[cpu];
    const struct rb_page *p = slot(c, span->seq);
    bool whole = p->seq == span->seq && read_oldest(c) <= span->seq;
    if (!whole)
        c->overrun += span->entries + span->lost_before;
    __atomic_store_n(&c->read_seq_low, (uint32_t)c->read_seq, __ATOMIC_RELEASE);
    return whole;
}

bool rb_peek_event(struct ring_buffer *rb, unsigned cpu, struct rb_event *ev)
{
    struct rb_cpu *c = &rb->cpu[cpu];
    struct reader r = { .c = c, .at = consumer_pos(c) }; /* a copy: the consumer stays */
    if (!reader_next(&r, ev))
        return false;
    ev->cpu = cpu;
    ev->lost_before = r.skipped + pending_lost(c, ev->number);
    return true;
}

uint64_t rb_take_lost(struct ring_buffer *rb, unsigned cpu)
{
    return take_lost(&rb->cpu[cpu], UINT64_MAX);
}

bool rb_peek_ts(struct ring_buffer *rb, unsigned cpu, uint64_t *ts)
{
    struct rb_cpu *c = &rb->cpu[cpu];
    struct reader r = { .c = c, .at = consumer_pos(c) }; /* a copy: the consumer stays */
    struct rb_event ev;
    if (!reader_next(&r, &ev))
        return false;
    *ts = ev.ts;
    return true;
}

static struct read_pos iter_pos(const struct rb_iter *it)
{
    struct read_pos pos = { it->seq, it->ts, it->entry, it->offset };
    return pos;
}

static void set_iter_pos(struct rb_iter *it, const struct read_pos *pos)
{
    it->seq = pos->seq;
    it->ts = pos->ts;
    it->entry = pos->entry;
    it->offset = pos->offset;
}

void rb_iter_start(struct ring_buffer *rb, unsigned cpu, struct rb_iter *it)
{
    struct rb_cpu *c = &rb->cpu[cpu];
    struct published pub;
    read_published(c, &pub);
    struct read_pos pos = consumer_pos(c);
    it->rb = rb;
    it->cpu = cpu;
    it->skipped = 0;
    if (pos.seq < pub.oldest_seq)
        skip_to_oldest(c, &pos, pub.oldest_seq); /* gone before the snapshot: no loss to it */
    set_iter_pos(it, &pos);
    it->end_seq = pub.commit_seq;
    it->end_offset = pub.commit_offset;
}

/* The iterator's step; peek leaves the iterator at the event (the pages it moved past and
 * what it skipped are kept). Skips are reported with the next event stepped over. */
static bool iter_step(struct rb_iter *it, void *buf, uint32_t size, struct rb_event *ev,
                      bool advance)
{
    struct reader r = { .c = &it->rb->cpu[it->cpu], .at = iter_pos(it),
                        .end_seq = it->end_seq, .end_offset = it->end_offset, .end_fixed = true,
                        .skipped = it->skipped, .buf = buf, .size = size };
    bool got = reader_next(&r, ev);
    set_iter_pos(it, &r.at);
    it->skipped = r.skipped;
    if (!got)
        return false;
    ev->cpu = it->cpu;
    ev->lost_before = 0;
    if (advance) {
        set_iter_pos(it, &r.after);
        ev->lost_before = it->skipped;
        it->skipped = 0;
    }
    return true;
}

bool rb_iter_next(struct rb_iter *it, void *buf, uint32_t size, struct rb_event *ev)
{
    return iter_step(it, buf, size, ev, true);
}

bool rb_iter_peek_ts(struct rb_iter *it, uint64_t *ts)
{
    struct rb_event ev;
    if (!iter_step(it, 0, 0, &ev, false))
        return false;
    *ts = ev.ts;
    return true;
}

/* --- bookkeeping ----------------------------------------------------------------------- */

/* The writer's 64-bit count *v, read consistently on a 32-bit CPU without stopping the
 * writer: two reads of the high half that agree around the low one. */
static uint64_t read_writer_count(const volatile uint64_t *v)
{
    const volatile uint32_t *half = (const volatile uint32_t *)v; /* little-endian */
    uint32_t high, low;
    do {
        high = half[1];
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        low = half[0];
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
    } while (high != half[1]);
    return (uint64_t)high << 32 | low;
}

/* Counts of a ring whose writer may be running on another CPU: a moment's picture, each
 * count read whole, as the header of `trace` or per_cpu/cpuN/stats shows them. */
void rb_get_stats(struct ring_buffer *rb, unsigned cpu, struct rb_stats *st)
{
    memset(st, 0, sizeof *st);
    for (unsigned i = 0; i < rb->ncpus; i++) {
        if (cpu != RB_ALL_CPUS && cpu != i)
            continue;
        struct rb_cpu *c = &rb->cpu[i];
        struct published pub;
        read_published(c, &pub);
        uint64_t start = c->read_entry;
        uint64_t pending_overrun = 0;
        if (c->read_seq < pub.oldest_seq) {
            struct read_pos pos = { c->read_seq, 0, start, 0 };
            pending_overrun = skip_to_oldest(c, &pos, pub.oldest_seq); /* not noticed yet */
            start = pos.entry;
        }
        uint64_t written = read_entries(c); /* an open reservation too */
        st->entries += written > start ? written - start : 0;
        st->overrun += c->overrun + pending_overrun;
        st->dropped += read_writer_count(&c->dropped) + (uint32_t)(c->stopped_drops -
                                                                   c->stopped_base);
        st->read += c->read_entry - c->overrun;
    }
}

void rb_set_overwrite(struct ring_buffer *rb, bool overwrite) { rb->overwrite = overwrite; }

uint32_t rb_pages_per_cpu(const struct ring_buffer *rb) { return rb->cpu[0].npages; }

uint32_t rb_page_data_size(void) { return PAGE_DATA; }

/* Everything of an rb_cpu after writers, disabled and stopped_drops: what reset and resize
 * rewrite. */
#define RB_CPU_STATE(c) ((char *)&(c)->pages)
#define RB_CPU_STATE_SIZE (sizeof(struct rb_cpu) - offsetof(struct rb_cpu, pages))

/* Puts one CPU's ring in its empty state: page 0 being written, nothing read or lost. */
static void reset_cpu(struct rb_cpu *c)
{
    struct rb_page **pages = c->pages;
    uint32_t npages = c->npages;
    memset(RB_CPU_STATE(c), 0, RB_CPU_STATE_SIZE);
    c->reported_stopped = c->stopped_base = c->stopped_drops; /* counts start from here */
    c->count_base = quiet_count(c); /* event numbers too: the next one is 0 */
    c->pages = pages;
    c->npages = npages;
    for (uint32_t i = 0; i < npages; i++) {
        memset(pages[i], 0, sizeof(struct rb_page));
        pages[i]->seq = i; /* never read before written: only page 0 is in range */
    }
    set_write_page(c, 0, pages[0]);
}

/*
 * Adds share to c->disabled and makes RB_REFUSING in c->writers say whether it is above 0.
 * Several CPUs may change disabled at once (a resize, a snapshot swap, tracing_cpumask):
 * each one sets the bit from the value it reads, with a compare-and-swap (the writers'
 * own locked adds may change the word meanwhile), and reads disabled again afterwards,
 * until the two agree; so when the last of them returns, the bit is right. While a share
 * holds, no one can read 0, so the bit stays set.
 */
static void change_disabled(struct rb_cpu *c, int share)
{
    __atomic_add_fetch(&c->disabled, share, __ATOMIC_SEQ_CST);
    for (;;) {
        bool refusing = __atomic_load_n(&c->disabled, __ATOMIC_SEQ_CST) != 0;
        uint32_t writers = __atomic_load_n(&c->writers, __ATOMIC_SEQ_CST);
        uint32_t want = refusing ? writers | RB_REFUSING : writers & ~RB_REFUSING;
        if (want != writers && !__atomic_compare_exchange_n(&c->writers, &writers, want, false,
                                                            __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            continue;
        if ((__atomic_load_n(&c->disabled, __ATOMIC_SEQ_CST) != 0) == refusing)
            return;
    }
}

void rb_disable_writers(struct ring_buffer *rb, int share)
{
    for (unsigned i = 0; i < RB_MAX_CPUS; i++)
        change_disabled(&rb->cpu[i], share);
}

/* Whether cpu has a writer between reserve and commit, read with acquire order (what it
 * committed is seen after). */
static bool cpu_writing(const struct ring_buffer *rb, unsigned cpu)
{
    return __atomic_load_n(&rb->cpu[cpu].writers, __ATOMIC_ACQUIRE) & RB_NESTING_MASK;
}

/*
 * Stops the writers: raises every CPU's disabled (and so RB_REFUSING in its writers), then
 * waits until no CPU has a writer between reserve and commit. A writer whose locked add to
 * writers came before the bit is waited for; one after it sees the bit and backs out. Nested
 * writers (interrupts) keep the nesting above zero until the outermost commits, so the wait
 * ends only when each ring is quiet. No IPI is needed, so the callers may hold spinlocks (the
 * tracing core's reader lock).
 */
static void stop_writers(struct ring_buffer *rb, int share)
{
    rb_disable_writers(rb, share);
    for (unsigned i = 0; i < rb->ncpus; i++)
        while (cpu_writing(rb, i))
            arch_cpu_relax();
}

static void start_writers(struct ring_buffer *rb, int share)
{
    rb_disable_writers(rb, -share);
}

/* For a resize: events refused meanwhile are losses (a reset's are not: the trace they
 * would have joined is being thrown away). */
void rb_writers_stop(struct ring_buffer *rb) { stop_writers(rb, RB_STOP_RESIZE); }
void rb_writers_start(struct ring_buffer *rb) { start_writers(rb, RB_STOP_RESIZE); }

/* rb_writers_stop for a caller that must not wait for ever (a snapshot swap, which may run
 * with interrupts off while another CPU's writer waits for something the caller holds):
 * gives up after max_cycles of waiting, letting the writers go again. */
bool rb_writers_stop_within(struct ring_buffer *rb, uint64_t max_cycles)
{
    rb_disable_writers(rb, RB_STOP_RESIZE);
    uint64_t start = arch_cycles();
    for (unsigned i = 0; i < rb->ncpus; i++)
        while (cpu_writing(rb, i)) {
            if (arch_cycles() - start > max_cycles) {
                start_writers(rb, RB_STOP_RESIZE);
                return false;
            }
            arch_cpu_relax();
        }
    return true;
}

void rb_reset(struct ring_buffer *rb)
{
    stop_writers(rb, 1);
    for (unsigned i = 0; i < rb->ncpus; i++)
        reset_cpu(&rb->cpu[i]);
    start_writers(rb, 1);
}

static void free_pages(const struct rb_env *env, struct rb_page **pages, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (pages[i])
            env->free_page(pages[i]);
}

/* Allocates n pages into pages[]; on failure frees what it got and returns false. */
static bool alloc_pages(const struct rb_env *env, struct rb_page **pages, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        pages[i] = env->alloc_page();
        if (!pages[i]) {
            free_pages(env, pages, i);
            return false;
        }
    }
    return true;
}

/* The allocator aligns less than a cache line (kmalloc: 16 bytes): the buffer is placed at
 * the first line boundary inside a slightly larger block, so every rb_cpu starts a line. */
struct ring_buffer *rb_create(const struct rb_env *env, unsigned ncpus, uint32_t pages_per_cpu)
{
    if (ncpus == 0 || ncpus > RB_MAX_CPUS || pages_per_cpu < 2)
        return 0;
    void *block = env->alloc(sizeof(struct ring_buffer) + RB_CACHE_LINE - 1);
    if (!block)
        return 0;
    uintptr_t at = ((uintptr_t)block + RB_CACHE_LINE - 1) & ~(uintptr_t)(RB_CACHE_LINE - 1);
    struct ring_buffer *rb = (struct ring_buffer *)at;
    memset(rb, 0, sizeof *rb);
    rb->allocation = block;
    rb->env = *env;
    rb->ncpus = ncpus;
    rb->overwrite = true;
    for (unsigned i = 0; i < RB_MAX_CPUS; i++)
        rb->cpu[i].rb = rb;
    for (unsigned i = ncpus; i < RB_MAX_CPUS; i++) {
        rb->cpu_off[i] = true; /* no ring: a CPU started later writes nothing, loses nothing */
        change_disabled(&rb->cpu[i], RB_CPU_OFF);
    }
    for (unsigned i = 0; i < ncpus; i++) {
        struct rb_cpu *c = &rb->cpu[i];
        c->pages = env->alloc(pages_per_cpu * sizeof *c->pages);
        if (!c->pages || !alloc_pages(env, c->pages, pages_per_cpu)) {
            env->free(c->pages);
            c->pages = 0;
            rb->ncpus = i; /* rb_destroy frees the CPUs set up so far */
            rb_destroy(rb);
            return 0;
        }
        c->npages = pages_per_cpu;
        reset_cpu(c);
    }
    return rb;
}

void rb_destroy(struct ring_buffer *rb)
{
    for (unsigned i = 0; i < rb->ncpus; i++) {
        free_pages(&rb->env, rb->cpu[i].pages, rb->cpu[i].npages);
        rb->env.free(rb->cpu[i].pages);
    }
    rb->env.free(rb->allocation);
}

/* Copies the unread events of old into fresh (already reset), keeping numbers, timestamps
 * and loss counts; writing in overwrite mode, so if fresh is smaller the oldest events are
 * recycled and later reported as overrun. */
static void copy_ring(struct ring_buffer *rb, struct rb_cpu *old, struct rb_cpu *fresh)
{
    static uint8_t payload[RB_MAX_EVENT + 4];
    /* The writers are stopped: everything written is committed, up to the write position.
     * Not read_published's answer: a writer being refused meanwhile holds the nesting above
     * zero for a moment, and then that would be commit_pos, one event short. */
    struct published pub = { .commit_seq = old->write_seq, .oldest_seq = old->oldest_seq,
                             .commit_offset = write_offset(old) };
    struct reader r = { .c = old, .at = consumer_pos(old), .end_seq = pub.commit_seq,
                        .end_offset = pub.commit_offset, .end_fixed = true,
                        .buf = payload, .size = sizeof payload };
    if (r.at.seq < pub.oldest_seq)
        r.skipped = skip_to_oldest(old, &r.at, pub.oldest_seq);
    fresh->next_entry = fresh->read_entry = r.at.entry;
    fresh->overrun = old->overrun + r.skipped;
    bool overwrite = rb->overwrite;
    rb->overwrite = true;
    struct rb_event ev;
    while (reader_next(&r, &ev)) { /* the writers are stopped: no page changes meanwhile */
        fresh->writers += RB_WRITER; /* as rb_reserve_cpu counts a writer, and publishes */
        fresh->commit_pos = fresh->write_pos;
        void *dst = reserve_at(rb, fresh, ev.length, ev.ts);
        if (dst) {
            memcpy(dst, payload, ev.length);
            leave_writers(fresh);
        }
        r.at = r.after;
    }
    rb->overwrite = overwrite;
}

int rb_resize_alloc(struct ring_buffer *rb, uint32_t pages_per_cpu, struct rb_resize_pages *r)
{
    const struct rb_env *env = &rb->env;
    if (pages_per_cpu < 2)
        return -EINVAL;
    *r = (struct rb_resize_pages){ .npages = pages_per_cpu };
    for (unsigned i = 0; i < rb->ncpus; i++) {
        r->pages[i] = env->alloc(pages_per_cpu * sizeof(struct rb_page *));
        if (!r->pages[i] || !alloc_pages(env, r->pages[i], pages_per_cpu)) {
            env->free(r->pages[i]);
            r->pages[i] = 0;
            rb_resize_free(rb, r);
            return -ENOMEM;
        }
    }
    return 0;
}

/* With the writers stopped (rb_writers_stop), no consumer reading and no iterator walking
 * (the tracing core waits for walks of `trace`: trace_print_walks_stop): an iterator is not
 * moved with the rings, its page numbers belong to the old ones. */
void rb_resize_swap(struct ring_buffer *rb, struct rb_resize_pages *r)
{
    uint32_t old_npages = rb->cpu[0].npages;
    for (unsigned i = 0; i < rb->ncpus; i++) {
        struct rb_cpu *c = &rb->cpu[i];
        struct rb_cpu fresh = { .pages = r->pages[i], .npages = r->npages };
        reset_cpu(&fresh);
        copy_ring(rb, c, &fresh);
        /* Losses already reported, and drop marks not yet reported, carry over. */
        fresh.reported_overrun = c->reported_overrun;
        memcpy(fresh.drop_marks, c->drop_marks, sizeof fresh.drop_marks);
        fresh.drop_head = c->drop_head;
        fresh.drop_tail = c->drop_tail;
        fresh.unplaced_drops = c->unplaced_drops;
        fresh.reported_unplaced = c->reported_unplaced;
        fresh.reported_stopped = c->reported_stopped;
        fresh.stopped_base = c->stopped_base;
        fresh.dropped = c->dropped;
        /* Event numbers go on from the copied ones, counted from the ring's own writers. */
        fresh.next_entry = fold_events(&fresh);
        fresh.count_base = quiet_count(c);
        if (fresh.last_ts < c->last_ts)
            fresh.last_ts = c->last_ts; /* events written later never predate earlier ones */
        if (write_offset(&fresh) == 0)
            fresh.write_page->time_stamp = fresh.last_ts; /* a page's time: see above */
        r->pages[i] = c->pages; /* the old pages, for rb_resize_free */
        fresh.gen = c->gen + 2; /* readers that sampled the old generation retry */
        memcpy(RB_CPU_STATE(c), RB_CPU_STATE(&fresh), RB_CPU_STATE_SIZE);
    }
    r->npages = old_npages;
}

void rb_resize_free(struct ring_buffer *rb, struct rb_resize_pages *r)
{
    for (unsigned i = 0; i < rb->ncpus; i++) {
        if (!r->pages[i])
            continue;
        free_pages(&rb->env, r->pages[i], r->npages);
        rb->env.free(r->pages[i]);
        r->pages[i] = 0;
    }
}

int rb_resize(struct ring_buffer *rb, uint32_t pages_per_cpu)
{
    struct rb_resize_pages r;
    int err = rb_resize_alloc(rb, pages_per_cpu, &r);
    if (err)
        return err;
    rb_writers_stop(rb);
    rb_resize_swap(rb, &r);
    rb_writers_start(rb);
    rb_resize_free(rb, &r);
    return 0;
}

/* issue 18, tracing_cpumask (trace/core/trace_cpumask.c). */
void rb_set_cpu_recording(struct ring_buffer *rb, unsigned cpu, bool on)
{
    if (cpu >= rb->ncpus || rb->cpu_off[cpu] == !on)
        return;
    rb->cpu_off[cpu] = !on;
    change_disabled(&rb->cpu[cpu], on ? -RB_CPU_OFF : RB_CPU_OFF);
}
