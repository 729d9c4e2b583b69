/*
 * file.h - files opened by user programs: what a file descriptor refers to.
 *
 * A struct file is one open() of a node of the file tree (kernel/fs/fs_tree.h). Reading a text
 * file renders its whole text once, at the first read(), and serves it by offset, so a
 * program reading in small pieces sees one consistent snapshot (as seq_file gives on
 * Linux); a consuming file (trace_pipe) is rendered a read's worth at a time instead.
 * Files with per-open state (user_events_data) keep it in private_data through the node's
 * open/release operations.
 *
 * A file is shared: refs counts the descriptors that point at it, in every process (dup
 * and dup2 share it within one, fork between parent and child, the shell's `run NAME >
 * FILE` with the program). A reference is taken only with file_get() and dropped only with
 * file_put(), always in thread context (system calls, fork, exit, the shell), never from an
 * interrupt handler. With one CPU and no preemption inside the kernel (kernel/proc/sched.h)
 * no other task runs between the read and the write of refs, so the count needs no lock;
 * a second CPU would need one here (or atomic operations), as for the task list.
 */
#ifndef KERNEL_FS_FILE_H
#define KERNEL_FS_FILE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/fs/fs_tree.h"

struct file {
    struct fs_node *node;
    /* open()'s flags: the access mode O_RDONLY / O_WRONLY / O_RDWR (uapi/syscall.h), and
     * the status flags fcntl(F_SETFL) changes (O_NONBLOCK, O_APPEND: uapi/fs.h). */
    uint32_t flags;
    int refs;              /* descriptors pointing here: file_get, file_put */
    void *private_data;    /* the node owner's per-open state */
    bool rendered;         /* read() has rendered the text at least once */
    char *text;            /* read(): the rendered text, in text_pages whole pages */
    uint32_t text_len, text_pages;
    uint32_t pos;          /* read(): offset in text of the next byte; a directory: the
                            * index of the next entry getdents gives */
};

/* Whether read() and write() may use f: Linux's FMODE_READ and FMODE_WRITE from the
 * access mode (O_RDONLY 0, O_WRONLY 1, O_RDWR 2; 3 gives neither). */
static inline bool file_readable(const struct file *f)
{
    return (f->flags & 3u) == 0 || (f->flags & 3u) == 2;
}
static inline bool file_writable(const struct file *f)
{
    return (f->flags & 3u) == 1 || (f->flags & 3u) == 2;
}

/* Opens node for a process: 0 with *out set, or -errno (-EISDIR for a directory opened
 * for writing, -ENOTDIR for O_DIRECTORY on a file, -ELOOP for a symbolic link, -EACCES,
 * -ENOMEM, or the node's open). A directory opens read-only, for getdents and the *at
 * calls. */
int file_open(struct fs_node *node, uint32_t flags, struct file **out);
/* A new struct file of node with open()'s flags and one reference, nothing else done (no
 * permission check, no open operation, not counted in node->open_files): the common start
 * of file_open and of the files that are no path's (pipe ends). NULL without memory. */
struct file *file_alloc(struct fs_node *node, uint32_t flags);
/* Takes one more reference to f, for a new descriptor that points at it (dup, dup2, fork,
 * a program's standard output from the shell); returns f. */
struct file *file_get(struct file *f);
/* Drops one reference; the last one releases the file. */
void file_put(struct file *f);

/* Gives back a text buffer of read() (page_alloc_user's pages; NULL and 0 are fine). */
void file_text_free(char *text, uint32_t pages);

/* poll()'s view of f: the POLL* bits it is ready for (its node's poll; an ordinary file
 * is always ready). */
unsigned file_poll(struct file *f);
/* The channel poll() and select() sleep on, and the wake-up a file whose readiness
 * changed (a pipe, the terminal) calls: pollers then look at all their files again. */
const void *file_poll_channel(void);
void file_poll_wake(void);

/* Opens /dev/console as descriptors 0, 1 and 2 (files[0..2]) of a new process. */
int file_open_console(struct file *files[3]);

#endif
