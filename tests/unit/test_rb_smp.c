/*
 * test_rb_smp.c - the ring buffer with writers on several CPUs at once (issue 19).
 *
 * POSIX threads act as CPUs (tests/unit/host_smp_arch.c gives each its arch_cpu_id()):
 * RB_SMP_CPUS writers write their own rings as fast as they can, wrapping them many times,
 * while another thread consumes all rings merged by timestamp (trace_pipe's way), walks
 * them with iterators (trace's way), and, in the first test, resizes the buffer under them.
 * Every event carries its writer's CPU and attempt number and a fill pattern, so the reader
 * can tell a torn or misplaced event, and exactly how many events each CPU lost between two
 * it read. What must hold, per CPU: every attempt is either read or reported lost (written
 * == read + lost), events come in writing order with lost_before equal to the gap, and the
 * counts rb_get_stats gives agree; merged output (an iterator's, and the final drain) is in
 * timestamp order. Runs under ASan/UBSan with the other unit tests.
 */
#include "unit.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "tests/unit/host_smp_arch.h"
#include "trace/core/ring_buffer.h"

#define RB_SMP_CPUS 4
#define RUN_NS 700000000u /* writers write this long (0.7 s) per test: rings wrap thousands
                           * of times */
#define MAX_FILL 40      /* payloads of 8..168 bytes: both header forms */

struct payload {
    uint32_t cpu, seq;
    uint32_t fill[MAX_FILL]; /* fill[k] = seq * 31 + k, for as many words as the length says */
};

static uint32_t payload_length(uint32_t seq) { return 8 + 4 * (seq % (MAX_FILL + 1)); }

static void *page_alloc_host(void) { return aligned_alloc(8, RB_PAGE_SIZE); }
static void *alloc_host(size_t n) { return malloc(n); }
static const struct rb_env env = { page_alloc_host, free, alloc_host, free };

/* One run: the buffer, the reader's lock (the tracing core's trace_reader_lock), what the
 * writers attempted and what the reader saw. */
static struct {
    struct ring_buffer *rb;
    pthread_mutex_t reader_lock;
    atomic_int writers_left;
    atomic_bool stop_side_work;
    uint64_t attempts[RB_SMP_CPUS];
    uint64_t read[RB_SMP_CPUS], lost[RB_SMP_CPUS];
    int64_t last_seq[RB_SMP_CPUS];
    uint64_t iterated, resizes, resets;
    bool resets_on; /* events thrown away by rb_reset: no exact count then */
    /* Each event's lost_before is its gap exactly, unless a resize refused events: those
     * are reported with the next event read, which may be older than the refusals. */
    bool exact_gaps;
    char failure[256];
    atomic_int failures;
} run;

static void fail_run(const char *what, unsigned cpu, uint64_t a, uint64_t b)
{
    if (atomic_fetch_add(&run.failures, 1) == 0)
        snprintf(run.failure, sizeof run.failure, "%s (cpu %u: %llu, %llu)", what, cpu,
                 (unsigned long long)a, (unsigned long long)b);
}

static void *writer(void *arg)
{
    unsigned cpu = (unsigned)(uintptr_t)arg;
    host_smp_become_cpu(cpu);
    uint64_t end = arch_cycles() + RUN_NS; /* host_smp_arch.c's clock counts nanoseconds */
    uint32_t seq = 0;
    for (; (seq & 255) || arch_cycles() < end; seq++) {
        uint32_t length = payload_length(seq);
        struct payload *p = rb_reserve(run.rb, length);
        if (!p)
            continue; /* refused: the buffer counted it (dropped), or recording is off */
        p->cpu = cpu;
        p->seq = seq;
        for (uint32_t k = 0; k < (length - 8) / 4; k++)
            p->fill[k] = seq * 31 + k;
        rb_commit(run.rb);
    }
    run.attempts[cpu] = seq;
    atomic_fetch_sub(&run.writers_left, 1);
    return NULL;
}

/* Whether an event read back is whole: its CPU, its length and its fill pattern. */
static bool event_intact(const struct payload *p, const struct rb_event *ev)
{
    if (p->cpu != ev->cpu || ev->length != payload_length(p->seq))
        return false;
    for (uint32_t k = 0; k < (ev->length - 8) / 4; k++)
        if (p->fill[k] != p->seq * 31 + k)
            return false;
    return true;
}

/* Checks one consumed event against the previous one of its CPU and books it. */
static void check_consumed(const struct payload *p, const struct rb_event *ev)
{
    unsigned cpu = ev->cpu;
    if (!event_intact(p, ev)) {
        fail_run("consumed a torn or misplaced event", cpu, p->seq, ev->length);
        return;
    }
    int64_t gap = (int64_t)p->seq - run.last_seq[cpu] - 1;
    if (gap < 0)
        fail_run("consumed out of writing order", cpu, p->seq, (uint64_t)run.last_seq[cpu]);
    else if (run.exact_gaps && (uint64_t)gap != ev->lost_before)
        fail_run("lost_before is not the gap", cpu, ev->lost_before, (uint64_t)gap);
    run.last_seq[cpu] = p->seq;
    run.read[cpu]++;
    run.lost[cpu] += ev->lost_before;
}

/* Consumes the CPU with the oldest next event, as trace_pipe does; false when all are empty.
 * *ts gets the event's time. */
static bool consume_oldest(struct payload *p, uint64_t *ts)
{
    pthread_mutex_lock(&run.reader_lock);
    int best = -1;
    uint64_t best_ts = 0, t;
    for (unsigned cpu = 0; cpu < RB_SMP_CPUS; cpu++)
        if (rb_peek_ts(run.rb, cpu, &t) && (best < 0 || t < best_ts)) {
            best = (int)cpu;
            best_ts = t;
        }
    struct rb_event ev;
    bool got = best >= 0 && rb_consume(run.rb, (unsigned)best, p, sizeof *p, &ev);
    pthread_mutex_unlock(&run.reader_lock);
    if (got) {
        check_consumed(p, &ev);
        *ts = ev.ts;
    }
    return got;
}

/* One walk of every ring with iterators, merged by timestamp (trace's way) while the
 * writers go on: the output is in time order, each CPU's in writing order with the gaps
 * reported (overwritten ones: refusals show as gaps only to the consumer, which alone
 * takes the drop marks), every event whole. At most limit events. */
static void iterate_once(unsigned limit)
{
    static struct rb_iter it[RB_SMP_CPUS];
    static struct payload p;
    int64_t last[RB_SMP_CPUS];
    uint64_t last_ts = 0;
    pthread_mutex_lock(&run.reader_lock);
    for (unsigned cpu = 0; cpu < RB_SMP_CPUS; cpu++) {
        rb_iter_start(run.rb, cpu, &it[cpu]);
        last[cpu] = -1;
    }
    for (unsigned n = 0; n < limit; n++) {
        int best = -1;
        uint64_t best_ts = 0, t;
        for (unsigned cpu = 0; cpu < RB_SMP_CPUS; cpu++)
            if (rb_iter_peek_ts(&it[cpu], &t) && (best < 0 || t < best_ts)) {
                best = (int)cpu;
                best_ts = t;
            }
        struct rb_event ev;
        if (best < 0)
            break;
        if (!rb_iter_next(&it[best], &p, sizeof p, &ev))
            continue;
        if (!event_intact(&p, &ev))
            fail_run("iterator read a torn event", ev.cpu, p.seq, ev.length);
        else if (last[best] >= 0 && !run.resets_on &&
                 (int64_t)p.seq - last[best] - 1 < (int64_t)ev.lost_before)
            fail_run("iterator reports more lost than the gap", ev.cpu, p.seq, ev.lost_before);
        else if (last[best] >= 0 && (int64_t)p.seq <= last[best])
            fail_run("iterator out of writing order", ev.cpu, p.seq, (uint64_t)last[best]);
        if (ev.ts < last_ts)
            fail_run("iterator merge out of time order", ev.cpu, ev.ts, last_ts);
        last_ts = ev.ts;
        last[best] = p.seq;
        run.iterated++;
    }
    pthread_mutex_unlock(&run.reader_lock);
}

static void *reader(void *arg)
{
    (void)arg;
    static struct payload p;
    uint64_t ts, n = 0;
    while (atomic_load(&run.writers_left) > 0) {
        if (consume_oldest(&p, &ts) && ++n % 4096 == 0)
            iterate_once(2000);
    }
    /* Writers done: the rest comes out merged in time order. */
    uint64_t last_ts = 0;
    while (consume_oldest(&p, &ts)) {
        if (ts < last_ts)
            fail_run("final drain out of time order", 0, ts, last_ts);
        last_ts = ts;
    }
    for (unsigned cpu = 0; cpu < RB_SMP_CPUS; cpu++)
        run.lost[cpu] += rb_take_lost(run.rb, cpu);
    return NULL;
}

/* Resizes (3..6 pages), or resets, the buffer every millisecond while every writer runs:
 * it stops when the first is done, so that what the others write last stays for the final
 * drain to read (a resize after all of them had finished could empty every ring, and a run
 * that read nothing would prove nothing; a loaded host once made it so). */
static void *side_worker(void *arg)
{
    bool resets = arg != NULL;
    host_smp_become_cpu(0);
    struct timespec ms = { 0, 1000000 };
    for (uint32_t k = 0; !atomic_load(&run.stop_side_work) &&
                         atomic_load(&run.writers_left) == RB_SMP_CPUS; k++) {
        pthread_mutex_lock(&run.reader_lock);
        if (resets) {
            rb_reset(run.rb);
            run.resets++;
        } else if (rb_resize(run.rb, 3 + k % 4) == 0) {
            run.resizes++;
        }
        pthread_mutex_unlock(&run.reader_lock);
        if (resets) { /* tracing_on off and on: refusals that are no loss */
            rb_disable_writers(run.rb, 1);
            nanosleep(&ms, NULL);
            rb_disable_writers(run.rb, -1);
        }
        nanosleep(&ms, NULL);
    }
    return NULL;
}

/* Runs writers, the reader and (side: 0 none, 1 resizes, 2 resets and tracing_on) one
 * side worker on a fresh buffer. */
static void run_stress(bool overwrite, int side)
{
    memset(run.attempts, 0, sizeof run.attempts);
    memset(run.read, 0, sizeof run.read);
    memset(run.lost, 0, sizeof run.lost);
    for (unsigned cpu = 0; cpu < RB_SMP_CPUS; cpu++)
        run.last_seq[cpu] = -1;
    run.iterated = run.resizes = run.resets = 0;
    run.resets_on = side == 2;
    run.exact_gaps = side == 0;
    atomic_store(&run.failures, 0);
    atomic_store(&run.stop_side_work, false);
    atomic_store(&run.writers_left, RB_SMP_CPUS);
    pthread_mutex_init(&run.reader_lock, NULL);
    host_smp_set_cpus(RB_SMP_CPUS);
    run.rb = rb_create(&env, RB_SMP_CPUS, 4);
    CHECK(run.rb != NULL);
    if (!run.rb)
        return;
    rb_set_overwrite(run.rb, overwrite);
    pthread_t w[RB_SMP_CPUS], r, s;
    pthread_create(&r, NULL, reader, NULL);
    if (side)
        pthread_create(&s, NULL, side_worker, side == 2 ? &run : NULL);
    for (unsigned cpu = 0; cpu < RB_SMP_CPUS; cpu++)
        pthread_create(&w[cpu], NULL, writer, (void *)(uintptr_t)cpu);
    for (unsigned cpu = 0; cpu < RB_SMP_CPUS; cpu++)
        pthread_join(w[cpu], NULL);
    atomic_store(&run.stop_side_work, true);
    if (side)
        pthread_join(s, NULL);
    pthread_join(r, NULL);
    if (atomic_load(&run.failures))
        unit_fail(__FILE__, __LINE__, run.failure);
}

/* What every exact run must show: per CPU, every attempt read or counted lost, and the
 * buffer's own counts saying the same. */
static void check_accounting(void)
{
    uint64_t lost_total = 0, read_total = 0;
    for (unsigned cpu = 0; cpu < RB_SMP_CPUS; cpu++) {
        CHECK_EQ_INT(run.read[cpu] + run.lost[cpu], run.attempts[cpu]);
        read_total += run.read[cpu];
        struct rb_stats st;
        rb_get_stats(run.rb, cpu, &st);
        CHECK_EQ_INT(st.entries, 0);
        CHECK_EQ_INT(st.read, run.read[cpu]);
        CHECK_EQ_INT(st.overrun + st.dropped, run.lost[cpu]);
        lost_total += run.lost[cpu];
    }
    /* Something was read: a CPU whose writer the host starved may have had all its events
     * overwritten (each counted), but not every CPU. */
    CHECK(read_total > 0);
    printf("#   read %llu %llu %llu %llu, lost %llu in all, %llu iterated, %llu resizes\n",
           (unsigned long long)run.read[0], (unsigned long long)run.read[1],
           (unsigned long long)run.read[2], (unsigned long long)run.read[3],
           (unsigned long long)lost_total, (unsigned long long)run.iterated,
           (unsigned long long)run.resizes);
}

TEST(overwrite_mode_with_resizes_loses_nothing_uncounted)
{
    run_stress(true, 1);
    check_accounting();
    CHECK(run.resizes > 0);
    rb_destroy(run.rb);
}

TEST(producer_consumer_mode_counts_every_refusal)
{
    run_stress(false, 0);
    check_accounting();
    rb_destroy(run.rb);
}

/* Resets and tracing_on toggles throw events away uncounted, as they should: here only the
 * order and wholeness of what is read are checked, and that the rings end empty. */
TEST(resets_and_tracing_on_under_writers_keep_order)
{
    run_stress(true, 2);
    CHECK(run.resets > 0);
    for (unsigned cpu = 0; cpu < RB_SMP_CPUS; cpu++) {
        struct rb_stats st;
        rb_get_stats(run.rb, cpu, &st);
        CHECK_EQ_INT(st.entries, 0);
    }
    rb_destroy(run.rb);
}

/* The layout promise: each CPU's ring, and its consumer part, start cache lines of their
 * own, so writers on two CPUs never write the same line. */
TEST(each_cpu_ring_has_its_own_cache_lines)
{
    host_smp_set_cpus(RB_SMP_CPUS);
    struct ring_buffer *rb = rb_create(&env, RB_SMP_CPUS, 2);
    CHECK(rb != NULL);
    for (unsigned cpu = 0; cpu < RB_MAX_CPUS; cpu++) {
        CHECK((uintptr_t)&rb->cpu[cpu] % RB_CACHE_LINE == 0);
        CHECK((uintptr_t)&rb->cpu[cpu].read_seq % RB_CACHE_LINE == 0);
    }
    CHECK(sizeof(struct rb_cpu) % RB_CACHE_LINE == 0);
    /* A CPU the buffer has no ring for writes nothing and loses nothing. */
    host_smp_become_cpu(RB_SMP_CPUS);
    CHECK(rb_reserve(rb, 8) == NULL);
    host_smp_become_cpu(0);
    struct rb_stats st;
    rb_get_stats(rb, RB_ALL_CPUS, &st);
    CHECK_EQ_INT(st.dropped, 0);
    struct rb_event ev;
    CHECK(!rb_consume(rb, RB_SMP_CPUS, NULL, 0, &ev));
    rb_destroy(rb);
}
