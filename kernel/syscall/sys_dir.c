/*
 * sys_dir.c - mkdir(2) and rmdir(2) (issue 18): the tree is made by the kernel, so the
 * only directories a program can make or remove are those an owner lets it
 * (kernel/fs/fs_dirops.h: tracefs's instances/); elsewhere EPERM, as Linux's vfs_mkdir on
 * a filesystem without mkdir. The mode is ignored (an instance has tracefs's modes), as
 * tracefs ignores it.
 */
#include "kernel/fs/fs_dirops.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/syscall_handlers.h"

/* Copies a path argument: its length, or -EFAULT, -ENAMETOOLONG. */
static int copy_path(uint32_t upath, char path[FS_PATH_MAX])
{
    int n = copy_string_from_user(path, upath, FS_PATH_MAX);
    return n == -E2BIG ? -ENAMETOOLONG : n;
}

SYSCALL_HANDLER(mkdir)
{
    char path[FS_PATH_MAX];
    int err = copy_path(a[0], path);
    return err < 0 ? err : fs_mkdir_path_as_task(path);
}

SYSCALL_HANDLER(rmdir)
{
    char path[FS_PATH_MAX];
    int err = copy_path(a[0], path);
    return err < 0 ? err : fs_rmdir_path_as_task(path);
}
