/*
 * fs_dirops.h - mkdir and rmdir, for the few directories whose owner makes something when
 * a directory is created in them (Linux's inode_operations.mkdir/rmdir): tracefs's
 * instances/, where `mkdir instances/foo` makes a trace array. The tree has no other
 * writable directories, so anywhere else mkdir and rmdir are EPERM, as on a Linux
 * filesystem without those operations.
 */
#ifndef KERNEL_FS_FS_DIROPS_H
#define KERNEL_FS_FS_DIROPS_H

#include "kernel/fs/fs_tree.h"

/* The owner's side: make the directory name in dir (0 or -errno; the name is already
 * checked to be one new component), or remove victim, a directory in dir (0 or -errno). */
struct fs_dir_ops {
    int (*mkdir)(struct fs_node *dir, const char *name);
    int (*rmdir)(struct fs_node *dir, struct fs_node *victim);
};

/* Gives dir its mkdir and rmdir, for as long as it lives (boot code). 0 or -ENOSPC. */
int fs_set_dir_ops(struct fs_node *dir, const struct fs_dir_ops *ops);

/* mkdir(2) and rmdir(2) for the current task: path relative to its current directory,
 * its credentials checked on the way. 0, or -ENOENT, -ENOTDIR, -EACCES, -ENAMETOOLONG,
 * -EEXIST, -EINVAL (rmdir "."), -EPERM (a directory without these operations), -EBUSY,
 * -ENOTEMPTY or the owner's error. */
int fs_mkdir_path_as_task(const char *path);
int fs_rmdir_path_as_task(const char *path);

#endif
