/*
 * trace_snapshot.h - the snapshot buffer (Linux's max_buffer/snapshot_buffer): a second
 * ring buffer that trades places with the live one, so a moment's trace is kept while
 * tracing goes on.
 *
 *   snapshot   echo 1: allocate (the live buffer's size) if needed, then swap it with the
 *              live buffer; echo 0: free it (EBUSY while a snapshot trigger needs it);
 *              echo 2 (any other number): empty it, if allocated; read: its events in the
 *              trace format, or Linux's help text while it is empty or freed
 *
 * Not the `snapshot` tracer (trace/snapshot/): that one records CPU state at int3 sites
 * (TRACE_SNAPSHOT()) into the live buffer; this file keeps a copy of the whole buffer.
 *
 * The snapshot buffer mirrors the live one's settings, as Linux's: it is allocated at the
 * live size and resized with it (buffer_size_kb), and a swap gives the buffer swapped in
 * the live one's overwrite mode and tracing_cpumask. Each buffer keeps the time it was last
 * emptied, which latency-format counts from, and takes it along in a swap.
 *
 * Swapping exchanges the trace_buf pointer with interrupts off, between two events of
 * every CPU: the live buffer's writers on all CPUs are stopped and waited for (their
 * refusals meanwhile counted as dropped), then the other buffer is published and its
 * writers let in; the snapshot's writers stay stopped (trace.c, trace_swap_buffers). A
 * swap is refused (and counted) while a writer on this CPU is between reserve and commit
 * (it would commit into the other buffer), when another CPU's writer does not commit within
 * 250 ms, during a resize, or while a reader holds the reader lock. Readers take
 * trace_buffer() anew under the reader lock for every event (trace_pipe, the per_cpu files,
 * the COM2 stream and capture), or hold an iterator over one buffer for a whole `trace`
 * read; the snapshot buffer is freed only by a write of the file, which no read of it is
 * in the middle of (one at a time), once every other CPU has had interrupts on since it
 * was taken out (no writer still holds it).
 */
#ifndef TRACE_CORE_TRACE_SNAPSHOT_H
#define TRACE_CORE_TRACE_SNAPSHOT_H

#include <stdbool.h>

/* A snapshot trigger is being added: allocates the buffer if needed and keeps it until
 * trace_snapshot_disarm. 0 or -ENOMEM. Thread context. */
int trace_snapshot_arm(void);
void trace_snapshot_disarm(void);

/* Swaps the live buffer and the snapshot, in any context; false when refused (not
 * allocated, or busy as above). */
bool trace_snapshot_take(void);

/* For trace_resize, which resizes the snapshot buffer with the live one: the buffer
 * (NULL while freed), kept allocated, and neither allocated nor freed, until
 * trace_snapshot_release. Thread context; the caller holds off swaps (trace.c's
 * resize_lock). */
struct ring_buffer *trace_snapshot_hold(void);
void trace_snapshot_release(void);

/* Creates the snapshot file (trace_init). */
void trace_snapshot_init(void);

#endif
