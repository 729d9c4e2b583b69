/*
 * trace.c - the tracing core: the buffer, the tracer registry, recording, and switching
 * tracers (see trace.h).
 */
#include "trace/core/trace.h"

#include "kernel/arch.h"
#include "kernel/init.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/highmem.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/params.h"
#include "kernel/smp.h"
#include "kernel/log/printk.h"
#include "kernel/spinlock.h"
#include "kernel/lib/string.h"
#include "kernel/proc/task.h"
#include "kernel/time.h"
#include "trace/core/trace_comm.h"
#include "trace/core/trace_internal.h"
#include "trace/core/trace_snapshot.h"
#include "trace/core/trace_instance.h"
#include "trace/events/trace_syscalls.h"

/* Linux's default per-CPU buffer: 1441792 bytes (352 pages of 4 KiB). */
#define DEFAULT_BUFFER_BYTES 1441792u

struct ring_buffer *trace_buf;
volatile bool trace_recording;
static struct tracer *tracers;
static struct tracer *current_tracer_ptr;
static volatile bool tracing_on = true;
struct spinlock trace_reader_lock = SPINLOCK_INIT("trace_reader");
/* Keeps two resizes apart; a buffer swap only try-locks it (trace_swap_buffers). */
static struct spinlock resize_lock = SPINLOCK_INIT("trace_resize");

struct ring_buffer *trace_buffer(void) { return trace_buf; }
struct tracer *trace_current(void) { return current_tracer_ptr; }
struct tracer *trace_tracers(void) { return tracers; }

void register_tracer(struct tracer *t)
{
    /* Newest first, as Linux lists available_tracers. */
    t->next = tracers;
    tracers = t;
}

bool trace_enabled(void) { return trace_recording; }

/* A marker into rb, which records (issue 18: an instance's), or into the live top buffer
 * when rb is NULL (read with interrupts off, as trace_reserve reads it). */
static inline __attribute__((always_inline)) int mark_write_into(struct ring_buffer *rb,
                                                                 const char *text, uint32_t len)
{
    if (len && text[len - 1] == '\n')
        len--;
    bool cut = len > TRACE_MARKER_MAX;
    if (cut)
        len = TRACE_MARKER_MAX;
    uint32_t size = (uint32_t)sizeof(struct print_entry) + len + (cut ? 4 : 1);
    unsigned long irqs = arch_irq_save();
    if (!rb)
        rb = trace_buf;
    struct print_entry *p =
        (struct print_entry *)trace_reserve_on(rb, arch_cpu_id(), TRACE_PRINT, size, irqs != 0);
    arch_irq_restore(irqs);
    if (!p)
        return 0; /* lost and counted: the write itself succeeded */
    p->ip = (uint32_t)(uintptr_t)tracing_mark_write; /* readers print "%ps: %s", as Linux's */
    memcpy(p->text, text, len);
    memcpy(p->text + len, cut ? "...\0" : "\0", cut ? 4 : 1);
    rb_commit(rb);
    return 0;
}

int tracing_mark_write(const char *text, uint32_t len)
{
    if (!trace_recording)
        return 0; /* tracing off: the write itself succeeded */
    return mark_write_into(0, text, len);
}

/* issue 18, instances: an instance's trace_marker (trace_instance.c). */
int trace_mark_write_to(struct ring_buffer *rb, const char *text, uint32_t len)
{
    return mark_write_into(rb, text, len);
}

void trace_set_on(bool on)
{
    if (on == tracing_on)
        return;
    struct tracer *t = current_tracer_ptr;
    if (!on && t->stop)
        t->stop();
    tracing_on = on;
    trace_recording = on && trace_buf;
    if (on && t->start)
        t->start();
}

bool trace_is_on(void) { return tracing_on; }

/* issue 18, triggers (trace_internal.h). */
void trace_set_on_from_trigger(bool on)
{
    tracing_on = on;
    trace_recording = on && trace_buf;
}

/* How long a swap waits for other CPUs' writers to commit before it gives up (refused):
 * long enough for a writer whose CPU QEMU's single-threaded TCG is not running for a
 * while (it switches CPUs every 100 ms at least), short enough that a writer which cannot
 * finish until this CPU lets go of something costs a refused snapshot, not a hang. */
#define SWAP_WAIT_MS 250

/*
 * issue 18, the snapshot buffer (trace_snapshot.c): exchanges trace_buf with *other, and
 * trace_time_start_ns with *other_start_ns (each buffer keeps the time it was emptied),
 * with interrupts off, unless a writer of this CPU is between reserve and commit (its
 * commit would go to the other buffer), a resize or a reader is at work (their locks are
 * taken by someone else), or *other is NULL. The buffer swapped in takes the live one's
 * settings (overwrite, the CPUs tracing_cpumask leaves out).
 *
 * issue 19, writers on every CPU: a writer reads trace_buf and counts itself in that
 * buffer's nesting with interrupts off, and commits to trace_buf read again. So the swap
 * first stops the live buffer's writers as a resize does (every CPU's disabled raised, then
 * every CPU's nesting waited down to zero; refusals meanwhile are counted as dropped), then
 * publishes the other buffer, then lets writers into it. The buffer swapped out stays
 * stopped for as long as it is the snapshot: a writer that read trace_buf just before the
 * swap is refused and counts its event lost there, rather than writing into the snapshot
 * and committing to the live buffer. So every event is in one buffer or counted lost in
 * one. The wait is bounded (SWAP_WAIT_MS): past it the writers go on and the swap is
 * refused.
 */
bool trace_swap_buffers(struct ring_buffer **other, uint64_t *other_start_ns)
{
    unsigned long irqs = arch_irq_save();
    unsigned long resize_flags, reader_flags;
    bool swapped = false;
    if (*other && trace_buf && !rb_cpu_writing(trace_buf, arch_cpu_id()) &&
        spin_trylock_irqsave(&resize_lock, &resize_flags)) {
        if (spin_trylock_irqsave(&trace_reader_lock, &reader_flags)) {
            struct ring_buffer *live = trace_buf;
            uint64_t wait = (uint64_t)arch_cycles_khz() * SWAP_WAIT_MS;
            if (rb_writers_stop_within(live, wait)) {
                struct ring_buffer *next = *other;
                next->overwrite = live->overwrite;
                for (unsigned cpu = 0; cpu < live->ncpus; cpu++)
                    rb_set_cpu_recording(next, cpu, !live->cpu_off[cpu]);
                __atomic_store_n(&trace_buf, next, __ATOMIC_SEQ_CST);
                rb_writers_start(next); /* stopped since it was swapped out or made */
                *other = live;          /* and this one stays stopped */
                uint64_t start = trace_time_start_ns;
                trace_time_start_ns = *other_start_ns;
                *other_start_ns = start;
                swapped = true;
            }
            spin_unlock_irqrestore(&trace_reader_lock, reader_flags);
        }
        spin_unlock_irqrestore(&resize_lock, resize_flags);
    }
    arch_irq_restore(irqs);
    return swapped;
}

static void nothing(void *arg) { (void)arg; }

bool trace_sync_writers(void)
{
    if (!arch_irqs_enabled())
        return false;
    smp_call_others(nothing, 0);
    return true;
}

struct tracer *trace_find_tracer(const char *name, size_t len)
{
    for (struct tracer *t = tracers; t; t = t->next)
        if (strlen(t->name) == len && strncmp(t->name, name, len) == 0)
            return t;
    return 0;
}

/*
 * Switches tracers as Linux does: the old one stops and its unread events are streamed to
 * COM2 before the buffer is emptied for the new one, so a stream captured on the host is
 * complete. Events that could not be streamed (options/stream_com2 is 0, an interactive
 * reader holds trace_pipe) are discarded, and how many is printed: a loss is never silent.
 * Returns 0 or the new tracer's init error (then the old tracer stays off and nop is
 * current).
 */
int trace_switch(struct tracer *next)
{
    struct tracer *old = current_tracer_ptr;
    if (next == old)
        return 0;
    if (old) {
        if (tracing_on && old->stop)
            old->stop();
        trace_stream_flush();
        if (old->reset)
            old->reset();
    }
    unsigned long flags = spin_lock_irqsave(&trace_reader_lock);
    struct rb_stats unread;
    rb_get_stats(trace_buf, RB_ALL_CPUS, &unread);
    rb_reset(trace_buf);
    trace_time_start_ns = time_ns(); /* issue 18: latency-format counts from here */
    spin_unlock_irqrestore(&trace_reader_lock, flags);
    if (unread.entries)
        printk("tracing: switching to %s discarded %llu unread events%s\n", next->name,
               (unsigned long long)unread.entries,
               trace_stream_enabled ? "" : " (options/stream_com2 is 0)");
    int err = next->init ? next->init() : 0;
    if (err) {
        printk("tracing: %s could not start (%s); current tracer is nop\n", next->name,
               error_name(err));
        next = trace_find_tracer("nop", 3);
    }
    current_tracer_ptr = next;
    trace_stream_begin();
    if (tracing_on && next->start)
        next->start();
    return err;
}

void trace_header_info(struct trace_header_info *info)
{
    struct rb_stats st;
    rb_get_stats(trace_buf, RB_ALL_CPUS, &st);
    info->entries = st.entries;
    info->written = st.entries + st.overrun + st.dropped;
    info->ncpus = arch_cpu_count();
}

/*
 * A program sets the size through buffer_size_kb, so the new pages are charged as its
 * memory is. The whole new buffer is allocated before the old one is freed: growing
 * must leave the kernel's reserve free even then (Linux likewise refuses a ring-buffer
 * resize larger than the memory available); shrinking needs only that the new pages exist,
 * since it ends with more free than it started, so a buffer grown to the limit can still
 * shrink to what fits in the free memory (its default size). Otherwise -ENOMEM, the buffer
 * unchanged.
 * Interrupts stay on throughout, so the tick keeps its rate even while ~100 MB are
 * allocated and copied: allocating and freeing hold no lock, and the copy onto the new
 * pages holds the reader lock with interrupts on, which is safe because the one reader in
 * an interrupt (the COM2 stream in the tick) only try-locks it, and writers meanwhile
 * find recording disabled and count their events as dropped. resize_lock keeps two resizes
 * apart. The reserve check and the allocation are not atomic against other allocations on
 * another CPU: the page allocator is not yet SMP-safe (kernel/mm/page_alloc.c), and no
 * interrupt handler allocates pages.
 */

int trace_resize(uint32_t pages_per_cpu)
{
    return trace_resize_buffer(0, pages_per_cpu);
}

/* issue 18, instances: rb NULL is the live top buffer, taken under resize_lock (a snapshot
 * swap only try-locks it); an instance's buffer is resized the same way. */
bool trace_pages_fit(uint64_t count)
{
    uint64_t high = highmap_available();
    return count <= high || page_alloc_leaves_reserve(count - high);
}

static int resize_buffer(struct ring_buffer *rb, uint32_t pages_per_cpu)
{
    unsigned long flags = spin_lock_irqsave(&resize_lock);
    arch_irq_restore(flags); /* no interrupt handler takes it */
    if (!rb)
        rb = trace_buf;
    /* issue 18: an allocated snapshot buffer is resized with the live top one, as Linux
     * does (tracing: Update snapshot buffer on resize if it is allocated), so a swap never
     * changes buffer_size_kb; both get their pages, or neither changes. */
    bool top = rb == trace_buf;
    struct ring_buffer *spare = top ? trace_snapshot_hold() : 0;
    uint64_t buffers = spare ? 2 : 1;
    uint64_t want = (uint64_t)pages_per_cpu * arch_cpu_count() * buffers;
    uint64_t have = (uint64_t)rb_pages_per_cpu(rb) * arch_cpu_count() * buffers;
    bool fits = want > have ? trace_pages_fit(want) : want < page_alloc_free_pages();
    struct rb_resize_pages pages, spare_pages;
    int err = fits ? rb_resize_alloc(rb, pages_per_cpu, &pages) : -ENOMEM;
    if (!err && spare && (err = rb_resize_alloc(spare, pages_per_cpu, &spare_pages)) != 0)
        rb_resize_free(rb, &pages); /* the new pages, unused */
    if (!err) {
        unsigned long reader_flags = spin_lock_irqsave(&trace_reader_lock);
        arch_irq_restore(reader_flags); /* the tick only try-locks it (above) */
        rb_writers_stop(rb); /* issue 19: writers on other CPUs finish their commit first */
        rb_resize_swap(rb, &pages);
        rb_writers_start(rb);
        if (spare) {
            rb_writers_stop(spare);
            rb_resize_swap(spare, &spare_pages);
            rb_writers_start(spare);
        }
        spin_unlock_irqrestore(&trace_reader_lock, reader_flags);
        rb_resize_free(rb, &pages);
        if (spare)
            rb_resize_free(spare, &spare_pages);
    }
    if (top)
        trace_snapshot_release();
    spin_unlock_irqrestore(&resize_lock, flags);
    return err;
}

/* resize_buffer with no walk of `trace` in progress (issue 19: one may run on another CPU,
 * its iterators holding page numbers of the rings a resize replaces). */
int trace_resize_buffer(struct ring_buffer *rb, uint32_t pages_per_cpu)
{
    trace_print_walks_stop(); /* issue 19: `trace` may be read on another CPU */
    int err = resize_buffer(rb, pages_per_cpu);
    trace_print_walks_start();
    return err;
}

/* --- setting up ------------------------------------------------------------------------ */

/* How many pages the buffer may take is decided before it allocates (trace_resize,
 * boot_buffer_pages, trace_pages_fit). High memory first, where there is any: the kernel
 * needs the low pages for itself, and the trace buffer is where a user wants the memory. */
static void *alloc_trace_page(void)
{
    void *p = highmap_page();
    return p ? p : (void *)page_alloc(1);
}

static void free_trace_page(void *p)
{
    if (highmap_owns(p))
        highmap_free(p);
    else
        page_free((uintptr_t)p, 1);
}

const struct rb_env trace_rb_env = { alloc_trace_page, free_trace_page, kmalloc, kfree };

/* trace_buf_size= takes bytes per CPU, with an optional K or M, as on Linux. A size that
 * is not one, or that would leave less than the kernel's reserve free (programs could not
 * start), is reported and the default used instead. */
static uint32_t boot_buffer_pages(void)
{
    uint64_t bytes = DEFAULT_BUFFER_BYTES;
    const char *arg = kernel_param("trace_buf_size");
    if (arg && parse_size(arg, strlen(arg), &bytes) != 0) {
        printk("tracing: trace_buf_size=%s is not a size; using %u bytes\n", arg,
               DEFAULT_BUFFER_BYTES);
        bytes = DEFAULT_BUFFER_BYTES;
    }
    uint64_t pages = (bytes + PAGE_SIZE - 1) / PAGE_SIZE;
    if (pages < 2)
        pages = 2;
    if (arg && !trace_pages_fit(pages * arch_cpu_count())) {
        printk("tracing: trace_buf_size=%s would leave less than the kernel's %u KiB reserve; "
               "using %u bytes\n", arg, PAGE_KERNEL_RESERVE * (PAGE_SIZE / 1024),
               DEFAULT_BUFFER_BYTES);
        pages = DEFAULT_BUFFER_BYTES / PAGE_SIZE;
    }
    return (uint32_t)pages;
}

bool trace_record_cmd = true;
uint32_t trace_default_pages; /* issue 18, instances (trace_internal.h) */

/* Saves each task's name as the task is created (pid 1, the boot task, included), so that
 * its events print with that name even after it exits; with options/record-cmd off, as on
 * Linux, names are no longer saved and new tasks print as "<...>". */
static int save_task_comm(struct task *t)
{
    if (trace_record_cmd)
        trace_comm_save(task_pid(t), task_name(t));
    return 0;
}
static struct task_create_hook comm_hook = { save_task_comm, 0, 0 };

/* ... and again when it takes a new name (execve), as Linux's saved_cmdlines follows comm. */
static void save_renamed_comm(struct task *t) { save_task_comm(t); }

/* Sets up the buffer (size from trace_buf_size=), the tracing directory's files and the
 * boot tracer (ftrace=). A late initcall: every tracer registered at the trace level. */
static void trace_init(void)
{
    task_on_create(&comm_hook); /* before tasks_init: even without a buffer, names are kept */
    task_on_rename(save_renamed_comm);
    uint32_t pages = boot_buffer_pages();
    trace_default_pages = pages; /* issue 18: an instance's buffer starts this size */
    trace_buf = rb_create(&trace_rb_env, arch_cpu_count(), pages);
    if (!trace_buf) {
        printk("tracing: no memory for %u buffer pages; tracing is off\n", pages);
        return;
    }
    trace_recording = tracing_on;
    trace_files_init();
    trace_snapshot_init(); /* issue 18, the snapshot buffer */
    trace_instances_init(); /* issue 18, instances/ */
    trace_syscalls_init();
    trace_stream_init();
    trace_switch(trace_find_tracer("nop", 3));
    /* trace_options= sets options/ files, as on Linux (stream_raw: the capture from boot). */
    const char *options = kernel_param("trace_options");
    if (options)
        trace_apply_boot_options(options);
    /* ftrace= selects the boot tracer, as on Linux: what follows boot is traced. */
    const char *boot = kernel_param("ftrace");
    struct tracer *t = boot ? trace_find_tracer(boot, strlen(boot)) : 0;
    if (boot && !t)
        printk("tracing: ftrace=%s: no such tracer\n", boot);
    if (t)
        trace_switch(t);
    printk("tracing: %u KiB buffer per CPU, tracers:", pages * 4);
    for (struct tracer *t = tracers; t; t = t->next)
        printk(" %s", t->name);
    printk("\n");
}
INITCALL(late, trace_init);
