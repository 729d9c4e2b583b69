/*
 * fs_task.h - a process's view of the file tree: its descriptor table, its current
 * directory, and the path walk of its system calls (issue 16).
 *
 * Descriptors index current->files (TASK_FILES_MAX of them); fd_cloexec's bit n marks
 * descriptor n close-on-exec. The current directory is kept as its absolute path
 * (task->cwd), so that fork copies it as a value and a directory removed meanwhile makes
 * relative lookups fail with ENOENT, as a deleted directory does on Linux.
 * Every call here acts on the current task, which only its own system calls change: no lock.
 */
#ifndef KERNEL_FS_FS_TASK_H
#define KERNEL_FS_FS_TASK_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/fs/fs_tree.h"

struct file;

/* The open file behind descriptor fd of the current task, or NULL. */
struct file *fd_file(uint32_t fd);

/* Puts f at the lowest free descriptor >= lowest (close-on-exec when cloexec); the table
 * takes over the caller's reference. Returns the descriptor, or -EMFILE (f untouched). */
int fd_install(struct file *f, uint32_t lowest, bool cloexec);

/* Closes descriptor fd: 0 or -EBADF. */
int fd_close(uint32_t fd);

/* The current task's current directory, or NULL with *err (-ENOENT once it was removed). */
struct fs_node *task_cwd(int *err);

/* Makes dir the current task's current directory: 0, -ENOTDIR, or -EACCES when its
 * credentials may not search it (chdir, fchdir, the console shell's cd). */
int task_chdir(struct fs_node *dir);

/*
 * Resolves path for the current task as Linux's path walk does: relative paths from its
 * current directory, its credentials checked on each directory, symbolic links followed
 * (not the last one with FS_NOFOLLOW). An empty path is ENOENT. This is what open, stat,
 * access, readlink, chdir and execve's lookup of its file use. NULL with *err.
 */
struct fs_node *task_resolve(const char *path, int flags, int *err);

/*
 * The *at calls' lookup: path is copied from user memory (EFAULT, ENAMETOOLONG) and
 * resolved from dirfd (AT_FDCWD: the current directory; else an open directory: EBADF,
 * ENOTDIR) unless it is absolute. With AT_EMPTY_PATH in at_flags an empty path names
 * dirfd's own file; AT_SYMLINK_NOFOLLOW in at_flags or FS_NOFOLLOW in flags keeps a last
 * link. 0 with *out, or -errno.
 */
int user_path_at(int32_t dirfd, uint32_t upath, uint32_t at_flags, int flags,
                 struct fs_node **out);

#endif
