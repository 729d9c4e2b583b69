/*
 * fs_task.c - a process's descriptors, current directory and path walk (fs_task.h).
 */
#include "kernel/fs/fs_task.h"

#include "kernel/fs/file.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/cred.h"
#include "kernel/proc/task_internal.h"
#include "uapi/fs.h"

struct file *fd_file(uint32_t fd)
{
    return fd < TASK_FILES_MAX ? current->files[fd] : 0;
}

int fd_install(struct file *f, uint32_t lowest, bool cloexec)
{
    for (uint32_t fd = lowest; fd < TASK_FILES_MAX; fd++)
        if (!current->files[fd]) {
            current->files[fd] = f;
            if (cloexec)
                current->fd_cloexec |= 1u << fd;
            else
                current->fd_cloexec &= ~(1u << fd);
            return (int)fd;
        }
    return -EMFILE;
}

int fd_close(uint32_t fd)
{
    struct file *f = fd_file(fd);
    if (!f)
        return -EBADF;
    current->files[fd] = 0;
    current->fd_cloexec &= ~(1u << fd);
    file_put(f);
    return 0;
}

struct fs_node *task_cwd(int *err)
{
    if (!current->cwd[0])
        return fs_root();
    /* The kernel's walk: a directory once entered stays usable, as Linux keeps the
     * current directory's dentry whatever happens to the permissions above it. */
    return fs_resolve(NULL, current->cwd, NULL, 0, err);
}

int task_chdir(struct fs_node *dir)
{
    if (!fs_is_dir(dir))
        return -ENOTDIR;
    if (dir->detached) /* removed while open (fs_detach): it has no path to keep */
        return -ENOENT;
    int err = fs_may_open(dir, &current->cred, MAY_EXEC);
    if (err)
        return err;
    char path[TASK_CWD_MAX];
    fs_path_of(dir, path, sizeof path);
    strlcpy(current->cwd, strcmp(path, "/") == 0 ? "" : path, sizeof current->cwd);
    return 0;
}

struct fs_node *task_resolve(const char *path, int flags, int *err)
{
    if (!path[0]) {
        *err = -ENOENT;
        return 0;
    }
    struct fs_node *start = fs_root();
    if (path[0] != '/' && !(start = task_cwd(err)))
        return 0;
    return fs_resolve(start, path, &current->cred, flags, err);
}

int user_path_at(int32_t dirfd, uint32_t upath, uint32_t at_flags, int flags,
                 struct fs_node **out)
{
    char path[FS_PATH_MAX];
    int len = copy_string_from_user(path, upath, sizeof path);
    if (len < 0)
        return len == -E2BIG ? -ENAMETOOLONG : len;
    if (at_flags & AT_SYMLINK_NOFOLLOW)
        flags |= FS_NOFOLLOW;
    int err = 0;
    if (path[0] == '/' || (dirfd == AT_FDCWD && path[0])) {
        *out = task_resolve(path, flags, &err);
        return *out ? 0 : err;
    }
    struct fs_node *start;
    if (dirfd == AT_FDCWD) {
        start = task_cwd(&err);
        if (!start)
            return err;
    } else {
        struct file *f = fd_file((uint32_t)dirfd);
        if (!f)
            return -EBADF;
        start = f->node;
    }
    if (!path[0]) {
        if (!(at_flags & AT_EMPTY_PATH))
            return -ENOENT;
        *out = start;
        return 0;
    }
    if (!fs_is_dir(start))
        return -ENOTDIR;
    *out = fs_resolve(start, path, &current->cred, flags, &err);
    return *out ? 0 : err;
}
