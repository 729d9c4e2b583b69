/*
 * tracepoint.c - the shared part of static kernel events (tracepoint.h): their format and
 * print ops, registration, and the helpers recorders and printers use.
 */
#include "trace/events/tracepoint.h"

#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/log/printk.h"

static const struct tracepoint_info *info_of(const struct trace_event_call *call)
{
    return call->data;
}

/* The core printed the fields (call->fields); what follows them is the print fmt. */
static void format_tracepoint(struct fs_writer *out, const struct trace_event_call *call)
{
    fs_printf(out, "\nprint fmt: %s\n", info_of(call)->print_fmt);
}

/* "sched_switch: prev_comm=...": the event's name, then its text, as Linux prints an event. */
static void print_tracepoint(struct fs_writer *out, const struct trace_event_call *call,
                             const struct trace_event_view *ev)
{
    fs_printf(out, "%s: ", call->name);
    info_of(call)->print(out, call, ev);
}

/* Enabling attaches the recorder to the event's hook, disabling detaches it. */
static int enable_tracepoint(struct trace_event_call *call, bool on)
{
    info_of(call)->attach(on);
    return 0;
}

const struct trace_event_ops tracepoint_ops = { .print = print_tracepoint,
                                                .print_format = format_tracepoint,
                                                .enable = enable_tracepoint };

void tracepoint_copy_comm(char *field, const char *name)
{
    size_t n = strlen(name);
    if (n > TASK_NAME_MAX - 1)
        n = TASK_NAME_MAX - 1;
    memcpy(field, name, n);
    memset(field + n, 0, TASK_NAME_MAX - n);
}

uint32_t tracepoint_string_size(const char *s)
{
    size_t n = strlen(s) + 1;
    return n > 0xffff ? 0xffff : (uint32_t)n; /* a __data_loc length is 16 bits */
}

void tracepoint_put_string(void *record, uint32_t *loc, uint32_t at, const char *s)
{
    uint32_t size = tracepoint_string_size(s);
    memcpy((char *)record + at, s, size - 1);
    ((char *)record)[at + size - 1] = 0;
    *loc = (size << 16) | at;
}

int64_t tracepoint_int(const struct trace_event_call *call, const struct trace_event_view *ev,
                       unsigned i)
{
    int64_t v = 0;
    if (i < call->nr_fields && !trace_field_read_int(&call->fields[i], ev->entry, ev->length, &v))
        v = 0;
    return v;
}

void tracepoint_print_str(struct fs_writer *out, const struct trace_event_call *call,
                          const struct trace_event_view *ev, unsigned i)
{
    const char *text;
    uint32_t len;
    if (i < call->nr_fields &&
        trace_field_read_string(&call->fields[i], ev->entry, ev->length, &text, &len))
        fs_printf(out, "%.*s", (int)len, text);
}

void tracepoint_register(struct trace_event_call *call)
{
    int err = trace_event_register(call);
    if (err)
        printk("tracing: no event %s:%s: %s\n", call->system, call->name, error_name(err));
}
