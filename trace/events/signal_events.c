/*
 * signal_events.c - the signal/ events (signal_events.h), as Linux 6.1 declares them for
 * i386. errno is always 0: tracekern's siginfo has no si_errno to carry.
 */
#include "trace/events/signal_events.h"

#include <stddef.h>

#include "kernel/init.h"
#include "kernel/proc/task_internal.h"

struct generate_entry {
    struct trace_entry ent;
    int32_t sig, error, code;
    char comm[TASK_NAME_MAX];
    int32_t pid, group, result;
};

struct deliver_entry {
    struct trace_entry ent;
    int32_t sig, error, code;
    uint32_t sa_handler, sa_flags;
};

enum { GE_SIG, GE_ERRNO, GE_CODE, GE_COMM, GE_PID, GE_GROUP, GE_RESULT, GE_FIELDS };
enum { DE_SIG, DE_ERRNO, DE_CODE, DE_SA_HANDLER, DE_SA_FLAGS, DE_FIELDS };

#define INT_FIELD(type, name, off, sign) { type, name, off, 4, 0, sign, TRACE_FIELD_INT }

static const struct trace_event_field generate_fields[GE_FIELDS] = {
    INT_FIELD("int", "sig", offsetof(struct generate_entry, sig), true),
    INT_FIELD("int", "errno", offsetof(struct generate_entry, error), true),
    INT_FIELD("int", "code", offsetof(struct generate_entry, code), true),
    { "char", "comm", offsetof(struct generate_entry, comm), TASK_NAME_MAX, TASK_NAME_MAX, true,
      TRACE_FIELD_CHARS },
    INT_FIELD("pid_t", "pid", offsetof(struct generate_entry, pid), true),
    INT_FIELD("int", "group", offsetof(struct generate_entry, group), true),
    INT_FIELD("int", "result", offsetof(struct generate_entry, result), true),
};

static const struct trace_event_field deliver_fields[DE_FIELDS] = {
    INT_FIELD("int", "sig", offsetof(struct deliver_entry, sig), true),
    INT_FIELD("int", "errno", offsetof(struct deliver_entry, error), true),
    INT_FIELD("int", "code", offsetof(struct deliver_entry, code), true),
    INT_FIELD("unsigned long", "sa_handler", offsetof(struct deliver_entry, sa_handler), false),
    INT_FIELD("unsigned long", "sa_flags", offsetof(struct deliver_entry, sa_flags), false),
};

static void record_signal_generate(int sig, int code, const struct task *t, int group, int result)
{
    struct generate_entry *e = tracepoint_reserve(&event_signal_generate, sizeof *e);
    if (!e)
        return;
    e->sig = sig;
    e->error = 0;
    e->code = code;
    tracepoint_copy_comm(e->comm, t->name);
    e->pid = t->pid;
    e->group = group;
    e->result = result;
    tracepoint_commit(&event_signal_generate, e, sizeof *e);
}

static void record_signal_deliver(int sig, int code, uint32_t sa_handler, uint32_t sa_flags)
{
    struct deliver_entry *e = tracepoint_reserve(&event_signal_deliver, sizeof *e);
    if (!e)
        return;
    e->sig = sig;
    e->error = 0;
    e->code = code;
    e->sa_handler = sa_handler;
    e->sa_flags = sa_flags;
    tracepoint_commit(&event_signal_deliver, e, sizeof *e);
}

static void attach_generate(bool on)
{
    trace_hook_signal_generate = on ? record_signal_generate : 0;
}

static void attach_deliver(bool on)
{
    trace_hook_signal_deliver = on ? record_signal_deliver : 0;
}

static void print_generate(struct fs_writer *out, const struct trace_event_call *call,
                           const struct trace_event_view *ev)
{
    fs_printf(out, "sig=%d errno=%d code=%d comm=", (int)tracepoint_int(call, ev, GE_SIG),
              (int)tracepoint_int(call, ev, GE_ERRNO), (int)tracepoint_int(call, ev, GE_CODE));
    tracepoint_print_str(out, call, ev, GE_COMM);
    fs_printf(out, " pid=%d grp=%d res=%d", (int)tracepoint_int(call, ev, GE_PID),
              (int)tracepoint_int(call, ev, GE_GROUP), (int)tracepoint_int(call, ev, GE_RESULT));
}

static void print_deliver(struct fs_writer *out, const struct trace_event_call *call,
                          const struct trace_event_view *ev)
{
    fs_printf(out, "sig=%d errno=%d code=%d sa_handler=%lx sa_flags=%lx",
              (int)tracepoint_int(call, ev, DE_SIG), (int)tracepoint_int(call, ev, DE_ERRNO),
              (int)tracepoint_int(call, ev, DE_CODE),
              (unsigned long)tracepoint_int(call, ev, DE_SA_HANDLER),
              (unsigned long)tracepoint_int(call, ev, DE_SA_FLAGS));
}

static const struct tracepoint_info generate_info = {
    "\"sig=%d errno=%d code=%d comm=%s pid=%d grp=%d res=%d\", REC->sig, REC->errno, "
    "REC->code, REC->comm, REC->pid, REC->group, REC->result",
    print_generate,
    attach_generate,
};

static const struct tracepoint_info deliver_info = {
    "\"sig=%d errno=%d code=%d sa_handler=%lx sa_flags=%lx\", REC->sig, REC->errno, "
    "REC->code, REC->sa_handler, REC->sa_flags",
    print_deliver,
    attach_deliver,
};

struct trace_event_call event_signal_generate = {
    .system = "signal", .name = "signal_generate", .ops = &tracepoint_ops,
    .data = (void *)&generate_info, .fields = generate_fields, .nr_fields = GE_FIELDS,
};

struct trace_event_call event_signal_deliver = {
    .system = "signal", .name = "signal_deliver", .ops = &tracepoint_ops,
    .data = (void *)&deliver_info, .fields = deliver_fields, .nr_fields = DE_FIELDS,
};

static void signal_events_init(void)
{
    tracepoint_register(&event_signal_generate);
    tracepoint_register(&event_signal_deliver);
}
INITCALL(trace, signal_events_init);
