/*
 * uapi/trace_capture.h - the binary capture: what COM2 carries when options/stream_raw is 1,
 * instead of trace_pipe's text. Nothing in it is formatted by the guest: it holds the ring
 * buffer's pages in Linux's layout (events/header_page) and copies of the tracefs files a
 * reader needs to decode them, so the host can rebuild what `trace-cmd record` would have
 * saved (tools/tkconvert).
 *
 * The capture is a sequence of frames. Each is a 16-byte header, little-endian, then
 * `length` bytes of payload:
 *
 *   offset 0   u32 magic    CAPTURE_MAGIC, the bytes "TKCF"
 *   offset 4   u16 type     enum capture_frame_type
 *   offset 6   u16 cpu      the CPU of a CAPTURE_PAGE; 0 otherwise
 *   offset 8   u32 length   payload bytes (at most CAPTURE_MAX_PAYLOAD)
 *   offset 12  u32 crc      CRC-32 of the payload (IEEE 802.3, as zlib's crc32(); see
 *                           kernel/lib/crc32.h)
 *
 * A reader that meets a bad header or a bad crc skips ahead to the next "TKCF" and says how
 * many bytes it skipped; a frame cut off by the end of the capture is reported and dropped.
 * Everything whole is used.
 *
 * Frames:
 *   CAPTURE_START  payload: struct capture_start. Begins a capture (the stream was switched
 *                  to raw, or a tracer became current: a tracer switch empties the buffer
 *                  and ends the capture before, so each tracer's session is a capture of
 *                  its own); a reader starts afresh at each one.
 *   CAPTURE_FILE   payload: a path, NUL, then the file's bytes. The path is relative to the
 *                  tracefs root ("events/header_page", "events/ftrace/function/format",
 *                  "saved_cmdlines", ...) or absolute for a file outside it ("/proc/kallsyms").
 *                  A later frame of the same path replaces an earlier one (saved_cmdlines is
 *                  sent again at the end, after the programs it names have run).
 *   CAPTURE_PAGE   payload: one RAW_PAGE_SIZE (4096-byte) page of `cpu`'s events, exactly as
 *                  per_cpu/cpuN/trace_pipe_raw gives it (missed-event flags included). Pages
 *                  of one CPU come in order; appended, they are that CPU's trace_pipe_raw.
 *                  A CPU's last page before CAPTURE_END may hold no events: commit 0 with
 *                  RB_MISSED_EVENTS|RB_MISSED_STORED and the count right after the empty
 *                  data, time stamp the time it was sent: events lost after the CPU's last
 *                  event (a full buffer with options/overwrite 0 drops every later one).
 *                  trace-cmd report accepts it but shows drops only before an event.
 *   CAPTURE_END    payload: none. Everything before it is consistent: the events pages hold
 *                  up to this point and the files that describe them. More frames may follow
 *                  (a later session on the same stream).
 */
#ifndef UAPI_TRACE_CAPTURE_H
#define UAPI_TRACE_CAPTURE_H

#include <stdint.h>

#define CAPTURE_MAGIC 0x46434b54u /* "TKCF" in memory order */
#define CAPTURE_HEADER_SIZE 16u
#define CAPTURE_MAX_PAYLOAD (1u << 24) /* 16 MiB: bigger than any file or page sent */
#define CAPTURE_VERSION 1u

enum capture_frame_type {
    CAPTURE_START = 1,
    CAPTURE_FILE = 2,
    CAPTURE_PAGE = 3,
    CAPTURE_END = 4,
};

struct capture_frame_header {
    uint32_t magic;
    uint16_t type;
    uint16_t cpu;
    uint32_t length;
    uint32_t crc;
};

/* The payload of CAPTURE_START. */
struct capture_start {
    uint32_t version;   /* CAPTURE_VERSION */
    uint32_t nr_cpus;   /* CPUs whose pages may follow: 0..nr_cpus-1 */
    uint32_t page_size; /* bytes of a CAPTURE_PAGE payload: 4096 */
    uint32_t long_size; /* sizeof(long) in the guest: 4 */
};

#endif
