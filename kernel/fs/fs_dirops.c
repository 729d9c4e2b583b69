/*
 * fs_dirops.c - mkdir and rmdir through the owner of a directory (fs_dirops.h).
 *
 * The table is written at boot only (fs_set_dir_ops) and read in thread context.
 */
#include "kernel/fs/fs_dirops.h"

#include "kernel/fs/fs_task.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"

#define DIR_OPS_MAX 4

static struct {
    struct fs_node *dir;
    const struct fs_dir_ops *ops;
} owners[DIR_OPS_MAX];

int fs_set_dir_ops(struct fs_node *dir, const struct fs_dir_ops *ops)
{
    for (unsigned i = 0; i < DIR_OPS_MAX; i++)
        if (!owners[i].dir) {
            owners[i].dir = dir;
            owners[i].ops = ops;
            return 0;
        }
    return -ENOSPC;
}

/* The operations of dir, or NULL. */
static const struct fs_dir_ops *ops_of(const struct fs_node *dir)
{
    for (unsigned i = 0; i < DIR_OPS_MAX; i++)
        if (owners[i].dir == dir)
            return owners[i].ops;
    return 0;
}

/* Splits path into its directory (resolved for the current task) and its last component
 * (copied to name, trailing slashes dropped). 0, or -errno. */
static int split_path(const char *path, struct fs_node **dir, char name[FS_NAME_MAX])
{
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/')
        len--;
    if (len == 0)
        return -ENOENT;
    if (len >= FS_PATH_MAX)
        return -ENAMETOOLONG;
    size_t start = len;
    while (start && path[start - 1] != '/')
        start--;
    size_t name_len = len - start;
    if (name_len == 0)
        return -EBUSY; /* "/": the root */
    if (name_len >= FS_NAME_MAX)
        return -ENAMETOOLONG;
    memcpy(name, path + start, name_len);
    name[name_len] = 0;
    char parent[FS_PATH_MAX];
    if (start == 0) {
        parent[0] = '.';
        parent[1] = 0;
    } else {
        memcpy(parent, path, start);
        parent[start] = 0;
    }
    int err = 0;
    *dir = task_resolve(parent, 0, &err);
    if (!*dir)
        return err;
    return fs_is_dir(*dir) ? 0 : -ENOTDIR;
}


int fs_mkdir_path_as_task(const char *path)
{
    struct fs_node *dir;
    char name[FS_NAME_MAX];
    int err = split_path(path, &dir, name);
    if (err)
        return err;
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || fs_child(dir, name))
        return -EEXIST;
    const struct fs_dir_ops *ops = ops_of(dir);
    return ops && ops->mkdir ? ops->mkdir(dir, name) : -EPERM;
}

int fs_rmdir_path_as_task(const char *path)
{
    struct fs_node *dir;
    char name[FS_NAME_MAX];
    int err = split_path(path, &dir, name);
    if (err)
        return err;
    if (strcmp(name, ".") == 0)
        return -EINVAL;
    if (strcmp(name, "..") == 0)
        return -ENOTEMPTY;
    struct fs_node *victim = fs_child(dir, name);
    if (!victim)
        return -ENOENT;
    if (!fs_is_dir(victim))
        return -ENOTDIR;
    const struct fs_dir_ops *ops = ops_of(dir);
    return ops && ops->rmdir ? ops->rmdir(dir, victim) : -EPERM;
}
