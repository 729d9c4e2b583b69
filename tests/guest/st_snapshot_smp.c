/*
 * st_snapshot_smp.c - snapshot swaps while every CPU writes events (issue 19).
 *
 * snapshot_swap_smp: every CPU but 0 writes an exact number of events through
 * trace_reserve/trace_commit (the path every tracer takes, which reads the live buffer at
 * the reserve and again at the commit), each a marker naming its CPU and its number, while
 * CPU 0 swaps the live buffer and the snapshot as fast as it can. Afterwards every event
 * must be in one of the two buffers, once, or read from one meanwhile (the COM2 stream
 * consumes the live buffer), or counted lost in one of them (dropped or overrun, on its
 * CPU): written = found + read + lost, CPU by CPU, and no number twice. A swap
 * that published the other buffer while a writer on another CPU was between reserve and
 * commit would send that commit to the wrong buffer: its event never shows and is never
 * counted, and the other buffer's nesting wraps (a later reset waits for ever). Freeing the
 * snapshot at the end (`echo 0 > snapshot`) waits for every CPU.
 *
 * With one CPU, CPU 0 writes a batch between swaps: the accounting is checked the same.
 */
#include "kernel/arch.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/log/printk.h"
#include "kernel/selftest.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "tests/guest/guest_helpers.h"
#include "trace/core/trace_internal.h"
#include "trace/core/trace_snapshot.h"

#define SNAP_EVENTS 6000   /* events each writing CPU writes */
#define SNAP_BATCH 200     /* events between swaps (with several CPUs, at least) */
#define SNAP_TAG "snapsmp" /* the markers' text: "snapsmp CPU NUMBER" */

/* One writing CPU's job and results, a cache line of its own. */
struct snap_writer {
    uint32_t cpu;
    uint32_t first, count; /* numbers first .. first + count - 1 */
    uint32_t written;      /* reservations tried (each recorded or counted lost) */
    bool paced;            /* after each SNAP_BATCH, wait for the swapper's next try */
    volatile bool done;
} __attribute__((aligned(64)));
static struct snap_writer snap_writers[MAX_CPUS];
static uint8_t snap_seen[MAX_CPUS][SNAP_EVENTS / 8]; /* numbers found, a bit each */
static uint32_t snap_twice[MAX_CPUS];                /* numbers found a second time */
static uint32_t snap_found[MAX_CPUS];

/* Swaps the swapping CPU has tried (made or refused) while others write. */
static volatile uint32_t snap_swap_tries;

/* Writes w->count markers "snapsmp CPU N" through the tracers' own path. A paced writer
 * waits after each SNAP_BATCH markers until the swapper has tried once more: the swaps are
 * spread over the writes whatever the host gives each virtual CPU (on a loaded host the
 * swapping CPU once got one swap in while three others wrote all their markers). */
static void snap_write_loop(void *arg)
{
    struct snap_writer *w = arg;
    char text[32];
    uint32_t tries = __atomic_load_n(&snap_swap_tries, __ATOMIC_ACQUIRE);
    for (uint32_t n = w->first; n < w->first + w->count; n++) {
        if (w->paced && n > w->first && (n - w->first) % SNAP_BATCH == 0) {
            while (__atomic_load_n(&snap_swap_tries, __ATOMIC_ACQUIRE) == tries)
                arch_cpu_relax();
            tries = __atomic_load_n(&snap_swap_tries, __ATOMIC_ACQUIRE);
        }
        int len = ksnprintf(text, sizeof text, SNAP_TAG " %u %u", w->cpu, n);
        struct print_entry *p = (struct print_entry *)trace_reserve(
            TRACE_PRINT, (uint32_t)(sizeof(struct print_entry) + (uint32_t)len + 1));
        w->written++;
        if (p) {
            p->ip = 0;
            memcpy(p->text, text, (size_t)len + 1);
            trace_commit();
        }
        arch_cpu_relax(); /* lets single-threaded TCG run the other CPUs */
    }
    __atomic_store_n(&w->done, true, __ATOMIC_RELEASE);
}

/* Parses "snapsmp CPU N" into cpu and n; false for any other text. */
static bool snap_parse(const char *text, uint32_t *cpu, uint32_t *n)
{
    size_t tag = strlen(SNAP_TAG);
    if (strncmp(text, SNAP_TAG " ", tag + 1) != 0)
        return false;
    const char *p = text + tag + 1;
    uint32_t v[2] = { 0, 0 };
    for (int i = 0; i < 2; i++) {
        if (*p < '0' || *p > '9')
            return false;
        while (*p >= '0' && *p <= '9')
            v[i] = v[i] * 10 + (uint32_t)(*p++ - '0');
        if (i == 0 && *p++ != ' ')
            return false;
    }
    *cpu = v[0];
    *n = v[1];
    return *p == '\0';
}

/* Consumes every event of rb, marking the markers found; returns the other events' count. */
static uint32_t snap_drain(struct ring_buffer *rb)
{
    static union {
        struct print_entry p;
        uint8_t bytes[RB_MAX_EVENT + 4];
    } copy;
    uint32_t others = 0;
    unsigned long flags = spin_lock_irqsave(&trace_reader_lock);
    for (unsigned cpu = 0; cpu < rb->ncpus; cpu++) {
        struct rb_event ev;
        uint64_t ts;
        /* As the trace readers do: peek first, since a consume that only moves the reader
         * on to the writer's next page reads nothing (ring_buffer.c, rb_consume). */
        for (unsigned empty = 0; empty < 2 && rb_peek_ts(rb, cpu, &ts);) {
            if (!rb_consume(rb, cpu, copy.bytes, sizeof copy.bytes - 1, &ev)) {
                empty++;
                continue;
            }
            empty = 0;
            copy.bytes[ev.length < sizeof copy.bytes ? ev.length : sizeof copy.bytes - 1] = 0;
            uint32_t wcpu, n;
            if (copy.p.ent.type != TRACE_PRINT || !snap_parse(copy.p.text, &wcpu, &n) ||
                wcpu >= MAX_CPUS || wcpu != ev.cpu || n >= SNAP_EVENTS) {
                others++;
                continue;
            }
            if (snap_seen[wcpu][n / 8] & (1u << (n % 8)))
                snap_twice[wcpu]++;
            snap_seen[wcpu][n / 8] |= (uint8_t)(1u << (n % 8));
            snap_found[wcpu]++;
        }
    }
    spin_unlock_irqrestore(&trace_reader_lock, flags);
    return others;
}

/* Events of cpu counted lost in rb (dropped, including refusals while stopped, and
 * overrun). */
static uint64_t snap_lost(struct ring_buffer *rb, unsigned cpu)
{
    struct rb_stats st;
    rb_get_stats(rb, cpu, &st);
    return st.dropped + st.overrun;
}

/* Events of cpu consumed from rb: by this test's drains, or meanwhile by the COM2 stream
 * (options/stream_com2), which takes the live buffer's events in the tick. */
static uint64_t snap_read(struct ring_buffer *rb, unsigned cpu)
{
    struct rb_stats st;
    rb_get_stats(rb, cpu, &st);
    return st.read;
}

static unsigned snap_cpus(void) { return arch_cpu_count() < MAX_CPUS ? arch_cpu_count() : MAX_CPUS; }

SELFTEST(snapshot_swap_smp)
{
    ST_CHECK(trace_enabled());
    /* No COM2 stream meanwhile: its reads in the tick were counted on a buffer that a swap
     * then cleared, and 83 events were once neither found, streamed nor counted lost (a
     * reader's count lost across swaps, not an event: the test's own drains see every one). */
    bool streaming = trace_stream_enabled;
    trace_stream_enabled = false;
    ST_CHECK(guest_write_file("snapshot", "1\n", false) == 0); /* allocated, swapped once */
    struct ring_buffer *snap = trace_snapshot_hold();
    trace_snapshot_release();
    struct ring_buffer *live = trace_buffer();
    ST_CHECK(snap && live && snap != live);
    if (!snap || !live) {
        trace_stream_enabled = streaming;
        return;
    }
    memset(snap_seen, 0, sizeof snap_seen);
    memset(snap_twice, 0, sizeof snap_twice);
    memset(snap_found, 0, sizeof snap_found);
    snap_drain(live); /* what earlier tests left, and the counts from before */
    snap_drain(snap);
    memset(snap_found, 0, sizeof snap_found);
    uint64_t lost_before[MAX_CPUS], read_before[MAX_CPUS];
    for (unsigned cpu = 0; cpu < snap_cpus(); cpu++) {
        lost_before[cpu] = snap_lost(live, cpu) + snap_lost(snap, cpu);
        read_before[cpu] = snap_read(live, cpu) + snap_read(snap, cpu);
    }

    unsigned first = snap_cpus() > 1 ? 1 : 0, swaps = 0, refused = 0;
    for (unsigned cpu = first; cpu < snap_cpus(); cpu++)
        snap_writers[cpu] =
            (struct snap_writer){ .cpu = cpu, .count = SNAP_EVENTS, .paced = first != 0 };
    if (first == 0) {
        /* One CPU: a batch of events, a swap, and again. */
        struct snap_writer *w = &snap_writers[0];
        for (uint32_t at = 0; at < SNAP_EVENTS; at += SNAP_BATCH) {
            struct snap_writer batch = { .cpu = 0, .first = at, .count = SNAP_BATCH };
            snap_write_loop(&batch);
            w->written += batch.written;
            trace_snapshot_take() ? swaps++ : refused++;
        }
    } else {
        bool started = true;
        for (unsigned cpu = first; cpu < snap_cpus(); cpu++)
            started &= smp_run_on(cpu, snap_write_loop, &snap_writers[cpu]);
        ST_CHECK(started);
        for (;;) {
            bool all_done = true;
            for (unsigned cpu = first; cpu < snap_cpus(); cpu++)
                all_done &= __atomic_load_n(&snap_writers[cpu].done, __ATOMIC_ACQUIRE);
            if (all_done)
                break;
            trace_snapshot_take() ? swaps++ : refused++;
            __atomic_add_fetch(&snap_swap_tries, 1, __ATOMIC_RELEASE);
            for (int i = 0; i < 200; i++)
                arch_cpu_relax();
        }
        for (unsigned cpu = first; cpu < snap_cpus(); cpu++)
            smp_wait(cpu);
    }

    /* Both buffers, whichever is live now. */
    snap = trace_snapshot_hold();
    trace_snapshot_release();
    live = trace_buffer();
    uint64_t streamed[MAX_CPUS];
    for (unsigned cpu = 0; cpu < snap_cpus(); cpu++)
        streamed[cpu] = snap_read(live, cpu) + snap_read(snap, cpu) - read_before[cpu];
    snap_drain(live);
    snap_drain(snap);
    bool balanced = true;
    for (unsigned cpu = first; cpu < snap_cpus(); cpu++) {
        struct snap_writer *w = &snap_writers[cpu];
        uint64_t lost = snap_lost(live, cpu) + snap_lost(snap, cpu) - lost_before[cpu];
        printk("snapshot_swap_smp: CPU %u wrote %u, %u found, %llu streamed, %llu counted lost, "
               "%u twice\n", cpu, w->written, snap_found[cpu], (unsigned long long)streamed[cpu],
               (unsigned long long)lost, snap_twice[cpu]);
        balanced &= w->written == SNAP_EVENTS && snap_twice[cpu] == 0 &&
                    snap_found[cpu] + streamed[cpu] + lost == w->written;
    }
    printk("snapshot_swap_smp: %u swaps, %u refused, on %u CPUs\n", swaps, refused, snap_cpus());
    ST_CHECK(balanced);
    ST_CHECK(swaps >= 10);
    /* The snapshot's writers are stopped: an event now goes to the live buffer. */
    ST_CHECK(tracing_mark_write("snapsmp 0 0", 11) == 0);
    struct rb_stats st;
    rb_get_stats(snap, RB_ALL_CPUS, &st);
    ST_CHECK(st.entries == 0);
    ST_CHECK(guest_write_file("snapshot", "0\n", false) == 0); /* freed, after every CPU */
    ST_CHECK(trace_snapshot_hold() == 0);
    trace_snapshot_release();
    snap_drain(trace_buffer());
    trace_stream_enabled = streaming;
}
