/*
 * sys_file.c - system calls on files: open, openat, close, read, write, writev, ioctl.
 *
 * A file descriptor indexes the process's table of open files (kernel/fs/file.h); at most
 * TASK_FILES_MAX per process (then EMFILE, as RLIMIT_NOFILE). open() checks the file's
 * owner and mode against the process's credentials, and each directory on the way (as
 * Linux's path walk and may_open; EACCES). Data going
 * to a file is gathered from user memory into the kernel first, so the file's write sees
 * one checked buffer whatever the program passed (a buffer, or an iovec array).
 */
#include "kernel/lib/errno.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs_task.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/proc/task_internal.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall_handlers.h"
#include "kernel/mm/uaccess.h"
#include "uapi/fs.h"
#include "uapi/syscall.h"

#define WRITE_MAX (64u << 10)    /* the most one write()/writev() takes */
#define WRITE_ON_STACK 256       /* smaller writes need no allocation (user_events) */

/* Linux's may_open: the access mode's bits (ACC_MODE: mode 3 asks for read and write),
 * and write for O_TRUNC. */
static int may_open(struct fs_node *node, uint32_t flags)
{
    static const int want_of_mode[4] = { MAY_READ, MAY_WRITE, MAY_READ | MAY_WRITE,
                                         MAY_READ | MAY_WRITE };
    int want = want_of_mode[flags & O_ACCMODE] | (flags & O_TRUNC ? MAY_WRITE : 0);
    return fs_may_open(node, &current->cred, want);
}

/* open and openat: the lookup from dirfd (kernel/fs/fs_task.h), the permission check,
 * the open, and the lowest free descriptor (close-on-exec with O_CLOEXEC). */
static int32_t do_openat(int32_t dirfd, uint32_t upath, uint32_t flags)
{
    struct fs_node *node;
    int err = -EMFILE; /* as Linux: a free descriptor first, then the path */
    for (uint32_t fd = 0; fd < TASK_FILES_MAX && err; fd++)
        if (!current->files[fd])
            err = 0;
    if (err)
        return err;
    err = user_path_at(dirfd, upath, 0, flags & O_NOFOLLOW ? FS_NOFOLLOW : 0, &node);
    if (err)
        return err;
    if ((flags & O_CREAT) && (flags & O_EXCL))
        return -EEXIST; /* nothing can be created here: it exists, or ENOENT came above */
    err = may_open(node, flags);
    if (err)
        return err;
    struct file *f;
    err = file_open(node, flags & ~(uint32_t)O_CLOEXEC, &f);
    if (err)
        return err;
    int fd = fd_install(f, 0, flags & O_CLOEXEC);
    if (fd < 0)
        file_put(f);
    return fd;
}

SYSCALL_HANDLER(open) { return do_openat(AT_FDCWD, a[0], a[1]); }

SYSCALL_HANDLER(openat) { return do_openat((int32_t)a[0], a[1], a[2]); }

SYSCALL_HANDLER(close) { return fd_close(a[0]); }

/* A writer that appends a read's text to the file's buffer, growing it as needed. The
 * buffer is whole pages from page_alloc_user: a program's reads can take neither the
 * kernel's reserve nor heap that would stay grown after the file is closed. */
struct text_buffer {
    char *data;
    uint32_t len, pages;
    uint32_t enough; /* a consuming file stops once this much has come (0: no limit) */
    bool failed;     /* out of memory: the rest of the text was not kept */
};

static void text_emit(struct fs_writer *w, const char *text, size_t len)
{
    struct text_buffer *b = w->ctx;
    if (b->failed)
        return;
    if (len > b->pages * PAGE_SIZE - b->len) {
        uint64_t pages = b->pages ? b->pages : 1;
        while (pages * PAGE_SIZE < (uint64_t)b->len + len)
            pages *= 2;
        char *grown = pages <= UINT32_MAX / PAGE_SIZE
                          ? (char *)page_alloc_user((uint32_t)pages)
                          : 0;
        if (!grown) {
            b->failed = true;
            return;
        }
        memcpy(grown, b->data, b->len);
        file_text_free(b->data, b->pages);
        b->data = grown;
        b->pages = (uint32_t)pages;
    }
    memcpy(b->data + b->len, text, len);
    b->len += len;
}

/* Polled by long reads: a consuming file stops taking data once the program's read has
 * what it asked for, and any file stops once memory ran out. */
static bool text_has_enough(struct fs_writer *w)
{
    struct text_buffer *b = w->ctx;
    return b->failed || (b->enough && b->len >= b->enough);
}

/*
 * Renders the file's text into f->text. An ordinary file renders its whole text once, at
 * the first read, and is served by offset: a program reading in small pieces sees one
 * snapshot (as seq_file gives on Linux). A consuming file (trace_pipe, an IPC log) is
 * rendered again each time what it gave is used up, and only about count bytes at a time:
 * it is asked after every event whether the read has enough, so it takes at most one event
 * more than the program asked for, and that one waits in f->text for the next read.
 * Returns 0 or -errno (-ENOMEM: the text does not fit beside the kernel's reserve; a
 * consuming file keeps whatever it took before that).
 */
static int render_text(struct file *f, uint32_t count)
{
    bool consumes = f->node->ops->consumes;
    struct text_buffer b = { .enough = consumes ? count : 0 };
    struct fs_writer w = { .emit = text_emit, .interrupted = text_has_enough, .ctx = &b,
                           .continued = f->rendered };
    int err = f->node->ops->read(f->node, &w);
    if (b.failed && !(consumes && b.len))
        err = -ENOMEM;
    if (err) {
        file_text_free(b.data, b.pages);
        return err;
    }
    file_text_free(f->text, f->text_pages);
    f->text = b.data;
    f->text_pages = b.pages;
    f->text_len = b.len;
    if (consumes)
        f->pos = 0; /* an ordinary file keeps the offset lseek gave before its first read */
    f->rendered = true;
    return 0;
}

/* read() of a stream (a pipe, the terminal, /dev/zero): into a kernel buffer, then to the
 * program. The buffer is checked first, so no byte is taken from the stream for a read
 * that cannot receive it. */
static int32_t read_stream(struct file *f, uint32_t ubuf, uint32_t count)
{
    if (count == 0)
        return 0;
    if (count > WRITE_MAX)
        count = WRITE_MAX; /* a short read, as Linux's MAX_RW_COUNT makes */
    if (!user_range_ok(ubuf, count, true))
        return -EFAULT;
    char small[WRITE_ON_STACK];
    char *buf = count <= sizeof small ? small : kmalloc(count);
    if (!buf)
        return -ENOMEM;
    long n = f->node->ops->read_data(f, buf, count);
    if (n > 0 && copy_to_user(ubuf, buf, (uint32_t)n) != 0)
        n = -EFAULT; /* the memory went away while the read slept */
    if (buf != small)
        kfree(buf);
    return (int32_t)n;
}

/* Copies up to count bytes of an ordinary file's text, from *pos on, to the program,
 * rendering the text at the first read (or again once a consuming file's is used up);
 * *pos moves past what was copied. The byte count, 0 at the end, or -errno. */
static int32_t read_text(struct file *f, uint32_t ubuf, uint32_t count, uint32_t *pos)
{
    if (count == 0)
        return 0;
    if (!f->rendered || (*pos == f->text_len && f->node->ops->consumes)) {
        int err = render_text(f, count);
        if (err)
            return err; /* (a consuming file's f->pos is now 0: render_text) */
    }
    if (*pos >= f->text_len)
        return 0; /* the end of the text (lseek may have gone past it) */
    uint32_t n = f->text_len - *pos < count ? f->text_len - *pos : count;
    if (copy_to_user(ubuf, f->text + *pos, n) != 0)
        return -EFAULT; /* nothing lost: the text stays for a read with a good buffer */
    *pos += n;
    return (int32_t)n;
}

/* Copies up to count of a fixed-bytes file's bytes (a program's image: fs_tree.h bytes),
 * from pos on, straight from where they lie to the program, as a read of a file on disk:
 * 0 at or past the end, else how many were copied. A buffer that is not mapped where the
 * bytes go is EFAULT, and nothing moves then. */
static int32_t read_bytes(struct file *f, uint32_t ubuf, uint32_t count, uint64_t pos)
{
    uint32_t size;
    const char *bytes = f->node->ops->bytes(f->node, &size);
    if (count == 0 || pos >= size)
        return 0;
    uint32_t n = size - (uint32_t)pos < count ? size - (uint32_t)pos : count;
    if (copy_to_user(ubuf, bytes + pos, n) != 0)
        return -EFAULT;
    return (int32_t)n;
}

/* Linux's access_ok at the top of vfs_read: a buffer reaching past user space is EFAULT
 * whatever the file holds, before any file decides how much it gives. */
static bool read_buffer_fits(uint32_t ubuf, uint32_t count)
{
    return (uint64_t)ubuf + count <= USER_TOP;
}

SYSCALL_HANDLER(read)
{
    struct file *f = fd_file(a[0]);
    if (!f || !file_readable(f))
        return -EBADF;
    if (!read_buffer_fits(a[1], a[2]))
        return -EFAULT;
    if (fs_is_dir(f->node))
        return -EISDIR;
    if (f->node->ops->read_at) {
        int32_t n = f->node->ops->read_at(f, a[1], a[2], f->pos);
        if (n > 0)
            f->pos += (uint32_t)n;
        return n;
    }
    if (f->node->ops->read_data)
        return read_stream(f, a[1], a[2]);
    if (f->node->ops->bytes) {
        int32_t n = read_bytes(f, a[1], a[2], f->pos);
        if (n > 0)
            f->pos += (uint32_t)n;
        return n;
    }
    if (!f->node->ops->read)
        return -EINVAL;
    return read_text(f, a[1], a[2], &f->pos);
}

/* pread64 (Linux i386's sys_ia32_pread64: the 64-bit offset in two registers): a read at
 * a given offset that leaves the file's own offset where it was, as glibc's pread and
 * every reader of ELF or database files use it. ESPIPE where lseek gives it (pipes, the
 * terminal, files whose reading consumes); EINVAL for a negative offset. */
SYSCALL_HANDLER(ia32_pread64)
{
    struct file *f = fd_file(a[0]);
    if (!f || !file_readable(f))
        return -EBADF;
    if (!read_buffer_fits(a[1], a[2]))
        return -EFAULT; /* access_ok comes before the offset's checks, as on Linux */
    if (fs_is_dir(f->node))
        return -EISDIR;
    const struct fs_file_ops *ops = f->node->ops;
    if (f->node->fifo || ops->seekless || ops->consumes)
        return -ESPIPE;
    int64_t pos = (int64_t)(((uint64_t)a[4] << 32) | a[3]);
    if (pos < 0)
        return -EINVAL;
    if (ops->read_at) {
        if (pos > INT64_MAX - a[2])
            return -EINVAL; /* pos + count wraps past the largest offset: rw_verify_area */
        return ops->read_at(f, a[1], a[2], (uint64_t)pos);
    }
    if (ops->read_data)
        return read_stream(f, a[1], a[2]); /* /dev/zero: the same at every offset */
    if (ops->bytes) {
        if (pos > INT64_MAX - a[2])
            return -EINVAL; /* pos + count wraps past the largest offset: rw_verify_area */
        return read_bytes(f, a[1], a[2], (uint64_t)pos);
    }
    if (!ops->read)
        return -EINVAL;
    if (pos > UINT32_MAX)
        return 0; /* past the end of any text the kernel keeps */
    uint32_t at = (uint32_t)pos;
    return read_text(f, a[1], a[2], &at);
}

/* Hands len gathered bytes to the file: its write_data, or its echo-style write. */
static int32_t write_gathered(struct file *f, const char *data, uint32_t len)
{
    const struct fs_file_ops *ops = f->node->ops;
    if (ops->write_at) {
        long n = ops->write_at(f, data, len, f->pos);
        if (n > 0)
            f->pos += (uint32_t)n;
        return (int32_t)n;
    }
    if (ops->write_data)
        return (int32_t)ops->write_data(f, data, len);
    if (!ops->write)
        return -EINVAL;
    /* Writes add; only open() with O_TRUNC empties the file (kernel/fs/file.c). */
    int err = ops->write(f->node, data, len, true);
    return err ? err : (int32_t)len;
}

/* The file behind fd if it is open for writing. */
static struct file *writable_file(uint32_t fd)
{
    struct file *f = fd_file(fd);
    return f && file_writable(f) && !fs_is_dir(f->node) ? f : 0;
}

SYSCALL_HANDLER(write)
{
    struct file *f = writable_file(a[0]);
    if (!f)
        return -EBADF;
    /* Linux takes at most MAX_RW_COUNT at once and says how much; so do we, at a smaller
     * bound (a short write, never an error). */
    uint32_t len = a[2] < WRITE_MAX ? a[2] : WRITE_MAX;
    if (!user_range_ok(a[1], len, false))
        return -EFAULT;
    char small[WRITE_ON_STACK];
    char *buf = len <= sizeof small ? small : kmalloc(len);
    if (!buf)
        return -ENOMEM;
    copy_from_user(buf, a[1], len);
    int32_t ret = write_gathered(f, buf, len);
    if (buf != small)
        kfree(buf);
    return ret;
}

/* pwrite64 (Linux i386's sys_ia32_pwrite64: the 64-bit offset in two registers): a write
 * at a given offset that leaves the file's own offset where it was, in Linux's order of
 * checks: a negative offset is EINVAL before the descriptor is looked at, ESPIPE where
 * lseek gives it, then write()'s own checks. A binary file (resourceN) gets the offset;
 * a file that writes at its position (config) writes there, its position put back
 * after. */
SYSCALL_HANDLER(ia32_pwrite64)
{
    int64_t pos = (int64_t)(((uint64_t)a[4] << 32) | a[3]);
    if (pos < 0)
        return -EINVAL;
    struct file *f = fd_file(a[0]);
    if (!f)
        return -EBADF;
    const struct fs_file_ops *ops = f->node->ops;
    if (!ops || f->node->fifo || ops->seekless || ops->consumes)
        return -ESPIPE;
    if (!file_writable(f) || fs_is_dir(f->node))
        return -EBADF;
    uint32_t len = a[2] < WRITE_MAX ? a[2] : WRITE_MAX;
    if (!user_range_ok(a[1], len, false))
        return -EFAULT;
    if (pos > UINT32_MAX)
        return ops->write_at ? -EFBIG : -EINVAL; /* past every file's end here */
    char small[WRITE_ON_STACK];
    char *buf = len <= sizeof small ? small : kmalloc(len);
    if (!buf)
        return -ENOMEM;
    copy_from_user(buf, a[1], len);
    int32_t ret;
    if (ops->write_at) {
        ret = (int32_t)ops->write_at(f, buf, len, (uint64_t)pos);
    } else {
        uint32_t saved = f->pos;
        f->pos = (uint32_t)pos;
        ret = write_gathered(f, buf, len);
        f->pos = saved;
    }
    if (buf != small)
        kfree(buf);
    return ret;
}

SYSCALL_HANDLER(writev)
{
    struct file *f = writable_file(a[0]);
    if (!f)
        return -EBADF;
    uint32_t n = a[2];
    if (n > IOV_MAX)
        return -EINVAL;
    struct iovec small_iov[8];
    struct iovec *iov = n <= 8 ? small_iov : kmalloc(n * sizeof *iov);
    char small[WRITE_ON_STACK];
    char *buf = small;
    int32_t ret = iov ? copy_from_user(iov, a[1], n * sizeof *iov) : -ENOMEM;
    uint32_t total = 0;
    for (uint32_t i = 0; i < n && ret == 0; i++) {
        if (iov[i].iov_len > INT32_MAX)
            ret = -EINVAL; /* a negative ssize_t, as Linux sees it */
        else if (!user_range_ok((uint32_t)(uintptr_t)iov[i].iov_base, iov[i].iov_len, false))
            ret = -EFAULT;
        else {
            if (iov[i].iov_len > WRITE_MAX - total)
                iov[i].iov_len = WRITE_MAX - total; /* a short write, as write() makes */
            total += iov[i].iov_len;
        }
    }
    if (ret == 0 && total > sizeof small && !(buf = kmalloc(total)))
        ret = -ENOMEM;
    /* Linux's writev of no bytes at all returns 0 without reaching the file. */
    if (ret == 0 && total > 0) {
        uint32_t at = 0;
        for (uint32_t i = 0; i < n; i++) {
            memcpy(buf + at, iov[i].iov_base, iov[i].iov_len);
            at += iov[i].iov_len;
        }
        ret = write_gathered(f, buf, total);
    }
    if (buf != small)
        kfree(buf);
    if (iov != small_iov)
        kfree(iov);
    return ret;
}

SYSCALL_HANDLER(ioctl)
{
    struct file *f = fd_file(a[0]);
    if (!f)
        return -EBADF;
    if (!f->node->ops || !f->node->ops->ioctl)
        return -ENOTTY;
    return (int32_t)f->node->ops->ioctl(f, a[1], a[2]);
}
