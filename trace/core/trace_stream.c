/*
 * trace_stream.c - trace_pipe, streamed to COM2 in the background.
 *
 * This is what `cat trace_pipe > mydump.txt &` does in mmiotrace's documentation: a consumer
 * that keeps the buffer drained into a file on the host, while the console stays free. It
 * runs as background work (kernel/background.h): on every timer tick for at most
 * BACKGROUND_TICK_US of the clock, and as much as there is whenever the CPU would idle. One
 * event is the unit of work, so a tick overruns its slice by at most one line. Events that
 * wait too long are overwritten and counted, and their gap is printed as a LOST line. An
 * interactive `cat trace_pipe` on the console, and an open per_cpu/cpuN/trace_pipe_raw, take
 * precedence (trace_pipe_has_follower): the stream waits meanwhile and resumes when the
 * last of them is closed, so the guest's reader gets every event.
 *
 * A tracer's pipe header (mmiotrace's VERSION, PCIDEV and LSPCI lines) starts what reaches
 * COM2 of its session however streaming begins: at the switch, or later, when
 * options/stream_com2 turns on or an interactive reader leaves, or in the flight recorder's
 * dump. Until it has been sent it is pending, and goes out before the next event.
 *
 * With options/stream_raw 1 (or trace_options=stream_raw on the command line) the stream
 * carries the binary capture instead (trace_capture.c, uapi/trace_capture.h): no text and
 * no pipe header, pages of events in Linux's layout and the files that describe them. A
 * capture opens (CAPTURE_START and the files) when raw streaming is switched on, when a
 * tracer becomes current, or when events wait and the CPU is idle; it takes full pages
 * from the timer tick's share and the idle loop; a flush ends it (the last pages,
 * CAPTURE_END): trace_stream_flush (a tracer switch too, which empties the buffer), the end
 * of a boot script and poweroff (background_end_session), switching stream_raw or
 * stream_com2 off. The next events then open a new capture.
 */
#include "drivers/serial/com2_stream.h"
#include "kernel/arch.h"
#include "kernel/background.h"
#include "trace/core/trace_internal.h"

bool trace_stream_enabled = true;

static bool raw_mode;                /* options/stream_raw */
static volatile bool capture_wanted; /* open a capture even before events come */

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

/* One batch at a time writes to COM2; false if one is running (a tick during a flush). */
static bool take_stream(void) { return !__atomic_exchange_n(&stream_busy, true, __ATOMIC_ACQUIRE); }
static void release_stream(void) { __atomic_store_n(&stream_busy, false, __ATOMIC_RELEASE); }

/* The binary capture's share of a batch: opens a capture when one is due and this is thread
 * context (the timer tick leaves that to the idle loop), sends the pages that fill, and with
 * at_end closes it. True if it stopped at the deadline. */
static bool raw_batch(uint64_t deadline, bool at_end)
{
    if (!trace_capture_is_open()) {
        if (arch_in_hardirq() || !(capture_wanted || trace_capture_pending()))
            return false;
        capture_wanted = false;
        trace_capture_open();
    }
    bool more = trace_capture_pages(deadline);
    if (at_end) {
        trace_capture_close(true);
        more = false;
    }
    return more;
}

/* Streams until the deadline (arch_cycles()) passes or nothing is left: trace_pipe's text,
 * one event at a time, with at_end the lost counts that have no event after them; or the
 * binary capture's pages, with at_end its close. Nothing if a batch is already running: a
 * tick arriving during a flush must not write into the middle of its line or frame. True
 * if it stopped at the deadline, so there may be more. */
static bool stream_batch(uint64_t deadline, bool at_end)
{
    if (!streaming() || !take_stream())
        return false;
    bool more;
    if (raw_mode) {
        more = raw_batch(deadline, at_end);
    } else {
        trace_stream_send_pending_header();
        do {
            more = trace_consume_print(&com2_writer, 1, false, &stream_copy) == 1;
        } while (more && arch_cycles() < deadline);
        if (at_end)
            trace_consume_print(&com2_writer, 0, true, &stream_copy);
    }
    release_stream();
    return more;
}

/* Everything unread goes out; in raw mode the capture ends. When an interactive reader
 * holds trace_pipe, its events stay for it, and only what the capture already took is
 * sent before the capture ends. */
void trace_stream_flush(void)
{
    if (raw_mode && trace_capture_is_open() && !streaming() && take_stream()) {
        trace_capture_close(false);
        release_stream();
        return;
    }
    stream_batch(UINT64_MAX, true);
}

/* The session ends (poweroff, the end of a boot script; background_end_session): an open
 * binary capture ends as at a flush. The text stream has been drained already. */
static void end_session(void)
{
    if (raw_mode)
        trace_stream_flush();
}

/* Opens a capture now, from thread context, if raw streaming runs: a session's first
 * events need not wait for the idle loop. */
static void open_capture_now(void)
{
    if (!raw_mode)
        return;
    capture_wanted = true;
    if (!streaming() || arch_in_hardirq() || !take_stream())
        return;
    if (!trace_capture_is_open()) {
        capture_wanted = false;
        trace_capture_open();
    }
    release_stream();
}

void trace_stream_set_raw(bool on)
{
    if (on == raw_mode)
        return;
    if (!on) {
        trace_stream_flush(); /* ends the capture, while raw_mode still says there is one */
        raw_mode = false;
        capture_wanted = false;
        return;
    }
    raw_mode = true;
    open_capture_now();
}

bool trace_stream_raw(void) { return raw_mode; }

void trace_stream_set_enabled(bool on)
{
    if (!on && raw_mode)
        trace_stream_flush();
    trace_stream_enabled = on;
    if (on && raw_mode)
        open_capture_now();
}

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
    if (raw_mode) {
        open_capture_now(); /* the new tracer's capture; its header is text, not part of it */
        return;
    }
    if (!streaming() || !take_stream())
        return;
    trace_stream_send_pending_header();
    release_stream();
}

static bool stream_work(uint64_t deadline) { return stream_batch(deadline, false); }

void trace_stream_init(void)
{
    background_register(stream_work);
    background_on_session_end(end_session);
}
