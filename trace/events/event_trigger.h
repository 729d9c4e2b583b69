/*
 * event_trigger.h - events/SYSTEM/NAME/trigger: commands an event runs when it fires
 * (Linux's trace_events_trigger.c): traceon, traceoff, snapshot, stacktrace, enable_event
 * and disable_event, each with an optional count and filter (trigger_parse.h), and hist,
 * which counts the event's records in a table (hist_table.h) that events/SYSTEM/NAME/hist
 * prints (Linux's trace_events_hist.c).
 *
 *   read     one line per trigger, newest first, as Linux prints them
 *            ("traceoff:count=1 if status == 0", "enable_event:sched:sched_switch:unlimited"),
 *            or "# Available triggers:" and the command names when the event has none
 *   write    adds a trigger; "!COMMAND" removes the one of that command (of that target);
 *            a hist spec ending in :pause, :cont or :clear acts on the event's hist. A '>'
 *            write (O_TRUNC) first removes the event's hist triggers, as Linux's open does.
 *
 * An event with a trigger is armed (Linux's soft mode): its tracepoint fires even while
 * its `enable` is 0, its triggers run, and its records are discarded unless the event is
 * enabled; `enable` then reads "0*" ("1*" when enabled). enable_event/disable_event arm
 * their target the same way and turn its records on or off (Linux's SOFT_DISABLED bit).
 * An armed event counts as enabled: it cannot be unregistered (EBUSY) until its triggers,
 * and the triggers aiming at it, are removed.
 *
 * When they run (event_commit.c): triggers that need no record (no filter, not a post
 * trigger) run before the record is reserved, whatever tracing_on says; when one needs the
 * record, the event is written into a per-CPU scratch record and its triggers see it there
 * at commit, even while tracing is off; traceoff and stacktrace are post triggers: they run
 * once the record is in the buffer, so the event that stops tracing is the last one in it.
 *
 * Refusals: EINVAL, with an entry in error_log (the filter's own for a bad filter, as
 * Linux's; Linux's "hist:SYSTEM:EVENT" one for a bad hist spec; "event trigger parse error"
 * for the rest, which Linux does not log); EEXIST for a second trigger of one type
 * (traceon and traceoff share one, as on Linux; one hist per event here); ENOENT for a hist
 * :cont or :clear with no such hist, or an event not registered; EBUSY when an event has
 * been armed too many times (trace_event_soft_arm); ENODEV from a file whose event was
 * unregistered while it was open; ENOSPC past EVENT_TRIGGERS_MAX triggers on an event;
 * ENOMEM (also past the hist tables' 1 MiB budget).
 *
 * Locking: the files' reads and writes are serialized by a sleeping mutex (Linux's
 * event_mutex); the event's writers run the triggers without a lock (event_trigger.c).
 */
#ifndef TRACE_EVENTS_EVENT_TRIGGER_H
#define TRACE_EVENTS_EVENT_TRIGGER_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/events/trace_events.h"

#define EVENT_TRIGGERS_MAX 64

/* events/SYSTEM/NAME/trigger and hist, made with the event's directory (false without
 * memory); the first call also makes the per-CPU scratch records (event_commit.c). */
bool trace_event_trigger_create_file(struct fs_node *dir, struct trace_event_call *call);

/* The writer's side (event_commit.c), interrupts off: */
/* Runs every trigger of call as Linux does before reserving (no record to test). */
void event_triggers_run_early(const struct trace_event_call *call);
/* Runs the triggers whose filter passes the record and that are not post triggers; returns
 * the post triggers' kinds that matched (bit 1 << kind), to run after the commit. */
unsigned event_triggers_run_on_record(const struct trace_event_call *call, const void *record,
                                      uint32_t length);
/* Runs the post triggers of those kinds; fp is the frame a stack trace starts from, flags
 * the context flags of the event's record (the stack trace's own). */
void event_triggers_run_post(const struct trace_event_call *call, unsigned kinds, uintptr_t fp,
                             uint8_t flags);

/* The per-CPU scratch records (event_commit.c): made once, with the first event's files,
 * and checked again before an event gets a trigger needing a record (false without
 * memory). Thread context. */
bool event_commit_scratch_ready(void);

#endif
