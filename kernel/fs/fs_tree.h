/*
 * fs_tree.h - the file tree the console shell shows, and that tracers put their files in.
 *
 * Its root is `/`, laid out as Linux's (kernel/fs/fs_layout.h): tracefs at
 * /sys/kernel/tracing, debugfs at /sys/kernel/debug, /proc, /dev, /bin. Paths are found by
 * walking from the root or from a given directory (a task's current directory: the console
 * shell starts in /sys/kernel/tracing, so `cat trace` works as Linux's docs type it).
 * A file is a pair of functions: read produces its whole text through a writer,
 * write receives what `echo ... > file` sends; a file with fixed bytes (a program in /bin)
 * hands them out instead (bytes).
 *
 * Every node has an owner, a group and a mode, as Linux's files have; all are root's.
 * A node's mode is its own when set with fs_set_mode(), else its directory's default:
 * a directory gets its parent's mode, a file its parent's mode without the x bits and with
 * only the r bits (it can be read) and w bits (it can be written) its operations allow.
 * The root is 0755; the tracing directory is tracefs's 0750, so tracing files come out as
 * Linux's TRACE_MODE_WRITE (0640), TRACE_MODE_READ (0440), or 0200 for a file that is only
 * written (free_buffer; trace_marker sets Linux's 0220); debugfs is 0700; /proc and /dev
 * set their own. Only
 * programs are checked (fs_lookup_as, fs_may_open): the console shell is root.
 * Portable: tests/unit/test_fs_tree.c; the directory index: tests/fuzz/fuzz_fs_dir_index.c.
 */
#ifndef KERNEL_FS_FS_TREE_H
#define KERNEL_FS_FS_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/lib/name_hash.h"

#define FS_NAME_MAX 64
#define FS_PATH_MAX 256

struct file;

/* Where a read sends its text (the console, a buffer in a test, a user program later). */
struct fs_writer {
    void (*emit)(struct fs_writer *w, const char *text, size_t len);
    /* Long reads poll this: true when the reader wants to stop (^C). */
    bool (*interrupted)(struct fs_writer *w);
    void *ctx;
    /* Streaming reads (trace_pipe) wait for more data when true (an interactive `cat`), and
     * return once drained when false (a boot script, a redirection). */
    bool follow;
    /* A program's second or later read() of one open consuming file: its header (if it
     * has one) was already given. */
    bool continued;
    /* The open file a shell line redirected the output to (NULL: none); `run` gives it to
     * the program as its standard output. */
    struct file *file;
};

/* Formats into the writer. */
void fs_printf(struct fs_writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fs_puts(struct fs_writer *w, const char *text);

struct fs_node;

struct fs_file_ops {
    /* Writes the file's text; returns 0 or a negative errno. NULL: not readable. */
    int (*read)(struct fs_node *file, struct fs_writer *out);
    /* Receives data (echo's text with its newline); append is true for '>>'. Returns 0 or a
     * negative errno, and must leave the file unchanged when it rejects the data.
     * NULL: not writable. */
    int (*write)(struct fs_node *file, const char *data, size_t len, bool append);
    /* True for files that '>' empties before it writes (trace, set_event, dynamic_events,
     * the function filters): a program's open() with O_TRUNC empties them by a write of
     * nothing with append false, and its writes then all add, as on Linux. */
    bool truncates;
    /* True for files that take data in pieces of any size, each write adding to what came
     * before (/dev/ttyS1, /dev/null): a shell redirection streams a command's output to
     * them as it is produced, however much there is. Other files get the output in one
     * write, as `echo ... > file` gives it on Linux. */
    bool streams;
    /* True for files whose reading takes the data away (trace_pipe, an IPC log): a
     * program's read() renders only about what it asked for, polling interrupted() between
     * events, and renders again when that is used up (kernel/syscall/sys_file.c). */
    bool consumes;

    /* Optional, for files user programs use through system calls (kernel/fs/file.h). */
    /* A process opened the file: set up per-open state in f->private_data. 0 or -errno. */
    int (*open)(struct fs_node *file, struct file *f);
    /* The last descriptor of f was closed (or its process exited). The node no longer
     * counts f as open, and may be removed from here; f->node is not used afterwards. */
    void (*release)(struct file *f);
    /* write()/writev() with the data gathered into kernel memory: bytes taken or -errno.
     * When NULL, a write goes to write() above (as echo's would). */
    long (*write_data)(struct file *f, const void *data, size_t len);
    /* ioctl(); arg is the program's value, often a user address (kernel/mm/uaccess.h). */
    long (*ioctl)(struct file *f, uint32_t cmd, uint32_t arg);
    /* mmap() of the page at offset: *phys gets the physical page to map, *writable whether
     * the process may write it. 0 or -errno. */
    int (*mmap)(struct file *f, uint32_t offset, uintptr_t *phys, bool *writable);
    /* True when mmap hands out device memory (a PCI BAR, sysfs's resourceN): mapped
     * uncached, as Linux's pgprot_noncached, shared with a fork's child, never freed, and
     * announced to mmiotrace (kernel/trace_hooks.h trace_user_iomap). */
    bool mmap_device;
    /* A binary file written at a byte offset (sysfs's bin attributes, such as resourceN;
     * read_at below reads them): write() and pwrite64() hand it the gathered bytes and the
     * offset (write() then moves f->pos by the result). Bytes taken or -errno. */
    long (*write_at)(struct file *f, const void *buf, size_t len, uint64_t pos);

    /* Files and the terminal (issue 16). */
    /* read() of a stream (a pipe, the terminal) into a kernel buffer: bytes read, 0 at
     * end of file, or -errno; may sleep (-EINTR, -EAGAIN with O_NONBLOCK). When set, read()
     * goes here instead of rendering text, and lseek() is ESPIPE. */
    long (*read_data)(struct file *f, void *buf, size_t len);
    /* poll(): the POLL* bits (uapi/fs.h) f is ready for now. NULL: always readable and
     * writable, as an ordinary file. A file whose readiness changes calls
     * file_poll_wake() when it does. */
    unsigned (*poll)(struct file *f);
    /* A symbolic link: writes its target, NUL-terminated, into buf (size bytes) and
     * returns its length, or -errno. A node whose ops have readlink is a link and
     * nothing else. */
    int (*readlink)(struct fs_node *link, char *buf, size_t size);
    /* read() and pread64() of a binary file whose bytes are computed where they are asked
     * for (/proc/PID/pagemap, sysfs's resourceN; issue 23): up to count bytes at offset pos, copied to the
     * program's buffer at ubuf by the file itself; bytes copied, 0 at the end, or -errno.
     * When set, read() goes here at the file's offset and moves it by the result. */
    int32_t (*read_at)(struct file *f, uint32_t ubuf, uint32_t count, uint64_t pos);
    /* lseek() is ESPIPE: a pipe or a terminal, whose bytes have no position. */
    bool seekless;

    /* A program's /bin/NAME (issue 16). */
    /* The file's bytes, fixed for as long as the node lives (a program image in a boot
     * module): *size gets how many there are. When set, read(), pread64() and the shell's
     * cat serve these bytes by offset, straight from where they lie, as a file's on disk,
     * and a MAP_PRIVATE mmap() copies them into the process's own pages; read() above is
     * not used. */
    const void *(*bytes)(struct fs_node *file, uint32_t *size);
};

/* The children of a directory by name in a hash (lookups), and the same children in a
 * treap ordered by name (which gives a new child its place in the sorted list). Read and
 * changed under the big kernel lock, as the whole tree (kernel/kernel_lock.h): the hash
 * frees its old buckets when it grows, so nothing may read it without that lock. */
struct fs_dir_index {
    struct name_hash names;
    struct fs_node *order_root;
};

struct fs_node {
    char name[FS_NAME_MAX];
    struct fs_node *parent;
    struct fs_node *children; /* directories only, sorted by name */
    struct fs_node *next;     /* next sibling */
    /* A directory's index of its children (fs_tree.c), made with its first child, so
     * that a name is found, and a child inserted in name order, without walking the
     * siblings; prev makes unlinking O(1). Files pay only for their links into it. */
    struct fs_dir_index *index;
    struct name_hash_link name_link; /* in the parent's index: its hash */
    struct fs_node *prev;            /* previous sibling */
    struct fs_node *order_left, *order_right; /* in the parent's index: its treap */
    const struct fs_file_ops *ops; /* NULL for a directory */
    void *data;               /* the owner's */
    /* A directory whose children are still to be made (fs_mkdir_lazy): what makes them,
     * run the first time anything looks into it; NULL once run, and for every other node. */
    bool (*fill)(struct fs_node *dir);
    uint32_t open_files;      /* struct files open on it (kernel/fs/file.h); no removal till 0,
                               * unless detached (fs_detach) */
    bool detached;            /* out of the tree, kept for its open files: the last close frees it */
    uint16_t mode;            /* permission bits; 0: the directory's default (fs_mode) */
    uint32_t uid, gid;        /* owner and group (0: root) */
    /* What stat() shows (issue 16). */
    uint32_t ino;             /* unique while the node lives: 1 for the root, then rising */
    uint32_t rdev;            /* a device node's number, (major << 8) | minor; 0: none */
    uint32_t size;            /* st_size: a program image's size; 0 for generated text */
    bool fifo;                /* a pipe (kernel/fs/pipe.c): never in the tree */
    uint64_t created_ns;      /* when it was made (fs_set_clock), its three timestamps */
};

struct cred;

/* The tracing directory's mode, the default for what is created in it: tracefs's. */
#define TRACEFS_DIR_MODE 0750

/* Gives node its own mode, owner and group (NULL is ignored); returns node. */
struct fs_node *fs_set_mode(struct fs_node *node, uint16_t mode, uint32_t uid, uint32_t gid);
/* The node's permission bits: its own, or its directory's default (above). */
uint16_t fs_mode(const struct fs_node *node);
/* Whether a task with credentials c may open node with Linux's MAY_READ/MAY_WRITE bits
 * (kernel/proc/cred.h): 0 or -EACCES. */
int fs_may_open(const struct fs_node *node, const struct cred *c, int want);

/* The root directory (created on first use). */
struct fs_node *fs_root(void);

/* Creates a directory or file in parent. Names may not contain '/' or be "." or "..";
 * returns NULL (and does nothing) on a bad name, a duplicate, or no memory. */
struct fs_node *fs_mkdir(struct fs_node *parent, const char *name);
struct fs_node *fs_create(struct fs_node *parent, const char *name,
                          const struct fs_file_ops *ops, void *data);

/*
 * Creates a directory in parent whose children fill(dir) makes the first time anything
 * looks into it: a lookup of a name in it, a listing (fs_children), a new child, a stat.
 * Linux's eventfs does the same for events/: thousands of event directories and files
 * that few readers ever open cost nothing until one does. dir->data is data, for fill.
 * fill runs once, with the hook already cleared (so it may look into dir itself); it
 * makes only the children still missing and returns false when memory ran out, and then
 * runs again at the next look. Returns NULL as fs_mkdir.
 */
struct fs_node *fs_mkdir_lazy(struct fs_node *parent, const char *name,
                              bool (*fill)(struct fs_node *dir), void *data);

/* Whether dir is lazy and not filled yet: an owner adding a child to a directory whose
 * fill will make that child anyway leaves it to the fill. */
static inline bool fs_fill_pending(const struct fs_node *dir) { return dir->fill != NULL; }

/* The first of dir's children (each next one is ->next, in name order), dir filled first
 * if it is lazy: every walk of a directory someone else made starts here (an owner that
 * empties its own directory walks ->children: what was never made needs no removing). */
struct fs_node *fs_children(struct fs_node *dir);

/* Creates every missing directory of a path like "proc/bus/pci" below the root (or, with
 * fs_mkdir_at, below dir: "events/user_events" in tracefs_root()); returns the last, or
 * NULL when a component is a file, too long, or memory is short. */
struct fs_node *fs_mkdir_path(const char *path);
struct fs_node *fs_mkdir_at(struct fs_node *dir, const char *path);

/* Removes a file or an empty directory: 0, -ENOTEMPTY, -EBUSY (a program has it open) or
 * -EINVAL (the root). */
int fs_remove(struct fs_node *node);

/* Removes a file or an empty directory even while programs have it open, as Linux's
 * tracefs removes an event's files: 0, -ENOTEMPTY or -EINVAL (the root). An unopened node
 * is freed at once (fs_remove); an open one leaves the tree (no lookup finds it, its name
 * may be reused, its parent may go) and keeps its memory, mode and ops for its open files
 * until the last closes (file_put frees it). The owner must first make the node's ops
 * stop using what it is about to free (Linux: i_private set to NULL, then ENODEV). */
int fs_detach(struct fs_node *node);

/* Whether a program has the node, or anything below it, open: an owner that removes a
 * directory of files asks this first, so it removes all of them or none. */
bool fs_in_use(const struct fs_node *node);

/* The child of dir called name, or NULL (also when dir is not a directory). O(1). */
struct fs_node *fs_child(struct fs_node *dir, const char *name);

/* Finds a path (absolute or relative to the root; ".", ".." and repeated slashes
 * accepted; symbolic links followed). Returns the node, or NULL with *err =
 * -ENOENT, -ENOTDIR, -ELOOP or -ENAMETOOLONG. */
struct fs_node *fs_lookup(const char *path, int *err);
/* fs_lookup for a program with credentials c: each directory it passes through must be
 * searchable (x) by c, else NULL with *err = -EACCES, as Linux's path walk. */
struct fs_node *fs_lookup_as(const char *path, const struct cred *c, int *err);

static inline bool fs_is_dir(const struct fs_node *n) { return n->ops == NULL; }
static inline bool fs_is_symlink(const struct fs_node *n) { return n->ops && n->ops->readlink; }

/* The node's file type as st_mode's S_IF* bits (uapi/fs.h): a directory, a symbolic link,
 * a pipe, a character device (it has an rdev) or a regular file. */
uint32_t fs_type(const struct fs_node *node);

/* Creates a symbolic link in parent whose target ops->readlink gives (data: the owner's);
 * NULL as fs_create. */
struct fs_node *fs_symlink(struct fs_node *parent, const char *name,
                           const struct fs_file_ops *ops, void *data);

/* Gives node the device number major:minor (st_rdev); returns node. */
struct fs_node *fs_set_rdev(struct fs_node *node, uint32_t major, uint32_t minor);

/* Where new nodes get their creation time (the kernel's clock; 0 without one). */
void fs_set_clock(uint64_t (*now_ns)(void));
/* The clock's time now (0 without one): for nodes made outside the tree (pipes). */
uint64_t fs_now_ns(void);
/* The next inode number, for nodes made outside the tree (pipes). */
uint32_t fs_next_ino(void);

/* How many symbolic links one walk may follow, as Linux's MAXSYMLINKS; one more is ELOOP.
 * A link in the middle of another link's target nests; nesting deeper than FS_LINK_DEPTH
 * is ELOOP too (each level holds a target on the kernel stack). */
#define FS_LINKS_MAX 40
#define FS_LINK_DEPTH 8

/* fs_resolve's flags. */
#define FS_NOFOLLOW 1 /* a symbolic link as the last component is the result itself */

/*
 * The path walk of programs (Linux's path_lookupat): path is absolute (from the root) or
 * relative to start (NULL: the root). Each directory passed through
 * must be searchable by c (NULL: the kernel, which passes everywhere: EACCES otherwise).
 * Symbolic links are followed, from the directory they are in, except the last component's
 * with FS_NOFOLLOW (unless a trailing slash asks for a directory); more than FS_LINKS_MAX
 * of them, or nesting deeper than FS_LINK_DEPTH, is ELOOP; an empty target is ENOENT.
 * Returns the node, or NULL with
 * *err = -ENOENT, -ENOTDIR, -EACCES, -ELOOP or -ENAMETOOLONG.
 */
struct fs_node *fs_resolve(struct fs_node *start, const char *path, const struct cred *c,
                           int flags, int *err);

/* Writes the node's path from the root ("/", "/proc/meminfo") into buf. */
void fs_path_of(const struct fs_node *node, char *buf, size_t size);

#endif
