/*
 * error_log.c - the tracefs error_log file (error_log.h).
 *
 * Entries are kmalloc'd strings in a ring of TRACE_ERROR_LOG_MAX slots under log_lock;
 * formatting and freeing happen outside the lock.
 */
#include "trace/core/error_log.h"

#include "kernel/fs/fs_layout.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/heap.h"
#include "kernel/spinlock.h"
#include "kernel/lib/string.h"
#include "kernel/time.h"

struct log_entry {
    uint64_t ns;   /* when it was added, since boot */
    size_t len;
    char text[];   /* what follows the timestamp, not NUL-terminated */
};

static struct spinlock log_lock = SPINLOCK_INIT("error_log");
static struct log_entry *entries[TRACE_ERROR_LOG_MAX]; /* oldest at head, under log_lock */
static unsigned head, count;

/* An fs_writer into a fixed buffer that keeps what fits. */
struct buffer_writer {
    struct fs_writer w;
    char *buf;
    size_t len, cap;
};

static void buffer_emit(struct fs_writer *w, const char *text, size_t len)
{
    struct buffer_writer *b = (struct buffer_writer *)w;
    size_t room = b->cap - b->len;
    if (len > room)
        len = room;
    memcpy(b->buf + b->len, text, len);
    b->len += len;
}

void trace_error_log_add(void (*print)(struct fs_writer *out, const void *arg), const void *arg)
{
    char *scratch = kmalloc(TRACE_ERROR_LOG_ENTRY_MAX);
    if (!scratch)
        return;
    struct buffer_writer b = { .w = { .emit = buffer_emit }, .buf = scratch,
                               .cap = TRACE_ERROR_LOG_ENTRY_MAX };
    print(&b.w, arg);
    struct log_entry *e = kmalloc(sizeof *e + b.len);
    if (e) {
        memcpy(e->text, scratch, b.len);
        e->len = b.len;
    }
    kfree(scratch);
    if (!e)
        return;
    e->ns = time_ns();
    unsigned long flags = spin_lock_irqsave(&log_lock);
    struct log_entry *old = 0;
    if (count == TRACE_ERROR_LOG_MAX) {
        old = entries[head];
        head = (head + 1) % TRACE_ERROR_LOG_MAX;
        count--;
    }
    entries[(head + count++) % TRACE_ERROR_LOG_MAX] = e;
    spin_unlock_irqrestore(&log_lock, flags);
    kfree(old);
}

/* Prints every entry, oldest first, as "[%5lu.%06u] " and its text. A writer may sleep or
 * fault (a program's buffer), so each entry is copied out under the lock first. */
static int read_error_log(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    char *copy = kmalloc(TRACE_ERROR_LOG_ENTRY_MAX);
    if (!copy)
        return -ENOMEM;
    for (unsigned i = 0;; i++) {
        unsigned long flags = spin_lock_irqsave(&log_lock);
        if (i >= count) {
            spin_unlock_irqrestore(&log_lock, flags);
            break;
        }
        const struct log_entry *e = entries[(head + i) % TRACE_ERROR_LOG_MAX];
        uint64_t ns = e->ns;
        size_t len = e->len;
        memcpy(copy, e->text, len);
        spin_unlock_irqrestore(&log_lock, flags);
        fs_printf(out, "[%5llu.%06u] ", (unsigned long long)(ns / 1000000000u),
                  (unsigned)(ns % 1000000000u / 1000u));
        out->emit(out, copy, len);
    }
    kfree(copy);
    return 0;
}

/* A truncating write of nothing (`echo > error_log` opens with O_TRUNC) or of blanks
 * empties the log; anything else is EINVAL. */
static int write_error_log(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)f;
    (void)append;
    for (size_t i = 0; i < len; i++)
        if (data[i] != '\n' && data[i] != ' ' && data[i] != '\t')
            return -EINVAL;
    struct log_entry *gone[TRACE_ERROR_LOG_MAX];
    unsigned n;
    unsigned long flags = spin_lock_irqsave(&log_lock);
    n = count;
    for (unsigned i = 0; i < n; i++)
        gone[i] = entries[(head + i) % TRACE_ERROR_LOG_MAX];
    head = count = 0;
    spin_unlock_irqrestore(&log_lock, flags);
    for (unsigned i = 0; i < n; i++)
        kfree(gone[i]);
    return 0;
}

static const struct fs_file_ops error_log_ops = { .read = read_error_log,
                                                  .write = write_error_log,
                                                  .truncates = true };

void trace_error_log_init(void)
{
    fs_create(tracefs_root(), "error_log", &error_log_ops, 0);
}
