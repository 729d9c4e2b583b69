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
 * this CPU only: a swap is refused (and counted) while a writer on this CPU is between
 * reserve and commit (it would commit into the other buffer), during a resize, or while a
 * reader holds the reader lock. Readers take trace_buffer() anew under the reader lock for
 * every event (trace_pipe, the per_cpu files, the COM2 stream and capture), or hold an iterator
 * over one buffer for a whole `trace` read; the two buffers are freed only here, in thread
 * context, which no reader is in the middle of (one CPU, the kernel does not preempt).
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
