/*
 * fs_layout.h - where the kernel's files are in the tree, as on Linux (issue 16):
 *
 *   /                       bin, debug, dev, proc, sys (0755)
 *   /sys                    0555, as sysfs's root
 *   /sys/kernel/tracing     tracefs: every tracer's files; 0750, so its files come out
 *                           0640, 0440 or 0200 (fs_tree.h)
 *   /sys/kernel/debug       debugfs, 0700 as Linux mounts it; holds Qualcomm's ipc_logging
 *   /sys/kernel/debug/tracing -> /sys/kernel/tracing
 *   /debug -> /sys/kernel/debug
 *
 * Linux automounts tracefs at debugfs's `tracing`; here that is a symbolic link, so that
 * every directory keeps one parent (".." and a path from the root stay unambiguous) while
 * the paths older programs open (Linux 6.1's user_events sample and selftests use
 * /sys/kernel/debug/tracing/user_events_data) reach the same files. /debug is where
 * Documentation/trace/mmiotrace.rst mounts debugfs, and docs/mmiotrace.md follows it.
 * /bin, /dev and /proc are made by their owners (kernel/proc/programs.c, kernel/fs/procfs.c).
 * The directories are made on first use, by the boot-time initialisers (one CPU then).
 * Portable: tests/unit/test_fs_tree.c.
 */
#ifndef KERNEL_FS_FS_LAYOUT_H
#define KERNEL_FS_FS_LAYOUT_H

#include "kernel/fs/fs_tree.h"

/* /sys/kernel/tracing: where tracers put their files. */
struct fs_node *tracefs_root(void);

/* /sys/kernel/debug: where debugging interfaces that are not tracefs's go (ipc_logging). */
struct fs_node *debugfs_root(void);

/* fs_resolve from /sys/kernel/tracing (an absolute path from the root), as the kernel:
 * the node, or NULL with *err. For the kernel's own code and its self-tests, which name
 * tracing files as the docs do ("events/sched/enable"). */
struct fs_node *tracefs_lookup(const char *path, int *err);

#endif
