/*
 * event_commit.c - the slow paths of an event's writer (trace_events.h): what
 * trace_event_reserve does when the event has triggers or is soft-disabled, and what
 * trace_event_commit does when the event has a filter or triggers.
 *
 * The scratch records. An event with a trigger that needs the record (a filter, a post
 * trigger) is written into a per-CPU scratch record instead of the ring (Linux's
 * trace_buffered_event), so its triggers see it even while tracing is off or the event is
 * soft-disabled; at commit the triggers run on it, and it is copied into the ring only if
 * the event is enabled and its filter passes. Each CPU has SCRATCH_LEVELS records, used
 * last-in first-out: a writer interrupted between reserve and commit by a handler that
 * writes a triggered event too uses the next one. Deeper nesting gets no scratch record:
 * the event is then reserved in the ring as if it had no such trigger (its filtered and
 * post triggers miss that one record).
 *
 * issue 18, instances: an event enabled in an instance (TRACE_EVENT_FL_INSTANCES) is
 * always written into a scratch record, whatever the top array's tracing_on, set_event_pid
 * and enable say; at commit the top array gets its copy as above (its triggers, filter and
 * pid list are the top's only) and every instance the event is enabled in that records
 * gets one too (trace_instances_write). With no scratch record left (deeper nesting) the
 * top records it as without instances, and each instance counts it lost (its `trace`
 * header and trace_pipe_raw say so).
 */
#include "trace/events/trace_events.h"

#include "kernel/arch.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"
#include "trace/events/event_filter.h"
#include "trace/events/event_trigger.h"
#include "trace/core/trace_instance.h" /* issue 18, instances */

#define SCRATCH_LEVELS 4

/* One CPU's scratch records: record[depth] is the next free one. Touched by that CPU only,
 * with interrupts off. */
struct scratch {
    uint32_t depth;
    uint32_t record[SCRATCH_LEVELS][RB_MAX_EVENT / 4]; /* 4-aligned, as ring payloads */
    bool top_ignores[SCRATCH_LEVELS]; /* set_event_pid left the record out, at its reserve */
};

static struct scratch *scratch; /* arch_cpu_count() of them, made once, kept */

bool event_commit_scratch_ready(void)
{
    if (__atomic_load_n(&scratch, __ATOMIC_ACQUIRE))
        return true;
    struct scratch *s = kzalloc(arch_cpu_count() * sizeof *s);
    if (!s)
        return false;
    struct scratch *none = 0;
    if (!__atomic_compare_exchange_n(&scratch, &none, s, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        kfree(s);
    return true;
}

/* This CPU's next scratch record for length bytes, or NULL (none made, too deep, too long);
 * top_ignores: whether set_event_pid leaves it out of the top array (decided at reserve,
 * where the task the event is about is known). */
static struct trace_entry *scratch_get(uint32_t length, bool top_ignores)
{
    struct scratch *all = __atomic_load_n(&scratch, __ATOMIC_ACQUIRE);
    if (!all || length > RB_MAX_EVENT || length < sizeof(struct trace_entry))
        return 0;
    unsigned long irqs = arch_irq_save();
    struct scratch *s = &all[arch_cpu_id()];
    struct trace_entry *e = 0;
    if (s->depth < SCRATCH_LEVELS) {
        s->top_ignores[s->depth] = top_ignores;
        e = (struct trace_entry *)s->record[s->depth++];
    }
    arch_irq_restore(irqs);
    return e;
}

/* True when e is one of this CPU's scratch records. */
static bool scratch_owns(const struct trace_entry *e)
{
    struct scratch *all = __atomic_load_n(&scratch, __ATOMIC_ACQUIRE);
    if (!all)
        return false;
    const struct scratch *s = &all[arch_cpu_id()];
    const uint8_t *p = (const uint8_t *)e, *base = (const uint8_t *)s->record;
    return p >= base && p < base + sizeof s->record;
}

/* What scratch_get was told for this CPU's last scratch record (e, when scratch_owns(e)). */
static bool scratch_top_ignores(void)
{
    const struct scratch *s = &__atomic_load_n(&scratch, __ATOMIC_ACQUIRE)[arch_cpu_id()];
    return s->top_ignores[s->depth - 1];
}

/* Gives back this CPU's last scratch record. */
static void scratch_put(void)
{
    unsigned long irqs = arch_irq_save();
    __atomic_load_n(&scratch, __ATOMIC_ACQUIRE)[arch_cpu_id()].depth--;
    arch_irq_restore(irqs);
}

/*
 * As Linux's trace_trigger_soft_disabled, then the reserve: with no trigger needing the
 * record, every trigger runs now, and a soft-disabled event stops here; with one, the
 * record goes to a scratch record whatever tracing_on and the event's enable say.
 */
struct trace_entry *trace_event_reserve_triggered(const struct trace_event_call *call,
                                                  uint32_t length, int32_t about_pid)
{
    uint8_t fl = __atomic_load_n(&call->trigger_flags, __ATOMIC_ACQUIRE);
    if (!(fl & TRACE_EVENT_FL_COND) && (fl & TRACE_EVENT_FL_TRIGGERS)) {
        unsigned long irqs = arch_irq_save();
        event_triggers_run_early(call);
        arch_irq_restore(irqs); /* soft-disabled as it was before they ran, as Linux */
    }
    /* set_event_pid after the triggers that need no record, before any record, as
     * Linux's trace_event_buffer_reserve checks it (issue 18: for the top array only). */
    bool pid_ignored = __builtin_expect(trace_event_pids.active, 0) &&
                       trace_event_pid_ignored(about_pid);
    if (pid_ignored && !(fl & TRACE_EVENT_FL_INSTANCES))
        return 0;
    if (fl & (TRACE_EVENT_FL_COND | TRACE_EVENT_FL_INSTANCES)) {
        struct trace_entry *e = scratch_get(length, pid_ignored);
        if (e) {
            trace_entry_fill(e, call->id, arch_irqs_enabled());
            return e;
        }
        if (fl & TRACE_EVENT_FL_INSTANCES) /* nested too deep: the instances lose it */
            trace_instances_count_lost(__atomic_load_n(&call->instances, __ATOMIC_ACQUIRE));
    }
    if ((fl & TRACE_EVENT_FL_SOFT_DISABLED) || pid_ignored || call->top_off)
        return 0;
    return trace_reserve(call->id, length);
}

/* Commits a scratch record: its triggers, then a copy into the ring unless the event is
 * soft-disabled or filtered out, then its post triggers (which run either way, as on
 * Linux). fp: the writer's frame, where a stacktrace trigger's trace starts. */
static bool commit_scratch(const struct trace_event_call *call, struct trace_entry *e,
                           uint32_t length, uintptr_t fp)
{
    /* issue 18, instances: a record taken for instances may be one the top does not want
     * (its pid list leaves the task out, or it is off there: top_off). */
    bool top_wants = !scratch_top_ignores();
    /* Without COND the triggers already ran at reserve (a record taken for instances). */
    bool cond = __atomic_load_n(&call->trigger_flags, __ATOMIC_ACQUIRE) & TRACE_EVENT_FL_COND;
    unsigned long irqs = arch_irq_save();
    unsigned post = top_wants && cond ? event_triggers_run_on_record(call, e, length) : 0;
    bool keep = top_wants && !call->top_off &&
                !(__atomic_load_n(&call->trigger_flags, __ATOMIC_ACQUIRE) &
                  TRACE_EVENT_FL_SOFT_DISABLED);
    const struct event_filter *f = __atomic_load_n(&call->filter, __ATOMIC_ACQUIRE);
    if (keep && f)
        keep = event_filter_match(f, e, length);
    arch_irq_restore(irqs);
    uint8_t flags = e->flags;
    if (keep) {
        struct trace_entry *r = trace_reserve(e->type, length);
        if (r) {
            memcpy(r, e, length);
            trace_commit();
        }
        keep = r != 0;
    }
    uint8_t instances = __atomic_load_n(&call->instances, __ATOMIC_ACQUIRE);
    if (instances)
        trace_instances_write(instances, e, length); /* issue 18, instances */
    scratch_put();
    if (post) {
        irqs = arch_irq_save();
        event_triggers_run_post(call, post, fp, flags);
        arch_irq_restore(irqs);
    }
    return keep;
}

bool trace_event_filter_commit(const struct trace_event_call *call, struct trace_entry *e,
                               uint32_t length)
{
    if (scratch_owns(e))
        return commit_scratch(call, e, length, *(uintptr_t *)__builtin_frame_address(0));
    /* A ring record: the event had no trigger needing it when it was reserved. */
    unsigned long irqs = arch_irq_save();
    const struct event_filter *f = __atomic_load_n(&call->filter, __ATOMIC_ACQUIRE);
    bool keep = !f || event_filter_match(f, e, length);
    arch_irq_restore(irqs);
    if (keep)
        trace_commit();
    else
        rb_discard(trace_buf, e, length);
    return keep;
}
