/*
 * sys_stat.c - system calls about files rather than their data (issue 16): the stat family
 * (stat64, lstat64, fstat64, fstatat64, statx, and the old 32-bit stat, lstat, fstat),
 * getdents64 and getdents, readlink and readlinkat, access, faccessat and faccessat2, the
 * current directory (getcwd, chdir, fchdir), umask, lseek and _llseek.
 *
 * Every structure is filled in kernel memory and copied out whole, with Linux's i386
 * layouts (uapi/fs.h); an address the program cannot write is EFAULT and nothing else
 * changes.
 */
#include <stddef.h>

#include "kernel/fs/file.h"
#include "kernel/fs/fs_task.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/task_internal.h"
#include "kernel/syscall/syscall_handlers.h"
#include "uapi/fs.h"
#include "uapi/syscall.h"

/* The device numbers st_dev shows: the file tree is one anonymous filesystem (0:20), the
 * pipes another (Linux's pipefs is 0:12 or so; any unnamed major-0 number). */
#define TREE_DEV 20u
#define PIPE_DEV 12u
#define BLOCK_SIZE 4096u
#define GETDENTS_MAX (64u << 10) /* the most one getdents call fills */

/* What every stat call reports about a node, before each call's layout. */
struct kstat {
    uint64_t ino;
    uint32_t dev, mode, nlink, uid, gid, rdev;
    uint64_t size;
    uint32_t sec, nsec;
};

/* The number of subdirectories of dir: its link count is 2 more ("." and its entry in
 * its parent, and each subdirectory's ".."). */
static uint32_t subdirectories(struct fs_node *dir)
{
    uint32_t n = 0;
    for (const struct fs_node *c = fs_children(dir); c; c = c->next)
        n += fs_is_dir(c);
    return n;
}

static void fill_kstat(struct fs_node *node, struct kstat *st)
{
    st->ino = node->ino;
    st->dev = node->fifo ? PIPE_DEV : TREE_DEV;
    st->mode = fs_type(node) | fs_mode(node);
    st->nlink = fs_is_dir(node) ? 2 + subdirectories(node) : 1;
    st->uid = node->uid;
    st->gid = node->gid;
    st->rdev = node->rdev;
    st->size = node->size;
    if (fs_is_symlink(node)) {
        char target[FS_PATH_MAX];
        int n = node->ops->readlink(node, target, sizeof target);
        st->size = n > 0 ? (uint64_t)n : 0; /* a link's size is its target's length */
    }
    st->sec = (uint32_t)(node->created_ns / 1000000000u);
    st->nsec = (uint32_t)(node->created_ns % 1000000000u);
}

static int32_t put_stat64(const struct kstat *k, uint32_t ubuf)
{
    struct stat64 st;
    memset(&st, 0, sizeof st);
    st.st_dev = k->dev;
    st.__st_ino = (uint32_t)k->ino;
    st.st_ino = k->ino;
    st.st_mode = k->mode;
    st.st_nlink = k->nlink;
    st.st_uid = k->uid;
    st.st_gid = k->gid;
    st.st_rdev = k->rdev;
    st.st_size = (int64_t)k->size;
    st.st_blksize = BLOCK_SIZE;
    st.st_blocks = (k->size + 511) / 512;
    st.st_atime_sec = st.st_mtime_sec = st.st_ctime_sec = k->sec;
    st.st_atime_nsec = st.st_mtime_nsec = st.st_ctime_nsec = k->nsec;
    return copy_to_user(ubuf, &st, sizeof st);
}

/* The old stat: ids, links and sizes that do not fit its fields are EOVERFLOW. */
static int32_t put_old_stat(const struct kstat *k, uint32_t ubuf)
{
    if (k->uid > 0xffff || k->gid > 0xffff || k->nlink > 0xffff || k->size > INT32_MAX ||
        k->ino > UINT32_MAX)
        return -EOVERFLOW;
    struct old_kernel_stat32 st;
    memset(&st, 0, sizeof st);
    st.st_dev = k->dev;
    st.st_ino = (uint32_t)k->ino;
    st.st_mode = (uint16_t)k->mode;
    st.st_nlink = (uint16_t)k->nlink;
    st.st_uid = (uint16_t)k->uid;
    st.st_gid = (uint16_t)k->gid;
    st.st_rdev = k->rdev;
    st.st_size = (uint32_t)k->size;
    st.st_blksize = BLOCK_SIZE;
    st.st_blocks = (uint32_t)((k->size + 511) / 512);
    st.st_atime_sec = st.st_mtime_sec = st.st_ctime_sec = k->sec;
    st.st_atime_nsec = st.st_mtime_nsec = st.st_ctime_nsec = k->nsec;
    return copy_to_user(ubuf, &st, sizeof st);
}

/* Looks up a path for a stat call and fills k. */
static int stat_path(int32_t dirfd, uint32_t upath, uint32_t at_flags, struct kstat *k)
{
    struct fs_node *node;
    int err = user_path_at(dirfd, upath, at_flags, 0, &node);
    if (err)
        return err;
    fill_kstat(node, k);
    return 0;
}

/* The node behind an open descriptor, for fstat. */
static int stat_fd(uint32_t fd, struct kstat *k)
{
    struct file *f = fd_file(fd);
    if (!f)
        return -EBADF;
    fill_kstat(f->node, k);
    return 0;
}

SYSCALL_HANDLER(stat64)
{
    struct kstat k;
    int err = stat_path(AT_FDCWD, a[0], 0, &k);
    return err ? err : put_stat64(&k, a[1]);
}

SYSCALL_HANDLER(lstat64)
{
    struct kstat k;
    int err = stat_path(AT_FDCWD, a[0], AT_SYMLINK_NOFOLLOW, &k);
    return err ? err : put_stat64(&k, a[1]);
}

SYSCALL_HANDLER(fstat64)
{
    struct kstat k;
    int err = stat_fd(a[0], &k);
    return err ? err : put_stat64(&k, a[1]);
}

SYSCALL_HANDLER(fstatat64)
{
    if (a[3] & ~(uint32_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT))
        return -EINVAL;
    struct kstat k;
    int err = stat_path((int32_t)a[0], a[1], a[3], &k);
    return err ? err : put_stat64(&k, a[2]);
}

SYSCALL_HANDLER(newstat)
{
    struct kstat k;
    int err = stat_path(AT_FDCWD, a[0], 0, &k);
    return err ? err : put_old_stat(&k, a[1]);
}

SYSCALL_HANDLER(newlstat)
{
    struct kstat k;
    int err = stat_path(AT_FDCWD, a[0], AT_SYMLINK_NOFOLLOW, &k);
    return err ? err : put_old_stat(&k, a[1]);
}

SYSCALL_HANDLER(newfstat)
{
    struct kstat k;
    int err = stat_fd(a[0], &k);
    return err ? err : put_old_stat(&k, a[1]);
}

SYSCALL_HANDLER(statx)
{
    uint32_t flags = a[2], mask = a[3];
    if (flags & ~(uint32_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT |
                            AT_STATX_SYNC_TYPE))
        return -EINVAL;
    if ((flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE || (mask & STATX__RESERVED))
        return -EINVAL;
    struct kstat k;
    int err = stat_path((int32_t)a[0], a[1], flags, &k);
    if (err)
        return err;
    struct statx st;
    memset(&st, 0, sizeof st);
    st.stx_mask = STATX_BASIC_STATS;
    st.stx_blksize = BLOCK_SIZE;
    st.stx_nlink = k.nlink;
    st.stx_uid = k.uid;
    st.stx_gid = k.gid;
    st.stx_mode = (uint16_t)k.mode;
    st.stx_ino = k.ino;
    st.stx_size = k.size;
    st.stx_blocks = (k.size + 511) / 512;
    struct statx_timestamp ts = { .tv_sec = k.sec, .tv_nsec = k.nsec };
    st.stx_atime = st.stx_ctime = st.stx_mtime = ts;
    st.stx_rdev_major = k.rdev >> 8;
    st.stx_rdev_minor = k.rdev & 0xff;
    st.stx_dev_major = k.dev >> 8;
    st.stx_dev_minor = k.dev & 0xff;
    return copy_to_user(a[4], &st, sizeof st);
}

/* The d_type of a node. */
static uint8_t dirent_type(const struct fs_node *n)
{
    switch (fs_type(n)) {
    case S_IFDIR: return DT_DIR;
    case S_IFLNK: return DT_LNK;
    case S_IFIFO: return DT_FIFO;
    case S_IFCHR: return DT_CHR;
    default: return DT_REG;
    }
}

/* Entry number i of directory dir: "." (0), ".." (1), then its children in order.
 * NULL past the end; *name gets the entry's name. */
static struct fs_node *dir_entry(struct fs_node *dir, uint32_t i, const char **name)
{
    if (i == 0) {
        *name = ".";
        return dir;
    }
    if (i == 1) {
        *name = "..";
        return dir->parent ? dir->parent : dir;
    }
    struct fs_node *c = fs_children(dir);
    for (uint32_t k = 2; c && k < i; k++)
        c = c->next;
    if (c)
        *name = c->name;
    return c;
}

/* getdents64 (wide) and getdents: as many whole records as fit in count bytes, from the
 * directory's position on; 0 at the end; EINVAL when not even one fits. */
static int32_t do_getdents(uint32_t fd, uint32_t ubuf, uint32_t count, bool wide)
{
    struct file *f = fd_file(fd);
    if (!f)
        return -EBADF;
    if (!fs_is_dir(f->node))
        return -ENOTDIR;
    if (count > GETDENTS_MAX)
        count = GETDENTS_MAX;
    if (!user_range_ok(ubuf, count, true))
        return -EFAULT;
    char *buf = kmalloc(count ? count : 1);
    if (!buf)
        return -ENOMEM;
    uint32_t used = 0, i = f->pos;
    const char *name;
    struct fs_node *n;
    while ((n = dir_entry(f->node, i, &name)) != 0) {
        uint32_t len = (uint32_t)strlen(name);
        uint32_t reclen = wide ? (uint32_t)(offsetof(struct linux_dirent64, d_name) + len + 1 + 7) & ~7u
                               : (uint32_t)(offsetof(struct linux_dirent, d_name) + len + 2 + 3) & ~3u;
        if (reclen > count - used)
            break;
        char *rec = buf + used;
        memset(rec, 0, reclen);
        if (wide) {
            struct linux_dirent64 *d = (struct linux_dirent64 *)rec;
            d->d_ino = n->ino;
            d->d_off = i + 1;
            d->d_reclen = (uint16_t)reclen;
            d->d_type = dirent_type(n);
            memcpy(d->d_name, name, len);
        } else {
            struct linux_dirent *d = (struct linux_dirent *)rec;
            d->d_ino = n->ino;
            d->d_off = i + 1;
            d->d_reclen = (uint16_t)reclen;
            memcpy(d->d_name, name, len);
            rec[reclen - 1] = (char)dirent_type(n);
        }
        used += reclen;
        i++;
    }
    int32_t ret;
    if (used == 0 && n)
        ret = -EINVAL; /* the buffer cannot hold the next entry */
    else if ((ret = copy_to_user(ubuf, buf, used)) == 0) {
        ret = (int32_t)used;
        f->pos = i;
    }
    kfree(buf);
    return ret;
}

SYSCALL_HANDLER(getdents64) { return do_getdents(a[0], a[1], a[2], true); }

SYSCALL_HANDLER(getdents) { return do_getdents(a[0], a[1], a[2], false); }

/* readlink and readlinkat: the link's target, without a NUL, cut to bufsiz bytes. */
static int32_t do_readlink(int32_t dirfd, uint32_t upath, uint32_t ubuf, int32_t bufsiz)
{
    if (bufsiz <= 0)
        return -EINVAL;
    struct fs_node *node;
    int err = user_path_at(dirfd, upath, AT_EMPTY_PATH, FS_NOFOLLOW, &node);
    if (err)
        return err;
    if (!fs_is_symlink(node))
        return -EINVAL;
    char target[FS_PATH_MAX];
    int n = node->ops->readlink(node, target, sizeof target);
    if (n < 0)
        return n;
    if (n > bufsiz)
        n = bufsiz;
    return copy_to_user(ubuf, target, (uint32_t)n) ? -EFAULT : n;
}

SYSCALL_HANDLER(readlink) { return do_readlink(AT_FDCWD, a[0], a[1], (int32_t)a[2]); }

SYSCALL_HANDLER(readlinkat)
{
    return do_readlink((int32_t)a[0], a[1], a[2], (int32_t)a[3]);
}

/* access and the faccessat calls: Linux checks with the real user and group ids unless
 * AT_EACCESS (the walk too: it overrides the credentials for the whole call). */
static int32_t do_access(int32_t dirfd, uint32_t upath, uint32_t mode, uint32_t flags)
{
    if (mode & ~(uint32_t)(R_OK | W_OK | X_OK))
        return -EINVAL;
    if (flags & ~(uint32_t)(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
        return -EINVAL;
    struct cred saved = current->cred;
    if (!(flags & AT_EACCESS)) {
        current->cred.euid = current->cred.uid;
        current->cred.egid = current->cred.gid;
    }
    struct fs_node *node;
    int err = user_path_at(dirfd, upath, flags, 0, &node);
    if (!err && mode)
        err = fs_may_open(node, &current->cred, (int)mode);
    current->cred = saved;
    return err;
}

SYSCALL_HANDLER(access) { return do_access(AT_FDCWD, a[0], a[1], 0); }

SYSCALL_HANDLER(faccessat) { return do_access((int32_t)a[0], a[1], a[2], 0); }

SYSCALL_HANDLER(faccessat2) { return do_access((int32_t)a[0], a[1], a[2], a[3]); }

SYSCALL_HANDLER(getcwd)
{
    int err;
    if (!task_cwd(&err))
        return err; /* the directory was removed */
    const char *path = current->cwd[0] ? current->cwd : "/";
    uint32_t len = (uint32_t)strlen(path) + 1;
    if (a[1] < len)
        return -ERANGE;
    return copy_to_user(a[0], path, len) ? -EFAULT : (int32_t)len;
}

SYSCALL_HANDLER(chdir)
{
    struct fs_node *node;
    int err = user_path_at(AT_FDCWD, a[0], 0, 0, &node);
    return err ? err : task_chdir(node);
}

SYSCALL_HANDLER(fchdir)
{
    struct file *f = fd_file(a[0]);
    return f ? task_chdir(f->node) : -EBADF;
}

SYSCALL_HANDLER(umask)
{
    uint32_t old = current->umask;
    current->umask = a[0] & 0777;
    return (int32_t)old;
}

/* The new position of a seek, or -errno: ESPIPE for pipes, terminals and files whose
 * reading consumes; a directory counts entries; SEEK_END needs a known size (programs'
 * images; generated text has none, EINVAL, as seq_file's lseek). */
static int64_t do_seek(uint32_t fd, int64_t off, uint32_t whence)
{
    struct file *f = fd_file(fd);
    if (!f)
        return -EBADF;
    const struct fs_file_ops *ops = f->node->ops;
    if (f->node->fifo || (ops && (ops->seekless || ops->consumes)))
        return -ESPIPE;
    int64_t base;
    switch (whence) {
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = f->pos; break;
    case SEEK_END:
        if (!f->node->size)
            return -EINVAL;
        base = f->node->size;
        break;
    default: return -EINVAL;
    }
    int64_t pos = base + off;
    if (pos < 0 || pos > UINT32_MAX)
        return -EINVAL;
    f->pos = (uint32_t)pos;
    return pos;
}

SYSCALL_HANDLER(lseek)
{
    int64_t pos = do_seek(a[0], (int32_t)a[1], a[2]);
    if (pos > INT32_MAX)
        return -EOVERFLOW;
    return (int32_t)pos;
}

SYSCALL_HANDLER(llseek)
{
    int64_t off = (int64_t)(((uint64_t)a[1] << 32) | a[2]);
    if (!user_range_ok(a[3], sizeof(int64_t), true))
        return -EFAULT;
    int64_t pos = do_seek(a[0], off, a[4]);
    if (pos < 0)
        return (int32_t)pos;
    return copy_to_user(a[3], &pos, sizeof pos);
}
