/*
 * trace_syscalls.c - syscall tracepoints (trace_syscalls.h).
 *
 * Linux's layout and text (kernel/trace/trace_syscalls.c as it stood until late 2025, before
 * enter events began to copy user strings and to print small values in decimal): an enter
 * record is the common header, the call's number and one unsigned long per argument; an
 * exit record is the header, the number and a long result. On i386 a long is 4 bytes, so a
 * result of -14 prints as 0xfffffff2.
 */
#include "trace/events/trace_syscalls.h"

#include <stddef.h>

#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/mm/heap.h"
#include "kernel/log/printk.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "trace/events/trace_events.h"

/* Linux's struct syscall_trace_enter and struct syscall_trace_exit, for i386. */
struct syscall_enter_entry {
    struct trace_entry ent;
    int32_t nr;
    uint32_t args[]; /* as many as the call takes */
};

struct syscall_exit_entry {
    struct trace_entry ent;
    int32_t nr;
    int32_t ret;
};

/* The two events of one system call. Each event's data is the call's number. */
struct syscall_events {
    struct trace_event_call enter, exit;
    uint8_t nargs;
};

static struct syscall_events *events_by_nr[SYS_MAX];
static unsigned enabled_events;

void trace_syscall_enter(unsigned nr, const uint32_t *args)
{
    struct syscall_events *se = nr < SYS_MAX ? events_by_nr[nr] : 0;
    if (!se || !se->enter.enabled)
        return;
    uint32_t size = (uint32_t)sizeof(struct syscall_enter_entry) + 4u * se->nargs;
    struct syscall_enter_entry *e =
        (struct syscall_enter_entry *)trace_reserve(se->enter.id, size);
    if (!e)
        return;
    e->nr = (int32_t)nr;
    memcpy(e->args, args, 4u * se->nargs);
    trace_commit();
}

void trace_syscall_exit(unsigned nr, int32_t ret)
{
    struct syscall_events *se = nr < SYS_MAX ? events_by_nr[nr] : 0;
    if (!se || !se->exit.enabled)
        return;
    struct syscall_exit_entry *e =
        (struct syscall_exit_entry *)trace_reserve(se->exit.id, sizeof *e);
    if (!e)
        return;
    e->nr = (int32_t)nr;
    e->ret = ret;
    trace_commit();
}

/* The table entry an event was made from. */
static const struct syscall_info *info_of(const struct trace_event_call *call)
{
    return syscall_info((unsigned)(uintptr_t)call->data);
}

/* "sys_write(fd: 1, buf: 40001000, count: c)": Linux's print_syscall_enter, each value in
 * hex without 0x. A record cut short (a damaged copy) shows only the arguments it holds. */
static void print_enter(struct fs_writer *out, const struct trace_event_call *call,
                        const struct trace_event_view *ev)
{
    const struct syscall_info *info = info_of(call);
    const struct syscall_enter_entry *e = (const struct syscall_enter_entry *)ev->entry;
    unsigned n = info->nargs;
    if (ev->length < sizeof *e + 4u * n)
        n = ev->length < sizeof *e ? 0 : (ev->length - (uint32_t)sizeof *e) / 4u;
    fs_printf(out, "sys_%s(", info->name);
    for (unsigned i = 0; i < n; i++)
        fs_printf(out, "%s%s: %lx", i ? ", " : "", info->arg_names[i],
                  (unsigned long)e->args[i]);
    fs_puts(out, ")");
}

/* "sys_write -> 0xc": Linux's print_syscall_exit, the result as an unsigned long. */
static void print_exit(struct fs_writer *out, const struct trace_event_call *call,
                       const struct trace_event_view *ev)
{
    const struct syscall_exit_entry *e = (const struct syscall_exit_entry *)ev->entry;
    unsigned long ret = ev->length < sizeof *e ? 0 : (unsigned long)(uint32_t)e->ret;
    fs_printf(out, "sys_%s -> 0x%lx", info_of(call)->name, ret);
}

/* The number's field, first in both records (Linux names it __syscall_nr). */
static void print_nr_field(struct fs_writer *out)
{
    fs_printf(out, "\tfield:int __syscall_nr;\toffset:%u;\tsize:4;\tsigned:1;\n",
              (unsigned)offsetof(struct syscall_enter_entry, nr));
}

/* sys_enter_NAME's fields and print fmt, as Linux's syscall_enter_define_fields() and
 * set_syscall_print_fmt() make them: each argument with its declared type, in a long-sized
 * slot, printed as 0x%08lx. */
static void format_enter(struct fs_writer *out, const struct trace_event_call *call)
{
    const struct syscall_info *info = info_of(call);
    print_nr_field(out);
    for (unsigned i = 0; i < info->nargs; i++)
        fs_printf(out, "\tfield:%s %s;\toffset:%u;\tsize:4;\tsigned:0;\n",
                  info->arg_types[i], info->arg_names[i],
                  (unsigned)(offsetof(struct syscall_enter_entry, args) + 4u * i));
    fs_puts(out, "\nprint fmt: \"");
    for (unsigned i = 0; i < info->nargs; i++)
        fs_printf(out, "%s%s: 0x%%08lx", i ? ", " : "", info->arg_names[i]);
    fs_puts(out, "\"");
    for (unsigned i = 0; i < info->nargs; i++)
        fs_printf(out, ", ((unsigned long)(REC->%s))", info->arg_names[i]);
    fs_puts(out, "\n");
}

/* sys_exit_NAME's fields and print fmt, as Linux declares them. */
static void format_exit(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    print_nr_field(out);
    fs_printf(out, "\tfield:long ret;\toffset:%u;\tsize:4;\tsigned:1;\n",
              (unsigned)offsetof(struct syscall_exit_entry, ret));
    fs_puts(out, "\nprint fmt: \"0x%lx\", REC->ret\n");
}

static const struct syscall_tracer syscall_events_tracer = { trace_syscall_enter,
                                                             trace_syscall_exit };

/* Keeps the dispatcher's tracer installed exactly while some syscall event is enabled. */
static int enable_syscall_event(struct trace_event_call *call, bool on)
{
    (void)call;
    enabled_events = on ? enabled_events + 1 : enabled_events - 1;
    syscall_set_tracer(enabled_events > 0 ? &syscall_events_tracer : 0);
    return 0;
}

static const struct trace_event_ops enter_ops = { .print = print_enter,
                                                  .print_format = format_enter,
                                                  .enable = enable_syscall_event };
static const struct trace_event_ops exit_ops = { .print = print_exit,
                                                 .print_format = format_exit,
                                                 .enable = enable_syscall_event };

/* Fills in one event of call nr: "sys_enter_write" or "sys_exit_write". */
static void describe(struct trace_event_call *call, const char *prefix, unsigned nr,
                     const struct syscall_info *info, const struct trace_event_ops *ops)
{
    call->system = "syscalls";
    ksnprintf(call->name, sizeof call->name, "%s%s", prefix, info->name);
    call->ops = ops;
    call->data = (void *)(uintptr_t)nr;
}

void trace_syscalls_init(void)
{
    for (unsigned nr = 0; nr < SYS_MAX; nr++) {
        const struct syscall_info *info = syscall_info(nr);
        if (!info || info->nargs > SYSCALL_ARGS_MAX)
            continue;
        struct syscall_events *se = kzalloc(sizeof *se);
        if (!se) {
            printk("tracing: no memory for syscall events\n");
            return;
        }
        describe(&se->enter, "sys_enter_", nr, info, &enter_ops);
        describe(&se->exit, "sys_exit_", nr, info, &exit_ops);
        se->nargs = info->nargs;
        int err = trace_event_register(&se->enter);
        if (err == 0) {
            err = trace_event_register(&se->exit);
            if (err)
                trace_event_unregister(&se->enter);
        }
        if (err) {
            printk("tracing: no events for syscall %s: %s\n", info->name, error_name(err));
            kfree(se);
            continue;
        }
        events_by_nr[nr] = se;
    }
}
