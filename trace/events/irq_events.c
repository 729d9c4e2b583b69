/*
 * irq_events.c - the irq/ events (irq_events.h): records, fields and print formats as
 * Linux 6.1's include/trace/events/irq.h declares them.
 */
#include "trace/events/irq_events.h"

#include <stddef.h>

#include "kernel/init.h"

struct entry_entry {
    struct trace_entry ent;
    int32_t irq;
    uint32_t name; /* __data_loc: the string follows the fixed part */
};

struct exit_entry {
    struct trace_entry ent;
    int32_t irq, ret;
};

enum { EN_IRQ, EN_NAME, EN_FIELDS };
enum { XT_IRQ, XT_RET, XT_FIELDS };

static const struct trace_event_field entry_fields[EN_FIELDS] = {
    { "int", "irq", offsetof(struct entry_entry, irq), 4, 0, true, TRACE_FIELD_INT },
    { "char", "name", offsetof(struct entry_entry, name), 4, 0, true, TRACE_FIELD_DATA_LOC },
};

static const struct trace_event_field exit_fields[XT_FIELDS] = {
    { "int", "irq", offsetof(struct exit_entry, irq), 4, 0, true, TRACE_FIELD_INT },
    { "int", "ret", offsetof(struct exit_entry, ret), 4, 0, true, TRACE_FIELD_INT },
};

static void record_irq_handler_entry(int irq, const char *name)
{
    uint32_t size = (uint32_t)sizeof(struct entry_entry) + tracepoint_string_size(name);
    struct entry_entry *e = tracepoint_reserve(&event_irq_handler_entry, size);
    if (!e)
        return;
    e->irq = irq;
    tracepoint_put_string(e, &e->name, sizeof *e, name);
    tracepoint_commit(&event_irq_handler_entry, e, size);
}

static void record_irq_handler_exit(int irq, bool handled)
{
    struct exit_entry *e = tracepoint_reserve(&event_irq_handler_exit, sizeof *e);
    if (!e)
        return;
    e->irq = irq;
    e->ret = handled ? 1 : 0; /* Linux's IRQ_HANDLED and IRQ_NONE */
    tracepoint_commit(&event_irq_handler_exit, e, sizeof *e);
}

static void attach_entry(bool on)
{
    trace_hook_irq_handler_entry = on ? record_irq_handler_entry : 0;
}

static void attach_exit(bool on) { trace_hook_irq_handler_exit = on ? record_irq_handler_exit : 0; }

static void print_entry(struct fs_writer *out, const struct trace_event_call *call,
                        const struct trace_event_view *ev)
{
    fs_printf(out, "irq=%d name=", (int)tracepoint_int(call, ev, EN_IRQ));
    tracepoint_print_str(out, call, ev, EN_NAME);
}

static void print_exit(struct fs_writer *out, const struct trace_event_call *call,
                       const struct trace_event_view *ev)
{
    fs_printf(out, "irq=%d ret=%s", (int)tracepoint_int(call, ev, XT_IRQ),
              tracepoint_int(call, ev, XT_RET) ? "handled" : "unhandled");
}

static const struct tracepoint_info entry_info = {
    "\"irq=%d name=%s\", REC->irq, __get_str(name)", print_entry, attach_entry,
};

static const struct tracepoint_info exit_info = {
    "\"irq=%d ret=%s\", REC->irq, REC->ret ? \"handled\" : \"unhandled\"", print_exit, attach_exit,
};

struct trace_event_call event_irq_handler_entry = {
    .system = "irq", .name = "irq_handler_entry", .ops = &tracepoint_ops,
    .data = (void *)&entry_info, .fields = entry_fields, .nr_fields = EN_FIELDS,
};

struct trace_event_call event_irq_handler_exit = {
    .system = "irq", .name = "irq_handler_exit", .ops = &tracepoint_ops,
    .data = (void *)&exit_info, .fields = exit_fields, .nr_fields = XT_FIELDS,
};

static void irq_events_init(void)
{
    tracepoint_register(&event_irq_handler_entry);
    tracepoint_register(&event_irq_handler_exit);
}
INITCALL(trace, irq_events_init);
