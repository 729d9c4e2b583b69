/*
 * trace_instance.h - Linux's instances/: trace arrays of their own, each with its own ring
 * buffer, made and removed by a user (`mkdir instances/foo`, trace-cmd -B foo).
 *
 *   instances/NAME/trace, trace_pipe           its events, read by the top array's readers
 *   instances/NAME/tracing_on                  records or not, apart from the top's
 *   instances/NAME/trace_marker                a marker into its buffer
 *   instances/NAME/buffer_size_kb              its size per CPU (it starts at the boot size)
 *   instances/NAME/buffer_total_size_kb        all CPUs
 *   instances/NAME/current_tracer              nop (no tracer runs in an instance here)
 *   instances/NAME/set_event, events/enable    which events it records
 *   instances/NAME/options/overwrite           its own overwrite/drop mode
 *   instances/NAME/per_cpu/cpuN/trace_pipe_raw, stats
 *
 * An event enabled in several arrays is recorded into each (Linux's per-trace_event_file
 * design): the event keeps a bitmask of the instances it is enabled in
 * (trace_event_call.instances), and while it has one its writer takes the slow path of
 * event_commit.c; an event enabled in the top array only, or off, writes as before.
 * Filters, triggers and set_event_pid stay the top array's. The COM2 stream, the binary
 * capture and the flight recorder carry the top array only.
 *
 * rmdir is EBUSY while any file of the instance is open, as on Linux. At most
 * TRACE_INSTANCES_MAX instances exist (ENOSPC after), and each buffer is charged against
 * the page allocator's reserve as buffer_size_kb is (ENOMEM).
 */
#ifndef TRACE_CORE_TRACE_INSTANCE_H
#define TRACE_CORE_TRACE_INSTANCE_H

#include <stdint.h>

#include "trace/core/trace.h"

/* Instances are slots 1..TRACE_INSTANCES_MAX: bits of an 8-bit mask (bit 0 is the top). */
#define TRACE_INSTANCES_MAX 7

/* Creates instances/ (trace_init). */
void trace_instances_init(void);

/* Copies the record e (length bytes, trace_entry included) into the buffer of every
 * instance in mask that records. Any context; each copy is made with interrupts off, which
 * is what keeps an instance's buffer from being freed under it (rmdir runs in thread
 * context, on this one CPU). */
void trace_instances_write(uint8_t mask, const struct trace_entry *e, uint32_t length);

/* Counts one event lost on this CPU in each recording instance of mask (the writer could
 * not take a record for them): it shows as lost as any dropped event does. Any context. */
void trace_instances_count_lost(uint8_t mask);

/* The time (cycles) of the oldest record in any instance, UINT64_MAX when none: event ids
 * are not reused while a record of theirs may remain (trace_events.c). */
uint64_t trace_instances_oldest_record(void);

#endif
