/*
 * exceptions_events.c - the exceptions/ events (exceptions_events.h): Linux's
 * x86_exceptions class, for i386 (unsigned long is 4 bytes).
 */
#include "trace/events/exceptions_events.h"

#include <stddef.h>

#include "kernel/init.h"
#include "kernel/lib/symbols.h"
#include "kernel/mm/page_alloc.h" /* KERNEL_BASE */

struct fault_entry {
    struct trace_entry ent;
    uint32_t address, ip, error_code;
};

enum { PF_ADDRESS, PF_IP, PF_ERROR_CODE, PF_FIELDS };

static const struct trace_event_field fault_fields[PF_FIELDS] = {
    { "unsigned long", "address", offsetof(struct fault_entry, address), 4, 0, false, TRACE_FIELD_INT },
    { "unsigned long", "ip", offsetof(struct fault_entry, ip), 4, 0, false, TRACE_FIELD_INT },
    { "unsigned long", "error_code", offsetof(struct fault_entry, error_code), 4, 0, false, TRACE_FIELD_INT },
};

/* One record of the x86_exceptions class for call. */
static void record_fault(struct trace_event_call *call, uint32_t address, uint32_t ip,
                         uint32_t error_code)
{
    struct fault_entry *e = tracepoint_reserve(call, sizeof *e);
    if (!e)
        return;
    e->address = address;
    e->ip = ip;
    e->error_code = error_code;
    tracepoint_commit(call, e, sizeof *e);
}

static void record_page_fault_user(uint32_t address, uint32_t ip, uint32_t error_code)
{
    record_fault(&event_page_fault_user, address, ip, error_code);
}

static void record_page_fault_kernel(uint32_t address, uint32_t ip, uint32_t error_code)
{
    record_fault(&event_page_fault_kernel, address, ip, error_code);
}

static void attach_user(bool on) { trace_hook_page_fault_user = on ? record_page_fault_user : 0; }

static void attach_kernel(bool on)
{
    trace_hook_page_fault_kernel = on ? record_page_fault_kernel : 0;
}

/* Linux's %ps: the name of the kernel function holding addr, or the address in hex (always
 * for a user address: the table's boot code lies low, but no user address is in it). */
static void print_symbol(struct fs_writer *out, uint32_t addr)
{
    const char *name = addr >= KERNEL_BASE ? symbol_lookup(kernel_symbols(), addr, 0, 0) : 0;
    if (name)
        fs_puts(out, name);
    else
        fs_printf(out, "0x%lx", (unsigned long)addr);
}

static void print_fault(struct fs_writer *out, const struct trace_event_call *call,
                        const struct trace_event_view *ev)
{
    fs_puts(out, "address=");
    print_symbol(out, (uint32_t)tracepoint_int(call, ev, PF_ADDRESS));
    fs_puts(out, " ip=");
    print_symbol(out, (uint32_t)tracepoint_int(call, ev, PF_IP));
    fs_printf(out, " error_code=0x%lx", (unsigned long)(uint32_t)tracepoint_int(call, ev, PF_ERROR_CODE));
}

#define FAULT_FMT "\"address=%ps ip=%ps error_code=0x%lx\", (void *)REC->address, " \
                  "(void *)REC->ip, REC->error_code"

static const struct tracepoint_info user_info = { FAULT_FMT, print_fault, attach_user };
static const struct tracepoint_info kernel_info = { FAULT_FMT, print_fault, attach_kernel };

struct trace_event_call event_page_fault_user = {
    .system = "exceptions", .name = "page_fault_user", .ops = &tracepoint_ops,
    .data = (void *)&user_info, .fields = fault_fields, .nr_fields = PF_FIELDS,
};

struct trace_event_call event_page_fault_kernel = {
    .system = "exceptions", .name = "page_fault_kernel", .ops = &tracepoint_ops,
    .data = (void *)&kernel_info, .fields = fault_fields, .nr_fields = PF_FIELDS,
};

static void exceptions_events_init(void)
{
    tracepoint_register(&event_page_fault_user);
    tracepoint_register(&event_page_fault_kernel);
}
INITCALL(trace, exceptions_events_init);
