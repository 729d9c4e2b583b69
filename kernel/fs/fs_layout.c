/*
 * fs_layout.c - the standard directories of the tree and their links (fs_layout.h).
 */
#include "kernel/fs/fs_layout.h"

#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"

static struct fs_node *tracing_dir, *debug_dir; /* set once, by the first caller (boot) */

/* The directory name in parent, made with mode when missing; NULL if a file holds the name
 * or memory is short. */
static struct fs_node *standard_dir(struct fs_node *parent, const char *name, uint16_t mode)
{
    int err = 0;
    struct fs_node *dir = parent ? fs_resolve(parent, name, NULL, FS_NOFOLLOW, &err) : NULL;
    if (!dir && parent)
        dir = fs_set_mode(fs_mkdir(parent, name), mode, 0, 0);
    return dir && fs_is_dir(dir) ? dir : NULL;
}

/* A link's target is the string its node holds (shorter than FS_PATH_MAX); cut to fit
 * buf, always terminated. Returns the length written. */
static int fixed_target(struct fs_node *link, char *buf, size_t size)
{
    const char *target = link->data;
    size_t len = strlen(target);
    if (size == 0)
        return 0;
    if (len >= size)
        len = size - 1;
    memcpy(buf, target, len);
    buf[len] = '\0';
    return (int)len;
}

static const struct fs_file_ops fixed_link_ops = { .readlink = fixed_target };

/* Makes /sys/kernel/{tracing,debug}, debugfs's link to tracefs and /debug; true when all
 * are there. Run again after a failure (no memory at boot), it makes what is missing. */
static bool make_layout(void)
{
    struct fs_node *kernel = standard_dir(standard_dir(fs_root(), "sys", 0555), "kernel", 0755);
    tracing_dir = standard_dir(kernel, "tracing", TRACEFS_DIR_MODE);
    debug_dir = standard_dir(kernel, "debug", 0700);
    if (!tracing_dir || !debug_dir)
        return false;
    int err = 0;
    if (!fs_resolve(debug_dir, "tracing", NULL, FS_NOFOLLOW, &err) &&
        !fs_symlink(debug_dir, "tracing", &fixed_link_ops, (void *)"/sys/kernel/tracing"))
        return false;
    if (!fs_resolve(fs_root(), "debug", NULL, FS_NOFOLLOW, &err) &&
        !fs_symlink(fs_root(), "debug", &fixed_link_ops, (void *)"/sys/kernel/debug"))
        return false;
    return true;
}

/* The layout, made on the first call that finds it missing. */
static void ensure_layout(void)
{
    static bool made;
    if (!made)
        made = make_layout();
}

struct fs_node *tracefs_root(void)
{
    ensure_layout();
    return tracing_dir;
}

struct fs_node *debugfs_root(void)
{
    ensure_layout();
    return debug_dir;
}

struct fs_node *tracefs_lookup(const char *path, int *err)
{
    struct fs_node *dir = tracefs_root();
    if (!dir) {
        *err = -ENOENT;
        return NULL;
    }
    return fs_resolve(dir, path, NULL, 0, err);
}
