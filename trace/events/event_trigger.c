/*
 * event_trigger.c - the trigger file of every event and what its triggers do
 * (event_trigger.h).
 *
 * Concurrency. Every read and write of a trigger or hist file runs under trigger_mutex
 * (Linux's event_mutex), a sleeping lock: only those change an event's trigger list, a
 * trigger's paused bit, a hist table's place, the arming counts (trace_event_soft_arm)
 * and the hist budget, and only they walk the list outside the writers. The event's
 * writers (any context, interrupts off) read the list without a lock: a trigger is fully
 * built before one release store links it at the head; an unlinked one is freed once no
 * writer can still be running it, which wait_for_trigger_writers() says (one CPU: at once,
 * as event_filter_files.c reasons for filters). A hist table is counted by writers and
 * copied by readers under hist_lock, in bounded pieces. A trigger's count is changed by
 * writers with interrupts off; on a second CPU two writers could both take the last count
 * (Linux has the same race).
 */
#include "trace/events/event_trigger.h"

#include "kernel/arch.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/parse.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"
#include "kernel/mutex.h"
#include "kernel/spinlock.h"
#include "trace/core/error_log.h"
#include "trace/core/trace_internal.h"
#include "trace/core/trace_snapshot.h"
#include "kernel/lib/symbols.h"
#include "kernel/proc/task.h"
#include "kernel/syscall/syscall.h"
#include "trace/events/event_filter.h"
#include "trace/events/hist_table.h"
#include "trace/events/trigger_parse.h"
#include "trace/ftrace/ftrace.h"

struct event_trigger {
    enum trigger_kind kind;
    int64_t count;                    /* TRIGGER_UNLIMITED, or how many times it may still run */
    struct event_filter *filter;      /* or NULL */
    struct trace_event_call *target;  /* enable_event/disable_event's event */
    struct hist_table *hist;          /* hist's table */
    volatile bool paused;             /* hist: "pause" written, not counting until "cont" */
    struct event_trigger *next;
};

/* Held by every read and write of a trigger or hist file (see the top of this file). */
static struct mutex trigger_mutex = MUTEX_INIT("event_trigger");
/* hist tables: counted by writers, copied by readers of the hist file, swapped by a clear,
 * under hist_lock. */
static struct spinlock hist_lock = SPINLOCK_INIT("event_hist");
/* Entries of a hist table copied per hold of hist_lock: what bounds the time a reader keeps
 * interrupts off (at most 16 KiB of memcpy: entries of 3 string keys and 4 vals), however
 * large the table. */
#define HIST_COPY_BATCH 64
/* Heap bytes all hist tables together may take (Linux bounds each by its size only; here
 * programs share one kernel heap). Charged under trigger_mutex. */
#define HIST_BUDGET (1024u * 1024)
static size_t hist_bytes_used;

/* --- running triggers (any context, interrupts off) ------------------------------------- */

/* Takes one of the trigger's runs: false when none is left. */
static bool take_count(struct event_trigger *t)
{
    if (t->count == 0)
        return false;
    if (t->count != TRIGGER_UNLIMITED)
        t->count--;
    return true;
}

/* A TRACE_STACK record of the callers above frame fp, as options/func_stack_trace writes,
 * in the context (flags) of the event that fired it. */
static void record_stack(uintptr_t fp, uint8_t flags)
{
    struct ftrace_stack_entry *e =
        (struct ftrace_stack_entry *)trace_reserve(TRACE_STACK, sizeof *e);
    if (!e)
        return;
    e->ent.flags = flags;
    e->nr = (uint32_t)arch_save_stack_trace(fp, e->caller, FTRACE_STACK_DEPTH);
    trace_commit();
}

/* What a trigger does when it fires, as Linux's *_trigger and *_count_trigger functions:
 * traceon and traceoff do nothing (and keep their count) when tracing is already so, and a
 * counted enable/disable_event does nothing when its target already is so. */
static void fire(struct event_trigger *t, uintptr_t fp, uint8_t flags)
{
    switch (t->kind) {
    case TRIGGER_TRACEON:
    case TRIGGER_TRACEOFF: {
        bool on = t->kind == TRIGGER_TRACEON;
        if (trace_is_on() != on && take_count(t))
            trace_set_on_from_trigger(on);
        break;
    }
    case TRIGGER_SNAPSHOT:
        if (take_count(t))
            trace_snapshot_take();
        break;
    case TRIGGER_STACKTRACE:
        if (take_count(t))
            record_stack(fp, flags);
        break;
    case TRIGGER_ENABLE_EVENT:
    case TRIGGER_DISABLE_EVENT: {
        bool enable = t->kind == TRIGGER_ENABLE_EVENT;
        uint8_t fl = t->target->trigger_flags;
        bool now = !(fl & TRACE_EVENT_FL_SOFT_DISABLED);
        if (t->count != TRIGGER_UNLIMITED && now == enable)
            break;
        if (!take_count(t))
            break;
        if (enable)
            __atomic_and_fetch(&t->target->trigger_flags, (uint8_t)~TRACE_EVENT_FL_SOFT_DISABLED,
                               __ATOMIC_RELAXED);
        else
            __atomic_or_fetch(&t->target->trigger_flags, TRACE_EVENT_FL_SOFT_DISABLED,
                              __ATOMIC_RELAXED);
        break;
    }
    default:
        break;
    }
}

static struct event_trigger *first_trigger(const struct trace_event_call *call)
{
    return __atomic_load_n(&call->triggers, __ATOMIC_ACQUIRE);
}

void event_triggers_run_early(const struct trace_event_call *call)
{
    for (struct event_trigger *t = first_trigger(call); t; t = t->next)
        fire(t, 0, 0); /* no post trigger here: no stack trace */
}

/* Counts a record in t's hist table (read under the lock: a clear swaps it). */
static void count_in_hist(struct event_trigger *t, const void *record, uint32_t length)
{
    unsigned long flags = spin_lock_irqsave(&hist_lock);
    hist_add(t->hist, record, length, task_name(task_current()));
    spin_unlock_irqrestore(&hist_lock, flags);
}

unsigned event_triggers_run_on_record(const struct trace_event_call *call, const void *record,
                                      uint32_t length)
{
    unsigned post = 0;
    for (struct event_trigger *t = first_trigger(call); t; t = t->next) {
        if (t->filter && !event_filter_match(t->filter, record, length))
            continue;
        if (t->hist) {
            if (!t->paused)
                count_in_hist(t, record, length);
        }
        else if (trigger_kind_is_post(t->kind))
            post |= 1u << t->kind;
        else
            fire(t, 0, 0);
    }
    return post;
}

void event_triggers_run_post(const struct trace_event_call *call, unsigned kinds, uintptr_t fp,
                             uint8_t flags)
{
    for (struct event_trigger *t = first_trigger(call); t; t = t->next)
        if (kinds & (1u << t->kind))
            fire(t, fp, flags);
}

/* --- changing an event's triggers (thread context, trigger_mutex held) -------------------- */

/* Returns once no writer can be running a trigger unlinked before the call, or be between
 * reserve and commit of a scratch record taken before it. On this CPU: at once (a writer
 * never sleeps or is preempted between reserve and commit; see the top of this file). On
 * the others: trace_sync_writers waits until each has had interrupts on, which ends
 * every walk of a trigger list (interrupts off). ONE CPU still for a scratch record: its
 * writer fills it with interrupts on, so another CPU may hold one past the IPI (its
 * commit needs a count of writers, as the ring buffer's nesting); and nothing is waited
 * for when called with interrupts off. */
static void wait_for_trigger_writers(void)
{
    trace_sync_writers();
}

/* Recomputes call's TRIGGERS and COND bits from its list. A writer that took a scratch
 * record under COND must commit it on the slow path, which knows scratch records: so COND
 * is cleared first, and TRIGGERS (which alone may be keeping trigger_flags nonzero) only
 * once no writer can still hold such a record. */
static void update_flags(struct trace_event_call *call)
{
    uint8_t set = 0;
    for (struct event_trigger *t = call->triggers; t; t = t->next) {
        set |= TRACE_EVENT_FL_TRIGGERS;
        if (t->filter || trigger_kind_needs_record(t->kind))
            set |= TRACE_EVENT_FL_COND;
    }
    __atomic_or_fetch(&call->trigger_flags, set, __ATOMIC_RELEASE);
    if (!(set & TRACE_EVENT_FL_COND) && (call->trigger_flags & TRACE_EVENT_FL_COND)) {
        __atomic_and_fetch(&call->trigger_flags, (uint8_t)~TRACE_EVENT_FL_COND, __ATOMIC_RELEASE);
        wait_for_trigger_writers();
    }
    if (!(set & TRACE_EVENT_FL_TRIGGERS))
        __atomic_and_fetch(&call->trigger_flags, (uint8_t)~TRACE_EVENT_FL_TRIGGERS,
                           __ATOMIC_RELEASE);
}

static void free_trigger(struct event_trigger *t)
{
    event_filter_free(t->filter);
    if (t->hist) {
        hist_bytes_used -= hist_bytes(t->hist);
        hist_free(t->hist);
    }
    kfree(t);
}

/* The registered event called system:event, or NULL. */
static struct trace_event_call *find_event(const char *system, size_t system_len,
                                           const char *event, size_t event_len)
{
    for (struct trace_event_call *c = trace_events_first(); c; c = c->next)
        if (strlen(c->system) == system_len && strncmp(c->system, system, system_len) == 0 &&
            strlen(c->name) == event_len && strncmp(c->name, event, event_len) == 0)
            return c;
    return 0;
}

/* The trigger on call that excludes one of kind (and target), linked at *link, or NULL. */
static struct event_trigger **find_same(struct trace_event_call *call, enum trigger_kind kind,
                                        const struct trace_event_call *target)
{
    for (struct event_trigger **link = &call->triggers; *link; link = &(*link)->next) {
        struct event_trigger *t = *link;
        if (trigger_kind_type(t->kind) == trigger_kind_type(kind) &&
            (trigger_kind_type(kind) != trigger_kind_type(TRIGGER_ENABLE_EVENT) ||
             t->target == target))
            return link;
    }
    return 0;
}

/* Undoes what adding t did: the arming of its event and target, the snapshot it kept. */
static void release_trigger(struct trace_event_call *call, struct event_trigger *t)
{
    if (t->target)
        trace_event_soft_disarm(t->target);
    if (t->kind == TRIGGER_SNAPSHOT)
        trace_snapshot_disarm();
    trace_event_soft_disarm(call);
}

/* Unlinks the trigger at *link, and frees it once no writer can be running it. */
static void unlink_trigger(struct trace_event_call *call, struct event_trigger **link)
{
    struct event_trigger *t = *link;
    __atomic_store_n(link, t->next, __ATOMIC_RELEASE);
    update_flags(call);
    wait_for_trigger_writers();
    release_trigger(call, t);
    free_trigger(t);
}

static int remove_trigger(struct trace_event_call *call, enum trigger_kind kind,
                          const struct trace_event_call *target)
{
    struct event_trigger **link = find_same(call, kind, target);
    if (link) /* nothing to remove is no error, as on Linux */
        unlink_trigger(call, link);
    return 0;
}

/* Removes every hist trigger of call: what a truncating open of the trigger file does
 * first on Linux (event_trigger_regex_open calls the hist command's unreg_all). */
static void remove_hist_triggers(struct trace_event_call *call)
{
    struct event_trigger **link = &call->triggers;
    while (*link) {
        if ((*link)->hist)
            unlink_trigger(call, link);
        else
            link = &(*link)->next;
    }
}

static unsigned count_triggers(const struct trace_event_call *call)
{
    unsigned n = 0;
    for (struct event_trigger *t = call->triggers; t; t = t->next)
        n++;
    return n;
}

/* Arms what t needs (its event, its target, the snapshot buffer) and links it first. */
static int add_trigger(struct trace_event_call *call, struct event_trigger *t)
{
    if (find_same(call, t->kind, t->target))
        return -EEXIST;
    if (count_triggers(call) >= EVENT_TRIGGERS_MAX)
        return -ENOSPC;
    if ((t->filter || trigger_kind_needs_record(t->kind)) && !event_commit_scratch_ready())
        return -ENOMEM;
    int err = trace_event_soft_arm(call);
    if (err)
        return err;
    if (!err && t->target)
        err = trace_event_soft_arm(t->target);
    if (err) {
        trace_event_soft_disarm(call);
        return err;
    }
    if (t->kind == TRIGGER_SNAPSHOT && (err = trace_snapshot_arm()) != 0) {
        if (t->target)
            trace_event_soft_disarm(t->target);
        trace_event_soft_disarm(call);
        return err;
    }
    t->next = call->triggers;
    __atomic_store_n(&call->triggers, t, __ATOMIC_RELEASE);
    update_flags(call);
    return 0;
}

/* --- error_log ------------------------------------------------------------------------------- */

struct refusal {
    const char *text;
    size_t len;
    const char *message;
    size_t pos;
    const struct trace_event_call *hist_of; /* a hist refusal: Linux's "hist:SYS:EVENT" */
};

/* "event trigger parse error: error: MESSAGE" (or Linux's "hist:SYS:EVENT: error: ..."),
 * then the command without its outer blanks and a caret under pos, as every error_log
 * entry (trace_error_log_print_command). */
static void print_refusal(struct fs_writer *out, const void *arg)
{
    const struct refusal *r = arg;
    size_t s = 0, e = r->len;
    while (s < e && is_space(r->text[s]))
        s++;
    while (e > s && is_space(r->text[e - 1]))
        e--;
    if (e - s > TRIGGER_MAX_TEXT)
        e = s + TRIGGER_MAX_TEXT;
    if (r->hist_of)
        fs_printf(out, "hist:%s:%s: error: %s\n", r->hist_of->system, r->hist_of->name,
                  r->message);
    else
        fs_printf(out, "event trigger parse error: error: %s\n", r->message);
    trace_error_log_print_command(out, r->text + s, e - s, r->pos > s ? r->pos - s : 0);
}

static int log_refusal(const char *text, size_t len, const char *message, size_t pos)
{
    struct refusal r = { text, len, message, pos, 0 };
    trace_error_log_add(print_refusal, &r);
    return -EINVAL;
}

struct filter_refusal {
    const char *text;
    size_t len;
    const struct event_filter_error *err;
};

static void print_filter_refusal(struct fs_writer *out, const void *arg)
{
    const struct filter_refusal *r = arg;
    event_filter_print_error(out, r->text, r->len, r->err);
}

/* --- hist ------------------------------------------------------------------------------------ */

static void print_trigger(struct fs_writer *out, const struct event_trigger *t);

/* Compiles spec's hist table into t, charged to HIST_BUDGET: 0, -EINVAL (logged, the caret
 * placed in the whole line written), -ENOMEM (also past the budget). */
static int make_hist(const struct trace_event_call *call, const char *data, size_t len,
                     const struct trigger_spec *spec, struct event_trigger *t)
{
    size_t left = HIST_BUDGET - hist_bytes_used;
    struct hist_error herr;
    int r = hist_create(spec->param, spec->param_len, call->fields,
                        call->fields ? call->nr_fields : 0, left, &t->hist, &herr);
    if (r == -EINVAL) {
        struct refusal ref = { data, len, herr.message, (size_t)(spec->param - data) + herr.pos,
                               call };
        trace_error_log_add(print_refusal, &ref);
    }
    if (r)
        return r;
    bool fits = hist_bytes(t->hist) <= HIST_BUDGET - hist_bytes_used;
    if (fits)
        hist_bytes_used += hist_bytes(t->hist);
    if (!fits) {
        hist_free(t->hist);
        t->hist = 0;
        return -ENOMEM;
    }
    return 0;
}

/* A hist spec ending in pause, cont or clear (t, not to be kept): acts on the event's
 * hist that counts the same way, as Linux's hist_register_trigger. A pause with no such
 * hist adds t, paused. Returns 0 when t was added (it is the caller's no more) or 1 when
 * it was a command only (the caller frees t), or -ENOENT (cont, clear: no such hist) or
 * -EEXIST (pause, while the event's one hist counts otherwise). */
static int command_hist(struct trace_event_call *call, struct event_trigger *t)
{
    struct event_trigger *old = call->triggers;
    while (old && !old->hist)
        old = old->next;
    enum hist_command command = hist_command_of(t->hist);
    if (!old) {
        if (command != HIST_PAUSE)
            return -ENOENT;
        t->paused = true;
        return add_trigger(call, t);
    }
    if (!hist_same(old->hist, t->hist) || !old->filter != !t->filter ||
        (old->filter && strcmp(event_filter_text(old->filter), event_filter_text(t->filter))))
        return command == HIST_PAUSE ? -EEXIST : -ENOENT; /* Linux would add a second hist */
    if (command == HIST_CLEAR) {
        /* An empty table swapped in: interrupts stay off for a pointer store, not a
         * memset of the table. It is the old one's size, charged as the old one was; for
         * the moment both exist the heap holds one table more than the budget says (one
         * at a time: trigger_mutex). */
        struct hist_table *empty = hist_alloc_like(old->hist), *full;
        if (!empty)
            return -ENOMEM;
        unsigned long flags = spin_lock_irqsave(&hist_lock);
        full = old->hist;
        old->hist = empty;
        spin_unlock_irqrestore(&hist_lock, flags);
        hist_free(full);
    } else {
        old->paused = command == HIST_PAUSE;
    }
    return 1;
}

/* Names for .sym and .syscall keys. The syscall's name is built in a static buffer: the
 * hist file is read one reader at a time (trigger_mutex). */
static const char *symbol_name(uint64_t addr)
{
    uint32_t off, size;
    return addr >> 32 ? 0 : symbol_lookup(kernel_symbols(), (uint32_t)addr, &off, &size);
}

static const char *syscall_name(uint64_t nr)
{
    static char name[48];
    const struct syscall_info *info = nr < 0x10000 ? syscall_info((unsigned)nr) : 0;
    if (!info || strlen(info->name) + 5 > sizeof name)
        return 0;
    memcpy(name, "sys_", 4);
    memcpy(name + 4, info->name, strlen(info->name) + 1);
    return name;
}

static const struct hist_names hist_names = { symbol_name, syscall_name };

/* A copy of t's hist table for printing, allocated first and then filled under hist_lock
 * HIST_COPY_BATCH entries at a time (the table cannot be swapped meanwhile: trigger_mutex),
 * or NULL without memory. */
static struct hist_table *copy_hist(const struct event_trigger *t)
{
    struct hist_table *copy = hist_alloc_like(t->hist);
    if (!copy)
        return 0;
    for (uint32_t from = 0, next;; from = next) {
        unsigned long flags = spin_lock_irqsave(&hist_lock);
        next = hist_copy_some(copy, t->hist, from, HIST_COPY_BATCH);
        spin_unlock_irqrestore(&hist_lock, flags);
        if (next - from < HIST_COPY_BATCH)
            return copy;
    }
}

/* events/SYSTEM/NAME/hist: Linux's hist_show for the event's hist trigger (nothing when it
 * has none), from a copy of the table. */
static int read_hist_locked(const struct trace_event_call *call, struct fs_writer *out)
{
    const struct event_trigger *t = call->triggers;
    while (t && !t->hist)
        t = t->next;
    if (!t)
        return 0;
    struct hist_table *copy = copy_hist(t);
    if (!copy)
        return -ENOMEM;
    fs_puts(out, "# event histogram\n#\n# trigger info: ");
    print_trigger(out, t);
    fs_puts(out, "#\n\n");
    int r = hist_print_entries(out, copy, &hist_names);
    hist_free(copy);
    return r;
}

static int read_hist(struct fs_node *f, struct fs_writer *out)
{
    mutex_lock(&trigger_mutex);
    const struct trace_event_call *call = f->data; /* read under the mutex, as Linux's */
    int r = call ? read_hist_locked(call, out) : -ENODEV;
    mutex_unlock(&trigger_mutex);
    return r;
}

static const struct fs_file_ops hist_ops = { .read = read_hist };

/* --- the trigger file ----------------------------------------------------------------------- */

/* "NAME[:SYSTEM:EVENT]:unlimited" or ":count=N", then " if FILTER", as Linux's
 * event_trigger_print and event_enable_trigger_print. */
static void print_trigger(struct fs_writer *out, const struct event_trigger *t)
{
    if (t->hist) { /* Linux's event_hist_trigger_print */
        hist_print_spec(out, t->hist);
        if (t->filter)
            fs_printf(out, " if %s", event_filter_text(t->filter));
        fs_puts(out, t->paused ? " [paused]\n" : " [active]\n");
        return;
    }
    fs_puts(out, trigger_kind_name(t->kind));
    if (t->target)
        fs_printf(out, ":%s:%s", t->target->system, t->target->name);
    if (t->count == TRIGGER_UNLIMITED)
        fs_puts(out, ":unlimited");
    else
        fs_printf(out, ":count=%llu", (unsigned long long)t->count);
    if (t->filter)
        fs_printf(out, " if %s", event_filter_text(t->filter));
    fs_puts(out, "\n");
}

/* f->data is the event, or NULL once it was unregistered while open (-ENODEV). */
static int read_trigger(struct fs_node *f, struct fs_writer *out)
{
    mutex_lock(&trigger_mutex);
    const struct trace_event_call *call = f->data;
    if (!call) {
        mutex_unlock(&trigger_mutex);
        return -ENODEV;
    }
    if (!call->triggers) {
        fs_puts(out, "# Available triggers:\n#");
        for (unsigned k = 0; k < TRIGGER_KINDS; k++)
            fs_printf(out, " %s", trigger_kind_name((enum trigger_kind)k));
        fs_puts(out, "\n");
    }
    for (const struct event_trigger *t = call->triggers; t; t = t->next)
        print_trigger(out, t);
    mutex_unlock(&trigger_mutex);
    return 0;
}

/* One write's command, trigger_mutex held. */
static int write_trigger_locked(struct trace_event_call *call, const char *data, size_t len)
{
    if (len == 0)
        return 0;
    struct trigger_spec spec;
    struct trigger_error perr;
    if (trigger_parse(data, len, &spec, &perr) != 0)
        return log_refusal(data, len, perr.message, perr.pos);
    struct trace_event_call *target = 0;
    if (spec.kind == TRIGGER_ENABLE_EVENT || spec.kind == TRIGGER_DISABLE_EVENT) {
        target = find_event(spec.system, spec.system_len, spec.event, spec.event_len);
        if (!target)
            return log_refusal(data, len, "Event not found", (size_t)(spec.system - data));
    }
    if (spec.remove)
        return remove_trigger(call, spec.kind, target);
    struct event_trigger *t = kzalloc(sizeof *t);
    if (!t)
        return -ENOMEM;
    *t = (struct event_trigger){ .kind = spec.kind, .count = spec.count, .target = target };
    if (spec.kind == TRIGGER_HIST) {
        int r = make_hist(call, data, len, &spec, t);
        if (r) {
            kfree(t);
            return r;
        }
    }
    if (spec.filter) {
        struct event_filter_error ferr;
        int r = event_filter_compile(spec.filter, spec.filter_len, call->fields,
                                     call->fields ? call->nr_fields : 0, &t->filter, &ferr);
        if (r) {
            free_trigger(t);
            if (r == -EINVAL) {
                struct filter_refusal fr = { spec.filter, spec.filter_len, &ferr };
                trace_error_log_add(print_filter_refusal, &fr);
            }
            return r;
        }
    }
    int r = t->hist && hist_command_of(t->hist) != HIST_COUNT ? command_hist(call, t)
                                                              : add_trigger(call, t);
    if (r)
        free_trigger(t);
    return r > 0 ? 0 : r;
}

/* A '>' write (append false: a program's open with O_TRUNC, or the shell's one write)
 * first removes the event's hist triggers, as Linux's open does, whatever the command
 * that follows and even when it is refused; the other triggers stay. */
static int write_trigger(struct fs_node *f, const char *data, size_t len, bool append)
{
    mutex_lock(&trigger_mutex);
    struct trace_event_call *call = f->data;
    int r = -ENODEV;
    if (call) {
        if (!append)
            remove_hist_triggers(call);
        r = write_trigger_locked(call, data, len);
    }
    mutex_unlock(&trigger_mutex);
    return r;
}

static const struct fs_file_ops trigger_ops = { .read = read_trigger,
                                                .write = write_trigger,
                                                .truncates = true };

/* The scratch records are made with the first event's files (at boot), so that adding a
 * trigger later does not fail for want of them. */
bool trace_event_trigger_create_file(struct fs_node *dir, struct trace_event_call *call)
{
    return event_commit_scratch_ready() && fs_create(dir, "trigger", &trigger_ops, call) &&
           fs_create(dir, "hist", &hist_ops, call);
}
