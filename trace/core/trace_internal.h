/*
 * trace_internal.h - what the parts of the tracing core share (trace.c, trace_files.c,
 * trace_stream.c, trace_read.c). Tracers use trace.h only.
 */
#ifndef TRACE_CORE_TRACE_INTERNAL_H
#define TRACE_CORE_TRACE_INTERNAL_H

#include <stddef.h>

#include "kernel/lib/parse.h"
#include "kernel/spinlock.h"
#include "trace/core/trace.h"

/* Held by whoever consumes events or changes the buffer's shape, so that one consumer
 * reads at a time. Writers never take it. */
extern struct spinlock trace_reader_lock;

/* Page and memory functions for ring buffers in the kernel. */
extern const struct rb_env trace_rb_env;
/* Whether count more pages can be trace buffers' (trace_rb_env's): high memory's window
 * first (kernel/mm/highmem.h, highmap_page), then low pages that leave the kernel's reserve
 * (PAGE_KERNEL_RESERVE). */
bool trace_pages_fit(uint64_t count);

struct tracer *trace_current(void);
struct tracer *trace_tracers(void);
struct tracer *trace_find_tracer(const char *name, size_t len);
int trace_switch(struct tracer *next);
void trace_set_on(bool on);
bool trace_is_on(void);
/* issue 18, triggers: tracing_on set by a traceon/traceoff trigger, in any context: the
 * flag only, as Linux's tracing_on()/tracing_off() (a tracer's start and stop are for the
 * tracing_on file). */
void trace_set_on_from_trigger(bool on);
/* issue 18, the snapshot buffer: swaps trace_buf and *other, and their start times
 * (trace_time_start_ns and *other_start_ns); trace.c says when it may. */
bool trace_swap_buffers(struct ring_buffer **other, uint64_t *other_start_ns);

/* issue 19: returns once every other CPU has had interrupts on since the call (an empty
 * call-function IPI each, Linux's synchronize_rcu for readers that run with interrupts
 * off): a writer that held something with interrupts off (a filter program, a trigger, a
 * buffer pointer) is done with it. Only with interrupts on (thread context, no spinlock
 * held: another CPU may spin on it with interrupts off and never take the IPI); returns
 * false, having waited for nothing, when called with them off. */
bool trace_sync_writers(void);
/* Prints rb's events as the `trace` file does, under the header of tracer_name
 * (trace_read.c); the snapshot file prints its buffer with it. Thread context: one walk
 * at a time, a second caller sleeps until the first is done. */
void trace_print_buffer(struct fs_writer *out, struct ring_buffer *rb);
/* issue 19: no walk of trace_print_buffer runs between these two (a resize: a walk's
 * iterators hold page numbers of the rings it replaces). Thread context. */
void trace_print_walks_stop(void);
void trace_print_walks_start(void);
void trace_header_info(struct trace_header_info *info);
/* Resizes the buffer (buffer_size_kb), and the snapshot buffer with it when allocated:
 * 0, -EINVAL, or -ENOMEM when the new pages would take the kernel's reserve
 * (kernel/mm/page_alloc.h); on an error both are unchanged. */
int trace_resize(uint32_t pages_per_cpu);

/* Prints one event the way the current tracer wants it. */
void trace_print_event(struct fs_writer *out, const struct trace_event_view *ev);
/* Prints a loss record the way the current tracer wants it. */
void trace_print_lost(struct fs_writer *out, unsigned cpu, uint64_t lost);

/* One event's payload copied out of the ring, aligned so that tracers may cast it. Each
 * reading context has its own: a copy is printed after the reader lock is released. */
union trace_event_copy {
    uint64_t align;
    uint8_t bytes[RB_MAX_EVENT];
};

/* Consumes up to budget events (merged across CPUs by time) into copy and prints them with
 * their loss records; at_end also reports losses after the last event. Takes the reader
 * lock for each event. Returns the number of events printed. */
unsigned trace_consume_print(struct fs_writer *out, unsigned budget, bool at_end,
                             union trace_event_copy *copy);

/* Prints the whole `trace` file: header and every event in the buffer, not consuming. */
void trace_print_all(struct fs_writer *out);

void trace_files_init(void);
/* trace_options= of the kernel command line (trace_files.c). */
void trace_apply_boot_options(const char *list);
/* trace_pipe_raw, events/header_page and header_event, trace_clock (trace_raw.c). */
void trace_raw_init(void);
void trace_stream_init(void);
/* A new tracer became current: its pipe header is pending, and goes to COM2 now if the
 * stream runs, else when it starts (trace_stream_send_pending_header). */
void trace_stream_begin(void);
/* Sends the current tracer's pipe header to COM2 if it has not gone there since the tracer
 * became current; else nothing. For whoever is about to write the tracer's events to COM2,
 * holding off other COM2 writers (the stream's batch, the flight recorder). */
void trace_stream_send_pending_header(void);
/* A writer whose text goes straight to COM2 (the stream's, and the flight recorder's). */
struct fs_writer *trace_com2_writer(void);
/* A reader in the guest that consumes the ring (an interactive `cat trace_pipe`, an open
 * per_cpu/cpuN/trace_pipe_raw) takes precedence over the COM2 stream: while one is there,
 * the stream waits and takes nothing (trace_files.c counts them). */
bool trace_pipe_has_follower(void);
void trace_pipe_follower_enter(void);
void trace_pipe_follower_leave(void);
/* The COM2 stream is on (options/stream_com2). */
extern bool trace_stream_enabled;
/* options/stream_com2 and options/stream_raw: switching the stream off, or between text and
 * the binary capture, first ends an open capture (trace_stream.c). */
void trace_stream_set_enabled(bool on);
void trace_stream_set_raw(bool on);
bool trace_stream_raw(void);
/* options/record-cmd (issue 18): task names are saved for the trace output (trace.c). */
extern bool trace_record_cmd;

/* The binary capture (trace_capture.c), driven by the stream, which runs one of these at a
 * time. Open and close only in thread context (they do nothing in an interrupt). */
bool trace_capture_is_open(void);
/* Events wait in the ring. */
bool trace_capture_pending(void);
/* CAPTURE_START, CAPTURE_CLOCK and every file a reader needs. */
void trace_capture_open(void);
/* Sends the pages writers have left until the deadline; true if it stopped there (more to
 * do). */
bool trace_capture_pages(uint64_t deadline);
/* With drain, every event in the ring and the losses after the last; then the files that
 * may have changed, CAPTURE_END. */
void trace_capture_close(bool drain);
/* For the flight recorder, at a crash or halt (interrupts off, no other CPU running, the
 * reader lock taken over): if a capture is open, sends every event left (the losses at the
 * end too) and CAPTURE_END, without the files (rendering them walks the tracefs tree,
 * which the crash may have left half changed), and returns true; a frame the crash cut off
 * is sent again whole if its ring page still is, and a reader skips the cut one as damage.
 * False if no capture is open. */
bool trace_capture_end_at_crash(void);

/* --- issue 18, instances (trace_instance.c): what the readers and files share ---------- */
struct trace_array; /* an instance; NULL means the top array (trace_buf) */
/* The buffer of tr: an instance's own, or for NULL the live top one (trace_buffer()). */
struct ring_buffer *trace_array_buffer(const struct trace_array *tr);
/* A per_cpu/cpuN file's data: whose buffer, which CPU. */
struct trace_cpu_ref {
    const struct trace_array *tr;
    unsigned cpu;
};
/* trace_consume_print for tr's buffer (the COM2 stream and capture read the top only). */
unsigned trace_consume_print_from(const struct trace_array *tr, struct fs_writer *out,
                                  unsigned budget, bool at_end, union trace_event_copy *copy);
/* The trace_pipe file of tr (trace_files.c): consumes and prints, following when the
 * reader follows; only the top's reader steps the COM2 stream aside. */
int trace_read_pipe(const struct trace_array *tr, struct fs_writer *out);
/* per_cpu/cpuN/stats of rb (trace_files.c). */
void trace_print_cpu_stats(struct fs_writer *out, struct ring_buffer *rb, unsigned cpu);
struct fs_node *trace_create_cpu_stats_file(struct fs_node *dir, const struct trace_cpu_ref *ref);
/* buffer_size_kb of tr: read (total: all CPUs, buffer_total_size_kb) and write. */
void trace_print_buffer_size_kb(struct fs_writer *out, struct ring_buffer *rb, bool total);
int trace_write_buffer_size_kb(struct ring_buffer *rb, const char *data, size_t len);
/* Resizes rb (NULL: the top buffer) as trace_resize does. */
int trace_resize_buffer(struct ring_buffer *rb, uint32_t pages_per_cpu);
/* A marker into rb, as tracing_mark_write writes one into the top buffer. */
int trace_mark_write_to(struct ring_buffer *rb, const char *text, uint32_t len);
/* Parses a 0/1 file write as Linux's kstrtoul_from_user (trace_files.c). */
int trace_parse_bool(const char *data, size_t len, bool *out);
/* The per-CPU buffer size an instance starts with: the boot size (trace_buf_size=). */
extern uint32_t trace_default_pages;
/* Creates tr's per_cpu/cpuN/trace_pipe_raw in dir (trace_raw.c); NULL without memory. */
struct fs_node *trace_raw_create_file(struct fs_node *dir, const struct trace_cpu_ref *ref);

#endif
