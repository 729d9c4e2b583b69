/*
 * trace_stream.c - trace_pipe, streamed to COM2 in the background.
 *
 * This is what `cat trace_pipe > mydump.txt &` does in mmiotrace's documentation: a consumer
 * that keeps the buffer drained into a file on the host, while the console stays free. It
 * runs as background work (kernel/background.h): a bounded batch on every timer tick, and
 * as much as there is whenever the CPU would idle. An interactive `cat trace_pipe` on the
 * console takes precedence; the stream waits meanwhile.
 */
#include "drivers/serial/com2_stream.h"
#include "kernel/background.h"
#include "trace/trace_internal.h"

#define TICK_BUDGET 256 /* events per timer tick (25,600/s at 100 Hz): bounds the interrupt */
#define IDLE_BUDGET 256 /* events per idle round, before input is checked again */

bool trace_stream_enabled = true;
bool trace_pipe_has_follower(void);

static void com2_emit(struct fs_writer *w, const char *text, size_t len)
{
    (void)w;
    com2_write(text, len);
}

static bool never(struct fs_writer *w)
{
    (void)w;
    return false;
}

static struct fs_writer com2_writer = { .emit = com2_emit, .interrupted = never };

struct fs_writer *trace_com2_writer(void) { return &com2_writer; }
static union trace_event_copy stream_copy;
static volatile bool stream_busy; /* one batch at a time: COM2 lines are never interleaved */

/* True when the stream should run now. */
static bool streaming(void)
{
    return trace_stream_enabled && com2_present() && trace_buffer() && !trace_pipe_has_follower();
}

/* Streams up to budget events (all with at_end) unless a batch is already running: a tick
 * arriving during a flush must not print into the middle of its line. True if the budget
 * ran out with events left. */
static bool stream_batch(unsigned budget, bool at_end)
{
    if (!streaming() || __atomic_exchange_n(&stream_busy, true, __ATOMIC_ACQUIRE))
        return false;
    unsigned printed;
    do {
        printed = trace_consume_print(&com2_writer, budget, false, &stream_copy);
    } while (at_end && printed == budget);
    if (at_end)
        trace_consume_print(&com2_writer, 0, true, &stream_copy);
    __atomic_store_n(&stream_busy, false, __ATOMIC_RELEASE);
    return printed == budget;
}

void trace_stream_flush(void) { stream_batch(IDLE_BUDGET, true); }

void trace_stream_begin(void)
{
    struct tracer *t = trace_current();
    if (!t->print_pipe_header || !streaming() ||
        __atomic_exchange_n(&stream_busy, true, __ATOMIC_ACQUIRE))
        return;
    t->print_pipe_header(&com2_writer);
    __atomic_store_n(&stream_busy, false, __ATOMIC_RELEASE);
}

static bool stream_work(bool from_tick)
{
    return stream_batch(from_tick ? TICK_BUDGET : IDLE_BUDGET, false);
}

void trace_stream_init(void) { background_register(stream_work); }
