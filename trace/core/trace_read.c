/*
 * trace_read.c - turning buffered events into text: the `trace` file (a non-consuming walk)
 * and trace_pipe (consuming, used by the file and by the COM2 stream). Events of all CPUs
 * come out merged in timestamp order.
 */
#include "kernel/arch.h"
#include "kernel/lib/string.h"
#include "kernel/mutex.h"
#include "kernel/time.h"
#include "trace/events/trace_events.h"
#include "trace/core/trace_internal.h"
#include "trace/ftrace/ftrace.h"

/* Linux's line for a marker: context, then "tracing_mark_write: text". */
static void print_marker_default(struct fs_writer *out, const struct trace_event_view *ev,
                                 const char *text, uint32_t len)
{
    trace_print_context(out, ev);
    fs_printf(out, "tracing_mark_write: %.*s\n", (int)len, text);
}

/* The length of a marker's text: up to its NUL, and never past the event (a copy cut short
 * or a corrupted event cannot make the printer read beyond it). */
static uint32_t marker_length(const struct trace_event_view *ev)
{
    const struct print_entry *p = (const struct print_entry *)ev->entry;
    uint32_t room = ev->length - (uint32_t)sizeof(struct print_entry), len = 0;
    while (len < room && p->text[len])
        len++;
    return len;
}

void trace_print_event(struct fs_writer *out, const struct trace_event_view *ev)
{
    struct tracer *t = trace_current();
    if (t->print_event && t->print_event(out, ev))
        return;
    if (ev->entry->type >= TRACE_EVENT_ID_FIRST) {
        trace_event_print(out, ev); /* a named event, whatever the tracer */
        return;
    }
    if (ev->entry->type == TRACE_PRINT && ev->length > sizeof(struct print_entry)) {
        const struct print_entry *p = (const struct print_entry *)ev->entry;
        (t->print_marker ? t->print_marker : print_marker_default)(out, ev, p->text,
                                                                   marker_length(ev));
        return;
    }
    if (ev->entry->type == TRACE_STACK) { /* issue 18: a stacktrace trigger's, any tracer */
        ftrace_print_stack(out, ev);
        return;
    }
    trace_print_context(out, ev);
    fs_printf(out, "Unknown type %u\n", ev->entry->type);
}

void trace_print_lost(struct fs_writer *out, unsigned cpu, uint64_t lost)
{
    struct tracer *t = trace_current();
    if (t->print_lost)
        t->print_lost(out, cpu, lost);
    else
        fs_printf(out, "CPU:%u [LOST %llu EVENTS]\n", cpu, (unsigned long long)lost);
}

/* The CPU whose next event is oldest by peek(ctx, cpu, &ts), or -1 when all are empty:
 * how events of several CPUs come out in time order. */
static int oldest_cpu(bool (*peek)(void *ctx, unsigned cpu, uint64_t *ts), void *ctx)
{
    int best = -1;
    uint64_t best_ts = 0, ts;
    for (unsigned cpu = 0; cpu < arch_cpu_count(); cpu++)
        if (peek(ctx, cpu, &ts) && (best < 0 || ts < best_ts)) {
            best = (int)cpu;
            best_ts = ts;
        }
    return best;
}

/* The timestamp (ns) of the oldest event peek finds, or 0 when there is none: the next
 * event's time, for latency-format's delay mark (trace_latency_next_ns). */
static uint64_t next_event_ns(bool (*peek)(void *ctx, unsigned cpu, uint64_t *ts), void *ctx)
{
    int cpu = oldest_cpu(peek, ctx);
    uint64_t ts;
    return cpu >= 0 && peek(ctx, (unsigned)cpu, &ts) ? time_cycles_to_ns(ts) : 0;
}

static bool peek_consumer(void *rb, unsigned cpu, uint64_t *ts) { return rb_peek_ts(rb, cpu, ts); }

static bool peek_iterator(void *iters, unsigned cpu, uint64_t *ts)
{
    return rb_iter_peek_ts(&((struct rb_iter *)iters)[cpu], ts);
}

unsigned trace_consume_print(struct fs_writer *out, unsigned budget, bool at_end,
                             union trace_event_copy *copy)
{
    return trace_consume_print_from(0, out, budget, at_end, copy);
}

/* issue 18, instances: the one consuming printer, for any array (tr NULL: the top). */
unsigned trace_consume_print_from(const struct trace_array *tr, struct fs_writer *out,
                                  unsigned budget, bool at_end, union trace_event_copy *copy)
{
    struct ring_buffer *rb;
    unsigned printed = 0;
    while (printed < budget) {
        struct rb_event ev;
        unsigned long flags;
        if (!spin_trylock_irqsave(&trace_reader_lock, &flags))
            break; /* another reader is at it: let it finish */
        rb = trace_array_buffer(tr); /* the live one, even after a snapshot swap */
        int cpu = oldest_cpu(peek_consumer, rb);
        bool got = cpu >= 0 && rb_consume(rb, (unsigned)cpu, copy->bytes, sizeof *copy, &ev);
        spin_unlock_irqrestore(&trace_reader_lock, flags);
        if (!got)
            break;
        /* Printed after unlocking: printing may be slow, and writers never wait anyway. */
        if (ev.lost_before)
            trace_print_lost(out, ev.cpu, ev.lost_before);
        struct trace_event_view view = { (const struct trace_entry *)copy->bytes, ev.length,
                                         time_cycles_to_ns(ev.ts), ev.cpu };
        trace_print_event(out, &view);
        printed++;
    }
    if (at_end)
        for (unsigned cpu = 0; cpu < arch_cpu_count(); cpu++) {
            uint64_t lost = rb_take_lost(trace_array_buffer(tr), cpu);
            if (lost)
                trace_print_lost(out, cpu, lost);
        }
    return printed;
}

void trace_print_all(struct fs_writer *out)
{
    trace_print_buffer(out, trace_buffer());
}

/* One walk of a buffer at a time: its iterators and event copy are static (too large for
 * a kernel stack), and so is trace_latency_next_ns. Readers are the shell, programs
 * reading `trace` or `snapshot`, each in thread context; a second one sleeps until the
 * first is done. */
static struct mutex print_mutex = MUTEX_INIT("trace_print");

void trace_print_walks_stop(void) { mutex_lock(&print_mutex); }
void trace_print_walks_start(void) { mutex_unlock(&print_mutex); }

void trace_print_buffer(struct fs_writer *out, struct ring_buffer *rb)
{
    mutex_lock(&print_mutex);
    static union trace_event_copy copy; /* under print_mutex */
    static struct rb_iter iters[RB_MAX_CPUS];
    struct trace_header_info info;
    unsigned ncpus = arch_cpu_count();

    unsigned long flags = spin_lock_irqsave(&trace_reader_lock);
    struct rb_stats st;
    rb_get_stats(rb, RB_ALL_CPUS, &st);
    info = (struct trace_header_info){ st.entries, st.entries + st.overrun + st.dropped, ncpus };
    for (unsigned cpu = 0; cpu < ncpus; cpu++)
        rb_iter_start(rb, cpu, &iters[cpu]);
    spin_unlock_irqrestore(&trace_reader_lock, flags);

    struct tracer *t = trace_current();
    if (t->print_header)
        t->print_header(out, &info);
    else
        trace_print_default_header(out, t->name, &info);

    for (;;) {
        int best = oldest_cpu(peek_iterator, iters);
        if (best < 0 || out->interrupted(out))
            break;
        struct rb_event ev;
        if (!rb_iter_next(&iters[best], copy.bytes, sizeof copy, &ev))
            continue;
        if (ev.lost_before)
            trace_print_lost(out, ev.cpu, ev.lost_before);
        struct trace_event_view view = { (const struct trace_entry *)copy.bytes, ev.length,
                                         time_cycles_to_ns(ev.ts), ev.cpu };
        trace_latency_next_ns = trace_print_latency_format ? next_event_ns(peek_iterator, iters) : 0;
        trace_print_event(out, &view);
        trace_latency_next_ns = 0;
    }
    for (unsigned cpu = 0; cpu < ncpus; cpu++)
        if (iters[cpu].skipped)
            trace_print_lost(out, cpu, iters[cpu].skipped);
    mutex_unlock(&print_mutex);
}
