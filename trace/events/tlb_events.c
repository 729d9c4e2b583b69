/*
 * tlb_events.c - the tlb/ event (tlb_events.h): record, fields and print format as Linux
 * 6.1's include/trace/events/tlb.h declares them.
 */
#include "trace/events/tlb_events.h"

#include <stddef.h>

#include "kernel/init.h"
#include "kernel/trace_hooks.h"

struct tlb_flush_entry {
    struct trace_entry ent;
    int32_t reason;
    uint32_t pages; /* unsigned long on i386 */
};

enum { TF_REASON, TF_PAGES, TF_FIELDS };

static const struct trace_event_field tlb_flush_fields[TF_FIELDS] = {
    { "int", "reason", offsetof(struct tlb_flush_entry, reason), 4, 0, true, TRACE_FIELD_INT },
    { "unsigned long", "pages", offsetof(struct tlb_flush_entry, pages), 4, 0, false,
      TRACE_FIELD_INT },
};

static void record_tlb_flush(int reason, unsigned long pages)
{
    struct tlb_flush_entry *e = tracepoint_reserve(&event_tlb_flush, sizeof *e);
    if (!e)
        return;
    e->reason = reason;
    e->pages = (uint32_t)pages;
    tracepoint_commit(&event_tlb_flush, e, sizeof *e);
}

static void attach_tlb_flush(bool on) { trace_hook_tlb_flush = on ? record_tlb_flush : 0; }

/* Linux's TLB_FLUSH_REASON strings. */
static const char *reason_name(int64_t reason)
{
    switch (reason) {
    case TLB_FLUSH_ON_TASK_SWITCH: return "flush on task switch";
    case TLB_REMOTE_SHOOTDOWN: return "remote shootdown";
    case TLB_LOCAL_SHOOTDOWN: return "local shootdown";
    case TLB_LOCAL_MM_SHOOTDOWN: return "local mm shootdown";
    case TLB_REMOTE_SEND_IPI: return "remote ipi send";
    default: return "";
    }
}

static void print_tlb_flush(struct fs_writer *out, const struct trace_event_call *call,
                            const struct trace_event_view *ev)
{
    int reason = (int)tracepoint_int(call, ev, TF_REASON);
    /* %ld of an unsigned long: TLB_FLUSH_ALL prints as -1 */
    fs_printf(out, "pages:%ld reason:%s (%d)", (long)(int32_t)tracepoint_int(call, ev, TF_PAGES),
              reason_name(reason), reason);
}

static const struct tracepoint_info tlb_flush_info = {
    "\"pages:%ld reason:%s (%d)\", REC->pages, __print_symbolic(REC->reason, "
    "{ 0, \"flush on task switch\" }, { 1, \"remote shootdown\" }, "
    "{ 2, \"local shootdown\" }, { 3, \"local mm shootdown\" }, { 4, \"remote ipi send\" }), "
    "REC->reason",
    print_tlb_flush, attach_tlb_flush,
};

struct trace_event_call event_tlb_flush = {
    .system = "tlb", .name = "tlb_flush", .ops = &tracepoint_ops,
    .data = (void *)&tlb_flush_info, .fields = tlb_flush_fields, .nr_fields = TF_FIELDS,
};

static void tlb_events_init(void) { tracepoint_register(&event_tlb_flush); }
INITCALL(trace, tlb_events_init);
