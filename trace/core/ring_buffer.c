/*
 * ring_buffer.c - per-CPU rings of pages holding timestamped events (see ring_buffer.h).
 *
 * Positions are (logical page number, byte offset). Logical page numbers only grow; page
 * number s lives in slot s % npages and records s in its header, so anyone can tell whether
 * a slot still holds the page they expect. Per CPU, the state moves like this:
 *
 *   oldest_seq <= read position <= commit position <= write position
 *
 * oldest_seq is the oldest page not yet recycled, the read position is the consuming
 * reader's, the commit position ends the data readers may see, and the write position is
 * where the next event is reserved.
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

_Static_assert(RB_MAX_EVENT + 16 <= PAGE_DATA, "the largest event must fit a page");

static struct rb_page *slot(const struct rb_cpu *c, uint64_t seq)
{
    return c->pages[seq % c->npages];
}

/* --- publishing: a seqcount so readers on other CPUs (or interrupted readers) never see a
 * half-updated position. Writers update with interrupts off, so they never nest here. */
#define publish_begin rb_publish_begin
#define publish_end rb_publish_end

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

/*
 * The published state: the oldest page, and the commit position turned back into (page,
 * offset). commit_pos counts bytes modulo 2^32 as if every page held RB_PAGE_DATA; the
 * commit page is never older than oldest_seq nor more than npages pages newer, so the
 * distance from oldest_seq's position decodes it exactly. oldest_seq is read first: it
 * only grows, so the commit position read after it is never behind it.
 */
static void read_published(const struct rb_cpu *c, struct published *p)
{
    p->oldest_seq = read_oldest(c);
    uint32_t pos = __atomic_load_n(&c->commit_pos, __ATOMIC_ACQUIRE);
    uint32_t distance = pos - (uint32_t)p->oldest_seq * PAGE_DATA;
    p->commit_seq = p->oldest_seq + distance / PAGE_DATA;
    p->commit_offset = distance % PAGE_DATA;
}

/* --- writing ------------------------------------------------------------------------- */

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
    if (!rb->overwrite && next - c->read_seq >= c->npages)
        return false;
    c->write_page->size = c->write_offset; /* final: readers use it once we have left */
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
    p->first_entry = c->next_entry;
    p->size = 0;
    c->write_seq = next;
    c->write_page = p;
    c->write_base = (uint32_t)next * PAGE_DATA;
    c->write_offset = 0;
    return true;
}

void rb_count_lost_event(struct ring_buffer *rb) { rb_count_drop(&rb->cpu[arch_cpu_id()]); }

/* Counts one refused event and remembers where in the stream it was refused. */
void rb_count_drop(struct rb_cpu *c)
{
    c->dropped++;
    uint32_t tail = c->drop_tail;
    if (tail != c->drop_head) {
        struct rb_drop_mark *last = &c->drop_marks[(tail - 1) % RB_DROP_MARKS];
        /* Same burst: no event was written since. The reader cannot be taking this mark:
         * it only takes marks placed before an event it has read. */
        if (last->before_entry == c->next_entry) {
            last->count++;
            return;
        }
    }
    if (tail - c->drop_head == RB_DROP_MARKS) {
        c->unplaced_drops++;
        return;
    }
    c->drop_marks[tail % RB_DROP_MARKS].before_entry = c->next_entry;
    c->drop_marks[tail % RB_DROP_MARKS].count = 1;
    __atomic_store_n(&c->drop_tail, tail + 1, __ATOMIC_RELEASE);
}

/*
 * The uncommon cases of a reservation: the first event of a page (its timestamp becomes the
 * page's base), a delta too large for 27 bits (a time-extend record goes first), a clock
 * that went backwards (the event takes the previous one's time), and a full page (move on,
 * or drop and count).
 */
void *rb_reserve_slow(struct ring_buffer *rb, struct rb_cpu *c, uint32_t body, uint32_t size,
                      uint64_t ts)
{
    if (ts < c->last_ts)
        ts = c->last_ts; /* never back in time: the event counts as simultaneous */
    uint64_t delta = ts - c->last_ts;
    uint32_t extend = (c->write_offset && delta >= DELTA_LIMIT) ? 8 : 0;
    if (c->write_offset + extend + size >= PAGE_DATA) { /* see rb_reserve_on */
        if (!move_to_next_page(rb, c, ts)) {
            rb_count_drop(c);
            return 0;
        }
        extend = 0;
    }
    if (c->write_offset == 0) {
        c->write_page->time_stamp = ts;
        delta = 0;
    }
    uint32_t *word = (uint32_t *)(c->write_page->data + c->write_offset);
    if (extend) {
        word[0] = TYPE_TIME_EXTEND | (uint32_t)((delta & (DELTA_LIMIT - 1)) << DELTA_SHIFT);
        word[1] = (uint32_t)(delta >> 27);
        word += 2;
        delta = 0;
    }
    return rb_account(c, extend + size, ts, rb_put_header(word, body, (uint32_t)delta));
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
    if ((uint8_t *)payload + body == c->write_page->data + c->write_offset) {
        c->write_offset -= header + body;
        c->last_ts -= delta;
        c->next_entry--;
    } else {
        word[0] = TYPE_PADDING | (delta << DELTA_SHIFT);
        word[1] = header + body - 8;
    }
    rb_commit_on(c);
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
        /* This page is exhausted: go on at the start of the next one. */
        at->seq++;
        at->offset = 0;
        if (at->seq <= r->end_seq)
            at->entry = slot(c, at->seq)->first_entry;
        if (read_oldest(c) > at->seq)
            return READ_RECYCLED;
    }
}

/* Moves a reader that fell behind the oldest page to that page; returns events skipped. */
static uint64_t skip_to_oldest(const struct rb_cpu *c, struct read_pos *pos, uint64_t oldest)
{
    const struct rb_page *p = slot(c, oldest);
    uint64_t first = p->first_entry;
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

static void set_consumer_pos(struct rb_cpu *c, const struct read_pos *pos)
{
    c->read_seq = pos->seq;
    c->read_ts = pos->ts;
    c->read_entry = pos->entry;
    c->read_offset = pos->offset;
}

/* Losses to report before event number entry (UINT64_MAX: all of them): events overwritten
 * since the last report, and drops placed before that event. */
static uint64_t take_lost(struct rb_cpu *c, uint64_t entry)
{
    uint64_t lost = c->overrun - c->reported_overrun;
    c->reported_overrun = c->overrun;
    uint32_t head = c->drop_head, tail = __atomic_load_n(&c->drop_tail, __ATOMIC_ACQUIRE);
    while (head != tail && c->drop_marks[head % RB_DROP_MARKS].before_entry <= entry) {
        lost += c->drop_marks[head % RB_DROP_MARKS].count;
        head++;
    }
    __atomic_store_n(&c->drop_head, head, __ATOMIC_RELEASE);
    uint64_t unplaced = c->unplaced_drops; /* a writer may add to it meanwhile: read once */
    lost += unplaced - c->reported_unplaced;
    c->reported_unplaced = unplaced;
    return lost;
}

/* What take_lost(c, entry) would report, without reporting it. */
static uint64_t pending_lost(const struct rb_cpu *c, uint64_t entry)
{
    uint64_t lost = c->overrun - c->reported_overrun;
    uint32_t head = c->drop_head, tail = __atomic_load_n(&c->drop_tail, __ATOMIC_ACQUIRE);
    for (; head != tail && c->drop_marks[head % RB_DROP_MARKS].before_entry <= entry; head++)
        lost += c->drop_marks[head % RB_DROP_MARKS].count;
    return lost + c->unplaced_drops - c->reported_unplaced;
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

void rb_get_stats(struct ring_buffer *rb, unsigned cpu, struct rb_stats *st)
{
    memset(st, 0, sizeof *st);
    for (unsigned i = 0; i < rb->ncpus; i++) {
        if (cpu != RB_ALL_CPUS && cpu != i)
            continue;
        struct rb_cpu *c = &rb->cpu[i];
        struct published pub;
        read_published(c, &pub);
        uint64_t oldest_entry = slot(c, pub.oldest_seq)->first_entry;
        uint64_t start = c->read_entry;
        uint64_t pending_overrun = 0;
        if (c->read_seq < pub.oldest_seq && oldest_entry > start) {
            pending_overrun = oldest_entry - start; /* the reader has not noticed yet */
            start = oldest_entry;
        }
        uint64_t written = c->next_entry; /* includes a reservation still open, if any */
        st->entries += written > start ? written - start : 0;
        st->overrun += c->overrun + pending_overrun;
        st->dropped += c->dropped;
        st->read += c->read_entry - c->overrun;
    }
}

void rb_set_overwrite(struct ring_buffer *rb, bool overwrite) { rb->overwrite = overwrite; }

uint32_t rb_pages_per_cpu(const struct ring_buffer *rb) { return rb->cpu[0].npages; }

uint32_t rb_page_data_size(void) { return PAGE_DATA; }

/* Puts one CPU's ring in its empty state: page 0 being written, nothing read or lost. */
static void reset_cpu(struct rb_cpu *c)
{
    struct rb_page **pages = c->pages;
    uint32_t npages = c->npages;
    memset(c, 0, sizeof *c);
    c->pages = pages;
    c->npages = npages;
    for (uint32_t i = 0; i < npages; i++) {
        memset(pages[i], 0, sizeof(struct rb_page));
        pages[i]->seq = i; /* never read before written: only page 0 is in range */
    }
    c->write_page = pages[0];
}

/* Waits until no writer is between reserve and commit on any CPU; with recording disabled
 * none can start, so afterwards the rings are quiet. */
static void wait_for_writers(struct ring_buffer *rb)
{
    for (unsigned i = 0; i < rb->ncpus; i++)
        while (__atomic_load_n(&rb->cpu[i].nesting, __ATOMIC_ACQUIRE))
            arch_cpu_relax();
}

void rb_reset(struct ring_buffer *rb)
{
    __atomic_add_fetch(&rb->record_disabled, 1, __ATOMIC_SEQ_CST);
    wait_for_writers(rb);
    for (unsigned i = 0; i < rb->ncpus; i++)
        reset_cpu(&rb->cpu[i]);
    __atomic_sub_fetch(&rb->record_disabled, 1, __ATOMIC_SEQ_CST);
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

struct ring_buffer *rb_create(const struct rb_env *env, unsigned ncpus, uint32_t pages_per_cpu)
{
    if (ncpus == 0 || ncpus > RB_MAX_CPUS || pages_per_cpu < 2)
        return 0;
    struct ring_buffer *rb = env->alloc(sizeof *rb);
    if (!rb)
        return 0;
    memset(rb, 0, sizeof *rb);
    rb->env = *env;
    rb->ncpus = ncpus;
    rb->overwrite = true;
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
    rb->env.free(rb);
}

/* Copies the unread events of old into fresh (already reset), keeping numbers, timestamps
 * and loss counts; writing in overwrite mode, so if fresh is smaller the oldest events are
 * recycled and later reported as overrun. */
static void copy_ring(struct ring_buffer *rb, struct rb_cpu *old, struct rb_cpu *fresh)
{
    static uint8_t payload[RB_MAX_EVENT + 4];
    struct published pub;
    read_published(old, &pub);
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
        void *dst = rb_reserve_on(rb, fresh, ev.length, ev.ts);
        if (dst) {
            memcpy(dst, payload, ev.length);
            rb_commit_on(fresh);
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

void rb_resize_swap(struct ring_buffer *rb, struct rb_resize_pages *r)
{
    uint32_t old_npages = rb->cpu[0].npages;
    rb->resizing = true;
    __atomic_add_fetch(&rb->record_disabled, 1, __ATOMIC_SEQ_CST);
    wait_for_writers(rb);
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
        fresh.dropped = c->dropped;
        if (fresh.last_ts < c->last_ts)
            fresh.last_ts = c->last_ts; /* events written later never predate earlier ones */
        r->pages[i] = c->pages; /* the old pages, for rb_resize_free */
        fresh.gen = c->gen + 2; /* readers that sampled the old generation retry */
        *c = fresh;
    }
    r->npages = old_npages;
    __atomic_sub_fetch(&rb->record_disabled, 1, __ATOMIC_SEQ_CST);
    rb->resizing = false;
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
    rb_resize_swap(rb, &r);
    rb_resize_free(rb, &r);
    return 0;
}

/* issue 18, tracing_cpumask (trace/core/trace_cpumask.c). */
void rb_set_cpu_recording(struct ring_buffer *rb, unsigned cpu, bool on)
{
    if (cpu < rb->ncpus)
        rb->cpu_off[cpu] = !on;
}
