/*
 * trace_pid_filter.c - the pid filter files and their fork and exit following
 * (trace_pid_filter.h).
 */
#include "trace/core/trace_pid_filter.h"

#include "kernel/fs/fs_tree.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"
#include "kernel/proc/task.h"

static struct trace_pid_filter *filters; /* every created filter, for the task hooks */

/* Recomputes active from the lists; the lock is held. */
static void update_active(struct trace_pid_filter *f)
{
    f->active = f->pids.count != 0 || f->no_pids.count != 0;
}

/* The list a file shows: its node's data is the filter, and the file's name says which. */
static struct trace_pid_list *file_list(struct fs_node *node, struct trace_pid_filter **f)
{
    *f = node->data;
    return strstr(node->name, "notrace") ? &(*f)->no_pids : &(*f)->pids;
}

static int read_pids(struct fs_node *node, struct fs_writer *out)
{
    struct trace_pid_filter *f;
    const struct trace_pid_list *l = file_list(node, &f);
    for (int32_t p = trace_pid_list_next(l, 0); p >= 0; p = trace_pid_list_next(l, p + 1)) {
        fs_printf(out, "%d\n", (int)p);
        if (out->interrupted(out))
            return -EINTR;
    }
    return 0;
}

/* Parses the pids written into a list of their own, then, under the lock, either adds them
 * to the live list ('>>') or makes them the live list ('>'): the write is all or nothing,
 * as Linux's trace_pid_write, and a fork or free that changes the live list while the text
 * is parsed is kept, never undone (nothing of the live list is copied out and back). */
static int write_pids(struct fs_node *node, const char *data, size_t len, bool append)
{
    struct trace_pid_filter *f;
    struct trace_pid_list *live = file_list(node, &f);
    struct trace_pid_list *written = kmalloc(sizeof *written);
    if (!written)
        return -ENOMEM;
    trace_pid_list_clear(written);
    int err = trace_pid_list_parse(written, data, len);
    if (!err) {
        unsigned long flags = spin_lock_irqsave(&f->lock);
        uint32_t count = 0;
        for (unsigned i = 0; i < TRACE_PID_WORDS; i++) {
            live->bits[i] = written->bits[i] | (append ? live->bits[i] : 0);
            count += (uint32_t)__builtin_popcount(live->bits[i]);
        }
        live->count = count;
        update_active(f);
        spin_unlock_irqrestore(&f->lock, flags);
    }
    kfree(written);
    return err;
}

static const struct fs_file_ops pid_file_ops = {
    .read = read_pids, .write = write_pids, .truncates = true
};

/* A fork: the child joins each list its parent (the running task) is in, for every filter
 * that follows forks. Runs before the child can run; never fails. */
static int follow_fork(struct task *child)
{
    int32_t parent = current_pid, pid = task_pid(child);
    for (struct trace_pid_filter *f = filters; f; f = f->next) {
        if (!f->follow_fork)
            continue;
        unsigned long flags = spin_lock_irqsave(&f->lock);
        if (trace_pid_list_has(&f->pids, parent))
            trace_pid_list_set(&f->pids, pid, true);
        if (trace_pid_list_has(&f->no_pids, parent))
            trace_pid_list_set(&f->no_pids, pid, true);
        update_active(f);
        spin_unlock_irqrestore(&f->lock, flags);
    }
    return 0;
}

/* A task is freed (Linux's sched_process_free): it leaves the lists of every filter that
 * follows forks, so that its pid, used again, is not traced by inheritance. */
static void follow_free(struct task *t)
{
    int32_t pid = task_pid(t);
    for (struct trace_pid_filter *f = filters; f; f = f->next) {
        if (!f->follow_fork)
            continue;
        unsigned long flags = spin_lock_irqsave(&f->lock);
        trace_pid_list_set(&f->pids, pid, false);
        trace_pid_list_set(&f->no_pids, pid, false);
        update_active(f);
        spin_unlock_irqrestore(&f->lock, flags);
    }
}

static struct task_create_hook fork_hook = { follow_fork, follow_free, 0 };

void trace_pid_filter_create(struct trace_pid_filter *f, struct fs_node *dir,
                             const char *pid_file, const char *notrace_file)
{
    if (!filters)
        task_on_create(&fork_hook);
    f->lock = (struct spinlock)SPINLOCK_INIT("trace_pid_filter");
    f->next = filters;
    filters = f;
    fs_create(dir, pid_file, &pid_file_ops, f);
    fs_create(dir, notrace_file, &pid_file_ops, f);
}
