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

/* Linux's raw_syscalls records (include/trace/events/syscalls.h), for i386: every call,
 * known or not, by number, with all six argument registers. */
struct raw_enter_entry {
    struct trace_entry ent;
    int32_t id;
    uint32_t args[SYSCALL_ARGS_MAX];
};

struct raw_exit_entry {
    struct trace_entry ent;
    int32_t id;
    int32_t ret;
};

/* The two events of one system call. Each event's data is the call's table slot
 * (kernel/syscall/syscall.h: its number, or the IPC operation's slot). */
struct syscall_events {
    struct trace_event_call enter, exit;
    uint8_t nargs;
    /* Their fields (event_fields.h), for format and filters: __syscall_nr and the
     * arguments; __syscall_nr and ret. */
    struct trace_event_field enter_fields[1 + SYSCALL_ARGS_MAX], exit_fields[2];
};

static struct syscall_events *events_by_slot[SYSCALL_SLOTS];
static struct trace_event_call raw_enter, raw_exit;
static unsigned enabled_events;

/* raw_syscalls:sys_enter, if enabled: the number and the six registers as they came. */
static void trace_raw_enter(unsigned nr, const uint32_t *regs)
{
    if (!raw_enter.enabled)
        return;
    struct raw_enter_entry *e =
        (struct raw_enter_entry *)trace_event_reserve(&raw_enter, sizeof *e);
    if (!e)
        return;
    e->id = (int32_t)nr;
    memcpy(e->args, regs, sizeof e->args);
    trace_event_commit(&raw_enter, &e->ent, sizeof *e);
}

void trace_syscall_enter(unsigned nr, const uint32_t *regs)
{
    trace_raw_enter(nr, regs);
    unsigned slot = syscall_slot(nr, regs);
    struct syscall_events *se = slot < SYSCALL_SLOTS ? events_by_slot[slot] : 0;
    if (!se || !se->enter.enabled)
        return;
    uint32_t args[SYSCALL_ARGS_MAX];
    syscall_slot_args(slot, regs, args);
    uint32_t size = (uint32_t)sizeof(struct syscall_enter_entry) + 4u * se->nargs;
    struct syscall_enter_entry *e =
        (struct syscall_enter_entry *)trace_event_reserve(&se->enter, size);
    if (!e)
        return;
    e->nr = (int32_t)nr;
    memcpy(e->args, args, 4u * se->nargs);
    trace_event_commit(&se->enter, &e->ent, size);
}

/* raw_syscalls:sys_exit, if enabled: the number and the result. */
static void trace_raw_exit(unsigned nr, int32_t ret)
{
    if (!raw_exit.enabled)
        return;
    struct raw_exit_entry *e = (struct raw_exit_entry *)trace_event_reserve(&raw_exit, sizeof *e);
    if (!e)
        return;
    e->id = (int32_t)nr;
    e->ret = ret;
    trace_event_commit(&raw_exit, &e->ent, sizeof *e);
}

void trace_syscall_exit(unsigned nr, const uint32_t *regs, int32_t ret)
{
    trace_raw_exit(nr, ret);
    unsigned slot = syscall_slot(nr, regs);
    struct syscall_events *se = slot < SYSCALL_SLOTS ? events_by_slot[slot] : 0;
    if (!se || !se->exit.enabled)
        return;
    struct syscall_exit_entry *e =
        (struct syscall_exit_entry *)trace_event_reserve(&se->exit, sizeof *e);
    if (!e)
        return;
    e->nr = (int32_t)nr;
    e->ret = ret;
    trace_event_commit(&se->exit, &e->ent, sizeof *e);
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
static const struct trace_event_field nr_field = {
    "int", "__syscall_nr", offsetof(struct syscall_enter_entry, nr), 4, 0, true, TRACE_FIELD_INT
};

/* sys_enter_NAME's fields, as Linux's syscall_enter_define_fields() makes them: each
 * argument with its declared type, in a long-sized slot, unsigned. */
static void define_enter_fields(struct syscall_events *se, const struct syscall_info *info)
{
    se->enter_fields[0] = nr_field;
    for (unsigned i = 0; i < info->nargs; i++)
        se->enter_fields[1 + i] = (struct trace_event_field){
            info->arg_types[i], info->arg_names[i],
            (uint16_t)(offsetof(struct syscall_enter_entry, args) + 4u * i), 4, 0, false,
            TRACE_FIELD_INT };
    se->enter.fields = se->enter_fields;
    se->enter.nr_fields = (uint16_t)(1 + info->nargs);
}

/* sys_exit_NAME's fields: the number and a long result. */
static void define_exit_fields(struct syscall_events *se)
{
    se->exit_fields[0] = nr_field;
    se->exit_fields[1] = (struct trace_event_field){
        "long", "ret", offsetof(struct syscall_exit_entry, ret), 4, 0, true, TRACE_FIELD_INT };
    se->exit.fields = se->exit_fields;
    se->exit.nr_fields = 2;
}

/* sys_enter_NAME's print fmt, as Linux's set_syscall_print_fmt() makes it: each argument
 * printed as 0x%08lx (the core prints the fields before it). */
static void format_enter(struct fs_writer *out, const struct trace_event_call *call)
{
    const struct syscall_info *info = info_of(call);
    fs_puts(out, "\nprint fmt: \"");
    for (unsigned i = 0; i < info->nargs; i++)
        fs_printf(out, "%s%s: 0x%%08lx", i ? ", " : "", info->arg_names[i]);
    fs_puts(out, "\"");
    for (unsigned i = 0; i < info->nargs; i++)
        fs_printf(out, ", ((unsigned long)(REC->%s))", info->arg_names[i]);
    fs_puts(out, "\n");
}

/* sys_exit_NAME's print fmt, as Linux declares it. */
static void format_exit(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    fs_puts(out, "\nprint fmt: \"0x%lx\", REC->ret\n");
}

/* "NR 4 (1, 40001000, c, 0, 0, 0)": Linux's raw_syscalls:sys_enter line. */
static void print_raw_enter(struct fs_writer *out, const struct trace_event_call *call,
                            const struct trace_event_view *ev)
{
    (void)call;
    const struct raw_enter_entry *e = (const struct raw_enter_entry *)ev->entry;
    if (ev->length < sizeof *e) {
        fs_puts(out, "NR ? (record cut short)");
        return;
    }
    fs_printf(out, "NR %ld (", (long)e->id);
    for (unsigned i = 0; i < SYSCALL_ARGS_MAX; i++)
        fs_printf(out, "%s%lx", i ? ", " : "", (unsigned long)e->args[i]);
    fs_puts(out, ")");
}

/* "NR 4 = 12": Linux's raw_syscalls:sys_exit line. */
static void print_raw_exit(struct fs_writer *out, const struct trace_event_call *call,
                           const struct trace_event_view *ev)
{
    (void)call;
    const struct raw_exit_entry *e = (const struct raw_exit_entry *)ev->entry;
    if (ev->length < sizeof *e) {
        fs_puts(out, "NR ? (record cut short)");
        return;
    }
    fs_printf(out, "NR %ld = %ld", (long)e->id, (long)e->ret);
}

/* raw_syscalls:sys_enter's fields, as Linux's i386 format file: id and the six registers
 * (an array: listed, not filterable). */
static const struct trace_event_field raw_enter_fields[] = {
    { "long", "id", offsetof(struct raw_enter_entry, id), 4, 0, true, TRACE_FIELD_INT },
    { "unsigned long", "args", offsetof(struct raw_enter_entry, args), 4u * SYSCALL_ARGS_MAX,
      SYSCALL_ARGS_MAX, false, TRACE_FIELD_ARRAY },
};

/* raw_syscalls:sys_exit's fields. */
static const struct trace_event_field raw_exit_fields[] = {
    { "long", "id", offsetof(struct raw_exit_entry, id), 4, 0, true, TRACE_FIELD_INT },
    { "long", "ret", offsetof(struct raw_exit_entry, ret), 4, 0, true, TRACE_FIELD_INT },
};

static void format_raw_enter(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    fs_puts(out, "\nprint fmt: \"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)\", REC->id, "
                 "REC->args[0], REC->args[1], REC->args[2], REC->args[3], REC->args[4], "
                 "REC->args[5]\n");
}

static void format_raw_exit(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    fs_puts(out, "\nprint fmt: \"NR %ld = %ld\", REC->id, REC->ret\n");
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
static const struct trace_event_ops raw_enter_ops = { .print = print_raw_enter,
                                                      .print_format = format_raw_enter,
                                                      .enable = enable_syscall_event };
static const struct trace_event_ops raw_exit_ops = { .print = print_raw_exit,
                                                     .print_format = format_raw_exit,
                                                     .enable = enable_syscall_event };

/* Fills in one event of the call in slot: "sys_enter_write" or "sys_exit_write". */
static void describe(struct trace_event_call *call, const char *prefix, unsigned slot,
                     const struct syscall_info *info, const struct trace_event_ops *ops)
{
    call->system = "syscalls";
    /* prefix then the call's name, cut to fit: two copies (the boot does this 322 times,
     * and ksnprintf's "%s%s" cost five times as much) */
    size_t prefix_len = strlen(prefix), name_len = strlen(info->name);
    if (prefix_len + name_len >= sizeof call->name)
        name_len = sizeof call->name - 1 - prefix_len;
    memcpy(call->name, prefix, prefix_len);
    memcpy(call->name + prefix_len, info->name, name_len);
    call->name[prefix_len + name_len] = '\0';
    call->ops = ops;
    call->data = (void *)(uintptr_t)slot;
}

/* Registers raw_syscalls:sys_enter and sys_exit, which see every call, known or not. */
static void register_raw_events(void)
{
    raw_enter.system = raw_exit.system = "raw_syscalls";
    ksnprintf(raw_enter.name, sizeof raw_enter.name, "sys_enter");
    ksnprintf(raw_exit.name, sizeof raw_exit.name, "sys_exit");
    raw_enter.ops = &raw_enter_ops;
    raw_exit.ops = &raw_exit_ops;
    raw_enter.fields = raw_enter_fields;
    raw_enter.nr_fields = 2;
    raw_exit.fields = raw_exit_fields;
    raw_exit.nr_fields = 2;
    if (trace_event_register(&raw_enter) || trace_event_register(&raw_exit))
        printk("tracing: no raw_syscalls events\n");
}

void trace_syscalls_init(void)
{
    register_raw_events();
    for (unsigned nr = 0; nr < SYSCALL_SLOTS; nr++) {
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
        define_enter_fields(se, info);
        define_exit_fields(se);
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
        events_by_slot[nr] = se;
    }
}
