/*
 * trace_capture.c - the binary capture on COM2 (uapi/trace_capture.h): what the stream
 * sends instead of trace_pipe's text when options/stream_raw is 1. Nothing is formatted:
 * the host gets the ring buffer's pages in Linux's layout and copies of the files a reader
 * needs to decode them, and rebuilds what `trace-cmd record` would have saved.
 *
 * What it guarantees, for each capture (CAPTURE_START .. CAPTURE_END):
 *  - START first, then a CAPTURE_FILE of every file a reader needs: events/header_page,
 *    events/header_event, events/SYSTEM/EVENT/format of every event of every system,
 *    printk_formats, saved_cmdlines, saved_tgids, trace_clock and /proc/kallsyms (with
 *    its addresses: the reader is the host);
 *  - then CAPTURE_PAGE frames, each CPU's in order: appended, they are what
 *    per_cpu/cpuN/trace_pipe_raw would have given (the same filler, trace_raw.h). A page
 *    goes out when it is full (the next event does not fit, or losses come before it);
 *    a page not yet full stays open across timer ticks and takes more events;
 *  - events lost in the ring show as the missed-events flags and count of the page after
 *    them; losses with no event after them (a full buffer with options/overwrite 0 drops
 *    every later event) go out at the end as a page with no events whose missed count
 *    they are (raw_fill_trailing_losses), so every loss is in the capture;
 *  - at the end (trace_capture_close): every event still buffered (unless a reader in the
 *    guest holds the buffer, an interactive trace_pipe or an open trace_pipe_raw: then it
 *    keeps them and their losses), the open pages and an event carried past them, then
 *    saved_cmdlines and saved_tgids again (programs that ran meanwhile) and the format of
 *    every user_events event (the only events created at run time; the others cannot
 *    change), and CAPTURE_END. A later capture starts with its own START.
 * A tracer's text pipe header (mmiotrace's VERSION and PCIDEV lines) is not part of it.
 * At a crash or halt the flight recorder ends an open capture with trace_capture_end_at_crash
 * instead: its last pages and END, no files.
 *
 * Opening and closing walk the tracefs tree and render its files, which is only safe in
 * thread context (trace/events/trace_events.c): the stream opens a capture from the idle
 * loop, a flush, or a switch of the options, never from the timer interrupt. Pages go out
 * from anywhere. The caller (trace_stream.c) runs one of these at a time (its batch flag
 * holds off the timer tick's batch), and each frame is written without anything else of
 * the kernel's writing to COM2 in between: the tick runs to its end before a thread runs,
 * and threads are not preempted (one CPU; with more, COM2 writers need one lock per frame).
 */
#include "drivers/serial/com2_stream.h"
#include "kernel/arch.h"
#include "kernel/fs/fs_layout.h"
#include "kernel/fs/procfs.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/log/printk.h"
#include "kernel/mm/heap.h"
#include "trace/core/capture_frame.h"
#include "trace/core/trace_internal.h"
#include "trace/core/trace_raw.h"

static struct raw_filler *fillers; /* one per CPU: its open page */
static bool capture_open;

static void com2_send(struct capture_sink *s, const void *data, size_t len)
{
    (void)s;
    com2_write(data, len);
}

static struct capture_sink com2_sink = { .send = com2_send };

void trace_capture_init(void)
{
    fillers = kmalloc(arch_cpu_count() * sizeof *fillers);
    if (!fillers) {
        printk("tracing: no memory for the binary capture's pages; options/stream_raw "
               "streams nothing\n");
        return;
    }
    for (unsigned cpu = 0; cpu < arch_cpu_count(); cpu++)
        raw_fill_init(&fillers[cpu], cpu);
}

bool trace_capture_is_open(void) { return capture_open; }

bool trace_capture_pending(void)
{
    if (!fillers)
        return false;
    for (unsigned cpu = 0; cpu < arch_cpu_count(); cpu++)
        if (fillers[cpu].page.events || raw_fill_pending(&fillers[cpu]))
            return true;
    return false;
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
    for (struct fs_node *sys = events->children; sys; sys = sys->next) {
        if (!fs_is_dir(sys) || (only_system && strcmp(sys->name, only_system) != 0))
            continue;
        for (struct fs_node *ev = sys->children; ev; ev = ev->next) {
            if (!fs_is_dir(ev))
                continue;
            for (struct fs_node *f = ev->children; f; f = f->next)
                if (strcmp(f->name, "format") == 0) {
                    char path[FS_PATH_MAX];
                    ksnprintf(path, sizeof path, "events/%s/%s/format", sys->name, ev->name);
                    send_node(path, f);
                }
        }
    }
}

void trace_capture_open(void)
{
    if (capture_open || !fillers || arch_in_hardirq())
        return;
    capture_send_start(&com2_sink, arch_cpu_count());
    send_tracefs_file("events/header_page");
    send_tracefs_file("events/header_event");
    send_formats(0);
    send_tracefs_file("printk_formats");
    send_tracefs_file("saved_cmdlines");
    send_tracefs_file("saved_tgids");
    send_tracefs_file("trace_clock");
    int err = capture_send_file(&com2_sink, "/proc/kallsyms", render_kallsyms, 0);
    if (err)
        printk("tracing: capture: /proc/kallsyms not sent (error %d)\n", err);
    capture_open = true;
}

/* Sends the filler's finished page and starts the next. */
static void send_finished(struct raw_filler *f)
{
    capture_send_frame(&com2_sink, CAPTURE_PAGE, (uint16_t)f->cpu, f->bytes, RAW_PAGE_SIZE);
    raw_fill_next(f);
}

/* Sends cpu's open page if it holds events, and starts the next. */
static void send_page(struct raw_filler *f)
{
    if (raw_fill_finish(f))
        send_finished(f);
}

/* Moves events into pages, sending each page that fills, until the deadline passes (looked
 * at after each page sent: a page is the unit of work); with drain, every event left and
 * the open pages too. True if it stopped at the deadline. (CPU 0 first: with more CPUs,
 * the start should rotate so that a busy CPU cannot hold the others back.) */
static bool send_pages(uint64_t deadline, bool drain)
{
    for (unsigned cpu = 0; cpu < arch_cpu_count(); cpu++) {
        struct raw_filler *f = &fillers[cpu];
        while (raw_fill(f) == RAW_FILL_FULL) {
            send_page(f);
            if (arch_cycles() >= deadline)
                return true;
        }
        if (drain)
            send_page(f);
    }
    return false;
}

bool trace_capture_pages(uint64_t deadline)
{
    return capture_open && send_pages(deadline, false);
}

/* The last pages of a capture: with drain, every event in the ring; in any case the
 * events already taken from it, the open pages and a carried event on one more page (only
 * a reader's race leaves one; it must not reach the next capture); with drain, the losses
 * after each CPU's last event as a page of no events. */
static void send_last_pages(bool drain)
{
    if (drain)
        send_pages(UINT64_MAX, true);
    for (unsigned cpu = 0; cpu < arch_cpu_count(); cpu++) {
        struct raw_filler *f = &fillers[cpu];
        send_page(f);
        if (raw_fill_carry(f))
            send_page(f);
        if (drain && raw_fill_trailing_losses(f))
            send_finished(f);
    }
}

bool trace_capture_end_at_crash(void)
{
    if (!capture_open)
        return false;
    send_last_pages(true);
    capture_send_frame(&com2_sink, CAPTURE_END, 0, 0, 0);
    capture_open = false;
    return true;
}

void trace_capture_close(bool drain)
{
    if (!capture_open || arch_in_hardirq())
        return;
    send_last_pages(drain);
    send_tracefs_file("saved_cmdlines");
    send_tracefs_file("saved_tgids");
    send_formats("user_events");
    capture_send_frame(&com2_sink, CAPTURE_END, 0, 0, 0);
    capture_open = false;
}
