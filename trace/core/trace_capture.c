/*
 * trace_capture.c - the binary capture on COM2 (uapi/trace_capture.h): what the stream
 * sends instead of trace_pipe's text when options/stream_raw is 1. Nothing is formatted,
 * copied or handled one event at a time: the ring buffer's records go out from its pages
 * as the writers left them, a page's worth per frame (rb_consume_span), with the clock
 * that converts their cycles and copies of the files a reader needs, and the host rebuilds
 * Linux's pages and what `trace-cmd record` would have saved (tools/tkconvert). The cost
 * per event is the serial port's, the frame check's add per word, and little else
 * (docs/exports.md, section 2, counts it).
 *
 * What it guarantees, for each capture (CAPTURE_START .. CAPTURE_END):
 *  - START first, then CAPTURE_CLOCK (kernel/time.h's constants and the declared cycle
 *    fields, trace_declare_cycle_field), then a CAPTURE_FILE of every file a reader needs:
 *    events/header_page, events/header_event, events/SYSTEM/EVENT/format of every event of
 *    every system, printk_formats, saved_cmdlines, saved_tgids, trace_clock and
 *    /proc/kallsyms (with its addresses: the reader is the host);
 *  - then CAPTURE_EVENTS frames, each CPU's in order, each the rest of one ring page: while
 *    the capture streams, a page goes out once the writer has left it (the page it is on
 *    stays, to go whole later); a flush sends the writer's pages too, up to their last
 *    committed event;
 *  - every loss in its place: events lost before a frame's first record are its
 *    lost_before (a span ends before an event a loss comes before, rb_consume_span); a
 *    page a writer recycled while it went out is withdrawn by a CAPTURE_RETRACT right
 *    after it, its events counted lost in the next frame; and losses with no event after
 *    them (a full buffer with options/overwrite 0 drops every later one) go out at the
 *    end in a frame with no records;
 *  - at the end (trace_capture_close): every event still buffered (unless a reader in the
 *    guest holds the buffer, an interactive trace_pipe or an open trace_pipe_raw: then it
 *    keeps them and their losses), then saved_cmdlines and saved_tgids again if a name was
 *    saved since the open (programs that ran meanwhile), the format of every user_events
 *    event again if any event was registered since (the only events created at run time;
 *    the others cannot change), and CAPTURE_END. A later capture starts with its own
 *    START.
 * A tracer's text pipe header (mmiotrace's VERSION and PCIDEV lines) is not part of it.
 * At a crash or halt the flight recorder ends an open capture with trace_capture_end_at_crash
 * instead: its last events and END, no files.
 *
 * Opening and closing walk the tracefs tree and render its files, which is only safe in
 * thread context (trace/events/trace_events.c): the stream opens a capture from the idle
 * loop, a flush, or a switch of the options, never from the timer interrupt. Events go out
 * from anywhere. The caller (trace_stream.c) runs one of these at a time (its batch flag
 * holds off the timer tick's batch, on any CPU), and each frame is written without
 * anything else of the stream's writing to COM2 in between (a RETRACT follows its frame).
 */
#include "drivers/serial/com2_stream.h"
#include "kernel/arch.h"
#include "kernel/fs/fs_layout.h"
#include "kernel/fs/procfs.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/log/printk.h"
#include "kernel/mm/heap.h"
#include "kernel/time.h"
#include "trace/core/capture_frame.h"
#include "trace/core/trace_comm.h"
#include "trace/core/trace_internal.h"
#include "trace/events/trace_events.h"

static bool capture_open;
static uint32_t formats_sent_at; /* trace_events_registered() when the formats were sent */
static uint32_t comms_sent_at;   /* trace_comm_changes() when saved_cmdlines/tgids were */
/* The frame being sent, until it is whole on COM2: a crash that cuts it off sends it again
 * if its page is still whole (the span was consumed from the ring already). */
static struct {
    bool sending;
    unsigned cpu;
    struct ring_buffer *rb; /* the span's buffer: a snapshot swap meanwhile changes the live one */
    struct rb_span span;
} in_flight;

static void com2_send(struct capture_sink *s, const void *data, size_t len, const void *more,
                      size_t more_len)
{
    (void)s;
    com2_write_two(data, len, more, more_len);
}

static struct capture_sink com2_sink = { .send = com2_send };

bool trace_capture_is_open(void) { return capture_open; }

bool trace_capture_pending(void)
{
    uint64_t ts;
    bool waiting = false;
    unsigned long flags = spin_lock_irqsave(&trace_reader_lock);
    for (unsigned cpu = 0; cpu < arch_cpu_count() && !waiting; cpu++)
        waiting = rb_peek_ts(trace_buffer(), cpu, &ts);
    spin_unlock_irqrestore(&trace_reader_lock, flags);
    return waiting;
}

static int render_node(void *arg, struct fs_writer *out)
{
    struct fs_node *node = arg;
    return node->ops->read(node, out);
}

/* /proc/kallsyms with its addresses, whoever the current task is: the capture's reader is
 * the host, which needs them to name functions (COM2 is not readable in the guest). */
static int render_kallsyms(void *arg, struct fs_writer *out)
{
    (void)arg;
    return kallsyms_print(out, true);
}

/* Sends one file as path (relative to tracefs, or absolute); a file that cannot be sent
 * is named on the console, since a reader will miss it. */
static void send_node(const char *path, struct fs_node *node)
{
    if (!node || fs_is_dir(node) || !node->ops->read)
        return;
    int err = capture_send_file(&com2_sink, path, render_node, node);
    if (err)
        printk("tracing: capture: %s not sent (error %d)\n", path, err);
}

static void send_tracefs_file(const char *path)
{
    int err;
    send_node(path, tracefs_lookup(path, &err));
}

/* events/SYSTEM/EVENT/format of every event of system (all systems when NULL). */
static void send_formats(const char *only_system)
{
    int err;
    struct fs_node *events = tracefs_lookup("events", &err);
    if (!events)
        return;
    for (struct fs_node *sys = fs_children(events); sys; sys = sys->next) {
        if (!fs_is_dir(sys) || (only_system && strcmp(sys->name, only_system) != 0))
            continue;
        for (struct fs_node *ev = fs_children(sys); ev; ev = ev->next) {
            struct fs_node *format = fs_child(ev, "format"); /* NULL for a file */
            if (format) {
                char path[FS_PATH_MAX];
                ksnprintf(path, sizeof path, "events/%s/%s/format", sys->name, ev->name);
                send_node(path, format);
            }
        }
    }
}

/* CAPTURE_CLOCK: how the records' cycles become the trace clock's nanoseconds. */
static void send_clock(void)
{
    const struct capture_cycle_field *fields;
    unsigned n = trace_cycle_fields(&fields);
    struct {
        struct capture_clock clock;
        struct capture_cycle_field fields[TRACE_CYCLE_FIELDS];
    } payload = { { time_base.boot_cycles, time_base.ns_mult, TIME_SHIFT, n, 0 }, { { 0, 0 } } };
    memcpy(payload.fields, fields, n * sizeof *fields);
    capture_send_frame(&com2_sink, CAPTURE_CLOCK, 0, &payload,
                       (uint32_t)(sizeof payload.clock + n * sizeof *fields));
}

void trace_capture_open(void)
{
    if (capture_open || arch_in_hardirq())
        return;
    capture_send_start(&com2_sink, arch_cpu_count());
    send_clock();
    send_tracefs_file("events/header_page");
    send_tracefs_file("events/header_event");
    formats_sent_at = trace_events_registered();
    send_formats(0);
    send_tracefs_file("printk_formats");
    comms_sent_at = trace_comm_changes();
    send_tracefs_file("saved_cmdlines");
    send_tracefs_file("saved_tgids");
    send_tracefs_file("trace_clock");
    int err = capture_send_file(&com2_sink, "/proc/kallsyms", render_kallsyms, 0);
    if (err)
        printk("tracing: capture: /proc/kallsyms not sent (error %d)\n", err);
    capture_open = true;
}

/* Sends the span in_flight holds as a CAPTURE_EVENTS frame, from the ring page itself. */
static void send_in_flight(void)
{
    const struct rb_span *span = &in_flight.span;
    struct capture_events head = { span->ts, span->first_entry, span->lost_before };
    capture_send_events(&com2_sink, (uint16_t)in_flight.cpu, &head, span->data, span->length);
}

/* Sends the next span of cpu's records (with whole_pages, only from a page the writer has
 * left); false if there was none. A writer that recycled the page while it went out (the
 * ring does not wait for its readers) may have torn it: then a CAPTURE_RETRACT withdraws
 * the frame, and the ring counts its events as overwritten, reported in the next frame. */
static bool send_span(unsigned cpu, bool whole_pages)
{
    unsigned long flags = spin_lock_irqsave(&trace_reader_lock);
    in_flight.rb = trace_buffer();
    bool got = rb_consume_span(in_flight.rb, cpu, whole_pages, &in_flight.span);
    spin_unlock_irqrestore(&trace_reader_lock, flags);
    if (!got)
        return false;
    in_flight.cpu = cpu;
    in_flight.sending = true;
    send_in_flight();
    flags = spin_lock_irqsave(&trace_reader_lock);
    bool whole = rb_span_done(in_flight.rb, cpu, &in_flight.span);
    in_flight.sending = false;
    spin_unlock_irqrestore(&trace_reader_lock, flags);
    if (!whole)
        capture_send_frame(&com2_sink, CAPTURE_RETRACT, (uint16_t)cpu, 0, 0);
    return true;
}

/* Losses on cpu with no event after them, as a frame with no records; nothing if none. */
static void send_trailing_losses(unsigned cpu)
{
    unsigned long flags = spin_lock_irqsave(&trace_reader_lock);
    uint64_t lost = rb_take_lost(trace_buffer(), cpu);
    spin_unlock_irqrestore(&trace_reader_lock, flags);
    if (!lost)
        return;
    struct capture_events head = { arch_cycles(), 0, lost };
    capture_send_events(&com2_sink, (uint16_t)cpu, &head, 0, 0);
}

/* Sends the pages writers have left, until the deadline passes (looked at after each
 * frame: a page is the unit of work); with drain, every event left and the losses after
 * the last, with no deadline. True if it stopped at the deadline. (CPU 0 first: with more
 * CPUs, the start should rotate so that a busy CPU cannot hold the others back.) */
static bool send_events(uint64_t deadline, bool drain)
{
    for (unsigned cpu = 0; cpu < arch_cpu_count(); cpu++) {
        while (send_span(cpu, !drain))
            if (!drain && arch_cycles() >= deadline)
                return true;
        if (drain)
            send_trailing_losses(cpu);
    }
    return false;
}

bool trace_capture_pages(uint64_t deadline)
{
    return capture_open && send_events(deadline, false);
}

bool trace_capture_end_at_crash(void)
{
    if (!capture_open)
        return false;
    if (in_flight.sending && rb_span_done(in_flight.rb, in_flight.cpu, &in_flight.span))
        send_in_flight(); /* its page is whole: the frame the crash cut goes again */
    in_flight.sending = false;
    send_events(UINT64_MAX, true);
    capture_send_frame(&com2_sink, CAPTURE_END, 0, 0, 0);
    capture_open = false;
    return true;
}

void trace_capture_close(bool drain)
{
    if (!capture_open || arch_in_hardirq())
        return;
    if (drain)
        send_events(UINT64_MAX, true);
    if (trace_comm_changes() != comms_sent_at) { /* programs ran meanwhile */
        send_tracefs_file("saved_cmdlines");
        send_tracefs_file("saved_tgids");
    }
    if (trace_events_registered() != formats_sent_at)
        send_formats("user_events"); /* events made since the open: only user events can be */
    capture_send_frame(&com2_sink, CAPTURE_END, 0, 0, 0);
    capture_open = false;
}
