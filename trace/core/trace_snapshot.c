/*
 * trace_snapshot.c - the snapshot buffer and the tracefs `snapshot` file
 * (trace_snapshot.h).
 *
 * snapshot_buf is NULL while freed. It is allocated and freed only by writes to the file
 * (thread context, serialized by snapshot_lock); a swap (any context, any CPU) exchanges it
 * with the live buffer (trace_swap_buffers, under trace.c's resize_lock and reader lock),
 * and it is taken out to be freed, or emptied, under the same two locks, so a swap on
 * another CPU never comes in between. While it is the snapshot its writers are stopped
 * (trace_swap_buffers says why); freeing it waits until every other CPU has had interrupts
 * on since it was taken out, so no writer still holds the pointer (trace.h).
 */
#include "trace/core/trace_snapshot.h"

#include "kernel/arch.h"
#include "kernel/fs/fs_layout.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/parse.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mutex.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "trace/core/trace_internal.h"

static struct ring_buffer *snapshot_buf;
static uint64_t snapshot_start_ns; /* when snapshot_buf was last emptied (latency-format) */
static unsigned armed;        /* snapshot triggers that need the buffer */
static struct spinlock snapshot_lock = SPINLOCK_INIT("snapshot"); /* thread context */
/* One read or write of the file at a time, so a read never walks a buffer a write frees. */
static struct mutex file_mutex = MUTEX_INIT("snapshot_file");

/* Keeps swaps out (they only try-lock the reader lock: trace_swap_buffers) while the
 * snapshot buffer is put in, taken out or emptied; on: returns the flags for off. */
static unsigned long exclude_swaps(void) { return spin_lock_irqsave(&trace_reader_lock); }
static void allow_swaps(unsigned long flags) { spin_unlock_irqrestore(&trace_reader_lock, flags); }

/* Allocates the buffer at the live one's size, unless it exists: 0 or -ENOMEM (also when
 * it would leave less than the kernel's reserve free, as a resize). */
static int allocate(void)
{
    if (snapshot_buf)
        return 0;
    uint32_t pages = rb_pages_per_cpu(trace_buffer());
    if (!trace_pages_fit((uint64_t)pages * arch_cpu_count()))
        return -ENOMEM;
    struct ring_buffer *rb = rb_create(&trace_rb_env, arch_cpu_count(), pages);
    if (!rb)
        return -ENOMEM;
    rb_writers_stop(rb); /* no writer until a swap makes it live (trace_swap_buffers) */
    unsigned long flags = exclude_swaps();
    snapshot_buf = rb;
    snapshot_start_ns = time_ns();
    allow_swaps(flags);
    return 0;
}

bool trace_snapshot_take(void)
{
    return trace_swap_buffers(&snapshot_buf, &snapshot_start_ns);
}

static unsigned long hold_flags; /* trace_snapshot_hold's, under snapshot_lock */

struct ring_buffer *trace_snapshot_hold(void)
{
    unsigned long flags = spin_lock_irqsave(&snapshot_lock);
    arch_irq_restore(flags); /* only thread context takes it */
    hold_flags = flags;
    return snapshot_buf;
}

void trace_snapshot_release(void)
{
    spin_unlock_irqrestore(&snapshot_lock, hold_flags);
}

int trace_snapshot_arm(void)
{
    unsigned long flags = spin_lock_irqsave(&snapshot_lock);
    arch_irq_restore(flags); /* only thread context takes it */
    int err = allocate();
    if (!err)
        armed++;
    spin_unlock_irqrestore(&snapshot_lock, flags);
    return err;
}

void trace_snapshot_disarm(void)
{
    unsigned long flags = spin_lock_irqsave(&snapshot_lock);
    armed--;
    spin_unlock_irqrestore(&snapshot_lock, flags);
}

/* Linux's print_snapshot_help for the main snapshot file. */
static void print_help(struct fs_writer *out)
{
    fs_printf(out, "# tracer: %s\n#\n", trace_current()->name);
    fs_puts(out, snapshot_buf ? "#\n# * Snapshot is allocated *\n#\n"
                              : "#\n# * Snapshot is freed *\n#\n");
    fs_puts(out, "# Snapshot commands:\n"
                 "# echo 0 > snapshot : Clears and frees snapshot buffer\n"
                 "# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.\n"
                 "#                      Takes a snapshot of the main buffer.\n"
                 "# echo 2 > snapshot : Clears snapshot buffer (but does not allocate or free)\n"
                 "#                      (Doesn't have to be '2' works with any number that\n"
                 "#                       is not a '0' or '1')\n");
}

static int read_snapshot(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    mutex_lock(&file_mutex);
    struct rb_stats st = { 0 };
    if (snapshot_buf)
        rb_get_stats(snapshot_buf, RB_ALL_CPUS, &st);
    if (st.entries == 0) {
        print_help(out);
    } else {
        trace_print_times_from(out, snapshot_start_ns);
        trace_print_buffer(out, snapshot_buf);
        trace_print_times_from(0, 0);
    }
    mutex_unlock(&file_mutex);
    return 0;
}

/* Takes the buffer out of reach of swaps; the caller frees it with free_after_writers. */
static struct ring_buffer *take_snapshot_out(void)
{
    unsigned long flags = exclude_swaps();
    struct ring_buffer *rb = snapshot_buf;
    snapshot_buf = 0;
    allow_swaps(flags);
    return rb;
}

/* Frees rb, out of reach of swaps, once no writer can still be about to count itself in
 * it: a writer reads the live pointer and counts itself with interrupts off (trace.h), and
 * every other CPU has had interrupts on (for the call) since rb stopped being live. Thread
 * context, holding no spinlock (another CPU may spin on it with interrupts off). */
static void free_after_writers(struct ring_buffer *rb)
{
    if (!rb)
        return;
    trace_sync_writers();
    rb_destroy(rb);
}

static int write_snapshot(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)f;
    (void)append;
    uint64_t v;
    int err = parse_kstrtoul_user(data, len, &v);
    if (err)
        return err;
    struct ring_buffer *freed = 0;
    mutex_lock(&file_mutex);
    unsigned long flags = spin_lock_irqsave(&snapshot_lock);
    arch_irq_restore(flags); /* only thread context takes it */
    if (v == 0) {
        if (armed)
            err = -EBUSY; /* a snapshot trigger needs it */
        else
            freed = take_snapshot_out();
    } else if (v == 1) {
        err = allocate();
        if (!err && !trace_swap_buffers(&snapshot_buf, &snapshot_start_ns))
            err = -EBUSY;
    } else if (snapshot_buf) {
        unsigned long irqs = exclude_swaps();
        rb_reset(snapshot_buf); /* not live: its writers are stopped */
        snapshot_start_ns = time_ns();
        allow_swaps(irqs);
    }
    spin_unlock_irqrestore(&snapshot_lock, flags);
    free_after_writers(freed);
    mutex_unlock(&file_mutex);
    return err;
}

static const struct fs_file_ops snapshot_ops = { .read = read_snapshot, .write = write_snapshot };

void trace_snapshot_init(void)
{
    fs_create(tracefs_root(), "snapshot", &snapshot_ops, 0);
}
