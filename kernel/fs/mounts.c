/*
 * mounts.c - the file systems of the tree as Linux names them: /proc/mounts (a link to
 * /proc/self/mounts, as on Linux) and /proc/PID/mounts, one line per mount in
 * /proc/mounts's format ("device mountpoint type options 0 0"), and statfs/statfs64 with
 * each one's magic number (busybox's df reads both).
 *
 * The tree is one set of in-memory nodes; these are the parts of it that Linux would have
 * as separate mounts. A mount is listed only where its directory exists in the tree, and a
 * node belongs to the deepest mount above it. None has blocks to count (as Linux's
 * simple_statfs says for proc, tracefs, debugfs and ramfs), so `df` skips them and `df -a`
 * shows them with 0 sizes, as on Linux. Nothing can be created in the tree by a program:
 * there is no writable file system (docs/usermode.md).
 */
#include "kernel/fs/mounts.h"

#include "kernel/fs/fs_tree.h"

#define MS_FLAGS_PSEUDO (ST_NOSUID | ST_NODEV | ST_NOEXEC | ST_RELATIME)

static const struct mount mounts[] = {
    /* Read-only: no program can create, remove or write a file of its own here. */
    { "rootfs", "/", "rootfs", 0x858458f6u /* RAMFS_MAGIC */, "ro", ST_RDONLY },
    { "proc", "/proc", "proc", 0x9fa0u /* PROC_SUPER_MAGIC */,
      "rw,nosuid,nodev,noexec,relatime", MS_FLAGS_PSEUDO },
    { "devtmpfs", "/dev", "devtmpfs", 0x01021994u /* TMPFS_MAGIC */, "rw,nosuid,mode=755",
      ST_NOSUID },
    { "debugfs", "/sys/kernel/debug", "debugfs", 0x64626720u /* DEBUGFS_MAGIC */,
      "rw,nosuid,nodev,noexec,relatime", MS_FLAGS_PSEUDO },
    { "tracefs", "/sys/kernel/tracing", "tracefs", 0x74726163u /* TRACEFS_MAGIC */,
      "rw,nosuid,nodev,noexec,relatime", MS_FLAGS_PSEUDO },
};
#define NMOUNTS (sizeof mounts / sizeof mounts[0])

/* What a node outside the tree (a pipe's) belongs to: Linux's pipefs, never listed. */
static const struct mount pipefs = { "pipefs", "pipe:", "pipefs", 0x50495045u, "rw", 0 };

/* The directory a mount sits on, or NULL when the tree has none there. */
static struct fs_node *mount_dir(const struct mount *m)
{
    int err;
    struct fs_node *dir = fs_lookup(m->path, &err);
    return dir && fs_is_dir(dir) ? dir : 0;
}

const struct mount *mount_of(const struct fs_node *node)
{
    const struct fs_node *top = node;
    while (top->parent)
        top = top->parent;
    if (top != fs_root())
        return &pipefs;
    /* Later entries are deeper (the table lists a mount after the one it sits in), so
     * the last mount whose directory is node or above it wins. */
    for (const struct fs_node *n = node; n; n = n->parent)
        for (size_t i = NMOUNTS; i-- > 0;)
            if (mount_dir(&mounts[i]) == n)
                return &mounts[i];
    return &mounts[0];
}

/* /proc/mounts: each mount whose directory exists, in the table's order (a mount after
 * the one it sits in, as Linux lists them in mount order). */
int mounts_read(struct fs_node *file, struct fs_writer *out)
{
    (void)file;
    for (size_t i = 0; i < NMOUNTS; i++)
        if (mount_dir(&mounts[i]))
            fs_printf(out, "%s %s %s %s 0 0\n", mounts[i].device, mounts[i].path,
                      mounts[i].type, mounts[i].options);
    return 0;
}
