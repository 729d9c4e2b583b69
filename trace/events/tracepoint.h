/*
 * tracepoint.h - static kernel events (Linux's TRACE_EVENT): how kernel code defines an event
 * with fields and records it at a call site for the cost of one load and one branch while
 * the event is off.
 *
 * An event is a struct trace_event_call defined by its owner (trace/events/sched_events.c,
 * irq_events.c, exceptions_events.c) with .system, .name, .fields/.nr_fields
 * (event_fields.h), .ops = &tracepoint_ops and .data = a struct tracepoint_info (its print
 * fmt, print function and attach function); tracepoint_register() publishes it at boot, and
 * from then on it has enable, format and id like any event. The code the event sits in
 * calls it through a hook of kernel/trace_hooks.h (the kernel does not include the tracer's
 * headers): NULL while the event is off, so a disabled event costs the call site a load and
 * a branch; enabling the event attaches its recorder there. The recorder reserves with
 * tracepoint_reserve, fills the fields and commits with tracepoint_commit. Records are read
 * back through the bounds-checked field readers below, so a cut record prints as zeros and
 * empty strings.
 */
#ifndef TRACE_EVENTS_TRACEPOINT_H
#define TRACE_EVENTS_TRACEPOINT_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/trace_hooks.h"
#include "trace/events/trace_events.h"

/* What a static event adds to its trace_event_call (its .data). */
struct tracepoint_info {
    const char *print_fmt; /* the text after "print fmt: " in its format file */
    /* Prints one record's text (after the context columns), as print_fmt describes it. */
    void (*print)(struct fs_writer *out, const struct trace_event_call *call,
                  const struct trace_event_view *ev);
    /* Sets the event's hook in kernel/trace_hooks.h to its recorder (on) or to NULL. */
    void (*attach)(bool on);
};

/* The ops every static event uses: print through its info, format from its fields. */
extern const struct trace_event_ops tracepoint_ops;

/* A record of size bytes for call, its common fields filled; NULL when it is not recorded
 * (tracing off, or the buffer lost it and counted it). Commit it with tracepoint_commit. */
static inline void *tracepoint_reserve(const struct trace_event_call *call, uint32_t size)
{
    return trace_event_reserve(call, size);
}

/* tracepoint_reserve for an event about a second task, which set_event_pid keeps when
 * either the running task or about_pid is listed (sched_switch's next, sched_wakeup's
 * woken task), as Linux does. */
static inline void *tracepoint_reserve_about(const struct trace_event_call *call,
                                             uint32_t size, int32_t about_pid)
{
    return trace_event_reserve_about(call, size, about_pid);
}

/* Commits a record tracepoint_reserve gave, or discards it when the event's filter
 * rejects it (trace_event_commit). */
static inline void tracepoint_commit(const struct trace_event_call *call, void *record,
                                     uint32_t size)
{
    trace_event_commit(call, record, size);
}

/* Copies a task name into a char[16] field (Linux's comm), cut and NUL-padded. */
void tracepoint_copy_comm(char *field, const char *name);

/* Bytes a __data_loc string of s takes after the fixed part (its NUL included). */
uint32_t tracepoint_string_size(const char *s);

/* Stores s (of tracepoint_string_size(s) bytes) at record offset `at` and points the u32
 * __data_loc field `loc` at it: (length << 16) | offset, as Linux's __assign_str. */
void tracepoint_put_string(void *record, uint32_t *loc, uint32_t at, const char *s);

/* call->fields[i] of ev as an integer; 0 when the record does not hold it. */
int64_t tracepoint_int(const struct trace_event_call *call, const struct trace_event_view *ev,
                       unsigned i);

/* Prints call->fields[i] of ev as a string (nothing when the record does not hold it). */
void tracepoint_print_str(struct fs_writer *out, const struct trace_event_call *call,
                          const struct trace_event_view *ev, unsigned i);

/* Registers a static event at boot; a failure is logged and leaves the event off for good
 * (its call sites keep seeing enabled == false). */
void tracepoint_register(struct trace_event_call *call);

#endif
