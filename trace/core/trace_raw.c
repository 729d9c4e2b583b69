/*
 * trace_raw.c - Linux's binary view of the ring buffer, for trace-cmd and libtraceevent:
 *
 *   per_cpu/cpuN/trace_pipe_raw  consumes CPU N's events a page at a time, in Linux's page
 *                                layout (trace/core/raw_page.h)
 *   events/header_page           that layout, as Linux's ring_buffer_print_page_header gives it
 *   events/header_event          the event header, as ring_buffer_print_entry_header gives it
 *   trace_clock                  the clocks, the one pages count in between brackets
 *
 * The binary capture on COM2 (trace_capture.c) does not build these pages: it sends the
 * ring's own records, and the host builds the same pages from them (tools/tkconvert).
 *
 * Only one clock exists: `local`, nanoseconds from the CPU's cycle counter (what the `trace`
 * file prints; like Linux's local clock, per CPU and not synchronised between CPUs).
 * Writing another name to trace_clock is EINVAL.
 */
#include <stddef.h>

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
#include "trace/core/trace_raw.h"
#include "trace/events/trace_events.h" /* TRACE_EVENT_ID_FIRST: built-in types below it */
#include "uapi/fs.h"
#include "uapi/trace_capture.h"

#define RAW_POLL_NS 10000000u /* a blocked reader looks for events this often */

/* One open() of a trace_pipe_raw: its page filler, and how much of a finished page has
 * been read. */
struct raw_reader {
    bool have_page;
    uint32_t served; /* bytes of the finished page already read */
    struct raw_filler fill;
};

/* The declared cycle fields (trace_declare_cycle_field); written at boot only, so readers
 * take no lock to look. */
static struct capture_cycle_field cycle_fields[TRACE_CYCLE_FIELDS];
static unsigned nr_cycle_fields;

int trace_declare_cycle_field(uint16_t type, uint16_t offset)
{
    if (type == 0 || type >= TRACE_EVENT_ID_FIRST || offset < sizeof(struct trace_entry) ||
        offset > RB_MAX_EVENT - 8)
        return -EINVAL;
    for (unsigned i = 0; i < nr_cycle_fields; i++)
        if (cycle_fields[i].type == type && cycle_fields[i].offset == offset)
            return -EEXIST;
    if (nr_cycle_fields == TRACE_CYCLE_FIELDS)
        return -ENOSPC;
    cycle_fields[nr_cycle_fields++] = (struct capture_cycle_field){ type, offset };
    return 0;
}

void trace_record_cycles_to_ns(void *record, uint32_t length)
{
    struct trace_entry ent;
    if (length < sizeof ent)
        return;
    memcpy(&ent, record, sizeof ent);
    for (unsigned i = 0; i < nr_cycle_fields; i++) {
        const struct capture_cycle_field *f = &cycle_fields[i];
        if (f->type != ent.type || f->offset + 8u > length)
            continue;
        uint64_t v;
        memcpy(&v, (uint8_t *)record + f->offset, 8);
        v = time_cycles_to_ns(v);
        memcpy((uint8_t *)record + f->offset, &v, 8);
    }
}

unsigned trace_cycle_fields(const struct capture_cycle_field **fields)
{
    *fields = cycle_fields;
    return nr_cycle_fields;
}

void raw_fill_init(struct raw_filler *f, unsigned cpu)
{
    memset(f, 0, sizeof *f);
    f->cpu = cpu;
    raw_page_start(&f->page, f->bytes);
}

void raw_fill_next(struct raw_filler *f)
{
    raw_page_start(&f->page, f->bytes);
    f->missed = 0;
}

/* Puts the event in f's carry on the open page if the page is empty; true if it did. */
static bool raw_fill_carry(struct raw_filler *f)
{
    if (!f->have_carry || f->page.events)
        return false;
    raw_page_add(&f->page, time_cycles_to_ns(f->carry_ev.ts), f->carry, f->carry_ev.length);
    f->missed = f->carry_ev.lost_before;
    f->have_carry = false;
    return true;
}

/*
 * As Linux's ring_buffer_read_page: events go on in order while they fit; losses before the
 * first event are the page's missed count, and losses before a later event end the page
 * there. Each event is looked at before it is taken, so an event that does not fit stays in
 * the ring.
 */
enum raw_fill_stop raw_fill(struct raw_filler *f)
{
    struct ring_buffer *rb;
    struct raw_page *page = &f->page;
    if (f->have_carry && !raw_fill_carry(f))
        return RAW_FILL_FULL; /* the carry starts the next page */
    for (;;) {
        struct rb_event ev;
        unsigned long flags = spin_lock_irqsave(&trace_reader_lock);
        rb = trace_array_buffer(f->tr); /* the live one, even after a snapshot swap */
        bool more = rb_peek_event(rb, f->cpu, &ev);
        bool full = more && page->events &&
                    (ev.lost_before || raw_page_event_size(page, time_cycles_to_ns(ev.ts),
                                                           ev.length) > RAW_PAGE_DATA - page->used);
        if (more && !full)
            more = rb_consume(rb, f->cpu, f->carry, sizeof f->carry, &ev);
        spin_unlock_irqrestore(&trace_reader_lock, flags);
        if (full)
            return RAW_FILL_FULL;
        if (!more)
            return RAW_FILL_DRAINED;
        trace_record_cycles_to_ns(f->carry, ev.length);
        uint64_t ts = time_cycles_to_ns(ev.ts);
        if (page->events == 0)
            f->missed = ev.lost_before;
        if ((page->events && ev.lost_before) || !raw_page_add(page, ts, f->carry, ev.length)) {
            f->carry_ev = ev; /* pages changed between the look and the take */
            f->have_carry = true;
            return RAW_FILL_FULL;
        }
    }
}

bool raw_fill_finish(struct raw_filler *f)
{
    if (f->page.events == 0)
        return false;
    raw_page_finish(&f->page, f->missed);
    return true;
}

static int raw_open(struct fs_node *node, struct file *f)
{
    const struct trace_cpu_ref *ref = node->data;
    struct raw_reader *r = kmalloc(sizeof *r);
    if (!r)
        return -ENOMEM;
    r->have_page = false;
    r->served = 0;
    raw_fill_init(&r->fill, ref->cpu);
    r->fill.tr = ref->tr; /* issue 18: an instance's, or NULL for the top */
    f->private_data = r;
    if (!ref->tr)
        trace_pipe_follower_enter(); /* the COM2 stream waits until it is closed */
    return 0;
}

static void raw_release(struct file *f)
{
    if (!((struct raw_reader *)f->private_data)->fill.tr)
        trace_pipe_follower_leave();
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
        raw_fill(&r->fill);
        if (raw_fill_finish(&r->fill)) {
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
    memcpy(buf, r->fill.bytes + r->served, n);
    r->served += n;
    if (r->served == RAW_PAGE_SIZE) {
        r->have_page = false;
        raw_fill_next(&r->fill);
    }
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

/* The top array's per_cpu/cpuN/trace_pipe_raw data (issue 18: tr NULL). */
static struct trace_cpu_ref top_cpus[RB_MAX_CPUS];

struct fs_node *trace_raw_create_file(struct fs_node *dir, const struct trace_cpu_ref *ref)
{
    /* Linux's TRACE_MODE_READ */
    return fs_set_mode(fs_create(dir, "trace_pipe_raw", &trace_pipe_raw_ops, (void *)ref), 0440,
                       0, 0);
}

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
        top_cpus[cpu].cpu = cpu;
        trace_raw_create_file(fs_mkdir_at(root, path), &top_cpus[cpu]);
    }
}
