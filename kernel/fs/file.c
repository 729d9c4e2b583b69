/*
 * file.c - open files of user processes, over the nodes of the file tree.
 */
#include "kernel/fs/file.h"

#include "kernel/lib/errno.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/lib/string.h"
#include "kernel/proc/sched.h"
#include "uapi/fs.h"
#include "uapi/syscall.h"

/* What poll() and select() sleep on: any file's readiness changed (file_poll_wake). */
static const char poll_channel;

const void *file_poll_channel(void) { return &poll_channel; }

void file_poll_wake(void) { wake_up(&poll_channel); }

unsigned file_poll(struct file *f)
{
    if (f->node->ops && f->node->ops->poll)
        return f->node->ops->poll(f);
    return POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM;
}

struct file *file_alloc(struct fs_node *node, uint32_t flags)
{
    struct file *f = kzalloc(sizeof *f);
    if (f) {
        f->node = node;
        f->flags = flags;
        f->refs = 1;
    }
    return f;
}

/* Opens a directory: for reading only (getdents, fchdir, the *at calls), as Linux. */
static int open_dir(struct fs_node *node, uint32_t flags, struct file **out)
{
    if ((flags & O_ACCMODE) != O_RDONLY || (flags & (O_TRUNC | O_CREAT)))
        return -EISDIR;
    struct file *f = file_alloc(node, flags);
    if (!f)
        return -ENOMEM;
    node->open_files++;
    *out = f;
    return 0;
}

int file_open(struct fs_node *node, uint32_t flags, struct file **out)
{
    if (fs_is_symlink(node))
        return -ELOOP; /* O_NOFOLLOW met a link (without it, the walk followed it) */
    if (fs_is_dir(node))
        return open_dir(node, flags, out);
    if (flags & O_DIRECTORY)
        return -ENOTDIR;
    uint32_t mode = flags & O_ACCMODE;
    /* O_RDWR needs only one of the two, as Linux's samples open user_events_data (which
     * cannot be read) and user_events_status (which cannot be written) O_RDWR; the missing
     * half fails at read() or write() with EINVAL, as on Linux. Access mode 3 is Linux's
     * "ioctl only": the opener needed read and write permission (sys_file.c), and the file
     * can be neither read nor written (EBADF), only given ioctls; it opens as O_RDWR does. */
    bool readable = node->ops->read || node->ops->read_data || node->ops->mmap ||
                    node->ops->bytes || node->ops->read_at;
    bool writable = node->ops->write || node->ops->write_data || node->ops->write_at;
    if ((mode == O_RDONLY && !readable) || (mode == O_WRONLY && !writable) ||
        (!readable && !writable))
        return -EACCES;
    struct file *f = file_alloc(node, flags);
    if (!f)
        return -ENOMEM;
    int err = node->ops->open ? node->ops->open(node, f) : 0;
    /* Last, once nothing else can fail: an open that fails leaves the file as it was. */
    if (!err && (flags & O_TRUNC) && mode != O_RDONLY && node->ops->truncates) {
        err = node->ops->write(node, "", 0, false);
        if (err && node->ops->release)
            node->ops->release(f);
    }
    if (err) {
        kfree(f);
        return err;
    }
    node->open_files++;
    *out = f;
    return 0;
}

struct file *file_get(struct file *f)
{
    f->refs++;
    return f;
}

void file_put(struct file *f)
{
    if (--f->refs > 0)
        return;
    /* The node stops counting f first, so that a release which finds its node unused may
     * remove it (an event's files: trace/events/trace_events.c); f->node is not touched after. */
    struct fs_node *node = f->node;
    node->open_files--;
    /* A node detached from the tree while open (fs_detach) lives until its last close;
     * nothing can find it, so nothing else can free it meanwhile. */
    bool free_node = node->detached && node->open_files == 0;
    if (node->ops && node->ops->release)
        node->ops->release(f);
    file_text_free(f->text, f->text_pages);
    kfree(f);
    if (free_node) {
        memset(node, 0x6b, sizeof *node); /* poisoned, as fs_remove leaves a removed node */
        kfree(node);
    }
}

void file_text_free(char *text, uint32_t pages)
{
    if (pages)
        page_free((uintptr_t)text, pages);
}

int file_open_console(struct file *files[3])
{
    int err;
    struct fs_node *node = fs_lookup("/dev/console", &err);
    struct file *f;
    if (!node || (err = file_open(node, O_RDWR, &f)) != 0)
        return err;
    files[0] = f;
    files[1] = file_get(f);
    files[2] = file_get(f);
    return 0;
}
