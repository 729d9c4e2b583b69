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
 *
 * A tracer's pipe header (mmiotrace's VERSION, PCIDEV and LSPCI lines) starts what reaches
 * COM2 of its session however streaming begins: at the switch, or later, when
 * options/stream_com2 turns on or an interactive reader leaves, or in the flight recorder's
 * dump. Until it has been sent it is pending, and goes out before the next event.
 */
#include "drivers/serial/com2_stream.h"
#include "kernel/arch.h"
#include "kernel/background.h"
#include "trace/core/trace_internal.h"

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
static volatile bool header_pending; /* the current tracer's pipe header is not on COM2 yet */

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
    trace_stream_send_pending_header();
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

void trace_stream_send_pending_header(void)
{
    if (!__atomic_exchange_n(&header_pending, false, __ATOMIC_ACQ_REL))
        return;
    struct tracer *t = trace_current();
    if (t->print_pipe_header)
        t->print_pipe_header(&com2_writer);
}

void trace_stream_begin(void)
{
    __atomic_store_n(&header_pending, trace_current()->print_pipe_header != 0, __ATOMIC_RELEASE);
    if (!streaming() || __atomic_exchange_n(&stream_busy, true, __ATOMIC_ACQUIRE))
        return;
    trace_stream_send_pending_header();
    __atomic_store_n(&stream_busy, false, __ATOMIC_RELEASE);
}

static bool stream_work(uint64_t deadline) { return stream_batch(deadline, false); }

void trace_stream_init(void) { background_register(stream_work); }
