/*
 * trace_instance.c - instances/NAME: trace arrays with their own buffers (trace_instance.h).
 *
 * Concurrency: instances are made and removed by mkdir and rmdir only, in thread context,
 * which the kernel does not preempt and which allocates and frees without sleeping, so two
 * of them never interleave on this one CPU (as the events list of trace_events.c, whose
 * "Concurrency" note this follows; a second CPU needs a mutex around both). Writers (any
 * context) find instances in `arrays` by slot, with interrupts off for the whole copy
 * (trace_instances_write), so once rmdir has taken one out of `arrays`, no writer of this
 * CPU holds it; a second CPU would also need rmdir to wait for the others' writers (as
 * Linux's tracepoint_synchronize_unregister) before freeing the buffer.
 */
#include "trace/core/trace_instance.h"

#include "kernel/arch.h"
#include "kernel/fs/fs_dirops.h"
#include "kernel/fs/fs_layout.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/spinlock.h"
#include "trace/core/trace_internal.h"
#include "trace/events/trace_events.h"

struct trace_array {
    char name[FS_NAME_MAX];
    unsigned slot;            /* 1..TRACE_INSTANCES_MAX: its bit in trace_event_call.instances */
    struct ring_buffer *rb;
    volatile bool on;         /* its tracing_on */
    struct fs_node *dir;
    struct trace_cpu_ref cpus[RB_MAX_CPUS]; /* its per_cpu/cpuN files' data */
};

static struct trace_array *arrays[TRACE_INSTANCES_MAX + 1]; /* by slot; [0] unused */
static struct fs_node *instances_dir;

struct ring_buffer *trace_array_buffer(const struct trace_array *tr)
{
    return tr ? tr->rb : trace_buffer();
}

void trace_instances_write(uint8_t mask, const struct trace_entry *e, uint32_t length)
{
    for (unsigned slot = 1; slot <= TRACE_INSTANCES_MAX; slot++) {
        if (!(mask & (1u << slot)))
            continue;
        unsigned long irqs = arch_irq_save();
        struct trace_array *tr = __atomic_load_n(&arrays[slot], __ATOMIC_ACQUIRE);
        void *r = tr && tr->on ? rb_reserve_irqs_off(tr->rb, length) : 0;
        if (r) {
            memcpy(r, e, length);
            rb_commit(tr->rb);
        }
        arch_irq_restore(irqs);
    }
}

void trace_instances_count_lost(uint8_t mask)
{
    for (unsigned slot = 1; slot <= TRACE_INSTANCES_MAX; slot++) {
        if (!(mask & (1u << slot)))
            continue;
        unsigned long irqs = arch_irq_save();
        struct trace_array *tr = __atomic_load_n(&arrays[slot], __ATOMIC_ACQUIRE);
        if (tr && tr->on)
            rb_count_lost_event(tr->rb);
        arch_irq_restore(irqs);
    }
}

uint64_t trace_instances_oldest_record(void)
{
    uint64_t oldest = UINT64_MAX, ts;
    for (unsigned slot = 1; slot <= TRACE_INSTANCES_MAX; slot++)
        for (unsigned cpu = 0; arrays[slot] && cpu < arch_cpu_count(); cpu++)
            if (rb_peek_ts(arrays[slot]->rb, cpu, &ts) && ts < oldest)
                oldest = ts;
    return oldest;
}

/* --- the files: each one's data is its instance (per_cpu: a trace_cpu_ref) ------------- */

static int read_trace(struct fs_node *f, struct fs_writer *out)
{
    trace_print_buffer(out, ((struct trace_array *)f->data)->rb);
    return 0;
}

/* `echo > trace` empties the instance's buffer, as the top's file does the top's. */
static int write_trace(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)data;
    (void)len;
    if (!append) {
        unsigned long flags = spin_lock_irqsave(&trace_reader_lock);
        rb_reset(((struct trace_array *)f->data)->rb);
        spin_unlock_irqrestore(&trace_reader_lock, flags);
    }
    return 0;
}

static int read_trace_pipe(struct fs_node *f, struct fs_writer *out)
{
    return trace_read_pipe(f->data, out);
}

static int write_trace_marker(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)append;
    struct trace_array *tr = f->data;
    return tr->on ? trace_mark_write_to(tr->rb, data, (uint32_t)len) : 0;
}

static int read_tracing_on(struct fs_node *f, struct fs_writer *out)
{
    fs_printf(out, "%d\n", ((struct trace_array *)f->data)->on ? 1 : 0);
    return 0;
}

static int write_tracing_on(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)append;
    bool on;
    int err = trace_parse_bool(data, len, &on);
    if (!err)
        ((struct trace_array *)f->data)->on = on;
    return err;
}

static int read_overwrite(struct fs_node *f, struct fs_writer *out)
{
    fs_printf(out, "%d\n", ((struct trace_array *)f->data)->rb->overwrite ? 1 : 0);
    return 0;
}

static int write_overwrite(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)append;
    bool on;
    int err = trace_parse_bool(data, len, &on);
    if (!err)
        rb_set_overwrite(((struct trace_array *)f->data)->rb, on);
    return err;
}

static int read_buffer_size_kb(struct fs_node *f, struct fs_writer *out)
{
    trace_print_buffer_size_kb(out, ((struct trace_array *)f->data)->rb, false);
    return 0;
}

static int write_buffer_size_kb(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)append;
    return trace_write_buffer_size_kb(((struct trace_array *)f->data)->rb, data, len);
}

static int read_buffer_total_size_kb(struct fs_node *f, struct fs_writer *out)
{
    trace_print_buffer_size_kb(out, ((struct trace_array *)f->data)->rb, true);
    return 0;
}

/* No tracer runs in an instance here: nop, the only one it takes. */
static int read_current_tracer(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    fs_puts(out, "nop\n");
    return 0;
}

static int write_current_tracer(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)f;
    (void)append;
    size_t s, e;
    trim_blanks(data, len, &s, &e);
    return e - s == 3 && strncmp(data + s, "nop", 3) == 0 ? 0 : -EINVAL;
}

static const struct fs_file_ops trace_ops = { .read = read_trace, .write = write_trace,
                                              .truncates = true };
static const struct fs_file_ops trace_pipe_ops = { .read = read_trace_pipe, .consumes = true };
static const struct fs_file_ops trace_marker_ops = { .write = write_trace_marker };
static const struct fs_file_ops tracing_on_ops = { .read = read_tracing_on,
                                                   .write = write_tracing_on };
static const struct fs_file_ops overwrite_ops = { .read = read_overwrite,
                                                  .write = write_overwrite };
static const struct fs_file_ops buffer_size_kb_ops = { .read = read_buffer_size_kb,
                                                       .write = write_buffer_size_kb };
static const struct fs_file_ops buffer_total_size_kb_ops = { .read = read_buffer_total_size_kb };
static const struct fs_file_ops current_tracer_ops = { .read = read_current_tracer,
                                                       .write = write_current_tracer };

/* --- mkdir and rmdir ------------------------------------------------------------------- */

/* Removes dir and everything below it (nothing is open: the caller checked). */
static void remove_tree(struct fs_node *dir)
{
    while (dir->children) {
        struct fs_node *n = dir->children;
        if (fs_is_dir(n))
            remove_tree(n);
        else
            fs_remove(n);
    }
    fs_remove(dir);
}

/* The instance's files in its directory; false without memory. */
static bool make_files(struct trace_array *tr)
{
    struct fs_node *d = tr->dir;
    struct fs_node *options = fs_mkdir(d, "options"), *events = fs_mkdir(d, "events");
    bool ok = options && events && fs_create(d, "trace", &trace_ops, tr) &&
              fs_create(d, "trace_pipe", &trace_pipe_ops, tr) &&
              fs_set_mode(fs_create(d, "trace_marker", &trace_marker_ops, tr), 0220, 0, 0) &&
              fs_create(d, "tracing_on", &tracing_on_ops, tr) &&
              fs_create(d, "buffer_size_kb", &buffer_size_kb_ops, tr) &&
              fs_create(d, "buffer_total_size_kb", &buffer_total_size_kb_ops, tr) &&
              fs_create(d, "current_tracer", &current_tracer_ops, tr) &&
              fs_create(options, "overwrite", &overwrite_ops, tr) &&
              trace_events_create_instance_files(d, events, tr->slot);
    for (unsigned cpu = 0; ok && cpu < arch_cpu_count(); cpu++) {
        char path[32];
        ksnprintf(path, sizeof path, "per_cpu/cpu%u", cpu);
        struct fs_node *cpu_dir = fs_mkdir_at(d, path);
        tr->cpus[cpu] = (struct trace_cpu_ref){ tr, cpu };
        ok = cpu_dir && trace_raw_create_file(cpu_dir, &tr->cpus[cpu]) &&
             trace_create_cpu_stats_file(cpu_dir, &tr->cpus[cpu]);
    }
    return ok;
}

/* A name is one path component (fs_dirops.c checked it) without blanks or control
 * characters, so that it prints as one word. */
static bool valid_name(const char *name)
{
    for (const char *p = name; *p; p++)
        if ((unsigned char)*p <= ' ' || *p == 0x7f)
            return false;
    return *name != 0;
}

/*
 * mkdir instances/NAME: a free slot (ENOSPC when all TRACE_INSTANCES_MAX are taken), a
 * buffer of the boot size charged against the kernel's reserve as a resize is (ENOMEM),
 * then its files. Any failure undoes all of it.
 */
static int instance_mkdir(struct fs_node *dir, const char *name)
{
    if (!valid_name(name))
        return -EINVAL;
    unsigned slot = 1;
    while (slot <= TRACE_INSTANCES_MAX && arrays[slot])
        slot++;
    if (slot > TRACE_INSTANCES_MAX)
        return -ENOSPC;
    uint32_t pages = trace_default_pages;
    if (!trace_pages_fit((uint64_t)pages * arch_cpu_count()))
        return -ENOMEM;
    struct trace_array *tr = kzalloc(sizeof *tr);
    if (!tr)
        return -ENOMEM;
    memcpy(tr->name, name, strlen(name) + 1);
    tr->slot = slot;
    tr->on = true;
    tr->rb = rb_create(&trace_rb_env, arch_cpu_count(), pages);
    tr->dir = tr->rb ? fs_mkdir(dir, name) : 0;
    if (!tr->dir || !make_files(tr)) {
        if (tr->dir)
            remove_tree(tr->dir);
        if (tr->rb)
            rb_destroy(tr->rb);
        kfree(tr);
        return -ENOMEM;
    }
    __atomic_store_n(&arrays[slot], tr, __ATOMIC_RELEASE);
    return 0;
}

/* rmdir instances/NAME: EBUSY while a program has any of its files open (as Linux); else
 * its events are turned off in it, it leaves `arrays`, and its files and buffer are freed. */
static int instance_rmdir(struct fs_node *dir, struct fs_node *victim)
{
    (void)dir;
    struct trace_array *tr = 0;
    for (unsigned slot = 1; slot <= TRACE_INSTANCES_MAX; slot++)
        if (arrays[slot] && arrays[slot]->dir == victim)
            tr = arrays[slot];
    if (!tr)
        return -ENOENT;
    if (fs_in_use(victim))
        return -EBUSY;
    trace_events_instance_gone(tr->slot);
    unsigned long irqs = arch_irq_save(); /* no writer of this CPU is copying into it */
    __atomic_store_n(&arrays[tr->slot], 0, __ATOMIC_RELEASE);
    arch_irq_restore(irqs);
    remove_tree(tr->dir);
    rb_destroy(tr->rb);
    kfree(tr);
    return 0;
}

static const struct fs_dir_ops instance_dir_ops = { instance_mkdir, instance_rmdir };

void trace_instances_init(void)
{
    instances_dir = fs_mkdir_at(tracefs_root(), "instances");
    if (instances_dir)
        fs_set_dir_ops(instances_dir, &instance_dir_ops);
}
