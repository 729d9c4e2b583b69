/*
 * fs_tree.c - an in-memory tree of directories and files with read/write functions.
 */
#include "kernel/fs/fs_tree.h"

#include <stdarg.h>

#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/mm/heap.h"
#include "kernel/lib/string.h"
#include "kernel/proc/cred.h"

static struct fs_node root_node = { .name = "/", .mode = 0755, .ino = 1 };
static uint32_t next_ino = 2;             /* under the tree's lock: see fs_tree.h */
static uint64_t (*clock_ns)(void);        /* fs_set_clock's */

void fs_set_clock(uint64_t (*now_ns)(void)) { clock_ns = now_ns; }
uint64_t fs_now_ns(void) { return clock_ns ? clock_ns() : 0; }
uint32_t fs_next_ino(void) { return __atomic_fetch_add(&next_ino, 1, __ATOMIC_RELAXED); }

struct fs_node *fs_root(void) { return &root_node; }

void fs_puts(struct fs_writer *w, const char *text) { w->emit(w, text, strlen(text)); }

void fs_printf(struct fs_writer *w, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int n = kvsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0) /* over INT_MAX characters: nothing sensible to emit */
        return;
    if (n < (int)sizeof buf) {
        w->emit(w, buf, (size_t)n);
        return;
    }
    /* Longer than the stack buffer: format again into one from the heap. */
    char *big = kmalloc((size_t)n + 1);
    if (!big) {
        w->emit(w, buf, sizeof buf - 1);
        return;
    }
    va_start(ap, fmt);
    kvsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    w->emit(w, big, (size_t)n);
    kfree(big);
}

/* A name is one path component: non-empty, short, no '/', not "." or "..". */
static bool valid_name(const char *name)
{
    size_t len = strlen(name);
    if (len == 0 || len >= FS_NAME_MAX || strchr(name, '/'))
        return false;
    return strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

/* Skips the slashes at *path and returns the length of the name that follows (0 at the
 * end of the path); *path is left at that name's first character. */
static size_t next_component(const char **path)
{
    while (**path == '/')
        (*path)++;
    size_t len = 0;
    while ((*path)[len] && (*path)[len] != '/')
        len++;
    return len;
}

/* Makes a lazy directory's children (fs_mkdir_lazy); nothing for any other node. */
static void fill_if_lazy(struct fs_node *dir)
{
    bool (*fill)(struct fs_node *) = dir->fill;
    if (!fill)
        return;
    dir->fill = NULL; /* its own lookups inside fill find what it made so far */
    if (!fill(dir))
        dir->fill = fill; /* short of memory: the next look tries the rest again */
}

struct fs_node *fs_children(struct fs_node *dir)
{
    fill_if_lazy(dir);
    return dir->children;
}

/* The child of dir called name (len bytes, not NUL-terminated), or NULL: one hash probe
 * of the directory's index, however many siblings it has. */
static struct fs_node *find_child(struct fs_node *dir, const char *name, size_t len)
{
    fill_if_lazy(dir);
    if (!dir->index)
        return NULL;
    struct name_hash_link *l = name_hash_find(&dir->index->names, name, len);
    return l ? (struct fs_node *)((char *)l - offsetof(struct fs_node, name_link)) : NULL;
}

struct fs_node *fs_child(struct fs_node *dir, const char *name)
{
    if (!dir || !fs_is_dir(dir))
        return NULL;
    return find_child(dir, name, strlen(name));
}

/*
 * The directory's treap: its children as a binary search tree by name, each node's
 * priority above its subtrees' (a heap), so its depth is O(log n) expected whatever order
 * the names come in. It exists only to give a new child its place in the sorted sibling
 * list in O(log n); lookups use the hash. The priority is a bijective mix of the unique
 * inode number, so no two nodes tie and the shape is the same on every run.
 */
static uint32_t order_priority(const struct fs_node *n)
{
    uint32_t x = n->ino * 2654435761u;
    return x ^ (x >> 16);
}

/* Inserts n below t; *before gets the greatest node of t's tree named below n (NULL:
 * none). Returns the subtree's new root. */
static struct fs_node *order_insert(struct fs_node *t, struct fs_node *n, struct fs_node **before)
{
    if (!t)
        return n;
    if (strcmp(n->name, t->name) < 0) {
        t->order_left = order_insert(t->order_left, n, before);
        struct fs_node *l = t->order_left;
        if (order_priority(l) > order_priority(t)) { /* rotate right */
            t->order_left = l->order_right;
            l->order_right = t;
            return l;
        }
    } else {
        *before = t;
        t->order_right = order_insert(t->order_right, n, before);
        struct fs_node *r = t->order_right;
        if (order_priority(r) > order_priority(t)) { /* rotate left */
            t->order_right = r->order_left;
            r->order_left = t;
            return r;
        }
    }
    return t;
}

/* Joins two treaps, every name in a below every name in b. */
static struct fs_node *order_join(struct fs_node *a, struct fs_node *b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    if (order_priority(a) > order_priority(b)) {
        a->order_right = order_join(a->order_right, b);
        return a;
    }
    b->order_left = order_join(a, b->order_left);
    return b;
}

/* Takes n, which is in t's tree, out of it. Returns the subtree's new root. */
static struct fs_node *order_remove(struct fs_node *t, struct fs_node *n)
{
    if (t == n)
        return order_join(n->order_left, n->order_right);
    if (strcmp(n->name, t->name) < 0)
        t->order_left = order_remove(t->order_left, n);
    else
        t->order_right = order_remove(t->order_right, n);
    return t;
}

/* Takes node out of its parent's list, hash and treap; it keeps its own fields. */
static void unlink_child(struct fs_node *node)
{
    struct fs_node *parent = node->parent;
    if (node->prev)
        node->prev->next = node->next;
    else
        parent->children = node->next;
    if (node->next)
        node->next->prev = node->prev;
    name_hash_del(&parent->index->names, &node->name_link);
    parent->index->order_root = order_remove(parent->index->order_root, node);
    node->next = node->prev = node->order_left = node->order_right = NULL;
}

/* Frees an empty directory's index (it is made again with a new child). */
static void free_index(struct fs_node *dir)
{
    if (dir->index) {
        name_hash_destroy(&dir->index->names);
        kfree(dir->index);
        dir->index = NULL;
    }
}

/* Allocates a node and links it into parent's children in name order (ls shows them so). */
static struct fs_node *add_node(struct fs_node *parent, const char *name,
                                const struct fs_file_ops *ops, void *data)
{
    if (!parent || !fs_is_dir(parent) || !valid_name(name) ||
        find_child(parent, name, strlen(name)))
        return NULL;
    if (!parent->index && !(parent->index = kzalloc(sizeof *parent->index)))
        return NULL;
    struct fs_node *n = kzalloc(sizeof *n);
    if (!n)
        return NULL;
    memcpy(n->name, name, strlen(name) + 1);
    n->parent = parent;
    n->ops = ops;
    n->data = data;
    n->ino = fs_next_ino();
    n->created_ns = fs_now_ns();
    struct fs_node *before = NULL;
    parent->index->order_root = order_insert(parent->index->order_root, n, &before);
    n->prev = before;
    n->next = before ? before->next : parent->children;
    if (before)
        before->next = n;
    else
        parent->children = n;
    if (n->next)
        n->next->prev = n;
    name_hash_add(&parent->index->names, &n->name_link, n->name);
    return n;
}

struct fs_node *fs_mkdir(struct fs_node *parent, const char *name)
{
    return add_node(parent, name, NULL, NULL);
}

struct fs_node *fs_mkdir_lazy(struct fs_node *parent, const char *name,
                              bool (*fill)(struct fs_node *dir), void *data)
{
    struct fs_node *dir = add_node(parent, name, NULL, data);
    if (dir)
        dir->fill = fill;
    return dir;
}

struct fs_node *fs_create(struct fs_node *parent, const char *name,
                          const struct fs_file_ops *ops, void *data)
{
    if (!ops)
        return NULL;
    return add_node(parent, name, ops, data);
}

struct fs_node *fs_symlink(struct fs_node *parent, const char *name,
                           const struct fs_file_ops *ops, void *data)
{
    if (!ops || !ops->readlink)
        return NULL;
    struct fs_node *n = add_node(parent, name, ops, data);
    return fs_set_mode(n, 0777, 0, 0);
}

struct fs_node *fs_set_rdev(struct fs_node *node, uint32_t major, uint32_t minor)
{
    if (node)
        node->rdev = (major << 8) | (minor & 0xff);
    return node;
}

uint32_t fs_type(const struct fs_node *node)
{
    if (fs_is_dir(node))
        return 0040000;
    if (fs_is_symlink(node))
        return 0120000;
    if (node->fifo)
        return 0010000;
    return node->rdev ? 0020000 : 0100000;
}

struct fs_node *fs_mkdir_path(const char *path) { return fs_mkdir_at(fs_root(), path); }

struct fs_node *fs_mkdir_at(struct fs_node *dir, const char *path)
{
    if (!dir || !fs_is_dir(dir))
        return NULL;
    char name[FS_NAME_MAX];
    while (*path) {
        size_t len = next_component(&path);
        if (len == 0)
            break;
        if (len >= FS_NAME_MAX)
            return NULL;
        struct fs_node *next = find_child(dir, path, len);
        if (!next) {
            memcpy(name, path, len);
            name[len] = '\0';
            next = fs_mkdir(dir, name);
        }
        if (!next || !fs_is_dir(next))
            return NULL;
        dir = next;
        path += len;
    }
    return dir;
}

int fs_remove(struct fs_node *node)
{
    if (node == fs_root() || !node->parent)
        return -EINVAL;
    if (node->children)
        return -ENOTEMPTY;
    if (node->open_files)
        return -EBUSY;
    unlink_child(node);
    free_index(node);
    /* Poisoned: code that kept a pointer to a removed node (it should have held it open)
     * faults on its ops at once instead of acting on whatever reuses the memory. */
    memset(node, 0x6b, sizeof *node);
    kfree(node);
    return 0;
}

int fs_detach(struct fs_node *node)
{
    if (node == fs_root() || !node->parent)
        return -EINVAL;
    if (node->children)
        return -ENOTEMPTY;
    if (!node->open_files)
        return fs_remove(node);
    node->mode = fs_mode(node); /* its directory's default, while it still has one */
    node->fill = NULL;          /* out of the tree: nothing is made in it any more */
    unlink_child(node);
    free_index(node);
    node->parent = NULL;
    node->detached = true;
    return 0;
}

bool fs_in_use(const struct fs_node *node)
{
    if (node->open_files)
        return true;
    for (const struct fs_node *child = node->children; child; child = child->next)
        if (fs_in_use(child))
            return true;
    return false;
}

struct fs_node *fs_set_mode(struct fs_node *node, uint16_t mode, uint32_t uid, uint32_t gid)
{
    if (node) {
        node->mode = mode & 07777;
        node->uid = uid;
        node->gid = gid;
    }
    return node;
}

uint16_t fs_mode(const struct fs_node *node)
{
    if (node->mode || !node->parent)
        return node->mode;
    uint16_t base = fs_mode(node->parent);
    if (fs_is_dir(node))
        return base;
    uint16_t allowed = 0;
    if (node->ops->read || node->ops->mmap || node->ops->bytes)
        allowed |= 0444;
    if (node->ops->write || node->ops->write_data)
        allowed |= 0222;
    return base & allowed;
}

int fs_may_open(const struct fs_node *node, const struct cred *c, int want)
{
    return cred_may_access(c, node->uid, node->gid, fs_mode(node), want, fs_is_dir(node))
               ? 0
               : -EACCES;
}

struct fs_node *fs_lookup(const char *path, int *err)
{
    return fs_resolve(NULL, path, NULL, 0, err);
}

struct fs_node *fs_lookup_as(const char *path, const struct cred *c, int *err)
{
    return fs_resolve(NULL, path, c, 0, err);
}

/* True when nothing but slashes is left of the path. */
static bool only_slashes(const char *p)
{
    while (*p == '/')
        p++;
    return *p == '\0';
}

/* Reads link's target into buf (FS_PATH_MAX bytes): its length, or -errno (-ENOENT for an
 * empty target, as Linux's). */
static int read_link(struct fs_node *link, char *buf)
{
    int n = link->ops->readlink(link, buf, FS_PATH_MAX);
    return n == 0 ? -ENOENT : n;
}

/*
 * The walk behind fs_resolve: path from start, or (link set) link's target from link's
 * directory. *links counts the links followed on the whole walk. A link that ends the
 * path being walked is followed in this frame, its target replacing the path (a chain of
 * links costs no stack); one in the middle of a path is walked in a frame of its own,
 * depth levels deep at most (each holds one target).
 */
static struct fs_node *walk(struct fs_node *start, const char *path, struct fs_node *link,
                            const struct cred *c, bool follow_last, int *links, int depth,
                            int *err)
{
    char target[FS_PATH_MAX];
    if (link) {
        int n = read_link(link, target);
        if (n < 0) {
            *err = n;
            return NULL;
        }
        path = target;
        start = link->parent;
    }
    if (strlen(path) >= FS_PATH_MAX) {
        *err = -ENAMETOOLONG;
        return NULL;
    }
    size_t path_len = strlen(path);
    /* A trailing slash asks for a directory: "/dev/kmsg/" is ENOTDIR, as on Linux. */
    bool want_dir = path_len > 0 && path[path_len - 1] == '/';
    struct fs_node *node = start ? start : fs_root();
restart:
    if (path[0] == '/')
        node = fs_root();
    while (*path) {
        size_t len = next_component(&path);
        if (len == 0)
            break;
        if (!fs_is_dir(node)) {
            *err = -ENOTDIR;
            return NULL;
        }
        if (c && fs_may_open(node, c, MAY_EXEC) != 0) {
            *err = -EACCES;
            return NULL;
        }
        struct fs_node *next = node;
        if (len == 1 && path[0] == '.') {
            /* stays */
        } else if (len == 2 && path[0] == '.' && path[1] == '.') {
            if (node->parent)
                next = node->parent;
        } else {
            next = find_child(node, path, len);
            if (!next) {
                *err = -ENOENT;
                return NULL;
            }
        }
        path += len;
        bool last = only_slashes(path);
        if (fs_is_symlink(next) && (!last || follow_last || want_dir)) {
            if (++*links > FS_LINKS_MAX) {
                *err = -ELOOP;
                return NULL;
            }
            if (last) {
                /* The rest of the walk is the target's: only slashes are left of path. */
                int n = read_link(next, target);
                if (n < 0) {
                    *err = n;
                    return NULL;
                }
                path = target;
                node = next->parent;
                goto restart;
            }
            if (depth >= FS_LINK_DEPTH) {
                *err = -ELOOP;
                return NULL;
            }
            next = walk(NULL, NULL, next, c, true, links, depth + 1, err);
            if (!next)
                return NULL;
        }
        node = next;
    }
    if (want_dir && !fs_is_dir(node)) {
        *err = -ENOTDIR;
        return NULL;
    }
    return node;
}

struct fs_node *fs_resolve(struct fs_node *start, const char *path, const struct cred *c,
                           int flags, int *err)
{
    int links = 0;
    return walk(start, path, NULL, c, !(flags & FS_NOFOLLOW), &links, 0, err);
}

void fs_path_of(const struct fs_node *node, char *buf, size_t size)
{
    if (size == 0)
        return;
    if (!node->parent) {
        ksnprintf(buf, size, "/");
        return;
    }
    /* Collect the components from the leaf up, then print them root first. */
    const struct fs_node *chain[32];
    int depth = 0;
    for (const struct fs_node *n = node; n->parent && depth < 32; n = n->parent)
        chain[depth++] = n;
    size_t used = 0;
    buf[0] = '\0';
    while (depth-- > 0 && used < size) {
        int n = ksnprintf(buf + used, size - used, "/%s", chain[depth]->name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}
