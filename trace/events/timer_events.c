/*
 * timer_events.c - the timer/ events (timer_events.h): records, fields and print formats
 * as Linux 6.1's include/trace/events/timer.h declares them for i386 (a pointer is 4 bytes,
 * an s64 4-byte aligned), and their recorders.
 */
#include "trace/events/timer_events.h"

#include <stddef.h>

#include "kernel/init.h"
#include "kernel/lib/symbols.h"
#include "kernel/time.h"

/* Linux's enum hrtimer_mode: every tracekern timer is started relative to now. */
#define HRTIMER_MODE_REL 1

struct start_entry {
    struct trace_entry ent;
    uint32_t hrtimer, function;
    int64_t expires, softexpires;
    uint32_t mode;
};

struct expire_entry {
    struct trace_entry ent;
    uint32_t hrtimer;
    int64_t now;
    uint32_t function;
};

struct class_entry {
    struct trace_entry ent;
    uint32_t hrtimer;
};

#define PTR_FIELD(name, type) { "void *", #name, offsetof(type, name), 4, 0, false, TRACE_FIELD_INT }
#define S64_FIELD(name, type) { "s64", #name, offsetof(type, name), 8, 0, true, TRACE_FIELD_INT }

enum { ST_HRTIMER, ST_FUNCTION, ST_EXPIRES, ST_SOFTEXPIRES, ST_MODE, ST_FIELDS };
enum { EX_HRTIMER, EX_NOW, EX_FUNCTION, EX_FIELDS };

static const struct trace_event_field start_fields[ST_FIELDS] = {
    PTR_FIELD(hrtimer, struct start_entry),
    PTR_FIELD(function, struct start_entry),
    S64_FIELD(expires, struct start_entry),
    S64_FIELD(softexpires, struct start_entry),
    { "enum hrtimer_mode", "mode", offsetof(struct start_entry, mode), 4, 0, false,
      TRACE_FIELD_INT },
};

static const struct trace_event_field expire_fields[EX_FIELDS] = {
    PTR_FIELD(hrtimer, struct expire_entry),
    S64_FIELD(now, struct expire_entry),
    PTR_FIELD(function, struct expire_entry),
};

static const struct trace_event_field class_fields[1] = {
    PTR_FIELD(hrtimer, struct class_entry),
};

static void record_start(const void *timer, uintptr_t function, uint64_t expires_ns)
{
    struct start_entry *e = tracepoint_reserve(&event_hrtimer_start, sizeof *e);
    if (!e)
        return;
    e->hrtimer = (uint32_t)(uintptr_t)timer;
    e->function = (uint32_t)function;
    e->expires = (int64_t)expires_ns;
    e->softexpires = (int64_t)expires_ns; /* no slack: a timer expires at its deadline */
    e->mode = HRTIMER_MODE_REL;
    tracepoint_commit(&event_hrtimer_start, e, sizeof *e);
}

static void record_expire_entry(const void *timer, uintptr_t function)
{
    struct expire_entry *e = tracepoint_reserve(&event_hrtimer_expire_entry, sizeof *e);
    if (!e)
        return;
    e->hrtimer = (uint32_t)(uintptr_t)timer;
    e->now = (int64_t)time_ns();
    e->function = (uint32_t)function;
    tracepoint_commit(&event_hrtimer_expire_entry, e, sizeof *e);
}

/* hrtimer_expire_exit and hrtimer_cancel: Linux's hrtimer_class, the timer alone. */
static void record_class(struct trace_event_call *call, const void *timer)
{
    struct class_entry *e = tracepoint_reserve(call, sizeof *e);
    if (!e)
        return;
    e->hrtimer = (uint32_t)(uintptr_t)timer;
    tracepoint_commit(call, e, sizeof *e);
}

static void record_expire_exit(const void *timer) { record_class(&event_hrtimer_expire_exit, timer); }
static void record_cancel(const void *timer) { record_class(&event_hrtimer_cancel, timer); }

static void attach_start(bool on) { trace_hook_hrtimer_start = on ? record_start : 0; }
static void attach_cancel(bool on) { trace_hook_hrtimer_cancel = on ? record_cancel : 0; }
static void attach_expire_entry(bool on)
{
    trace_hook_hrtimer_expire_entry = on ? record_expire_entry : 0;
}
static void attach_expire_exit(bool on)
{
    trace_hook_hrtimer_expire_exit = on ? record_expire_exit : 0;
}

/* %p as an unhashed i386 pointer; %ps as the function's name (its address when none). */
static void print_ptr(struct fs_writer *out, int64_t v) { fs_printf(out, "%08lx", (unsigned long)v); }

static void print_function(struct fs_writer *out, int64_t v)
{
    const char *name = symbol_lookup(kernel_symbols(), (uint32_t)v, 0, 0);
    if (name)
        fs_puts(out, name);
    else
        fs_printf(out, "0x%lx", (unsigned long)v);
}

static const char *mode_name(int64_t mode)
{
    static const char *const names[] = { "ABS", "REL", "ABS|PINNED", "REL|PINNED", "ABS|SOFT",
                                         "REL|SOFT", "ABS|PINNED|SOFT", "REL|PINNED|SOFT" };
    return mode >= 0 && mode < 8 ? names[mode] : "?";
}

static void print_start(struct fs_writer *out, const struct trace_event_call *call,
                        const struct trace_event_view *ev)
{
    fs_puts(out, "hrtimer=");
    print_ptr(out, tracepoint_int(call, ev, ST_HRTIMER));
    fs_puts(out, " function=");
    print_function(out, tracepoint_int(call, ev, ST_FUNCTION));
    fs_printf(out, " expires=%llu softexpires=%llu mode=%s",
              (unsigned long long)tracepoint_int(call, ev, ST_EXPIRES),
              (unsigned long long)tracepoint_int(call, ev, ST_SOFTEXPIRES),
              mode_name(tracepoint_int(call, ev, ST_MODE)));
}

static void print_expire_entry(struct fs_writer *out, const struct trace_event_call *call,
                               const struct trace_event_view *ev)
{
    fs_puts(out, "hrtimer=");
    print_ptr(out, tracepoint_int(call, ev, EX_HRTIMER));
    fs_puts(out, " function=");
    print_function(out, tracepoint_int(call, ev, EX_FUNCTION));
    fs_printf(out, " now=%llu", (unsigned long long)tracepoint_int(call, ev, EX_NOW));
}

static void print_class(struct fs_writer *out, const struct trace_event_call *call,
                        const struct trace_event_view *ev)
{
    fs_puts(out, "hrtimer=");
    print_ptr(out, tracepoint_int(call, ev, 0));
}

/* Linux 6.1's decode_hrtimer_mode() (the _HARD modes came in 6.4), as its format shows it. */
#define MODES                                                                               \
    "{ HRTIMER_MODE_ABS, \"ABS\" }, { HRTIMER_MODE_REL, \"REL\" }, { HRTIMER_MODE_ABS_PINNED, " \
    "\"ABS|PINNED\" }, { HRTIMER_MODE_REL_PINNED, \"REL|PINNED\" }, { HRTIMER_MODE_ABS_SOFT, " \
    "\"ABS|SOFT\" }, { HRTIMER_MODE_REL_SOFT, \"REL|SOFT\" }, { HRTIMER_MODE_ABS_PINNED_SOFT, " \
    "\"ABS|PINNED|SOFT\" }, { HRTIMER_MODE_REL_PINNED_SOFT, \"REL|PINNED|SOFT\" }"

static const struct tracepoint_info start_info = {
    "\"hrtimer=%p function=%ps expires=%llu softexpires=%llu mode=%s\", REC->hrtimer, "
    "REC->function, (unsigned long long) REC->expires, (unsigned long long) REC->softexpires, "
    "__print_symbolic(REC->mode, " MODES ")",
    print_start, attach_start,
};

static const struct tracepoint_info cancel_info = {
    "\"hrtimer=%p\", REC->hrtimer", print_class, attach_cancel,
};

static const struct tracepoint_info expire_entry_info = {
    "\"hrtimer=%p function=%ps now=%llu\", REC->hrtimer, REC->function, (unsigned long long) "
    "REC->now",
    print_expire_entry, attach_expire_entry,
};

static const struct tracepoint_info expire_exit_info = {
    "\"hrtimer=%p\", REC->hrtimer", print_class, attach_expire_exit,
};

#define TIMER_EVENT(nm, info, fl, n)                                                        \
    { .system = "timer", .name = nm, .ops = &tracepoint_ops, .data = (void *)&(info),      \
      .fields = (fl), .nr_fields = (n) }

struct trace_event_call event_hrtimer_start =
    TIMER_EVENT("hrtimer_start", start_info, start_fields, ST_FIELDS);
struct trace_event_call event_hrtimer_cancel =
    TIMER_EVENT("hrtimer_cancel", cancel_info, class_fields, 1);
struct trace_event_call event_hrtimer_expire_entry =
    TIMER_EVENT("hrtimer_expire_entry", expire_entry_info, expire_fields, EX_FIELDS);
struct trace_event_call event_hrtimer_expire_exit =
    TIMER_EVENT("hrtimer_expire_exit", expire_exit_info, class_fields, 1);

static void timer_events_init(void)
{
    tracepoint_register(&event_hrtimer_start);
    tracepoint_register(&event_hrtimer_cancel);
    tracepoint_register(&event_hrtimer_expire_entry);
    tracepoint_register(&event_hrtimer_expire_exit);
}
INITCALL(trace, timer_events_init);
