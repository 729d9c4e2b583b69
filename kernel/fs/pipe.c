/*
 * pipe.c - pipes: a ring buffer between two struct files (pipe.h).
 *
 * The buffer's pages come from page_alloc_user at the first write, so that pipes a program
 * makes take only the memory programs may have, and an unused pipe costs none. Every field
 * is changed with interrupts off, which on one CPU is the whole locking, and is also what
 * sleep_on() needs to test a condition and sleep without missing a wake-up (sched.h).
 */
#include "kernel/fs/pipe.h"

#include "kernel/arch.h"
#include "kernel/fs/file.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/sched.h"
#include "kernel/proc/signal.h"
#include "kernel/proc/task_internal.h"
#include "uapi/fs.h"
#include "uapi/syscall.h"

struct pipe {
    struct fs_node node;   /* what both ends' files point to (never in the tree) */
    char *buf;             /* PIPE_CAPACITY bytes, allocated at the first write */
    uint32_t head, tail;   /* free-running: tail - head bytes are queued at buf[head % cap] */
    uint32_t readers, writers; /* open files of each end */
};

static struct pipe *pipe_of(struct file *f) { return f->node->data; }

/* Wakes whoever waits on the pipe: readers, writers, and poll(). */
static void pipe_wake(struct pipe *p)
{
    wake_up(p);
    file_poll_wake();
}

/* read(): waits for data or for the last writer to go. */
static long pipe_read(struct file *f, void *dst, size_t len)
{
    struct pipe *p = pipe_of(f);
    unsigned long flags = arch_irq_save();
    long ret;
    for (;;) {
        uint32_t queued = p->tail - p->head;
        if (queued) {
            uint32_t n = queued < len ? queued : (uint32_t)len;
            for (uint32_t i = 0; i < n;) {
                uint32_t at = p->head % PIPE_CAPACITY;
                uint32_t run = PIPE_CAPACITY - at < n - i ? PIPE_CAPACITY - at : n - i;
                memcpy((char *)dst + i, p->buf + at, run);
                p->head += run;
                i += run;
            }
            ret = (long)n;
            break;
        }
        if (p->writers == 0) {
            ret = 0;
            break;
        }
        if (f->flags & O_NONBLOCK) {
            ret = -EAGAIN;
            break;
        }
        int err = sleep_on(p, 0);
        if (err) {
            ret = err;
            break;
        }
    }
    arch_irq_restore(flags);
    if (ret > 0)
        pipe_wake(p);
    return ret;
}

/* The writer finds no reader: SIGPIPE, and EPIPE unless some data went in already. */
static long broken_pipe(long written)
{
    /* Linux's send_sig(SIGPIPE, current, 0): from the kernel, in the writer's own name. */
    const struct sig_origin origin = { SI_USER, (uint32_t)current->pid, current->cred.uid, 0 };
    signal_send(current, SIGPIPE, &origin);
    return written ? written : -EPIPE;
}

/* write(): waits for room; up to PIPE_BUF bytes go in at once or not at all. */
static long pipe_write(struct file *f, const void *src, size_t len)
{
    struct pipe *p = pipe_of(f);
    if (!p->buf) {
        char *buf = (char *)page_alloc_user(PIPE_CAPACITY / PAGE_SIZE);
        if (!buf)
            return -ENOMEM;
        unsigned long flags = arch_irq_save();
        if (p->buf)
            page_free((uintptr_t)buf, PIPE_CAPACITY / PAGE_SIZE); /* another writer won */
        else
            p->buf = buf;
        arch_irq_restore(flags);
    }
    unsigned long flags = arch_irq_save();
    size_t written = 0;
    long ret = 0;
    while (written < len) {
        if (p->readers == 0) {
            arch_irq_restore(flags);
            return broken_pipe((long)written);
        }
        uint32_t room = PIPE_CAPACITY - (p->tail - p->head);
        size_t left = len - written;
        bool whole = len <= PIPE_BUF; /* atomic: all of it when room allows */
        if (room && (!whole || room >= left)) {
            uint32_t n = left < room ? (uint32_t)left : room;
            for (uint32_t i = 0; i < n;) {
                uint32_t at = p->tail % PIPE_CAPACITY;
                uint32_t run = PIPE_CAPACITY - at < n - i ? PIPE_CAPACITY - at : n - i;
                memcpy(p->buf + at, (const char *)src + written + i, run);
                p->tail += run;
                i += run;
            }
            written += n;
            pipe_wake(p);
            continue;
        }
        if (f->flags & O_NONBLOCK) {
            ret = -EAGAIN;
            break;
        }
        int err = sleep_on(p, 0);
        if (err) {
            ret = err;
            break;
        }
    }
    arch_irq_restore(flags);
    return written ? (long)written : ret;
}

static unsigned pipe_poll(struct file *f)
{
    struct pipe *p = pipe_of(f);
    unsigned long flags = arch_irq_save();
    uint32_t queued = p->tail - p->head;
    unsigned mask = 0;
    if (file_readable(f)) {
        if (queued)
            mask |= POLLIN | POLLRDNORM;
        if (!p->writers)
            mask |= POLLHUP;
    }
    if (file_writable(f)) {
        if (PIPE_CAPACITY - queued >= PIPE_BUF)
            mask |= POLLOUT | POLLWRNORM;
        if (!p->readers)
            mask |= POLLERR;
    }
    arch_irq_restore(flags);
    return mask;
}

static long pipe_ioctl(struct file *f, uint32_t cmd, uint32_t arg)
{
    if (cmd != FIONREAD)
        return -ENOTTY;
    struct pipe *p = pipe_of(f);
    int32_t queued = (int32_t)(p->tail - p->head);
    return copy_to_user(arg, &queued, sizeof queued);
}

/* One end's last file closed: the other end's waiters learn it (EOF, EPIPE); the pipe
 * goes once both ends are closed. */
static void pipe_release(struct file *f)
{
    struct pipe *p = pipe_of(f);
    unsigned long flags = arch_irq_save();
    if (file_readable(f))
        p->readers--;
    else
        p->writers--;
    bool gone = p->readers == 0 && p->writers == 0;
    arch_irq_restore(flags);
    if (gone) {
        if (p->buf)
            page_free((uintptr_t)p->buf, PIPE_CAPACITY / PAGE_SIZE);
        kfree(p);
    } else {
        pipe_wake(p);
    }
}

static const struct fs_file_ops pipe_ops = {
    .read_data = pipe_read,
    .write_data = pipe_write,
    .poll = pipe_poll,
    .ioctl = pipe_ioctl,
    .release = pipe_release,
};

int pipe_create(uint32_t flags, struct file **read_end, struct file **write_end)
{
    struct pipe *p = kzalloc(sizeof *p);
    struct file *r = p ? file_alloc(&p->node, O_RDONLY | (flags & O_NONBLOCK)) : 0;
    struct file *w = r ? file_alloc(&p->node, O_WRONLY | (flags & O_NONBLOCK)) : 0;
    if (!w) {
        kfree(r);
        kfree(p);
        return -ENOMEM;
    }
    strlcpy(p->node.name, "pipe", sizeof p->node.name);
    p->node.ops = &pipe_ops;
    p->node.data = p;
    p->node.fifo = true;
    p->node.mode = 0600;
    p->node.uid = current->cred.euid;
    p->node.gid = current->cred.egid;
    p->node.ino = fs_next_ino();
    p->node.created_ns = fs_now_ns();
    p->node.open_files = 2;
    p->readers = p->writers = 1;
    *read_end = r;
    *write_end = w;
    return 0;
}
