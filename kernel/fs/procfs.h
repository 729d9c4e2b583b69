/*
 * procfs.h - what of /proc other parts of the kernel render themselves.
 */
#ifndef KERNEL_FS_PROCFS_H
#define KERNEL_FS_PROCFS_H

#include <stdbool.h>

#include "kernel/fs/fs_tree.h"

/* /proc/kallsyms' text: "c0101234 T name" lines in address order, the addresses 0 unless
 * addresses is true (the file shows them to the privileged only; the binary capture, whose
 * reader is the host, always). 0, or -EINTR when out is interrupted. */
int kallsyms_print(struct fs_writer *out, bool addresses);

/* Makes /proc/PID/pagemap in a task's directory (kernel/fs/procfs_pagemap.c); the node
 * finds the task by the directory's pid, as the other entries do. */
struct fs_node *procfs_pagemap_create(struct fs_node *pid_dir);

#endif
