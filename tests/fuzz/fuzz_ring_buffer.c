/*
 * fuzz_ring_buffer.c - fuzz target for trace/core/ring_buffer.c.
 *
 * The input is a program. Its first two bytes choose 1-3 CPUs (and, with the top bit, a
 * try at rb_create failures first) and 2-6 pages per CPU, the third the starting clock
 * (host_cycles); every following byte is an operation (its value modulo OP_COUNT) followed
 * by its argument bytes (missing bytes read as 0): write an event (rb_reserve + rb_commit,
 * or rb_write), write a burst, reserve without committing (up to 3 open per CPU, so later
 * writes on that CPU nest inside them, as an interrupt handler's would), commit the
 * innermost open reservation, move the clock forward a little or a lot (time extends,
 * 2^32 edges) or back, consume, iterate a CPU fully, start or step an iterator that lives
 * across other operations, toggle overwrite mode, toggle recording (rb_disable_writers),
 * rb_reset, rb_resize (with a page budget, so -ENOMEM happens), rb_take_lost.
 *
 * A model follows along: per CPU, the numbers handed out, committed (published) and
 * consumed, the drops, and for every number the written length and the timestamp the event
 * must carry, max(clock at reservation, previous event's) - the clock clamped so readers
 * never see time go back. Every payload is a pattern of (CPU, reset epoch, number, offset),
 * so a torn, stale, shifted or misplaced copy shows. Checks:
 *  - rb_reserve refuses exactly when it must: always with recording disabled (not counted),
 *    always for a too-big event (counted); never in overwrite mode with nothing open on the
 *    CPU, nor in producer/consumer mode while the unread data surely fits; every counted
 *    refusal matches rb_get_stats' dropped.
 *  - a reservation's payload is untouched by the writers nested inside it.
 *  - rb_consume returns committed events only, numbers strictly increasing, each with its
 *    CPU, rounded-up length, timestamp and payload; it writes no byte past the payload or the
 *    size given; lost_before is the number gap plus the drops placed before that event
 *    (refused before it was reserved; once RB_DROP_MARKS bursts wait, the next event read
 *    carries the extra ones); a gap happens only when the unread data may have outgrown the
 *    ring (an upper bound of its pages, all events at their largest); when it finds nothing
 *    every committed event was read (the newest committed event is never overwritten).
 *    rb_peek_ts agrees with it. rb_take_lost returns every drop not reported yet, plus at
 *    most the overrun not reported yet, which later lost_before values then leave out.
 *  - a full iteration does not consume, shows exactly what rb_get_stats calls entries (less
 *    the open reservations, which entries counts), in consecutive numbers ending at the
 *    newest committed event; a long-lived iterator, with writers overtaking it, stays
 *    inside its snapshot and reports each skip as lost_before.
 *  - after every operation rb_get_stats agrees: read + overrun + entries == reserved,
 *    read == consumed, dropped exact, overrun exact while no loss was possible, and the sum
 *    over all CPUs equals the per-CPU counts.
 *  - rb_reset zeroes everything; rb_resize keeps every unread event that fits and changes
 *    nothing (pages, counts, contents) when it fails.
 *  - at the end, with everything committed and drained, and rb_take_lost called: consumed
 *    + total lost_before and rb_take_lost == accepted + dropped on each CPU, a second
 *    rb_take_lost returns 0, and rb_destroy leaves no page allocated.
 * Any violation aborts with a message naming the check.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/errno.h"
#include "tests/unit/rb_host_env.h"
#include "trace/core/ring_buffer.h"

#define MAX_CPUS 3
#define MAX_DEPTH 3         /* reservations a CPU may hold open */
#define MAX_NUMBERS 32768   /* events per CPU between resets the model remembers */
#define CANARY 0xa5

enum op {
    OP_WRITE,
    OP_WRITE_COPY,
    OP_BURST,
    OP_RESERVE,
    OP_COMMIT,
    OP_CLOCK_SMALL,
    OP_CLOCK_BIG,
    OP_CLOCK_BACK,
    OP_CONSUME,
    OP_ITER_FULL,
    OP_ITER_BEGIN,
    OP_ITER_STEP,
    OP_OVERWRITE,
    OP_RECORD,
    OP_RESET,
    OP_RESIZE,
    OP_TAKE_LOST,
    OP_COUNT
};

/* A reservation not committed yet. */
struct open_event {
    uint8_t *payload;
    uint64_t number;
    uint32_t length;
};

/* What one CPU's ring must hold, as far as the model knows. */
struct cpu_model {
    uint64_t accepted;     /* numbers handed out since the last reset: the next number */
    uint64_t committed;    /* numbers published by an outermost commit */
    uint64_t dropped;      /* refusals that count */
    /* Drops not reported yet: bursts placed before the number then next (reported with the
     * first event read from that number on), and those that found the queue of
     * RB_DROP_MARKS places full (reported with the next event read, whatever it is). */
    struct { uint64_t before, count; } marks[RB_DROP_MARKS];
    uint32_t mark_head, mark_tail;
    uint64_t unplaced;
    uint64_t expected;     /* one past the last number consumed */
    uint64_t consumed;     /* events rb_consume returned */
    uint64_t lost_told;    /* sum of lost_before and of rb_take_lost's results */
    uint64_t told_ahead;   /* overrun rb_take_lost reported before the consumer met the gap */
    uint64_t last_ts;      /* timestamp of the last accepted event */
    /* An upper bound of the pages the unread data spans: every event counted at its largest
     * (header, length word and time extend), packed one page after another. */
    uint32_t span_pages, span_fill;
    bool may_overrun;      /* the span exceeded the ring in overwrite mode: gaps allowed */
    unsigned depth;
    struct open_event open[MAX_DEPTH + 1]; /* + 1: a write on top of MAX_DEPTH open ones */
};

/* The run: buffer, model and the input being interpreted. */
static struct {
    const uint8_t *in;
    size_t left;
    struct ring_buffer *rb;
    unsigned ncpus;
    uint32_t pages;
    bool overwrite, disabled;
    uint32_t epoch; /* rb_reset count: events from before a reset must never show up */
    struct cpu_model cpu[MAX_CPUS];
    /* the iterator that lives across operations */
    bool iter_live, iter_any;
    unsigned iter_cpu;
    struct rb_iter iter;
    uint64_t iter_base, iter_end, iter_prev;
} m;

/* Per CPU and number: the timestamp the event must carry and the length written. */
static uint64_t event_ts[MAX_CPUS][MAX_NUMBERS];
static uint16_t event_length[MAX_CPUS][MAX_NUMBERS];

static uint8_t read_buf[RB_MAX_EVENT + 8];

/* Aborts with a message: the fuzzer records the input as a crash. */
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fuzz_ring_buffer: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    abort();
}

/* The next input byte; 0 once the input is used up. */
static uint8_t take_byte(void)
{
    if (m.left == 0)
        return 0;
    m.left--;
    return *m.in++;
}

static unsigned take_cpu(void) { return take_byte() % m.ncpus; }

/* A payload length, mostly small, sometimes up to RB_MAX_EVENT or at its edge, rarely too
 * big. */
static uint32_t take_length(void)
{
    uint8_t kind = take_byte();
    if (kind < 128)
        return kind % 33;
    if (kind < 192)
        return take_byte();
    if (kind < 248) {
        uint32_t high = take_byte();
        return ((high << 8) | take_byte()) % (RB_MAX_EVENT + 1);
    }
    if (kind < 252)
        return RB_MAX_EVENT - (kind - 248);
    return RB_MAX_EVENT + 1 + take_byte();
}

static uint32_t round_up4(uint32_t n) { return (n + 3) & ~3u; }

/* The first word of the payload of event number on cpu (in the current epoch); word k is
 * that plus k times an odd constant, so a copy shifted by a word shows too. */
static uint32_t pattern_seed(unsigned cpu, uint64_t number)
{
    uint32_t x = (uint32_t)number * 0x9e3779b1u ^ (uint32_t)(number >> 32) ^
                 (cpu + 1) * 0x85ebca77u ^ m.epoch * 0xc2b2ae3du;
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    return x;
}

#define PATTERN_STEP 0x01000193u

/* Writes the pattern of event number on cpu into dst[0..length). */
static void fill_pattern(uint8_t *dst, unsigned cpu, uint64_t number, uint32_t length)
{
    uint32_t word = pattern_seed(cpu, number);
    uint32_t i = 0;
    for (; i + 4 <= length; i += 4, word += PATTERN_STEP)
        memcpy(dst + i, &word, 4);
    memcpy(dst + i, &word, length - i);
}

/* The first offset in src[0..length) that breaks the pattern (to within a word), or -1. */
static long pattern_mismatch(const uint8_t *src, unsigned cpu, uint64_t number, uint32_t length)
{
    uint32_t word = pattern_seed(cpu, number), got;
    uint32_t i = 0;
    for (; i + 4 <= length; i += 4, word += PATTERN_STEP) {
        memcpy(&got, src + i, 4);
        if (got != word)
            return (long)i;
    }
    if (i < length && memcmp(src + i, &word, length - i) != 0)
        return (long)i;
    return -1;
}

/* True if read_buf[from..from + 8) still holds the canary: a reader that copies more than
 * it should writes there first. */
static bool canary_intact(uint32_t from)
{
    static const uint8_t canary[8] = { CANARY, CANARY, CANARY, CANARY,
                                       CANARY, CANARY, CANARY, CANARY };
    return memcmp(read_buf + from, canary, sizeof canary) == 0;
}

/* Adds an event of length to a span bound; false if the span then exceeds the ring. */
static bool span_add(struct cpu_model *cm, uint32_t length)
{
    uint32_t largest = round_up4(length) + 16;
    if (cm->span_fill + largest > rb_page_data_size()) {
        cm->span_pages++;
        cm->span_fill = largest;
    } else {
        cm->span_fill += largest;
    }
    return cm->span_pages <= m.pages;
}

/* Starts a span bound when the consumer has caught up: the page it stopped on counts as
 * full, then come the events reserved but not committed yet. */
static void span_restart_after_catch_up(unsigned cpu)
{
    struct cpu_model *cm = &m.cpu[cpu];
    cm->span_pages = 1;
    cm->span_fill = rb_page_data_size();
    for (uint64_t n = cm->committed; n < cm->accepted; n++)
        span_add(cm, event_length[cpu][n]);
}

/* Counts a refusal on cpu where the stream is now: before the next number. */
static void model_drop(struct cpu_model *cm)
{
    cm->dropped++;
    if (cm->mark_tail != cm->mark_head &&
        cm->marks[(cm->mark_tail - 1) % RB_DROP_MARKS].before == cm->accepted) {
        cm->marks[(cm->mark_tail - 1) % RB_DROP_MARKS].count++; /* same burst */
    } else if (cm->mark_tail - cm->mark_head == RB_DROP_MARKS) {
        cm->unplaced++;
    } else {
        cm->marks[cm->mark_tail % RB_DROP_MARKS].before = cm->accepted;
        cm->marks[cm->mark_tail % RB_DROP_MARKS].count = 1;
        cm->mark_tail++;
    }
}

/* Takes the drops a reader reports on reaching number (UINT64_MAX: all of them). */
static uint64_t model_take_drops(struct cpu_model *cm, uint64_t number)
{
    uint64_t lost = cm->unplaced;
    cm->unplaced = 0;
    while (cm->mark_head != cm->mark_tail &&
           cm->marks[cm->mark_head % RB_DROP_MARKS].before <= number)
        lost += cm->marks[cm->mark_head++ % RB_DROP_MARKS].count;
    return lost;
}

/* Books the outcome of a writer's attempt to store an event of length on cpu: checks the
 * refusal rules and counts a refusal, or gives the event its number, length and timestamp.
 * Returns whether the event was accepted. */
static bool book_event(unsigned cpu, uint32_t length, bool accepted)
{
    struct cpu_model *cm = &m.cpu[cpu];
    uint32_t span_pages = cm->span_pages, span_fill = cm->span_fill;
    bool fits = span_add(cm, length);
    if (m.disabled || length > RB_MAX_EVENT || !accepted) {
        cm->span_pages = span_pages; /* the event takes no room */
        cm->span_fill = span_fill;
    }
    if (m.disabled || length > RB_MAX_EVENT) {
        if (accepted)
            fail("cpu %u: a %u-byte event was accepted %s", cpu, length,
                 m.disabled ? "with recording disabled" : "though too big");
        if (!m.disabled)
            model_drop(cm);
        return false;
    }
    if (!accepted) {
        if (cm->depth == 0 && m.overwrite)
            fail("cpu %u: overwrite mode refused a %u-byte event with nothing open", cpu, length);
        if (cm->depth == 0 && fits && !cm->may_overrun)
            fail("cpu %u: producer/consumer mode refused a %u-byte event though the unread "
                 "data fits in %u pages", cpu, length, m.pages);
        model_drop(cm);
        return false;
    }
    if (!fits && m.overwrite)
        cm->may_overrun = true;
    uint64_t number = cm->accepted++;
    uint64_t ts = host_cycles > cm->last_ts ? host_cycles : cm->last_ts;
    cm->last_ts = ts;
    event_ts[cpu][number] = ts;
    event_length[cpu][number] = (uint16_t)length;
    return true;
}

/* rb_reserve of an event of length on cpu; if accepted, fills its payload and pushes it on
 * the CPU's open stack. Returns whether it was accepted. */
static bool start_event(unsigned cpu, uint32_t length)
{
    struct cpu_model *cm = &m.cpu[cpu];
    host_cpu = cpu;
    uint8_t *payload = rb_reserve(m.rb, length);
    if (!book_event(cpu, length, payload != NULL))
        return false;
    if (((uintptr_t)payload & 3) != 0)
        fail("cpu %u: payload not aligned to 4", cpu);
    uint64_t number = cm->accepted - 1;
    fill_pattern(payload, cpu, number, length);
    cm->open[cm->depth++] = (struct open_event){ payload, number, length };
    return true;
}

/* Commits the innermost open reservation on cpu, after checking that the writers nested in
 * it left its payload alone. */
static void finish_event(unsigned cpu)
{
    struct cpu_model *cm = &m.cpu[cpu];
    struct open_event *e = &cm->open[--cm->depth];
    long bad = pattern_mismatch(e->payload, cpu, e->number, e->length);
    if (bad >= 0)
        fail("cpu %u: payload of open event %llu changed at byte %ld before its commit", cpu,
             (unsigned long long)e->number, bad);
    host_cpu = cpu;
    rb_commit(m.rb);
    if (cm->depth == 0)
        cm->committed = cm->accepted;
}

/* True while the model can remember another event on cpu. */
static bool model_has_room(unsigned cpu) { return m.cpu[cpu].accepted < MAX_NUMBERS; }

/* reserve + fill + commit, on top of whatever is open on cpu. */
static void write_event(unsigned cpu, uint32_t length)
{
    if (model_has_room(cpu) && start_event(cpu, length))
        finish_event(cpu);
}

/* The same with rb_write, from a copy of the payload. */
static void write_event_copy(unsigned cpu, uint32_t length)
{
    static uint8_t source[RB_MAX_EVENT + 256]; /* the longest length take_length() gives */
    struct cpu_model *cm = &m.cpu[cpu];
    if (!model_has_room(cpu))
        return;
    fill_pattern(source, cpu, cm->accepted, length);
    host_cpu = cpu;
    bool written = rb_write(m.rb, source, length);
    if (book_event(cpu, length, written) && cm->depth == 0)
        cm->committed = cm->accepted;
}

/* Commits every open reservation, innermost first, as rb_reset and rb_resize wait for. */
static void commit_all(void)
{
    for (unsigned c = 0; c < m.ncpus; c++)
        while (m.cpu[c].depth)
            finish_event(c);
}

/* Checks an event a reader returned from cpu: a committed number, its CPU, length,
 * timestamp, payload (the first size bytes), and no byte written past them in read_buf. */
static void check_event(unsigned cpu, const struct rb_event *ev, uint32_t size, const char *who)
{
    const struct cpu_model *cm = &m.cpu[cpu];
    if (ev->number >= cm->committed)
        fail("cpu %u: %s returned number %llu, not committed (%llu are)", cpu, who,
             (unsigned long long)ev->number, (unsigned long long)cm->committed);
    if (ev->cpu != cpu)
        fail("cpu %u: %s returned an event marked cpu %u", cpu, who, ev->cpu);
    uint32_t length = event_length[cpu][ev->number];
    if (ev->length != round_up4(length))
        fail("cpu %u: %s: event %llu has length %u, written %u", cpu, who,
             (unsigned long long)ev->number, ev->length, length);
    if (ev->ts != event_ts[cpu][ev->number])
        fail("cpu %u: %s: event %llu has ts %llu, expected %llu", cpu, who,
             (unsigned long long)ev->number, (unsigned long long)ev->ts,
             (unsigned long long)event_ts[cpu][ev->number]);
    long bad = pattern_mismatch(read_buf, cpu, ev->number, length < size ? length : size);
    if (bad >= 0)
        fail("cpu %u: %s: event %llu has a wrong payload at byte %ld", cpu, who,
             (unsigned long long)ev->number, bad);
    uint32_t copied = ev->length < size ? ev->length : size;
    if (!canary_intact(copied))
        fail("cpu %u: %s wrote past byte %u of the buffer (payload %u, size %u)", cpu, who,
             copied, ev->length, size);
}

/* Checks rb_get_stats against the model, for every CPU and for their sum. */
static void check_stats(void)
{
    struct rb_stats sum = { 0 }, all, st;
    for (unsigned c = 0; c < m.ncpus; c++) {
        const struct cpu_model *cm = &m.cpu[c];
        rb_get_stats(m.rb, c, &st);
        if (st.dropped != cm->dropped)
            fail("cpu %u: stats dropped %llu, model %llu", c, (unsigned long long)st.dropped,
                 (unsigned long long)cm->dropped);
        if (st.read != cm->consumed)
            fail("cpu %u: stats read %llu, consumed %llu", c, (unsigned long long)st.read,
                 (unsigned long long)cm->consumed);
        /* entries counts an open reservation too (ring_buffer.c: rb_get_stats). */
        if (st.read + st.overrun + st.entries != cm->accepted)
            fail("cpu %u: stats read %llu + overrun %llu + entries %llu != reserved %llu", c,
                 (unsigned long long)st.read, (unsigned long long)st.overrun,
                 (unsigned long long)st.entries, (unsigned long long)cm->accepted);
        uint64_t gaps = cm->expected - cm->consumed;
        if (st.overrun < gaps || (!cm->may_overrun && st.overrun != gaps))
            fail("cpu %u: stats overrun %llu, but %llu events were skipped%s", c,
                 (unsigned long long)st.overrun, (unsigned long long)gaps,
                 cm->may_overrun ? "" : " and no more could be");
        sum.entries += st.entries;
        sum.overrun += st.overrun;
        sum.dropped += st.dropped;
        sum.read += st.read;
    }
    rb_get_stats(m.rb, RB_ALL_CPUS, &all);
    if (memcmp(&sum, &all, sizeof sum) != 0)
        fail("stats for all CPUs are not the sum of the per-CPU stats");
    if (rb_pages_per_cpu(m.rb) != m.pages)
        fail("rb_pages_per_cpu %u, expected %u", rb_pages_per_cpu(m.rb), m.pages);
}

/* Consumes one event from cpu with a buffer of size bytes, checking it; false when empty. */
static bool consume_one(unsigned cpu, uint32_t size)
{
    struct cpu_model *cm = &m.cpu[cpu];
    struct rb_event ev;
    uint64_t peeked = 0;
    bool peek = rb_peek_ts(m.rb, cpu, &peeked);
    memset(read_buf, CANARY, sizeof read_buf);
    bool got = rb_consume(m.rb, cpu, read_buf, size, &ev);
    if (got != peek)
        fail("cpu %u: rb_peek_ts said %d, rb_consume %d", cpu, peek, got);
    if (!got) {
        if (cm->expected != cm->committed)
            fail("cpu %u: nothing to consume, but events %llu..%llu were committed and "
                 "the newest is never overwritten", cpu, (unsigned long long)cm->expected,
                 (unsigned long long)cm->committed - 1);
        if (!canary_intact(0))
            fail("cpu %u: a consume that found nothing wrote the buffer", cpu);
        cm->may_overrun = false;
        span_restart_after_catch_up(cpu);
        return false;
    }
    check_event(cpu, &ev, size, "rb_consume");
    if (ev.ts != peeked)
        fail("cpu %u: rb_peek_ts gave %llu, the event has ts %llu", cpu,
             (unsigned long long)peeked, (unsigned long long)ev.ts);
    if (ev.number < cm->expected)
        fail("cpu %u: consumed number %llu again or out of order (expected >= %llu)", cpu,
             (unsigned long long)ev.number, (unsigned long long)cm->expected);
    if (ev.number != cm->expected && !cm->may_overrun)
        fail("cpu %u: consumed number %llu, expected %llu: events lost though they fit", cpu,
             (unsigned long long)ev.number, (unsigned long long)cm->expected);
    uint64_t gap = ev.number - cm->expected;
    if (gap < cm->told_ahead)
        fail("cpu %u: rb_take_lost reported %llu overrun ahead, the gap is only %llu", cpu,
             (unsigned long long)cm->told_ahead, (unsigned long long)gap);
    uint64_t drops = model_take_drops(cm, ev.number);
    if (ev.lost_before != gap - cm->told_ahead + drops)
        fail("cpu %u: event %llu has lost_before %llu, expected %llu (gap %llu, of which %llu "
             "told ahead, and drops %llu)", cpu, (unsigned long long)ev.number,
             (unsigned long long)ev.lost_before,
             (unsigned long long)(gap - cm->told_ahead + drops), (unsigned long long)gap,
             (unsigned long long)cm->told_ahead, (unsigned long long)drops);
    cm->told_ahead = 0;
    cm->lost_told += ev.lost_before;
    cm->consumed++;
    cm->expected = ev.number + 1;
    return true;
}

/* rb_take_lost on cpu: every drop not reported yet, plus overrun the consumer counted but
 * has not reported (events a resize could not keep), which the model only learns of when
 * the consumer meets the gap: it must lie within the losses rb_get_stats has not seen
 * reported. */
static void take_lost(unsigned cpu)
{
    struct cpu_model *cm = &m.cpu[cpu];
    struct rb_stats st;
    rb_get_stats(m.rb, cpu, &st);
    uint64_t seen = (cm->expected - cm->consumed) + cm->told_ahead;
    if (st.overrun < seen)
        fail("cpu %u: stats overrun %llu, but %llu overrun were reported", cpu,
             (unsigned long long)st.overrun, (unsigned long long)seen);
    uint64_t unseen = st.overrun - seen;
    uint64_t lost = rb_take_lost(m.rb, cpu);
    uint64_t drops = model_take_drops(cm, UINT64_MAX);
    if (lost < drops || lost - drops > unseen)
        fail("cpu %u: rb_take_lost gave %llu: %llu drops not reported and at most %llu "
             "overrun", cpu, (unsigned long long)lost, (unsigned long long)drops,
             (unsigned long long)unseen);
    cm->told_ahead += lost - drops;
    cm->lost_told += lost;
}

/* Iterates cpu from the consumer's position to the end with no writer running: checks
 * every event, that peek and next agree, that the events are consecutive, end at the
 * newest committed one and are as many as the stats' entries, and that nothing was
 * consumed. */
static void iterate_fully(unsigned cpu)
{
    const struct cpu_model *cm = &m.cpu[cpu];
    struct rb_stats before, after;
    struct rb_iter it;
    struct rb_event ev;
    uint64_t count = 0, prev = 0;
    rb_get_stats(m.rb, cpu, &before);
    rb_iter_start(m.rb, cpu, &it);
    for (;;) {
        uint64_t peeked = 0;
        bool peek = rb_iter_peek_ts(&it, &peeked);
        memset(read_buf, CANARY, sizeof read_buf);
        bool got = rb_iter_next(&it, read_buf, RB_MAX_EVENT, &ev);
        if (got != peek)
            fail("cpu %u: rb_iter_peek_ts said %d, rb_iter_next %d", cpu, peek, got);
        if (!got)
            break;
        check_event(cpu, &ev, RB_MAX_EVENT, "rb_iter_next");
        if (ev.ts != peeked)
            fail("cpu %u: rb_iter_peek_ts gave %llu, the event has ts %llu", cpu,
                 (unsigned long long)peeked, (unsigned long long)ev.ts);
        if (ev.lost_before != 0)
            fail("cpu %u: iterator reported %llu lost with no writer running", cpu,
                 (unsigned long long)ev.lost_before);
        if (count == 0) {
            if (ev.number < cm->expected || (!cm->may_overrun && ev.number != cm->expected))
                fail("cpu %u: iteration starts at %llu, the consumer expects %llu", cpu,
                     (unsigned long long)ev.number, (unsigned long long)cm->expected);
        } else if (ev.number != prev + 1) {
            fail("cpu %u: iteration went from %llu to %llu", cpu, (unsigned long long)prev,
                 (unsigned long long)ev.number);
        }
        prev = ev.number;
        count++;
    }
    uint64_t open = cm->accepted - cm->committed;
    if (count + open != before.entries)
        fail("cpu %u: iteration saw %llu events, stats say %llu entries (%llu of them open)",
             cpu, (unsigned long long)count, (unsigned long long)before.entries,
             (unsigned long long)open);
    if (count && prev + 1 != cm->committed)
        fail("cpu %u: iteration ended at %llu, the newest committed is %llu", cpu,
             (unsigned long long)prev, (unsigned long long)cm->committed - 1);
    rb_get_stats(m.rb, cpu, &after);
    if (memcmp(&before, &after, sizeof before) != 0)
        fail("cpu %u: iterating changed the stats", cpu);
}

/* Starts the long-lived iterator on cpu: it sees what was committed now. */
static void iter_begin(unsigned cpu)
{
    rb_iter_start(m.rb, cpu, &m.iter);
    m.iter_live = true;
    m.iter_any = false;
    m.iter_cpu = cpu;
    m.iter_base = m.cpu[cpu].expected;
    m.iter_end = m.cpu[cpu].committed;
}

/* Steps the long-lived iterator up to steps times; writers may have overtaken it since. */
static void iter_step(unsigned steps)
{
    unsigned cpu = m.iter_cpu;
    struct rb_event ev;
    for (unsigned i = 0; i < steps && m.iter_live; i++) {
        uint64_t peeked = 0;
        bool peek = rb_iter_peek_ts(&m.iter, &peeked);
        memset(read_buf, CANARY, sizeof read_buf);
        bool got = rb_iter_next(&m.iter, read_buf, RB_MAX_EVENT, &ev);
        if (got != peek)
            fail("cpu %u: rb_iter_peek_ts said %d, rb_iter_next %d", cpu, peek, got);
        if (!got) {
            m.iter_live = false;
            break;
        }
        check_event(cpu, &ev, RB_MAX_EVENT, "rb_iter_next (long-lived)");
        if (ev.ts != peeked)
            fail("cpu %u: rb_iter_peek_ts gave %llu, the event has ts %llu", cpu,
                 (unsigned long long)peeked, (unsigned long long)ev.ts);
        if (ev.number >= m.iter_end || ev.number < m.iter_base)
            fail("cpu %u: iterator returned %llu outside its snapshot %llu..%llu", cpu,
                 (unsigned long long)ev.number, (unsigned long long)m.iter_base,
                 (unsigned long long)m.iter_end);
        if (m.iter_any) {
            if (ev.number <= m.iter_prev || ev.lost_before != ev.number - m.iter_prev - 1)
                fail("cpu %u: iterator went from %llu to %llu reporting %llu lost", cpu,
                     (unsigned long long)m.iter_prev, (unsigned long long)ev.number,
                     (unsigned long long)ev.lost_before);
        } else if (ev.lost_before > ev.number - m.iter_base) {
            fail("cpu %u: iterator's first event %llu reports %llu lost, more than since %llu",
                 cpu, (unsigned long long)ev.number, (unsigned long long)ev.lost_before,
                 (unsigned long long)m.iter_base);
        }
        m.iter_any = true;
        m.iter_prev = ev.number;
    }
}

/* Clears one CPU's model as rb_reset leaves the ring. */
static void model_reset_cpu(unsigned cpu)
{
    memset(&m.cpu[cpu], 0, sizeof m.cpu[cpu]);
    m.cpu[cpu].span_pages = 1;
}

/* rb_reset with everything committed first; afterwards every count is 0. */
static void do_reset(void)
{
    commit_all();
    m.iter_live = false;
    long pages_before = host_pages_live;
    rb_reset(m.rb);
    m.epoch++;
    for (unsigned c = 0; c < m.ncpus; c++)
        model_reset_cpu(c);
    struct rb_stats st, zero = { 0 };
    rb_get_stats(m.rb, RB_ALL_CPUS, &st);
    if (memcmp(&st, &zero, sizeof st) != 0)
        fail("rb_reset left counts behind");
    if (host_pages_live != pages_before)
        fail("rb_reset changed the number of pages allocated");
}

/* rb_resize to pages (0-6: 0 and 1 are invalid) with a page budget taken from budget_byte:
 * the call must fail exactly when the budget is too small, and then change nothing. */
static void do_resize(uint32_t pages, uint8_t budget_byte)
{
    commit_all();
    m.iter_live = false;
    long needed = (long)m.ncpus * pages;
    long extra = budget_byte % 4 == 0 ? (budget_byte / 4) % (needed + 1) : needed;
    int expect = pages < 2 ? -EINVAL : extra < needed ? -ENOMEM : 0;
    struct rb_stats before[MAX_CPUS], after;
    for (unsigned c = 0; c < m.ncpus; c++)
        rb_get_stats(m.rb, c, &before[c]);
    long pages_before = host_pages_live;
    host_page_budget = host_pages_live + extra;
    int rc = rb_resize(m.rb, pages);
    host_page_budget = -1;
    if (rc != expect)
        fail("rb_resize(%u) with room for %ld pages returned %d, expected %d", pages, extra, rc,
             expect);
    if (rc != 0) {
        if (host_pages_live != pages_before)
            fail("failed rb_resize changed the number of pages allocated");
        for (unsigned c = 0; c < m.ncpus; c++) {
            rb_get_stats(m.rb, c, &after);
            if (memcmp(&before[c], &after, sizeof after) != 0)
                fail("cpu %u: failed rb_resize changed the stats", c);
        }
        return;
    }
    if (host_pages_live != needed)
        fail("rb_resize to %u pages leaves %ld pages allocated", pages, host_pages_live);
    m.pages = pages;
    for (unsigned c = 0; c < m.ncpus; c++) {
        /* The unread events are copied into the new ring from its first page on. */
        struct cpu_model *cm = &m.cpu[c];
        cm->span_pages = 1;
        cm->span_fill = 0;
        bool fits = true;
        for (uint64_t n = cm->expected; n < cm->committed && fits; n++)
            fits = span_add(cm, event_length[c][n]);
        if (!fits)
            cm->may_overrun = true;
    }
}

/* Moves the clock forward by a large amount: around the 2^27 ticks a header's delta holds,
 * far beyond it, or to the edge of a 2^32 boundary. */
static void clock_big(void)
{
    uint8_t kind = take_byte();
    uint8_t amount = take_byte();
    switch (kind % 5) {
    case 0:
        host_cycles += (1u << 27) - 2 + amount % 5;
        break;
    case 1:
        host_cycles += (uint64_t)amount << 27;
        break;
    case 2:
        host_cycles += (uint64_t)amount << 36;
        break;
    case 3: { /* just below the next multiple of 2^32: the writer's 32-bit delta wraps */
        uint64_t edge = (host_cycles | 0xffffffffu) - amount % 64;
        if (edge > host_cycles)
            host_cycles = edge;
        break;
    }
    default:
        host_cycles += ((uint64_t)amount << 24) | amount;
        break;
    }
}

/* Interprets one operation. */
static void run_op(uint8_t opcode)
{
    switch (opcode % OP_COUNT) {
    case OP_WRITE: {
        unsigned cpu = take_cpu();
        write_event(cpu, take_length());
        break;
    }
    case OP_WRITE_COPY: {
        unsigned cpu = take_cpu();
        write_event_copy(cpu, take_length());
        break;
    }
    case OP_BURST: {
        unsigned cpu = take_cpu();
        unsigned count = 1 + take_byte() % 64;
        uint32_t length = take_length();
        uint8_t step = take_byte();
        for (unsigned i = 0; i < count; i++) {
            write_event(cpu, length);
            host_cycles += step;
        }
        break;
    }
    case OP_RESERVE: {
        unsigned cpu = take_cpu();
        uint32_t length = take_length();
        if (m.cpu[cpu].depth < MAX_DEPTH && model_has_room(cpu))
            start_event(cpu, length);
        break;
    }
    case OP_COMMIT: {
        unsigned cpu = take_cpu();
        if (m.cpu[cpu].depth)
            finish_event(cpu);
        break;
    }
    case OP_CLOCK_SMALL:
        host_cycles += take_byte();
        break;
    case OP_CLOCK_BIG:
        clock_big();
        break;
    case OP_CLOCK_BACK: {
        uint64_t back = take_byte();
        back <<= take_byte() % 32;
        host_cycles = back < host_cycles ? host_cycles - back : 0;
        break;
    }
    case OP_CONSUME: {
        unsigned cpu = take_cpu();
        unsigned count = 1 + take_byte() % 16;
        uint8_t size_kind = take_byte();
        uint32_t size = size_kind < 192 ? RB_MAX_EVENT : size_kind % 64;
        for (unsigned i = 0; i < count && consume_one(cpu, size); i++)
            ;
        break;
    }
    case OP_ITER_FULL:
        iterate_fully(take_cpu());
        break;
    case OP_ITER_BEGIN:
        iter_begin(take_cpu());
        break;
    case OP_ITER_STEP:
        iter_step(1 + take_byte() % 16);
        break;
    case OP_OVERWRITE:
        m.overwrite = !m.overwrite;
        rb_set_overwrite(m.rb, m.overwrite);
        break;
    case OP_RECORD:
        m.disabled = !m.disabled;
        rb_disable_writers(m.rb, m.disabled ? 1 : -1);
        break;
    case OP_RESET:
        do_reset();
        break;
    case OP_RESIZE: {
        uint32_t pages = take_byte() % 7;
        do_resize(pages, take_byte());
        break;
    }
    case OP_TAKE_LOST:
        take_lost(take_cpu());
        break;
    }
}

/* Commits and drains everything, takes the losses not yet told, checks conservation,
 * destroys the buffer and checks no page leaked. */
static void finish_run(void)
{
    commit_all();
    m.iter_live = false;
    if (m.disabled)
        rb_disable_writers(m.rb, -1);
    m.disabled = false;
    m.overwrite = true;
    rb_set_overwrite(m.rb, true);
    for (unsigned c = 0; c < m.ncpus; c++) {
        struct cpu_model *cm = &m.cpu[c];
        while (consume_one(c, RB_MAX_EVENT))
            ;
        take_lost(c);
        if (cm->told_ahead != 0)
            fail("cpu %u: drained, rb_take_lost still reported %llu overrun", c,
                 (unsigned long long)cm->told_ahead);
        if (rb_take_lost(m.rb, c) != 0)
            fail("cpu %u: a second rb_take_lost reported losses again", c);
        if (cm->consumed + cm->lost_told != cm->accepted + cm->dropped)
            fail("cpu %u: consumed %llu + told lost %llu != accepted %llu + dropped %llu", c,
                 (unsigned long long)cm->consumed, (unsigned long long)cm->lost_told,
                 (unsigned long long)cm->accepted, (unsigned long long)cm->dropped);
        struct rb_stats st;
        rb_get_stats(m.rb, c, &st);
        if (st.entries != 0 || st.read + st.overrun != cm->accepted)
            fail("cpu %u: drained, stats entries %llu, read %llu + overrun %llu != %llu", c,
                 (unsigned long long)st.entries, (unsigned long long)st.read,
                 (unsigned long long)st.overrun, (unsigned long long)cm->accepted);
    }
    check_stats();
    rb_destroy(m.rb);
    m.rb = NULL;
    if (host_pages_live != 0)
        fail("rb_destroy left %ld pages allocated", host_pages_live);
}

/* rb_create with bad arguments, and with too few pages for its last CPU: NULL, nothing
 * left allocated. */
static void check_create_failures(void)
{
    if (rb_create(&host_env, 0, 2) || rb_create(&host_env, RB_MAX_CPUS + 1, 2) ||
        rb_create(&host_env, m.ncpus, 1))
        fail("rb_create accepted bad arguments");
    host_page_budget = (long)m.ncpus * m.pages - 1;
    if (rb_create(&host_env, m.ncpus, m.pages))
        fail("rb_create(%u, %u) succeeded with one page too few", m.ncpus, m.pages);
    host_page_budget = -1;
    if (host_pages_live != 0)
        fail("failed rb_create left %ld pages allocated", host_pages_live);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    memset(&m, 0, sizeof m);
    m.in = data;
    m.left = size;
    uint8_t shape = take_byte();
    m.ncpus = 1 + shape % MAX_CPUS;
    m.pages = 2 + take_byte() % 5;
    m.overwrite = true;
    host_cycles = (uint64_t)take_byte() << 20;
    host_cpu = 0;
    host_page_budget = -1;
    if (shape & 0x80)
        check_create_failures();
    m.rb = rb_create(&host_env, m.ncpus, m.pages);
    if (m.rb == NULL)
        fail("rb_create(%u, %u) failed with no memory limit", m.ncpus, m.pages);
    for (unsigned c = 0; c < m.ncpus; c++)
        model_reset_cpu(c);
    check_stats();
    while (m.left) {
        run_op(take_byte());
        check_stats();
    }
    finish_run();
    return 0;
}
