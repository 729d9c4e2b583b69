/*
 * ipc_logging.c - IPC logging contexts in the kernel: their pages, their lock, their files
 * (ipc_logging/NAME/log, log_cont, stats) and the ipc_log_demo command. The memory format
 * and the circular writing are trace/ipc_logging/ipc_log_page.c's; this file adds what is the kernel's.
 *
 *   ipc_log_demo COUNT   logs COUNT lines into the context "demo" (two pages, made on
 *                        first use): a load to watch the files with, and what the dump
 *                        test (tests/ipc_dump/dump_test.sh) extracts again from memory.
 */
#include "trace/ipc_logging/ipc_logging.h"
#include "trace/ipc_logging/ipc_log_names.h"
#include "trace/ipc_logging/ipc_log_write.h"

#include <stdarg.h>

#include "kernel/arch.h"
#include "kernel/shell/console.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/mm/heap.h"
#include "kernel/init.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/lib/parse.h"
#include "kernel/mutex.h"
#include "kernel/proc/sched.h"
#include "kernel/shell/shell.h"
#include "kernel/spinlock.h"
#include "kernel/lib/string.h"
#include "kernel/time.h"
#include "kernel/fs/fs_tree.h"
#include "kernel/fs/fs_layout.h"

#define LOG_CONT_POLL_NS 10000000u /* log_cont looks for new events this often */
#define DEMO_PAGES 2

/*
 * A context. log comes first: it starts with the header that every page's ctx_offset
 * points at; the context and its pages are all in the kernel's direct map, where two
 * addresses are as far apart as the frames behind them (page_alloc.h), so a dump of
 * physical memory finds the header where the pages say. The lock guards log; readers
 * counts `log` reads in progress (a closed context admits none).
 */
struct ipc_log_context {
    struct ipc_log log;
    struct spinlock lock;
    struct fs_node *dir;
    struct ipc_log_name by_name; /* its entry in the table of names */
    int readers;
    bool closed;
    struct ipc_log_page *pages[];
};

/* Creating a context (look up the name, allocate, make the files, add it to the names) is
 * one step for every task: two creating the same name get the same context. A mutex: the
 * step allocates and makes files, which may take long (and so only tasks create contexts;
 * kernel/mutex.h says why that is safe on several CPUs). It also guards the table of names:
 * only create and destroy use it, both holding the mutex. */
static struct mutex create_mutex = MUTEX_INIT("ipc_log_create");
#define FIRST_BUCKETS 16
static struct ipc_log_name *first_buckets[FIRST_BUCKETS];
static struct ipc_log_names names = { first_buckets, FIRST_BUCKETS, 0 };

/* The context named name, or NULL: one hash and a bucket's few names, however many
 * contexts exist (ipc_log_names.h). create_mutex held. */
static struct ipc_log_context *find_context(const char *name)
{
    struct ipc_log_name *e = ipc_log_names_find(&names, name);
    return e ? (struct ipc_log_context *)((char *)e - offsetof(struct ipc_log_context, by_name)) : 0;
}

/* Adds ctx to the table of names, doubling the buckets once there are more names than
 * buckets (on no memory the table stays as it is, only with longer chains). create_mutex
 * held. */
static void add_name(struct ipc_log_context *ctx)
{
    ctx->by_name.name = ctx->log.hdr.name;
    ipc_log_names_add(&names, &ctx->by_name);
    if (!ipc_log_names_want_grow(&names))
        return;
    uint32_t count = names.bucket_count * 2;
    struct ipc_log_name **bigger = kmalloc(count * sizeof *bigger);
    if (!bigger)
        return;
    struct ipc_log_name **old = ipc_log_names_rehash(&names, bigger, count);
    if (old != first_buckets)
        kfree(old);
}

/* --- writing ------------------------------------------------------------------------------- */

int ipc_log_write(struct ipc_log_context *ctx, struct ipc_log_encoder *e)
{
    if (!ctx)
        return -EINVAL;
    unsigned long flags = spin_lock_irqsave(&ctx->lock);
    int r = ipc_log_append_encoded(&ctx->log, e);
    spin_unlock_irqrestore(&ctx->lock, flags);
    return r < 0 ? r : 0;
}

int ipc_log_string(struct ipc_log_context *ctx, const char *fmt, ...)
{
    struct ipc_log_encoder e;
    size_t room;
    va_list ap;

    if (!ctx)
        return -EINVAL;
    uint64_t cycles = arch_cycles(); /* one read gives both timestamps */
    ipc_log_encode_start(&e, TSV_TYPE_STRING);
    ipc_log_encode_timestamp(&e, time_cycles_to_ns(cycles));
    ipc_log_encode_qtimer(&e, cycles);
    char *text = ipc_log_encode_bytes_start(&e, &room);
    va_start(ap, fmt);
    int n = kvsnprintf(text, room + 1, fmt, ap); /* in place, as Qualcomm's ipc_logging.c */
    va_end(ap);
    ipc_log_encode_bytes_done(&e, n < 0 ? room + 1 : (size_t)n);
    return ipc_log_write(ctx, &e);
}

int ipc_log_numbers(struct ipc_log_context *ctx, const char *what, size_t what_len,
                    const int32_t *numbers, unsigned n)
{
    if (!ctx)
        return -EINVAL;
    /* ipc_log_append_numbers' code, inline (ipc_log_write.h says why): the clock first, as
     * always; then the numbers' text, outside the lock, which it does not need */
    uint64_t cycles = arch_cycles();
    uint64_t ns = time_cycles_to_ns(cycles);
    char text[STRING_EVENT_ROOM + NUMBER_TEXT_MAX];
    int text_len = ipc_log_numbers_text(text, what_len, numbers, n);
    unsigned long flags = spin_lock_irqsave(&ctx->lock);
    int r = ipc_log_write_numbers(&ctx->log, ns, cycles, what, what_len, text, text_len);
    spin_unlock_irqrestore(&ctx->lock, flags);
    return r;
}

/* --- the files ----------------------------------------------------------------------------- */

/* Whether the reader typed ^C (a writer that cannot be interrupted never does). */
static bool reader_wants_stop(struct fs_writer *out)
{
    return out->interrupted && out->interrupted(out);
}

/* Admits a reader unless the context is being destroyed. */
static bool reader_enter(struct ipc_log_context *ctx)
{
    unsigned long flags = spin_lock_irqsave(&ctx->lock);
    bool ok = !ctx->closed;
    if (ok)
        ctx->readers++;
    spin_unlock_irqrestore(&ctx->lock, flags);
    return ok;
}

/* Lets destroy go ahead once the last reader has left. */
static void reader_leave(struct ipc_log_context *ctx)
{
    unsigned long flags = spin_lock_irqsave(&ctx->lock);
    ctx->readers--;
    spin_unlock_irqrestore(&ctx->lock, flags);
}

/*
 * Prints the events after the context's read mark, one line each, moving the mark. Each
 * event is copied out under the lock and printed without it, so writers wait for one copy
 * at most. Without follow it stops after the bytes that were there when it started, even
 * if writers keep adding; with follow it waits for more until the reader interrupts.
 */
static int print_events(struct ipc_log_context *ctx, struct fs_writer *out, bool follow)
{
    uint8_t event[IPC_LOG_EVENT_MAX];
    char line[IPC_LOG_LINE_MAX];

    if (!reader_enter(ctx))
        return -ENOENT;
    unsigned long flags = spin_lock_irqsave(&ctx->lock);
    uint64_t budget = ipc_log_pending(&ctx->log, ctx->log.reader);
    spin_unlock_irqrestore(&ctx->lock, flags);
    while (follow || budget > 0) {
        flags = spin_lock_irqsave(&ctx->lock);
        int n = ipc_log_read_event(&ctx->log, &ctx->log.reader, event);
        spin_unlock_irqrestore(&ctx->lock, flags);
        if (n > 0) {
            size_t len = ipc_log_format_line(event, (size_t)n, line, sizeof line);
            out->emit(out, line, len);
            budget -= (uint64_t)n < budget ? (uint64_t)n : budget;
        }
        if (reader_wants_stop(out) || (n <= 0 && !follow))
            break;
        if (n <= 0)
            console_wait_input(LOG_CONT_POLL_NS); /* new events, or a keystroke (^C) */
    }
    reader_leave(ctx);
    return 0;
}

/* `log`: what is unread, then return, as the debugfs file of Qualcomm's ipc_logging.c. */
static int read_log(struct fs_node *f, struct fs_writer *out)
{
    return print_events(f->data, out, false);
}

/* `log_cont`: the same, then follow (tail -f) when the reader is at a terminal. */
static int read_log_cont(struct fs_node *f, struct fs_writer *out)
{
    return print_events(f->data, out, out->follow);
}

/* `stats`: the page count and the event counters, read under the lock. */
static int read_stats(struct fs_node *f, struct fs_writer *out)
{
    struct ipc_log_context *ctx = f->data;
    unsigned long flags = spin_lock_irqsave(&ctx->lock);
    uint64_t written = ctx->log.written, dropped = ctx->log.dropped;
    uint64_t oversize = ctx->log.oversize;
    spin_unlock_irqrestore(&ctx->lock, flags);
    fs_printf(out, "pages: %u\nwritten: %llu\ndropped: %llu\noversize: %llu\n",
              (unsigned)ctx->log.page_count, (unsigned long long)written,
              (unsigned long long)dropped, (unsigned long long)oversize);
    return 0;
}

static const struct fs_file_ops log_ops = { .read = read_log, .consumes = true };
static const struct fs_file_ops log_cont_ops = { .read = read_log_cont, .consumes = true };
static const struct fs_file_ops stats_ops = { .read = read_stats };

/* Removes the context's directory and whatever of its files exist. */
static void remove_files(struct ipc_log_context *ctx)
{
    while (ctx->dir->children && fs_remove(ctx->dir->children) == 0)
        ;
    fs_remove(ctx->dir);
}

/* Creates /sys/kernel/debug/ipc_logging/NAME (in debugfs, as Qualcomm's driver puts it) with
 * its three files; false (and nothing left) on failure. */
static bool create_files(struct ipc_log_context *ctx)
{
    struct fs_node *root = fs_mkdir_at(debugfs_root(), "ipc_logging");
    ctx->dir = root ? fs_mkdir(root, ctx->log.hdr.name) : NULL;
    if (!ctx->dir)
        return false;
    if (fs_create(ctx->dir, "log", &log_ops, ctx) &&
        fs_create(ctx->dir, "log_cont", &log_cont_ops, ctx) &&
        fs_create(ctx->dir, "stats", &stats_ops, ctx))
        return true;
    remove_files(ctx);
    return false;
}

/* --- creating and destroying --------------------------------------------------------------- */

/* Frees the pages allocated so far and the context. */
static void free_context(struct ipc_log_context *ctx, uint32_t pages)
{
    for (uint32_t i = 0; i < pages; i++)
        page_free((uintptr_t)ctx->pages[i], 1);
    kfree(ctx);
}

/* A new context named name, linked in; NULL on no memory or a name the files refuse. */
static struct ipc_log_context *create_context(int max_num_pages, const char *name,
                                              uint16_t user_version)
{
    uint32_t count = (uint32_t)max_num_pages;
    struct ipc_log_context *ctx = kzalloc(sizeof *ctx + count * sizeof ctx->pages[0]);
    if (!ctx)
        return NULL;
    for (uint32_t i = 0; i < count; i++) {
        ctx->pages[i] = (struct ipc_log_page *)page_alloc(1); /* zeroed, 4 KiB-aligned */
        if (!ctx->pages[i]) {
            free_context(ctx, i);
            return NULL;
        }
    }
    ctx->lock = (struct spinlock)SPINLOCK_INIT("ipc_log_context");
    ipc_log_init(&ctx->log, ctx->pages, count, name, user_version, time_ns);
    if (!create_files(ctx)) { /* a name the file tree refuses, or no memory */
        ipc_log_forget(&ctx->log);
        free_context(ctx, count);
        return NULL;
    }

    add_name(ctx);
    return ctx;
}

struct ipc_log_context *ipc_log_context_create(int max_num_pages, const char *name,
                                               uint16_t user_version)
{
    size_t len = strlen(name);
    if (max_num_pages < 1 || max_num_pages > IPC_LOG_MAX_PAGES || len == 0 ||
        len >= IPC_LOG_NAME_SIZE || strchr(name, '/'))
        return NULL;
    mutex_lock(&create_mutex);
    struct ipc_log_context *ctx = find_context(name);
    if (!ctx)
        ctx = create_context(max_num_pages, name, user_version);
    mutex_unlock(&create_mutex);
    return ctx;
}

int ipc_log_context_destroy(struct ipc_log_context *ctx)
{
    if (!ctx)
        return 0;
    mutex_lock(&create_mutex); /* a create of the same name waits until it is gone */
    unsigned long flags = spin_lock_irqsave(&ctx->lock);
    bool busy = ctx->readers > 0 || fs_in_use(ctx->dir);
    if (!busy)
        ctx->closed = true;
    spin_unlock_irqrestore(&ctx->lock, flags);
    if (busy) {
        mutex_unlock(&create_mutex);
        return -EBUSY;
    }

    ipc_log_names_remove(&names, &ctx->by_name);

    remove_files(ctx);
    ipc_log_forget(&ctx->log);
    spin_lock_forget(&ctx->lock); /* its memory may hold another lock next */
    free_context(ctx, ctx->log.page_count);
    mutex_unlock(&create_mutex);
    return 0;
}

/* /sys/kernel/debug/ipc_logging exists from boot, as the driver's does, even with no context. */
static void ipc_logging_setup(void)
{
    fs_mkdir_at(debugfs_root(), "ipc_logging");
}
INITCALL(trace, ipc_logging_setup);

/* --- the demo command ---------------------------------------------------------------------- */

/* ipc_log_demo COUNT: COUNT numbered lines into "demo", as fast as IPC_LOG goes. */
static int cmd_ipc_log_demo(int argc, char **argv, struct fs_writer *out)
{
    uint64_t count;
    if (argc != 2 || parse_uint(argv[1], strlen(argv[1]), &count) || count > 100000000)
        return SHELL_USAGE;
    struct ipc_log_context *demo = ipc_log_context_create(DEMO_PAGES, "demo", 0);
    if (!demo)
        return -ENOMEM;
    for (uint64_t i = 0; i < count; i++) {
        if (shell_interrupted()) {
            fs_printf(out, "ipc_log_demo: wrote %llu of %llu\n", (unsigned long long)i,
                      (unsigned long long)count);
            return -EINTR;
        }
        cond_resched();
        IPC_LOG(demo, "demo line %llu of %llu", (unsigned long long)i, (unsigned long long)count);
    }
    fs_printf(out, "ipc_log_demo: wrote %llu\n", (unsigned long long)count);
    return 0;
}
SHELL_COMMAND("ipc_log_demo", "ipc_log_demo COUNT",
              "log COUNT lines into the IPC logging context \"demo\"", cmd_ipc_log_demo);
