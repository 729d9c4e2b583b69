/*
 * fuzz_fs_resolve.c - kernel/fs/fs_tree.c's path walk (fs_resolve) on arbitrary paths.
 *
 * The tree has directories, files and symbolic links of every kind the walk meets: relative
 * and absolute targets, "..", a two-link loop, a link to itself below itself, a dangling and
 * an empty one, and a chain longer than FS_LINKS_MAX; and Linux's layout (fs_layout.h):
 * /sys/kernel/tracing, debugfs with its `tracing` link and /debug. The input (cut at its
 * first NUL) is walked from the root, from a subdirectory and from tracefs, following the
 * last link and not. Besides what ASan/UBSan catch, it aborts when a promise breaks: a
 * result is a node of the tree (a directory when the path ends in '/'; a link only with
 * FS_NOFOLLOW), a failure's error is one fs_resolve may give, and the input walked below
 * /sys/kernel/tracing, /sys/kernel/debug/tracing and /debug/tracing ends at the same node
 * or the same error: the links name tracefs itself.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/fs/fs_layout.h"
#include "kernel/fs/fs_tree.h"
#include "kernel/lib/errno.h"

static int read_nothing(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    (void)out;
    return 0;
}
static const struct fs_file_ops file_ops = { .read = read_nothing };

static int read_target(struct fs_node *link, char *buf, size_t size)
{
    size_t n = strlen(link->data);
    if (n >= size)
        return -ENAMETOOLONG;
    memcpy(buf, link->data, n + 1);
    return (int)n;
}
static const struct fs_file_ops link_ops = { .read = NULL, .readlink = read_target };

#define NODES_MAX 128
static struct fs_node *nodes[NODES_MAX];
static int node_count;
static char chain_targets[FS_LINKS_MAX + 4][8];

static void keep(struct fs_node *n)
{
    if (!n || node_count == NODES_MAX)
        abort();
    nodes[node_count++] = n;
}

static void build_tree(void)
{
    keep(fs_root());
    struct fs_node *a = fs_mkdir_path("a"), *b = fs_mkdir_path("a/b");
    keep(a);
    keep(b);
    keep(fs_create(b, "f", &file_ops, NULL));
    keep(fs_symlink(a, "rel", &link_ops, "b"));
    keep(fs_symlink(a, "abs", &link_ops, "/a/b/f"));
    keep(fs_symlink(b, "up", &link_ops, "../../a"));
    keep(fs_symlink(b, "loop1", &link_ops, "loop2"));
    keep(fs_symlink(b, "loop2", &link_ops, "loop1"));
    keep(fs_symlink(b, "deep", &link_ops, "deep/x"));
    keep(fs_symlink(b, "dangling", &link_ops, "nowhere"));
    keep(fs_symlink(b, "empty", &link_ops, ""));
    keep(fs_symlink(b, "mid", &link_ops, "up/rel/up/rel/f"));
    struct fs_node *tracing = tracefs_root(), *debug = debugfs_root();
    keep(tracing);
    keep(debug);
    keep(tracing->parent);         /* /sys/kernel */
    keep(tracing->parent->parent); /* /sys */
    keep(fs_resolve(debug, "tracing", NULL, FS_NOFOLLOW, &(int){0}));
    keep(fs_resolve(NULL, "/debug", NULL, FS_NOFOLLOW, &(int){0}));
    keep(fs_create(tracing, "trace", &file_ops, NULL));
    keep(fs_mkdir_at(tracing, "events"));
    keep(fs_symlink(tracing, "to_b", &link_ops, "/a/b"));
    keep(fs_mkdir_at(debug, "ipc_logging"));
    struct fs_node *c = fs_mkdir_path("c");
    keep(c);
    keep(fs_create(c, "end", &file_ops, NULL));
    for (int i = 0; i < FS_LINKS_MAX + 2; i++) {
        char name[8];
        snprintf(name, sizeof name, "l%d", i);
        snprintf(chain_targets[i], sizeof chain_targets[i], i ? "l%d" : "end", i - 1);
        keep(fs_symlink(c, name, &link_ops, chain_targets[i]));
    }
}

/* The input below each name of tracefs: all three walks end alike. */
static void check_tracefs_names(const char *path)
{
    static const char *const names[] = { "/sys/kernel/tracing/", "/sys/kernel/debug/tracing/",
                                         "/debug/tracing/" };
    struct fs_node *first = NULL;
    int first_err = 0;
    for (int i = 0; i < 3; i++) {
        char full[FS_PATH_MAX];
        if ((size_t)snprintf(full, sizeof full, "%s%s", names[i], path) >= sizeof full)
            return; /* too long for some of them: their errors differ rightly */
        int err = 0;
        struct fs_node *n = fs_resolve(NULL, full, NULL, 0, &err);
        if (i == 0) {
            first = n;
            first_err = n ? 0 : err;
        } else if (n != first || (!n && err != first_err)) {
            abort();
        }
    }
}

static bool in_tree(const struct fs_node *n)
{
    for (int i = 0; i < node_count; i++)
        if (nodes[i] == n)
            return true;
    return false;
}

static void check(struct fs_node *start, const char *path, int flags)
{
    int err = 1;
    struct fs_node *n = fs_resolve(start, path, NULL, flags, &err);
    size_t len = strlen(path);
    if (n) {
        if (!in_tree(n))
            abort();
        if (len && path[len - 1] == '/' && !fs_is_dir(n))
            abort();
        if (fs_is_symlink(n) && !(flags & FS_NOFOLLOW))
            abort();
        return;
    }
    if (err != -ENOENT && err != -ENOTDIR && err != -ELOOP && err != -ENAMETOOLONG)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool built;
    if (!built) {
        build_tree();
        built = true;
    }
    char path[FS_PATH_MAX + 64];
    size_t n = size < sizeof path - 1 ? size : sizeof path - 1;
    memcpy(path, data, n);
    path[n] = '\0';
    struct fs_node *sub = fs_resolve(NULL, "a/b", NULL, 0, &(int){0});
    check(NULL, path, 0);
    check(NULL, path, FS_NOFOLLOW);
    check(sub, path, 0);
    check(sub, path, FS_NOFOLLOW);
    check(tracefs_root(), path, 0);
    check(tracefs_root(), path, FS_NOFOLLOW);
    check_tracefs_names(path);
    return 0;
}
