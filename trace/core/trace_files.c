/*
 * trace_files.c - the tracing directory's files, as Linux's tracefs has them:
 *
 *   available_tracers     the registered tracers
 *   current_tracer        read: the current one; write: switch ("none" means nop)
 *   tracing_on            1/0: record or not (not recording is not losing)
 *   trace                 header and every buffered event; writing empties the buffer
 *   trace_pipe            consumes events as they come (an interactive cat follows until ^C)
 *   trace_marker          a write becomes a marker event
 *   buffer_size_kb        per-CPU buffer size in KiB; writing resizes, keeping the data
 *   buffer_total_size_kb  all CPUs together
 *   trace_entries         the buffer size counted in events of the current tracer (the name
 *                         mmiotrace's documentation uses)
 *   trace_options         every options/ file as NAME (on) or noNAME (off); takes one a write
 *   options/overwrite     1: the oldest events are overwritten; 0: new events are dropped
 *   options/stream_com2   1: trace_pipe is streamed to COM2 in the background
 *   options/irq-info      1: the irqs-off/hardirq flag columns in the context (Linux's default)
 *   options/latency-format 1: Linux's latency header and context columns
 *   options/record-cmd    1: task names are saved for the output (0: new tasks print "<...>")
 *   options/record-tgid   1: a TGID column after TASK-PID
 *   options/stream_raw    1: the stream carries the binary capture (pages and the files that
 *                         describe them, uapi/trace_capture.h) instead of trace_pipe's text
 *   per_cpu/cpuN/stats    Linux's per-CPU counters
 */
#include "kernel/fs/fs_layout.h"
#include "kernel/arch.h"
#include "kernel/shell/console.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/log/printk.h"
#include "kernel/time.h"
#include "trace/core/trace_internal.h"
#include "trace/core/error_log.h"

/* Payload bytes per event when a tracer gives no size (a marker line of ~40 characters). */
#define DEFAULT_ENTRY_SIZE 48
#define EVENT_HEADER 4
#define TRACE_PIPE_POLL_NS 10000000u /* an interactive trace_pipe looks for events this often */

static int trace_pipe_followers;

/* Parses a 0/1 flag file write as Linux does (kstrtoul_from_user, base 10: "1", "1\n", "+1";
 * not " 1" nor "0x1"). */
int trace_parse_bool(const char *data, size_t len, bool *out)
{
    uint64_t v;
    int err = parse_kstrtoul_user(data, len, &v);
    if (err || v > 1)
        return -EINVAL;
    *out = v == 1;
    return 0;
}

static int read_available_tracers(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    for (struct tracer *t = trace_tracers(); t; t = t->next)
        fs_printf(out, "%s%s", t->name, t->next ? " " : "\n");
    return 0;
}

static int read_current_tracer(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    fs_printf(out, "%s\n", trace_current()->name);
    return 0;
}

static int write_current_tracer(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)f;
    (void)append;
    size_t s, e;
    trim_blanks(data, len, &s, &e);
    struct tracer *t = trace_find_tracer(data + s, e - s);
    if (!t && e - s == 4 && strncmp(data + s, "none", 4) == 0)
        t = trace_find_tracer("nop", 3); /* older kernels' name, as in their mmiotrace.txt */
    if (!t)
        return -EINVAL;
    return trace_switch(t);
}

static int read_trace(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    trace_print_all(out);
    return 0;
}

/* `echo > trace` empties the buffer, as on Linux. */
static int write_trace(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)f;
    (void)data;
    (void)len;
    if (!append) {
        unsigned long flags = spin_lock_irqsave(&trace_reader_lock);
        rb_reset(trace_buffer());
        trace_time_start_ns = time_ns(); /* issue 18: latency-format counts from here */
        spin_unlock_irqrestore(&trace_reader_lock, flags);
    }
    return 0;
}

bool trace_pipe_has_follower(void)
{
    return __atomic_load_n(&trace_pipe_followers, __ATOMIC_ACQUIRE) > 0;
}

void trace_pipe_follower_enter(void)
{
    __atomic_add_fetch(&trace_pipe_followers, 1, __ATOMIC_ACQ_REL);
}

void trace_pipe_follower_leave(void)
{
    __atomic_sub_fetch(&trace_pipe_followers, 1, __ATOMIC_ACQ_REL);
}

static int read_trace_pipe(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    return trace_read_pipe(0, out);
}

/* issue 18, instances: the one trace_pipe reader, for the top array (tr NULL) or an
 * instance's; only the top's steps the COM2 stream aside (the stream carries the top). */
int trace_read_pipe(const struct trace_array *tr, struct fs_writer *out)
{
    /* The console shell and programs' read() share it: each consumes and prints an event
     * without sleeping in between, and the kernel preempts no thread. */
    static union trace_event_copy copy;
    struct tracer *t = trace_current();
    if (!tr && t->print_pipe_header && !out->continued)
        t->print_pipe_header(out);
    if (out->follow && !tr)
        trace_pipe_follower_enter(); /* the COM2 stream steps aside meanwhile */
    for (;;) {
        /* A reader that does not follow (a program's read(), a script) is asked after
         * every event whether it has enough, so it takes no more than it can hold. */
        unsigned n = trace_consume_print_from(tr, out, out->follow ? 64 : 1, !out->follow,
                                              &copy);
        if (out->interrupted(out))
            break;
        if (n == 0) {
            if (!out->follow)
                break;
            console_wait_input(TRACE_PIPE_POLL_NS); /* new events, or a keystroke (^C) */
        }
    }
    if (out->follow) {
        trace_consume_print_from(tr, out, 0, true, &copy); /* losses after the last event */
        if (!tr)
            trace_pipe_follower_leave();
    }
    return 0;
}

static int write_trace_marker(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)f;
    (void)append;
    return tracing_mark_write(data, (uint32_t)len);
}

static int read_buffer_size_kb(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    trace_print_buffer_size_kb(out, trace_buffer(), false);
    return 0;
}

/* issue 18, instances: buffer_size_kb and buffer_total_size_kb of any array's buffer. */
void trace_print_buffer_size_kb(struct fs_writer *out, struct ring_buffer *rb, bool total)
{
    fs_printf(out, "%u\n", rb_pages_per_cpu(rb) * (RB_PAGE_SIZE / 1024) *
                               (total ? arch_cpu_count() : 1));
}

/* Resizes rb (NULL: the top buffer) to bytes per CPU, at least two pages. */
static int resize_bytes(struct ring_buffer *rb, uint64_t bytes)
{
    uint64_t pages = (bytes + RB_PAGE_SIZE - 1) / RB_PAGE_SIZE;
    if (pages > 0x10000)
        return -ENOMEM; /* 256 MiB per CPU: more than this machine has */
    return trace_resize_buffer(rb, pages < 2 ? 2 : (uint32_t)pages);
}

static int write_buffer_size_kb(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)f;
    (void)append;
    return trace_write_buffer_size_kb(0, data, len);
}

int trace_write_buffer_size_kb(struct ring_buffer *rb, const char *data, size_t len)
{
    uint64_t kb;
    int err = parse_kstrtoul_user(data, len, &kb); /* base 10, as Linux's */
    if (err)
        return err;
    if (kb == 0 || kb > (1u << 20))
        return -EINVAL;
    return resize_bytes(rb, kb * 1024);
}

static int read_buffer_total_size_kb(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    fs_printf(out, "%u\n", rb_pages_per_cpu(trace_buffer()) * (RB_PAGE_SIZE / 1024) * arch_cpu_count());
    return 0;
}

/* Bytes one event of the current tracer takes in the buffer. */
static uint32_t entry_bytes(void)
{
    uint32_t size = trace_current()->entry_size;
    return (size ? size : DEFAULT_ENTRY_SIZE) + EVENT_HEADER;
}

static int read_trace_entries(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    uint64_t entries = (uint64_t)rb_pages_per_cpu(trace_buffer()) * (rb_page_data_size() / entry_bytes());
    fs_printf(out, "%llu\n", (unsigned long long)entries);
    return 0;
}

static int write_trace_entries(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)f;
    (void)append;
    uint64_t entries;
    int err = parse_uint(data, len, &entries);
    if (err)
        return err;
    if (entries == 0 || entries > (1u << 24))
        return -EINVAL;
    uint32_t per_page = rb_page_data_size() / entry_bytes();
    return resize_bytes(0, (entries + per_page - 1) / per_page * RB_PAGE_SIZE);
}

/* A flag file's setting, through its bool or its get (struct trace_flag). */
static bool flag_get(const struct trace_flag *flag)
{
    return flag->value ? *flag->value : flag->get();
}

static void flag_set(const struct trace_flag *flag, bool on)
{
    if (flag->value)
        *flag->value = on;
    else
        flag->set(on);
}

/*
 * Files holding one on/off setting (tracing_on, the options, tracers' own switches): reading
 * gives 1 or 0, writing accepts 1 or 0 and nothing else. f->data points at the setting's
 * struct trace_flag.
 */
static int read_flag(struct fs_node *f, struct fs_writer *out)
{
    fs_printf(out, "%d\n", flag_get(f->data) ? 1 : 0);
    return 0;
}

static int write_flag(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)append;
    bool on;
    int err = trace_parse_bool(data, len, &on);
    if (!err)
        flag_set(f->data, on);
    return err;
}

static const struct fs_file_ops flag_ops = { .read = read_flag, .write = write_flag };

struct fs_node *trace_create_flag_file(struct fs_node *dir, const char *name,
                                       const struct trace_flag *flag)
{
    return fs_create(dir, name, &flag_ops, (void *)flag);
}

static bool overwrite_get(void) { return trace_buffer()->overwrite; }
static void overwrite_set(bool on) { rb_set_overwrite(trace_buffer(), on); }
static bool stream_get(void) { return trace_stream_enabled; }

static const struct trace_flag tracing_on_flag = { .get = trace_is_on, .set = trace_set_on };
static const struct trace_flag overwrite_flag = { .get = overwrite_get, .set = overwrite_set };
static const struct trace_flag stream_com2_flag = { .get = stream_get, .set = trace_stream_set_enabled };
static const struct trace_flag stream_raw_flag = { .get = trace_stream_raw, .set = trace_stream_set_raw };
static const struct trace_flag irq_info_flag = { .value = &trace_print_irq_info };
static const struct trace_flag latency_flag = { .value = &trace_print_latency_format };
static const struct trace_flag record_cmd_flag = { .value = &trace_record_cmd };
static const struct trace_flag record_tgid_flag = { .value = &trace_print_record_tgid };

/* per_cpu/cpuN/stats, in Linux's field names. */
static int read_cpu_stats(struct fs_node *f, struct fs_writer *out)
{
    const struct trace_cpu_ref *ref = f->data;
    trace_print_cpu_stats(out, trace_array_buffer(ref->tr), ref->cpu);
    return 0;
}

/* issue 18, instances: the stats of any array's buffer. */
void trace_print_cpu_stats(struct fs_writer *out, struct ring_buffer *rb, unsigned cpu)
{
    struct rb_stats st;
    rb_get_stats(rb, cpu, &st);
    fs_printf(out, "entries: %llu\noverrun: %llu\ndropped events: %llu\nread events: %llu\n",
              (unsigned long long)st.entries, (unsigned long long)st.overrun,
              (unsigned long long)st.dropped, (unsigned long long)st.read);
}

static const struct fs_file_ops available_tracers_ops = { .read = read_available_tracers };
static const struct fs_file_ops current_tracer_ops = { .read = read_current_tracer, .write = write_current_tracer };
static const struct fs_file_ops trace_ops = { .read = read_trace, .write = write_trace, .truncates = true };
static const struct fs_file_ops trace_pipe_ops = { .read = read_trace_pipe, .consumes = true };
static const struct fs_file_ops trace_marker_ops = { .write = write_trace_marker };
static const struct fs_file_ops buffer_size_kb_ops = { .read = read_buffer_size_kb, .write = write_buffer_size_kb };
static const struct fs_file_ops buffer_total_size_kb_ops = { .read = read_buffer_total_size_kb };
static const struct fs_file_ops trace_entries_ops = { .read = read_trace_entries, .write = write_trace_entries };
static const struct fs_file_ops cpu_stats_ops = { .read = read_cpu_stats };

/* The file options/NAME (name[0..len)) holding an on/off setting, or NULL. trace_options
 * and the trace_options= boot parameter find options through here, so both know exactly
 * the files of options/, whoever created them. */
static struct fs_node *find_option(const char *name, size_t len)
{
    int err;
    struct fs_node *options = tracefs_lookup("options", &err);
    for (struct fs_node *n = options ? options->children : 0; n; n = n->next)
        if (n->ops == &flag_ops && strlen(n->name) == len && strncmp(n->name, name, len) == 0)
            return n;
    return 0;
}

/* Sets the option NAME on or, for noNAME, off: 0, or -EINVAL when there is no such option. */
static int set_option(const char *word, size_t len)
{
    bool on = !(len > 2 && strncmp(word, "no", 2) == 0);
    size_t skip = on ? 0 : 2;
    struct fs_node *flag = find_option(word + skip, len - skip);
    if (!flag)
        return -EINVAL;
    flag_set(flag->data, on);
    return 0;
}

/*
 * trace_options=NAME,noNAME,... on the kernel command line, Linux's boot parameter: each
 * NAME sets options/NAME to 1 and noNAME sets it to 0, in order, as tracing starts
 * (trace_options=stream_raw streams the binary capture from boot). A name that is no
 * option here is reported on the console and skipped.
 */
void trace_apply_boot_options(const char *list)
{
    size_t cursor = 0, len;
    const char *name;
    while (parse_list_next(list, strlen(list), &cursor, &name, &len))
        if (set_option(name, len) != 0)
            printk("tracing: trace_options: no option '%.*s'; ignored\n", (int)len, name);
}

/* trace_options, as Linux's: every file of options/, one a line, "NAME" when it is on and
 * "noNAME" when off. */
static int read_trace_options(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    int err;
    struct fs_node *options = tracefs_lookup("options", &err);
    for (struct fs_node *n = options ? options->children : 0; n; n = n->next)
        if (n->ops == &flag_ops)
            fs_printf(out, "%s%s\n", flag_get(n->data) ? "" : "no",
                      n->name);
    return 0;
}

/* `echo NAME > trace_options` turns options/NAME on, `echo noNAME` off: one option a
 * write, white space around it ignored; anything else, or 64 bytes or more (Linux's
 * buffer), is -EINVAL. */
static int write_trace_options(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)f;
    (void)append;
    if (len >= 64)
        return -EINVAL;
    size_t s, e;
    trim_blanks(data, len, &s, &e);
    return set_option(data + s, e - s);
}

static const struct fs_file_ops trace_options_ops = { .read = read_trace_options,
                                                      .write = write_trace_options };

/* The top array's per_cpu/cpuN files' data (issue 18: an instance has its own). */
static struct trace_cpu_ref top_cpus[RB_MAX_CPUS];

/* issue 18, instances: an instance's per_cpu/cpuN/stats. */
struct fs_node *trace_create_cpu_stats_file(struct fs_node *dir, const struct trace_cpu_ref *ref)
{
    return fs_create(dir, "stats", &cpu_stats_ops, (void *)ref);
}

void trace_files_init(void)
{
    struct fs_node *root = tracefs_root();
    fs_create(root, "available_tracers", &available_tracers_ops, 0);
    fs_create(root, "current_tracer", &current_tracer_ops, 0);
    trace_create_flag_file(root, "tracing_on", &tracing_on_flag);
    fs_create(root, "trace", &trace_ops, 0);
    fs_create(root, "trace_pipe", &trace_pipe_ops, 0);
    fs_set_mode(fs_create(root, "trace_marker", &trace_marker_ops, 0), 0220, 0, 0); /* Linux's */
    fs_create(root, "buffer_size_kb", &buffer_size_kb_ops, 0);
    fs_create(root, "buffer_total_size_kb", &buffer_total_size_kb_ops, 0);
    fs_create(root, "trace_entries", &trace_entries_ops, 0);
    fs_create(root, "trace_options", &trace_options_ops, 0);
    struct fs_node *options = fs_mkdir_at(root, "options");
    trace_create_flag_file(options, "overwrite", &overwrite_flag);
    trace_create_flag_file(options, "stream_com2", &stream_com2_flag);
    trace_create_flag_file(options, "stream_raw", &stream_raw_flag);
    trace_create_flag_file(options, "irq-info", &irq_info_flag);
    trace_create_flag_file(options, "latency-format", &latency_flag);
    trace_create_flag_file(options, "record-cmd", &record_cmd_flag);
    trace_create_flag_file(options, "record-tgid", &record_tgid_flag);
    for (unsigned cpu = 0; cpu < arch_cpu_count(); cpu++) {
        char path[32];
        ksnprintf(path, sizeof path, "per_cpu/cpu%u", cpu);
        top_cpus[cpu].cpu = cpu; /* issue 18: tr NULL, the top array */
        fs_create(fs_mkdir_at(root, path), "stats", &cpu_stats_ops, &top_cpus[cpu]);
    }
    trace_raw_init();
    trace_error_log_init(); /* issue 18, event filters: error_log */
}
