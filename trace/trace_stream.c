/*
 * trace_stream.c - trace_pipe, streamed to COM2 in the background.
 *
 * This is what `cat trace_pipe > mydump.txt &` does in mmiotrace's documentation: a consumer
 * that keeps the buffer drained into a file on the host, while the console stays free. It
 * runs as background work (kernel/background.h): on every timer tick for at most
 * BACKGROUND_TICK_US of the clock, and as much as there is whenever the CPU would idle. One
 * event is the unit of work, so a tick overruns its slice by at most one line. Events that
 * wait too long are overwritten and counted, and their gap is printed as a LOST line. An
 * interactive `cat trace_pipe` on the console takes precedence; the stream waits meanwhile.
 */
#include "drivers/serial/com2_stream.h"
#include "kernel/arch.h"
#include "kernel/background.h"
#include "trace/trace_internal.h"

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

/* Streams events until the deadline (arch_cycles()) passes or none are left, and with
 * at_end the lost counts that have no event after them, unless a batch is already running:
 * a tick arriving during a flush must not print into the middle of its line. True if it
 * stopped at the deadline, so there may be more. */
static bool stream_batch(uint64_t deadline, bool at_end)
{
    if (!streaming() || __atomic_exchange_n(&stream_busy, true, __ATOMIC_ACQUIRE))
        return false;
    bool more;
    do {
        more = trace_consume_print(&com2_writer, 1, false, &stream_copy) == 1;
    } while (more && arch_cycles() < deadline);
    if (at_end)
        trace_consume_print(&com2_writer, 0, true, &stream_copy);
    __atomic_store_n(&stream_busy, false, __ATOMIC_RELEASE);
    return more;
}

void trace_stream_flush(void) { stream_batch(UINT64_MAX, true); }

void trace_stream_begin(void)
{
    struct tracer *t = trace_current();
    if (!t->print_pipe_header || !streaming() ||
        __atomic_exchange_n(&stream_busy, true, __ATOMIC_ACQUIRE))
        return;
    t->print_pipe_header(&com2_writer);
    __atomic_store_n(&stream_busy, false, __ATOMIC_RELEASE);
}

static bool stream_work(uint64_t deadline) { return stream_batch(deadline, false); }

void trace_stream_init(void) { background_register(stream_work); }
