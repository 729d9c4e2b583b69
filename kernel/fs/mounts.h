/*
 * mounts.h - the file systems of the tree as Linux names them (kernel/fs/mounts.c):
 * /proc/PID/mounts's text, and the mount a node belongs to for statfs.
 */
#ifndef KERNEL_FS_MOUNTS_H
#define KERNEL_FS_MOUNTS_H

#include <stdint.h>

/* statfs's f_flags (Linux's ST_* of statvfs). */
#define ST_RDONLY 0x0001u
#define ST_NOSUID 0x0002u
#define ST_NODEV 0x0004u
#define ST_NOEXEC 0x0008u
#define ST_VALID 0x0020u
#define ST_RELATIME 0x0400u

struct mount {
    const char *device, *path, *type;
    uint32_t magic;       /* statfs's f_type */
    const char *options;  /* as /proc/mounts shows them */
    uint32_t st_flags;    /* statfs's f_flags, without ST_VALID */
};

struct fs_node;
struct fs_writer;

/* The mount node belongs to: the deepest one whose directory is node or above it; for a
 * node outside the tree (a pipe), pipefs. Never NULL. */
const struct mount *mount_of(const struct fs_node *node);

/* The text of /proc/PID/mounts (the same for every process: there are no namespaces). */
int mounts_read(struct fs_node *file, struct fs_writer *out);

#endif
