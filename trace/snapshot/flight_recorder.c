/*
 * flight_recorder.c - a crash loses no trace data.
 *
 * When the kernel panics (an unexpected exception, a double fault through its task gate,
 * panic()), the events still unread in the buffer are the ones that explain the crash. Just
 * before the machine stops, they are written out: to COM2, where trace_pipe goes, if the
 * machine has it, else to the console, framed by a line before and after so a reader can
 * tell them from the live stream. They come out as trace_pipe shows them, loss records
 * included, whatever options/stream_com2 says; on COM2 after the tracer's pipe header if
 * the stream has not sent it yet (an mmiotrace log always starts with its header).
 *
 * With options/stream_raw 1 and a binary capture open on COM2, text would land among its
 * frames and the events already moved into its open pages would never be sent: the capture
 * ends instead, its open pages and every unread event sent as pages, then CAPTURE_END
 * (trace_capture_end_at_crash; the files are not sent again, so programs started since the
 * capture opened have no name in its saved_cmdlines). Raw mode without an open capture
 * (the stream off, or a crash while a capture was opening, mid-way through its files)
 * gets the text dump, which a reader skips as bytes between frames.
 *
 * This runs with interrupts off on a CPU that may have crashed anywhere, including inside
 * a reader: the reader lock is taken over rather than waited for, COM2 is written without
 * its lock (com2_write, once a stop was requested), and lock debugging is off
 * (smp_stop_others), so the take-over is not reported as a second crash.
 */
#include "drivers/serial/com2_stream.h"
#include "kernel/init.h"
#include "kernel/panic.h"
#include "kernel/log/printk.h"
#include "kernel/shell/shell.h"
#include "kernel/smp.h"
#include "trace/core/trace_internal.h"

static void dump_unread_events(void)
{
    static union trace_event_copy copy;
    smp_stop_others(); /* (already done by panic and halt, which call this) */
    if (!trace_buffer())
        return;
    /* Whoever held the lock is not coming back: no other CPU runs now. */
    trace_reader_lock.locked = 0;
    if (com2_present() && trace_stream_raw() && trace_capture_end_at_crash()) {
        printk("flight recorder: unread trace events sent on COM2 as the capture's last "
               "pages\n");
        return;
    }
    struct fs_writer *out = com2_present() ? trace_com2_writer() : shell_console_writer();
    printk("flight recorder: unread trace events follow on %s\n",
           com2_present() ? "COM2" : "the console");
    if (com2_present())
        trace_stream_send_pending_header();
    fs_puts(out, "# flight recorder: unread events at the crash\n");
    unsigned n, total = 0;
    do {
        n = trace_consume_print(out, 256, false, &copy);
        total += n;
    } while (n);
    trace_consume_print(out, 0, true, &copy);
    fs_printf(out, "# flight recorder: %u events\n", total);
    printk("flight recorder: %u events written\n", total);
}

static void flight_recorder_setup(void) { panic_register_last_words(dump_unread_events); }
INITCALL(trace, flight_recorder_setup);
