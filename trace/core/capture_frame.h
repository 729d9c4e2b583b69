/*
 * capture_frame.h - writes the frames of the binary capture (uapi/trace_capture.h): the
 * 20-byte header with the payload's frame check, then the payload, to a sink (COM2 in the
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

/* Where frames go, byte for byte. */
struct capture_sink {
    void (*send)(struct capture_sink *s, const void *data, size_t len);
    void *ctx;
};

/* Sends a frame of type with len payload bytes (at most CAPTURE_MAX_PAYLOAD). */
void capture_send_frame(struct capture_sink *s, uint16_t type, uint16_t cpu, const void *payload,
                        uint32_t len);
/* The same for a payload in two pieces, head then body (a struct and what follows it), so
 * that neither need be copied next to the other. head_len is a multiple of 4 for the fast
 * check of the body (any length works). */
void capture_send_parts(struct capture_sink *s, uint16_t type, uint16_t cpu, const void *head,
                        uint32_t head_len, const void *body, uint32_t body_len);

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
