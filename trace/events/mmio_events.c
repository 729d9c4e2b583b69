/*
 * mmio_events.c - the mmio/ events (mmio_events.h): fields, print formats and enable of
 * the mmiotrace records seen as events. Recording is mmiotrace's (trace/mmiotrace/
 * mmiotrace.c: mmiotrace_record_rw, mmiotrace_record_map).
 */
#include "trace/events/mmio_events.h"

#include <stddef.h>

#include "kernel/init.h"
#include "trace/mmiotrace/mmiotrace.h"

#define U8_FIELD(name, type, member) \
    { "unsigned char", name, offsetof(type, member), 1, 0, false, TRACE_FIELD_INT }
#define U32_FIELD(ctype, name, type, member) \
    { ctype, name, offsetof(type, member), 4, 0, false, TRACE_FIELD_INT }
#define ADDR_FIELD(type) \
    { "unsigned long long", "addr", offsetof(type, phys), 8, 0, false, TRACE_FIELD_INT }

enum { RW_RW, RW_WIDTH, RW_OPCODE, RW_MAP_ID, RW_VALUE, RW_PC, RW_ADDR, RW_FIELDS };
enum { MAP_OP, MAP_MAP_ID, MAP_VIRT, MAP_LEN, MAP_PC, MAP_ADDR, MAP_FIELDS };

static const struct trace_event_field rw_fields[RW_FIELDS] = {
    U8_FIELD("rw", struct mmiotrace_rw_entry, op),
    U8_FIELD("width", struct mmiotrace_rw_entry, width),
    { "unsigned char", "opcode", offsetof(struct mmiotrace_rw_entry, opcode), 3, 3, false,
      TRACE_FIELD_ARRAY },
    U32_FIELD("unsigned int", "map_id", struct mmiotrace_rw_entry, map_id),
    U32_FIELD("unsigned long", "value", struct mmiotrace_rw_entry, value),
    U32_FIELD("unsigned long", "pc", struct mmiotrace_rw_entry, pc),
    ADDR_FIELD(struct mmiotrace_rw_entry),
};

static const struct trace_event_field map_fields[MAP_FIELDS] = {
    U8_FIELD("op", struct mmiotrace_map_entry, op),
    U32_FIELD("unsigned int", "map_id", struct mmiotrace_map_entry, map_id),
    U32_FIELD("unsigned long", "virt", struct mmiotrace_map_entry, virt),
    U32_FIELD("unsigned long", "len", struct mmiotrace_map_entry, len),
    U32_FIELD("unsigned long", "pc", struct mmiotrace_map_entry, pc),
    ADDR_FIELD(struct mmiotrace_map_entry),
};

/* The op letters mmiotrace's log uses (enum mmio_trace_op). */
static const char *op_name(int64_t op)
{
    switch (op) {
    case MMIO_OP_READ: return "R";
    case MMIO_OP_WRITE: return "W";
    case MMIO_OP_UNKNOWN: return "UNKNOWN";
    case MMIO_OP_MAP: return "MAP";
    case MMIO_OP_UNMAP: return "UNMAP";
    default: return "?";
    }
}

static void print_rw(struct fs_writer *out, const struct trace_event_call *call,
                     const struct trace_event_view *ev)
{
    fs_printf(out, "rw=%s width=%u addr=0x%llx value=0x%lx pc=0x%lx map_id=%u",
              op_name(tracepoint_int(call, ev, RW_RW)), (unsigned)tracepoint_int(call, ev, RW_WIDTH),
              (unsigned long long)tracepoint_int(call, ev, RW_ADDR),
              (unsigned long)tracepoint_int(call, ev, RW_VALUE),
              (unsigned long)tracepoint_int(call, ev, RW_PC),
              (unsigned)tracepoint_int(call, ev, RW_MAP_ID));
}

static void print_map(struct fs_writer *out, const struct trace_event_call *call,
                      const struct trace_event_view *ev)
{
    fs_printf(out, "op=%s addr=0x%llx virt=0x%lx len=0x%lx pc=0x%lx map_id=%u",
              op_name(tracepoint_int(call, ev, MAP_OP)),
              (unsigned long long)tracepoint_int(call, ev, MAP_ADDR),
              (unsigned long)tracepoint_int(call, ev, MAP_VIRT),
              (unsigned long)tracepoint_int(call, ev, MAP_LEN),
              (unsigned long)tracepoint_int(call, ev, MAP_PC),
              (unsigned)tracepoint_int(call, ev, MAP_MAP_ID));
}

/* Enabling either event arms the fault path (mmiotrace.c) instead of setting a hook: the
 * tracer and the events each hold the arming, and it ends when the last lets go. */
static int enable_mmio(struct trace_event_call *call, bool on)
{
    return mmiotrace_event_arm(call, on);
}

static const struct tracepoint_info rw_info = {
    "\"rw=%s width=%u addr=0x%llx value=0x%lx pc=0x%lx map_id=%u\", "
    "__print_symbolic(REC->rw, { 1, \"R\" }, { 2, \"W\" }, { 3, \"UNKNOWN\" }), REC->width, "
    "REC->addr, REC->value, REC->pc, REC->map_id",
    print_rw, 0, /* no hook to attach: enable_mmio */
};

static const struct tracepoint_info map_info = {
    "\"op=%s addr=0x%llx virt=0x%lx len=0x%lx pc=0x%lx map_id=%u\", "
    "__print_symbolic(REC->op, { 4, \"MAP\" }, { 5, \"UNMAP\" }), REC->addr, REC->virt, "
    "REC->len, REC->pc, REC->map_id",
    print_map, 0,
};

/* tracepoint_ops with the enable above (set at boot, before the events are published). */
static struct trace_event_ops mmio_ops;

struct trace_event_call event_mmio_rw = {
    .system = "mmio", .name = "mmio_rw", .ops = &mmio_ops,
    .data = (void *)&rw_info, .fields = rw_fields, .nr_fields = RW_FIELDS,
};

struct trace_event_call event_mmio_map = {
    .system = "mmio", .name = "mmio_map", .ops = &mmio_ops,
    .data = (void *)&map_info, .fields = map_fields, .nr_fields = MAP_FIELDS,
};

static void mmio_events_init(void)
{
    mmio_ops = tracepoint_ops;
    mmio_ops.enable = enable_mmio;
    tracepoint_register(&event_mmio_rw);
    tracepoint_register(&event_mmio_map);
}
INITCALL(trace, mmio_events_init);
