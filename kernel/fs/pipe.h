/*
 * pipe.h - pipes (pipe(2), pipe2(2)): a buffer of PIPE_CAPACITY bytes between a read end
 * and a write end, each a struct file that fork and dup share by reference.
 *
 * Linux's semantics: a read waits until there is data and returns what there is (up to
 * its count), or 0 once every write end is closed; a write waits for room, and one of at
 * most PIPE_BUF bytes goes in whole, never interleaved with another; with every read end
 * closed a write fails with EPIPE and raises SIGPIPE; O_NONBLOCK makes a wait EAGAIN; a
 * wait ends with EINTR when the process is interrupted. FIONREAD tells the bytes queued.
 */
#ifndef KERNEL_FS_PIPE_H
#define KERNEL_FS_PIPE_H

#include <stdint.h>

struct file;

#define PIPE_CAPACITY (16u * 4096u) /* Linux's default: 16 pages */

/* Makes a pipe: *read_end and *write_end with open flags O_RDONLY / O_WRONLY plus
 * O_NONBLOCK when flags has it. 0, or -ENOMEM. */
int pipe_create(uint32_t flags, struct file **read_end, struct file **write_end);

#endif
