/*
 * trace_events.h - named trace events: the `events/` directory of the tracing tree.
 *
 * An event (Linux's trace_event_call) belongs to a system ("syscalls", "user_events") and
 * has a directory events/SYSTEM/NAME with the files `enable` (0/1), `format` (the record's
 * layout, as perf and trace-cmd read it) and `id`. Its records go into the one trace buffer
 * with the event's id as their trace_entry type, whatever tracer is current (as on Linux,
 * events show with the nop tracer too), and print through the event's own print function.
 * Also: `events/enable`, `events/SYSTEM/enable` (reading 0, 1, or X when mixed),
 * `available_events` and `set_event` ("system:name" per line, '!' to disable).
 */
#ifndef TRACE_EVENTS_TRACE_EVENTS_H
#define TRACE_EVENTS_TRACE_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/core/trace.h"
#include "trace/events/event_fields.h"
#include "trace/core/trace_pid_filter.h" /* issue 18, set_event_pid */
#include "kernel/lib/name_hash.h"

/* Ids below this are the fixed enum trace_type numbers; events get ids from here up. */
#define TRACE_EVENT_ID_FIRST 32
#define TRACE_EVENT_ID_LAST 0xffff
#define TRACE_EVENT_NAME_MAX 64

/* The size of struct trace_entry: an event's own fields start at this record offset. */
#define TRACE_EVENT_HEADER_SIZE 8

struct trace_event_call;

struct trace_event_ops {
    /* Prints one record after the context columns, without the newline (syscalls:
     * "sys_write(fd: 1, buf: 40001000, count: c)"; user_events: "test: count=5"). */
    void (*print)(struct fs_writer *out, const struct trace_event_call *call,
                  const struct trace_event_view *ev);
    /* Prints the event's own fields of the `format` file (the lines after the common
     * fields' block and its blank line) and the "print fmt: ..." line; for an event that
     * describes its fields (call->fields), the core prints those lines and this prints
     * only what follows them (the blank line and "print fmt: ..."). */
    void (*print_format)(struct fs_writer *out, const struct trace_event_call *call);
    /* Recording of this event turns on or off (enable file, set_event, events/enable).
     * May refuse with a negative errno. May be NULL. */
    int (*enable)(struct trace_event_call *call, bool on);
    /* May be NULL. Offered to every disabled event once a write to the tree's enable
     * files or set_event has finished: the events tree no longer holds the event (an open
     * file of its directory never does), and the owner may unregister
     * and free it here (user_events deletes an event when its last reference goes), but
     * no other event: the caller walks the list on (trace_events.c, "Concurrency"). */
    void (*unused)(struct trace_event_call *call);
};

struct trace_event_call {
    const char *system;                /* directory under events/ */
    char name[TRACE_EVENT_NAME_MAX];   /* directory under events/SYSTEM/ */
    const struct trace_event_ops *ops;
    void *data;                        /* the owner's */
    /* The record's own fields (event_fields.h), for format, filters, triggers; or NULL.
     * Set before registering, unchanged while registered. */
    const struct trace_event_field *fields;
    uint16_t nr_fields;
    /* Managed by trace_events.c: */
    uint16_t id;                       /* also the trace_entry type of its records */
    volatile bool enabled;             /* writers test this before recording */
    bool registered;                   /* between trace_event_register and unregister */
    /* events/SYSTEM/NAME once made: a directory is made only when its system's directory
     * is first looked into (Linux's eventfs), its files when it is (fs_mkdir_lazy). */
    struct fs_node *dir;
    struct name_hash_link name_link;   /* in its system's index of names */
    struct trace_event_call *next, *prev; /* the registered events, in registration order */
    /* issue 18, event filters: the compiled `filter` (event_filter.h), NULL when none. Set
     * by event_filter_files.c only, read by writers in trace_event_commit. */
    struct event_filter *filter;
    /* issue 18, triggers (event_trigger.c): TRACE_EVENT_FL_* bits, tested by writers in
     * trace_event_reserve/commit; the event's triggers, newest first; how many triggers
     * (its own, and enable_event/disable_event of others) keep it armed (Linux's sm_ref). */
    volatile uint8_t trigger_flags;
    uint16_t soft_refs;
    struct event_trigger *triggers;
    /* issue 18, instances (trace/core/trace_instance.h): bit i set while the event is
     * enabled in instance i (1..TRACE_INSTANCES_MAX; bit 0 is not used), with
     * TRACE_EVENT_FL_INSTANCES in trigger_flags while any is; top_off: its writers are
     * attached (enabled) for instances only, the top array's enable being 0 (then
     * soft_refs is 0). Set by trace_events.c, read by writers in event_commit.c. */
    volatile uint8_t instances;
    volatile bool top_off;
};

/* Publishes an event: gives it an id, and events/SYSTEM/NAME with its files shows when a
 * reader looks for it (made then: trace_events.c, "The events/ tree").
 * Returns 0, -EEXIST (same system and name), -ENOSPC (no ids left) or -ENOMEM. */
int trace_event_register(struct trace_event_call *call);

/* The heap an event's directory takes once made (its node, index and files), whether it
 * is made yet or not: user_events charges it against its budget when the event is
 * created, so that reading events/ later cannot take the heap past the budget. */
size_t trace_event_dir_cost(void);

/* How many events have been registered since boot: a count that only grows, so a reader
 * that kept it knows whether any event (and format) appeared since (the binary capture
 * sends the formats again at its end only then). */
uint32_t trace_events_registered(void);

/* Describes a built-in record type (enum trace_type, below TRACE_EVENT_ID_FIRST) in
 * events/SYSTEM/NAME/format and id, without an enable file: call->ops needs only
 * print_format. For the kernel's lifetime. Returns 0, -EINVAL, -EEXIST or -ENOMEM. */
int trace_event_describe_builtin(struct trace_event_call *call, uint16_t type);

/* Removes an event and its directory: 0, or -EBUSY while it is enabled. Its records still
 * in the buffer print as "[UNKNOWN EVENT id]" afterwards, as a stale type would on Linux.
 * Files of its directory that programs hold open stay open, out of the tree, and answer
 * -ENODEV (Linux's tracefs does the same): the caller may free the event at once. */
int trace_event_unregister(struct trace_event_call *call);

/* Turns recording of an event on or off, as writing its enable file does: 0 or -errno.
 * It does not offer the event to its unused op: the caller still holds it. */
int trace_event_set_enabled(struct trace_event_call *call, bool on);

/* The registered event with this id, or NULL. */
const struct trace_event_call *trace_event_by_id(uint16_t id);

/* Prints a record whose type is an event id (called by the core's event printer):
 * the event's print, or "[UNKNOWN EVENT id]" when no such event exists any more. */
void trace_event_print(struct fs_writer *out, const struct trace_event_view *ev);

/* Prints the common fields' block of a `format` file (common_type ... common_pid) and the
 * blank line after it: every event's format starts with it. */
void trace_event_print_common_fields(struct fs_writer *out);

/* --- issue 18: how an event's writer records ------------------------------------------- */

/* issue 18, triggers: trigger_flags bits. TRIGGERS: the event has triggers; COND: one of
 * them needs the record (a filter, a post trigger), so the record is built in a per-CPU
 * scratch record first and copied to the buffer at commit (event_commit.c); SOFT_DISABLED:
 * armed by triggers while its own enable is 0, so its records are discarded. */
#define TRACE_EVENT_FL_TRIGGERS 0x01
#define TRACE_EVENT_FL_COND 0x02
#define TRACE_EVENT_FL_SOFT_DISABLED 0x04
/* issue 18, instances: enabled in an instance, so its records are built in a scratch record
 * and copied at commit into every array that wants them (event_commit.c); an event enabled
 * in the top array only, or nowhere, never has it: its writers keep the fast path. */
#define TRACE_EVENT_FL_INSTANCES 0x08
/* trace_event_reserve when trigger_flags is set (event_commit.c): runs the triggers that
 * need no record, then reserves in the buffer, or in the scratch record, or not at all. */
struct trace_entry *trace_event_reserve_triggered(const struct trace_event_call *call,
                                                  uint32_t length, int32_t about_pid);

/* issue 18, set_event_pid (trace/events/event_pid.c): the lists, and whether an event is
 * left out by them: when the running task is, and so is about_pid (the other task an event
 * is about, or -1 for none). Linux keeps a sched_switch whose prev or next task is listed,
 * and a sched_wakeup of a listed task whoever wakes it. */
extern struct trace_pid_filter trace_event_pids;
bool trace_event_pid_ignored(int32_t about_pid);

/* trace_event_reserve for an event about a second task (about_pid, see above), which
 * set_event_pid keeps when either task is listed. */
static inline struct trace_entry *trace_event_reserve_about(const struct trace_event_call *call,
                                                            uint32_t length, int32_t about_pid)
{
    if (__builtin_expect(call->trigger_flags != 0, 0)) /* issue 18, triggers */
        return trace_event_reserve_triggered(call, length, about_pid);
    if (__builtin_expect(trace_event_pids.active, 0) && trace_event_pid_ignored(about_pid))
        return 0; /* set_event_pid: not these tasks */
    return trace_reserve(call->id, length);
}

/* What an event's writer calls instead of trace_reserve: a record of length bytes
 * (trace_entry included) with its common fields filled, or NULL when the event is not
 * recorded now (tracing off, or the buffer lost it and counted it). Every event writer
 * (tracepoints, syscalls, user_events, kprobes) goes through here, so that what decides
 * whether an event is recorded at all (set_event_pid; triggers that need the record while
 * tracing is off) is decided in one place. Commit it with trace_event_commit. */
static inline struct trace_entry *trace_event_reserve(const struct trace_event_call *call,
                                                      uint32_t length)
{
    return trace_event_reserve_about(call, length, -1);
}

/* --- issue 18, event filters (trace/events/event_filter_files.c) ----------------------- */

/* What an event's writer calls instead of trace_commit: commits the record e (of length
 * bytes, trace_entry included, as reserved) when the event has no filter or the filter
 * passes it; otherwise gives its space back (rb_discard): it leaves nothing in the buffer
 * and is not counted as lost. Returns whether the record was kept. With triggers (issue 18,
 * event_commit.c): a scratch record runs the triggers that need it, is copied to the buffer
 * unless the event is soft-disabled or filtered out, and post triggers run after. */
bool trace_event_filter_commit(const struct trace_event_call *call, struct trace_entry *e,
                               uint32_t length);

static inline bool trace_event_commit(const struct trace_event_call *call, struct trace_entry *e,
                                      uint32_t length)
{
    if (__builtin_expect(call->filter == 0 && call->trigger_flags == 0, 1)) {
        trace_commit();
        return true;
    }
    return trace_event_filter_commit(call, e, length);
}

/* issue 18, triggers (trace_events.c): a trigger on call, or an enable_event/disable_event
 * aimed at it, arms it (Linux's soft mode): its writers fire whatever its enable says, and
 * while that is 0 its records are discarded (TRACE_EVENT_FL_SOFT_DISABLED); `enable` reads
 * "0*" or "1*". Each arm is undone by one disarm. 0, -ENOENT (not registered), -EBUSY (too
 * many arms), or the owner's enable error. Thread context, and only from event_trigger.c
 * with its trigger_mutex held: that mutex is what serializes soft_refs. */
int trace_event_soft_arm(struct trace_event_call *call);
void trace_event_soft_disarm(struct trace_event_call *call);

/* The events/SYSTEM/NAME/filter and events/SYSTEM/filter files, made by trace_events.c
 * with the directories (false without memory); the event's filter freed when it leaves;
 * the system's last filter text forgotten when its directory goes. */
bool trace_event_filter_create_file(struct fs_node *dir, struct trace_event_call *call);
bool trace_event_filter_create_system_file(struct fs_node *sysdir, const char *system);
void trace_event_filter_release(struct trace_event_call *call);
void trace_event_filter_system_gone(const char *system);
/* The first registered event (registration order; ->next for the others): for the system
 * filter file. Thread context, as the walks of trace_events.c ("Concurrency"). */
struct trace_event_call *trace_events_first(void);

/* --- issue 18, instances (trace/core/trace_instance.c) ---------------------------------- */

/* Turns call on or off in array slot (0: the top array, as trace_event_set_enabled; 1..:
 * an instance): 0, -ENOENT (not registered), -ENOMEM (no scratch records) or the owner's
 * enable error. Thread context. */
int trace_event_set_enabled_in(struct trace_event_call *call, unsigned slot, bool on);
/* An instance's set_event and events/enable (data: its slot), made in its directory and its
 * events directory; false without memory (the caller removes what was made). */
bool trace_events_create_instance_files(struct fs_node *dir, struct fs_node *events_dir,
                                        unsigned slot);
/* The instance in slot goes: every event is turned off in it (and offered to its owner's
 * unused op). Thread context. */
void trace_events_instance_gone(unsigned slot);

#endif
