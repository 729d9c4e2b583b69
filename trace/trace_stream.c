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

static struct fs_writer com2_writer = { com2_emit, never, 0, false };

/* True when the stream should run now. */
static bool streaming(void)
{
    return trace_stream_enabled && com2_present() && trace_buffer() && !trace_pipe_has_follower();
}

void trace_stream_pump(unsigned budget)
{
    if (streaming())
        trace_consume_print(&com2_writer, budget, false);
}

void trace_stream_flush(void)
{
    if (!streaming())
        return;
    while (trace_consume_print(&com2_writer, IDLE_BUDGET, false))
        ;
    trace_consume_print(&com2_writer, 0, true);
}

void trace_stream_begin(void)
{
    struct tracer *t = trace_current();
    if (streaming() && t->print_pipe_header)
        t->print_pipe_header(&com2_writer);
}

static bool stream_work(bool from_tick)
{
    if (!streaming())
        return false;
    unsigned budget = from_tick ? TICK_BUDGET : IDLE_BUDGET;
    return trace_consume_print(&com2_writer, budget, false) == budget;
}

void trace_stream_init(void) { background_register(stream_work); }
