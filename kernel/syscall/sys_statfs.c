/*
 * sys_statfs.c - statfs, fstatfs, statfs64 and fstatfs64 with Linux's i386 numbers, handler
 * names and structures: what file system a path or descriptor is on (kernel/fs/mounts.c
 * says which), for busybox's df and stat -f. statfs64's size argument must be the i386
 * struct statfs64's 84 bytes (EINVAL otherwise, as Linux).
 */
#include "kernel/fs/file.h"
#include "kernel/fs/fs_task.h"
#include "kernel/fs/mounts.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/syscall_handlers.h"
#include "uapi/fs.h"

/* Linux's i386 struct statfs (32-bit counts). */
struct statfs32 {
    uint32_t f_type, f_bsize, f_blocks, f_bfree, f_bavail, f_files, f_ffree;
    int32_t f_fsid[2];
    uint32_t f_namelen, f_frsize, f_flags, f_spare[4];
};
_Static_assert(sizeof(struct statfs32) == 64, "i386 struct statfs");

/* Linux's i386 struct statfs64: 64-bit counts at 4-byte alignment. */
struct statfs64 {
    uint32_t f_type, f_bsize;
    uint64_t f_blocks, f_bfree, f_bavail, f_files, f_ffree;
    int32_t f_fsid[2];
    uint32_t f_namelen, f_frsize, f_flags, f_spare[4];
} __attribute__((packed, aligned(4)));
_Static_assert(sizeof(struct statfs64) == 84, "i386 struct statfs64");

#define FS_BLOCK_SIZE 4096u /* what Linux's pseudo file systems report: PAGE_SIZE */
#define FS_NAME_LEN 255u    /* the longest name, NAME_MAX */

/* The answer for node's file system: no blocks and no inode counts (none of them has a
 * size to report), its magic, and its mount's flags. */
static struct statfs64 statfs_of(const struct fs_node *node)
{
    const struct mount *m = mount_of(node);
    return (struct statfs64){ .f_type = m->magic, .f_bsize = FS_BLOCK_SIZE,
                              .f_namelen = FS_NAME_LEN, .f_frsize = FS_BLOCK_SIZE,
                              .f_flags = m->st_flags | ST_VALID };
}

/* The node of a path (followed to its end, as Linux's statfs) or of an open descriptor. */
static int node_of_path(uint32_t upath, struct fs_node **node)
{
    return user_path_at(AT_FDCWD, upath, 0, 0, node);
}
static int node_of_fd(uint32_t fd, struct fs_node **node)
{
    struct file *f = fd_file(fd);
    if (!f)
        return -EBADF;
    *node = f->node;
    return 0;
}

/* The 32-bit layout: every count fits (they are all 0). */
static int32_t put_statfs(const struct fs_node *node, uint32_t ubuf)
{
    struct statfs64 s = statfs_of(node);
    struct statfs32 o = { .f_type = s.f_type, .f_bsize = s.f_bsize, .f_namelen = s.f_namelen,
                          .f_frsize = s.f_frsize, .f_flags = s.f_flags };
    return copy_to_user(ubuf, &o, sizeof o) ? -EFAULT : 0;
}

static int32_t put_statfs64(const struct fs_node *node, uint32_t size, uint32_t ubuf)
{
    if (size != sizeof(struct statfs64))
        return -EINVAL;
    struct statfs64 s = statfs_of(node);
    return copy_to_user(ubuf, &s, sizeof s) ? -EFAULT : 0;
}

SYSCALL_HANDLER(statfs)
{
    struct fs_node *node;
    int err = node_of_path(a[0], &node);
    return err ? err : put_statfs(node, a[1]);
}

SYSCALL_HANDLER(fstatfs)
{
    struct fs_node *node;
    int err = node_of_fd(a[0], &node);
    return err ? err : put_statfs(node, a[1]);
}

SYSCALL_HANDLER(statfs64)
{
    struct fs_node *node;
    int err = node_of_path(a[0], &node);
    return err ? err : put_statfs64(node, a[1], a[2]);
}

SYSCALL_HANDLER(fstatfs64)
{
    struct fs_node *node;
    int err = node_of_fd(a[0], &node);
    return err ? err : put_statfs64(node, a[1], a[2]);
}
