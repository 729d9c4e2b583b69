/*
 * uapi/trace_capture.h - the binary capture: what COM2 carries when options/stream_raw is 1,
 * instead of trace_pipe's text. Nothing in it is formatted by the guest, and no event is
 * touched one by one: it holds the ring buffer's own bytes (its records as the writers
 * left them, times in cycles of the CPU's counter) and copies of the tracefs files a reader
 * needs to decode them. The host (tools/tkconvert) turns the records into Linux's pages
 * (events/header_page's layout, nanoseconds of trace_clock `local`), exactly the pages
 * per_cpu/cpuN/trace_pipe_raw gives in the guest, and from them rebuilds what
 * `trace-cmd record` would have saved.
 *
 * Format version 2. The capture is a sequence of frames. Each is a 16-byte header,
 * little-endian, then `length` bytes of payload:
 *
 *   offset 0   u32 magic    CAPTURE_MAGIC, the bytes "TKC2"
 *   offset 4   u16 type     enum capture_frame_type
 *   offset 6   u16 cpu      the CPU of a CAPTURE_EVENTS or CAPTURE_RETRACT frame; 0 otherwise
 *   offset 8   u32 length   payload bytes (at most CAPTURE_MAX_PAYLOAD)
 *   offset 12  u32 sum      the payload's check: the sum of its little-endian 32-bit words
 *                           modulo 2^32, the last word padded with zero bytes
 *                           (kernel/lib/frame_sum.h says why not a CRC)
 *
 * A reader that meets a bad header or a bad check skips ahead to the next "TKC2" and says
 * how many bytes it skipped; a frame cut off by the end of the capture is reported and
 * dropped. Everything whole is used. (Format 1, magic "TKCF", sent Linux pages checked by
 * CRC-32, made in the guest at ten times the cost; it is not read any more.)
 *
 * Frames:
 *   CAPTURE_START  payload: struct capture_start. Begins a capture (the stream was switched
 *                  to raw, or a tracer became current: a tracer switch empties the buffer
 *                  and ends the capture before, so each tracer's session is a capture of
 *                  its own); a reader starts afresh at each one.
 *   CAPTURE_CLOCK  payload: struct capture_clock, then nr_fields struct capture_cycle_field.
 *                  Right after START: how the records' cycles become the trace clock's
 *                  nanoseconds, and which fields of which records hold cycle counts too.
 *   CAPTURE_FILE   payload: a path, NUL, then the file's bytes. The path is relative to the
 *                  tracefs root ("events/header_page", "events/ftrace/function/format",
 *                  "saved_cmdlines", ...) or absolute for a file outside it ("/proc/kallsyms").
 *                  A later frame of the same path replaces an earlier one (saved_cmdlines is
 *                  sent again at the end, after the programs it names have run).
 *   CAPTURE_EVENTS payload: struct capture_events, then records: a stretch of `cpu`'s ring
 *                  buffer page as it is, never more than one page of it. Frames of one CPU
 *                  come in order and continue each other: the records of all of them, in
 *                  order, are every event the CPU recorded, with lost_before saying where
 *                  events are missing. A frame with no records carries only a loss: events
 *                  lost after the CPU's last event (a full buffer with options/overwrite 0
 *                  drops every later one), sent at the end.
 *   CAPTURE_RETRACT payload: none. Withdraws the CAPTURE_EVENTS frame of `cpu` right before
 *                  it: the guest sends a page from the ring itself, not from a copy, and a
 *                  writer recycled the page while it went out, so the bytes may be torn.
 *                  A reader drops that frame whole; its events (and its lost_before) are
 *                  counted in the next frame's lost_before of that CPU, as overwritten.
 *   CAPTURE_END    payload: none. Everything before it is consistent: the events up to this
 *                  point and the files that describe them. More frames may follow (a later
 *                  session on the same stream).
 *
 * A record is the ring buffer's (trace/core/ring_buffer.h): a 32-bit header word, type_len
 * in bits 0-4 and a time delta in bits 5-31 (cycles since the record before it in the frame,
 * or since capture_events.time for the first), then
 *   type_len 1..28  the payload, type_len * 4 bytes: an event
 *   type_len 0      a word holding the payload's length in bytes (a multiple of 4), then
 *                   the payload: an event of over 112 bytes
 *   type_len 29     a word holding a length, then that many bytes: an event taken back
 *                   (discarded by a filter); skip it, its delta still counts
 *   type_len 30     a time extend: the next word holds delta >> 27, the header the low bits
 * An event's payload is its record as the event's `format` file describes it (struct
 * trace_entry first), except that the fields CAPTURE_CLOCK lists hold cycles.
 */
#ifndef UAPI_TRACE_CAPTURE_H
#define UAPI_TRACE_CAPTURE_H

#include <stdint.h>

#define CAPTURE_MAGIC 0x32434b54u    /* "TKC2" in memory order */
#define CAPTURE_MAGIC_V1 0x46434b54u /* "TKCF": format 1, recognised only to say so */
#define CAPTURE_HEADER_SIZE 16u
#define CAPTURE_MAX_PAYLOAD (1u << 24) /* 16 MiB: bigger than any file or page sent */
#define CAPTURE_VERSION 2u

enum capture_frame_type {
    CAPTURE_START = 1,
    CAPTURE_FILE = 2,
    CAPTURE_EVENTS = 3,
    CAPTURE_END = 4,
    CAPTURE_CLOCK = 5,
    CAPTURE_RETRACT = 6,
};
#define CAPTURE_TYPES 7 /* one more than the highest type */

struct capture_frame_header {
    uint32_t magic;
    uint16_t type;
    uint16_t cpu;
    uint32_t length;
    uint32_t sum;
};

/* The payload of CAPTURE_START. */
struct capture_start {
    uint32_t version;   /* CAPTURE_VERSION */
    uint32_t nr_cpus;   /* CPUs whose events may follow: 0..nr_cpus-1 */
    uint32_t page_size; /* bytes of a page of Linux's layout, what readers get: 4096 */
    uint32_t long_size; /* sizeof(long) in the guest: 4 */
};

/* The payload of CAPTURE_CLOCK, before its fields. A cycle count c is the trace clock's
 *   ns = floor((c - boot_cycles) * mult / 2^shift)   (0 for a c before boot_cycles)
 * computed exactly, in 64 bits: the nanoseconds `cat trace` prints in the guest. */
struct capture_clock {
    uint64_t boot_cycles; /* the counter when the clock read 0 */
    uint32_t mult;
    uint32_t shift;
    uint32_t nr_fields;   /* struct capture_cycle_field that follow */
    uint32_t reserved;    /* 0 */
};

/* A field of cycles inside events: a u64 at `offset` in the payload of every event whose
 * common_type is `type` (when the payload is long enough to hold it), converted as times
 * are. (function_graph's calltime and rettime: the ring keeps cycles, Linux's records hold
 * nanoseconds.) */
struct capture_cycle_field {
    uint16_t type;
    uint16_t offset;
};

/* The payload of CAPTURE_EVENTS, before its records. */
struct capture_events {
    uint64_t time;        /* cycles the first record's delta counts from; with no records,
                           * when the losses it carries were counted */
    uint64_t first_entry; /* the ring's number of the first record (per CPU, in writing
                           * order; a discarded record has one too) */
    uint64_t lost_before; /* events lost on this CPU between the previous frame's records and
                           * this frame's first (overwritten, or refused by a full buffer) */
};

#endif
