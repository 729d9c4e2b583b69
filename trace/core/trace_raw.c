/*
 * trace_raw.c - Linux's binary view of the ring buffer, for trace-cmd and libtraceevent:
 *
 *   per_cpu/cpuN/trace_pipe_raw  consumes CPU N's events a page at a time, in Linux's page
 *                                layout (trace/core/raw_page.h)
 *   events/header_page           that layout, as Linux's ring_buffer_print_page_header gives it
 *   events/header_event          the event header, as ring_buffer_print_entry_header gives it
 *   trace_clock                  the clocks, the one pages count in between brackets
 *
 * Only one clock exists: `local`, nanoseconds from the CPU's cycle counter (what the `trace`
 * file prints; like Linux's local clock, per CPU and not synchronised between CPUs).
 * Writing another name to trace_clock is EINVAL.
 */
#include "kernel/arch.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs_layout.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"
#include "kernel/proc/sched.h"
#include "kernel/time.h"
#include "trace/core/raw_page.h"
#include "trace/core/trace_internal.h"
#include "uapi/fs.h"

#define RAW_POLL_NS 10000000u /* a blocked reader looks for events this often */

/* One open() of a trace_pipe_raw: the page being handed out, and an event consumed that
 * could not go on the last page (only when a writer recycled pages between the look and
 * the take: see fill_page). */
struct raw_reader {
    unsigned cpu;
    bool have_page;
    uint32_t served;  /* bytes of page already read */
    bool have_carry;
    struct rb_event carry_ev;
    uint8_t page[RAW_PAGE_SIZE] __attribute__((aligned(8)));
    uint8_t carry[RB_MAX_EVENT + 4] __attribute__((aligned(8)));
};

/*
 * Fills r->page from the CPU's oldest unread events, as Linux's ring_buffer_read_page does:
 * events go on in order while they fit; losses before the first event are the page's
 * missed count, and losses before a later event end the page there, so that the next page
 * reports them in their place. Each event is looked at before it is taken, so an event that
 * does not fit stays in the ring. True when the page holds at least one event.
 */
static bool fill_page(struct raw_reader *r)
{
    struct ring_buffer *rb = trace_buffer();
    struct raw_page page;
    uint64_t missed = 0;
    raw_page_start(&page, r->page);
    if (r->have_carry) {
        raw_page_add(&page, time_cycles_to_ns(r->carry_ev.ts), r->carry, r->carry_ev.length);
        missed = r->carry_ev.lost_before;
        r->have_carry = false;
    }
    for (;;) {
        struct rb_event ev;
        unsigned long flags = spin_lock_irqsave(&trace_reader_lock);
        bool more = rb_peek_event(rb, r->cpu, &ev);
        if (more && page.events &&
            (ev.lost_before || raw_page_event_size(&page, time_cycles_to_ns(ev.ts), ev.length) >
                                   RAW_PAGE_DATA - page.used))
            more = false;
        if (more)
            more = rb_consume(rb, r->cpu, r->carry, sizeof r->carry, &ev);
        spin_unlock_irqrestore(&trace_reader_lock, flags);
        if (!more)
            break;
        uint64_t ts = time_cycles_to_ns(ev.ts);
        if (page.events == 0)
            missed = ev.lost_before;
        if ((page.events && ev.lost_before) || !raw_page_add(&page, ts, r->carry, ev.length)) {
            r->carry_ev = ev; /* pages changed between the look and the take */
            r->have_carry = true;
            break;
        }
    }
    if (page.events == 0)
        return false;
    raw_page_finish(&page, missed);
    return true;
}

static int raw_open(struct fs_node *node, struct file *f)
{
    struct raw_reader *r = kmalloc(sizeof *r);
    if (!r)
        return -ENOMEM;
    memset(r, 0, sizeof *r);
    r->cpu = (unsigned)(uintptr_t)node->data;
    f->private_data = r;
    return 0;
}

static void raw_release(struct file *f)
{
    kfree(f->private_data);
    f->private_data = 0;
}

/*
 * read(): the rest of the current page, or a new page once it is all read, as Linux's
 * tracing_buffers_read gives them: a page-sized read gets a whole page, a smaller read the
 * first part and the next reads the rest. With nothing to read it waits for events
 * (-EAGAIN with O_NONBLOCK, -EINTR for a signal).
 */
static long raw_read(struct file *f, void *buf, size_t len)
{
    struct raw_reader *r = f->private_data;
    while (!r->have_page) {
        if (fill_page(r)) {
            r->have_page = true;
            r->served = 0;
            break;
        }
        if (f->flags & O_NONBLOCK)
            return -EAGAIN;
        int err = sleep_ns(RAW_POLL_NS);
        if (err)
            return err;
    }
    uint32_t n = RAW_PAGE_SIZE - r->served;
    if (n > len)
        n = (uint32_t)len;
    memcpy(buf, r->page + r->served, n);
    r->served += n;
    if (r->served == RAW_PAGE_SIZE)
        r->have_page = false;
    return (long)n;
}

/* events/header_page: the page layout's fields with their offsets and sizes on i386. */
static int read_header_page(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    fs_printf(out, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n");
    fs_printf(out, "\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n");
    fs_printf(out, "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n");
    fs_printf(out, "\tfield: char data;\toffset:%u;\tsize:%u;\tsigned:1;\n", RAW_PAGE_HEADER,
              RAW_PAGE_DATA);
    return 0;
}

/* events/header_event: the event header's bit fields and special type_len values. */
static int read_header_event(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    fs_printf(out, "# compressed entry header\n\ttype_len    :    5 bits\n"
                   "\ttime_delta  :   27 bits\n\tarray       :   32 bits\n\n");
    fs_printf(out, "\tpadding     : type == %d\n\ttime_extend : type == %d\n"
                   "\ttime_stamp : type == %d\n\tdata max type_len  == %d\n",
              RAW_TYPE_PADDING, RAW_TYPE_TIME_EXTEND, RAW_TYPE_TIME_STAMP, RAW_TYPE_DATA_MAX);
    return 0;
}

static int read_trace_clock(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    fs_puts(out, "[local]\n");
    return 0;
}

/* Selecting the clock in use is accepted; any other name is not a clock here. */
static int write_trace_clock(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)f;
    (void)append;
    size_t s, e;
    trim_blanks(data, len, &s, &e);
    return e - s == 5 && strncmp(data + s, "local", 5) == 0 ? 0 : -EINVAL;
}

static const struct fs_file_ops trace_pipe_raw_ops = {
    .open = raw_open, .release = raw_release, .read_data = raw_read, .seekless = true,
};
static const struct fs_file_ops header_page_ops = { .read = read_header_page };
static const struct fs_file_ops header_event_ops = { .read = read_header_event };
static const struct fs_file_ops trace_clock_ops = { .read = read_trace_clock,
                                                    .write = write_trace_clock };

void trace_raw_init(void)
{
    struct fs_node *root = tracefs_root();
    struct fs_node *events = fs_mkdir_at(root, "events");
    fs_create(events, "header_page", &header_page_ops, 0);
    fs_create(events, "header_event", &header_event_ops, 0);
    fs_create(root, "trace_clock", &trace_clock_ops, 0);
    for (unsigned cpu = 0; cpu < arch_cpu_count(); cpu++) {
        char path[32];
        ksnprintf(path, sizeof path, "per_cpu/cpu%u", cpu);
        struct fs_node *raw = fs_create(fs_mkdir_at(root, path), "trace_pipe_raw",
                                        &trace_pipe_raw_ops, (void *)(uintptr_t)cpu);
        fs_set_mode(raw, 0440, 0, 0); /* Linux's TRACE_MODE_READ */
    }
}
