/*
 * capture_frame.h - writes the frames of the binary capture (uapi/trace_capture.h): the
 * 16-byte header with the payload's frame check, then the payload, to a sink (COM2 in the
 * kernel, memory in the unit test). What goes into a capture and when is
 * trace/core/trace_capture.c's; this only encodes, so that every frame sent is well formed.
 *
 * A file's frame needs its length and check before its bytes, and tracefs files are produced
 * by rendering them through a writer, not stored. capture_send_file renders the file twice
 * (measure, then send) instead of holding a copy: /proc/kallsyms alone is tens of KiB, and
 * the stream must not take heap from programs. Portable: tests/unit/test_capture_frame.c.
 */
#ifndef TRACE_CORE_CAPTURE_FRAME_H
#define TRACE_CORE_CAPTURE_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/fs/fs_tree.h"
#include "uapi/trace_capture.h"

/* How often a file that changes while it is sent is sent again. */
#define CAPTURE_FILE_TRIES 3

/* Where frames go, byte for byte: data, then more_len bytes of more (none when 0). Two
 * pieces, so that a frame's header and its payload, which lie apart, go out in one call
 * (COM2 takes its lock once per frame). */
struct capture_sink {
    void (*send)(struct capture_sink *s, const void *data, size_t len, const void *more,
                 size_t more_len);
    void *ctx;
};

/* Sends a frame of type with len payload bytes (at most CAPTURE_MAX_PAYLOAD). */
void capture_send_frame(struct capture_sink *s, uint16_t type, uint16_t cpu, const void *payload,
                        uint32_t len);
/* Sends a CAPTURE_EVENTS frame of cpu: head, then len bytes of records, which stay where
 * they are (a ring page: nothing is copied). The header and head go out in one piece. */
void capture_send_events(struct capture_sink *s, uint16_t cpu, const struct capture_events *head,
                         const void *records, uint32_t len);

/* Sends CAPTURE_START for nr_cpus CPUs (version, RAW_PAGE_SIZE-byte pages, the guest's long). */
void capture_send_start(struct capture_sink *s, uint32_t nr_cpus);

/* Produces a file's bytes into out: 0 or a negative errno. Called twice per frame. */
typedef int (*capture_render_fn)(void *arg, struct fs_writer *out);

/*
 * Sends a CAPTURE_FILE frame: path, NUL, what render produces. The first rendering measures
 * length and check; the second sends exactly that many bytes (cut or padded with zeros, so
 * the stream stays in step) and checks they are the same. When they are not (the file
 * changed in between), the frame just sent either fails its check, so a reader drops it, or
 * holds the file as first rendered; either way the file is sent again, and the later frame
 * replaces it, up to CAPTURE_FILE_TRIES frames in all. Returns 0; render's error (nothing
 * sent if the first rendering fails); -EFBIG for a file over CAPTURE_MAX_PAYLOAD (nothing
 * sent); -EAGAIN if it changed at every try.
 */
int capture_send_file(struct capture_sink *s, const char *path, capture_render_fn render,
                      void *arg);

#endif
