/*
 * trace_snapshot.c - the snapshot buffer and the tracefs `snapshot` file
 * (trace_snapshot.h).
 *
 * snapshot_buf is NULL while freed. It is allocated and freed only by writes to the file
 * (thread context, serialized by snapshot_lock); a swap (any context) exchanges it with the
 * live buffer under interrupts off (trace_swap_buffers), and the pointer leaves it, to be
 * freed or emptied, only with interrupts off, so no swap on this CPU comes in between. A
 * second CPU would need the swap and these to share a lock.
 */
#include "trace/core/trace_snapshot.h"

#include "kernel/arch.h"
#include "kernel/fs/fs_layout.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/parse.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "trace/core/trace_internal.h"

static struct ring_buffer *snapshot_buf;
static uint64_t snapshot_start_ns; /* when snapshot_buf was last emptied (latency-format) */
static unsigned armed;        /* snapshot triggers that need the buffer */
static struct spinlock snapshot_lock = SPINLOCK_INIT("snapshot"); /* thread context */

/* Allocates the buffer at the live one's size, unless it exists: 0 or -ENOMEM (also when
 * it would leave less than the kernel's reserve free, as a resize). */
static int allocate(void)
{
    if (snapshot_buf)
        return 0;
    uint32_t pages = rb_pages_per_cpu(trace_buffer());
    if (!page_alloc_leaves_reserve((uint64_t)pages * arch_cpu_count()))
        return -ENOMEM;
    struct ring_buffer *rb = rb_create(&trace_rb_env, arch_cpu_count(), pages);
    if (!rb)
        return -ENOMEM;
    unsigned long irqs = arch_irq_save();
    snapshot_buf = rb;
    snapshot_start_ns = time_ns();
    arch_irq_restore(irqs);
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
    return 0;
}

/* Takes the buffer out of reach of swaps (interrupts off for the exchange) and frees it. */
static void free_snapshot(void)
{
    unsigned long irqs = arch_irq_save();
    struct ring_buffer *rb = snapshot_buf;
    snapshot_buf = 0;
    arch_irq_restore(irqs);
    if (rb)
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
    unsigned long flags = spin_lock_irqsave(&snapshot_lock);
    arch_irq_restore(flags); /* only thread context takes it */
    if (v == 0) {
        if (armed)
            err = -EBUSY; /* a snapshot trigger needs it */
        else
            free_snapshot();
    } else if (v == 1) {
        err = allocate();
        if (!err && !trace_swap_buffers(&snapshot_buf, &snapshot_start_ns))
            err = -EBUSY;
    } else if (snapshot_buf) {
        unsigned long irqs = arch_irq_save();
        rb_reset(snapshot_buf); /* not live: no writer is in it */
        snapshot_start_ns = time_ns();
        arch_irq_restore(irqs);
    }
    spin_unlock_irqrestore(&snapshot_lock, flags);
    return err;
}

static const struct fs_file_ops snapshot_ops = { .read = read_snapshot, .write = write_snapshot };

void trace_snapshot_init(void)
{
    fs_create(tracefs_root(), "snapshot", &snapshot_ops, 0);
}
