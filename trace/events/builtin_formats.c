/*
 * builtin_formats.c - events/ftrace/NAME/{format,id} (and events/tracekern/...) for the
 * records the tracers write with fixed types (enum trace_type in trace/core/trace.h).
 *
 * A reader of the raw ring-buffer pages (libtraceevent, trace-cmd) decodes a record by
 * looking its type up in these files. So each file states the id the record really carries
 * and tracekern's real layout, taken from the structs with offsetof/sizeof as this kernel
 * is compiled (i386: 64-bit fields 4-byte aligned). Names and print fmts follow Linux's
 * kernel/trace/trace_entries.h; where tracekern's struct differs, the file says what
 * tracekern writes. Records Linux has no counterpart for live in the system "tracekern".
 *
 * Times: the function_graph records' calltime and rettime are TSC cycles in the ring but
 * nanoseconds of the trace clock on every page a reader gets (trace_pipe_raw and the COM2
 * capture convert them, trace/core/trace_raw.h), as Linux's are, so these formats describe
 * nanoseconds. cpu_snapshot's delta is cycles everywhere, as its print fmt says.
 */
#include <stddef.h>

#include "kernel/init.h"
#include "kernel/fs/fs_layout.h"
#include "kernel/log/printk.h"
#include "trace/events/trace_events.h"
#include "trace/ftrace/ftrace.h"
#include "trace/mmiotrace/mmiotrace.h"
#include "trace/snapshot/snapshot.h"

/* A field of TYPE's member as its format line shows it: "CTYPE NAME", offset and size from
 * the struct as compiled. */
#define FIELD(ctype, name, type, member, is_signed)                                        \
    { ctype, name, (uint16_t)offsetof(type, member),                                      \
      (uint16_t)sizeof(((type *)0)->member), 0, is_signed, TRACE_FIELD_INT }
/* "CTYPE NAME[N]": an array member of N integers. */
#define ARRAY(ctype, name, type, member, n)                                                \
    { ctype, name, (uint16_t)offsetof(type, member),                                      \
      (uint16_t)sizeof(((type *)0)->member), n, false, TRACE_FIELD_ARRAY }

static const struct trace_event_field function_fields[] = {
    FIELD("unsigned long", "ip", struct ftrace_entry, ip, false),
    FIELD("unsigned long", "parent_ip", struct ftrace_entry, parent_ip, false),
};

static void function_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    fs_puts(out, "\nprint fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n");
}

static const struct trace_event_field funcgraph_entry_fields[] = {
    FIELD("unsigned long", "func", struct ftrace_graph_entry, func, false),
    FIELD("int", "depth", struct ftrace_graph_entry, depth, true),
    FIELD("unsigned long long", "calltime", struct ftrace_graph_entry, calltime, false),
};

static void funcgraph_entry_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    fs_puts(out, "\nprint fmt: \"--> %ps (%d)\", (void *)REC->func, REC->depth\n");
}

/* funcgraph_exit and tracekern's funcgraph_leaf share struct ftrace_graph_return. */
static const struct trace_event_field graph_return_fields[] = {
    FIELD("unsigned long", "func", struct ftrace_graph_return, func, false),
    FIELD("int", "depth", struct ftrace_graph_return, depth, true),
    FIELD("unsigned long long", "calltime", struct ftrace_graph_return, calltime, false),
    FIELD("unsigned long long", "rettime", struct ftrace_graph_return, rettime, false),
    FIELD("unsigned int", "overrun", struct ftrace_graph_return, overrun, false),
};

static void funcgraph_exit_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    fs_puts(out, "\nprint fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d\", "
                 "(void *)REC->func, REC->depth, REC->calltime, REC->rettime, REC->overrun\n");
}

static void funcgraph_leaf_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    fs_puts(out, "\nprint fmt: \"%ps(); (%d) (start: %llx  end: %llx)\", "
                 "(void *)REC->func, REC->depth, REC->calltime, REC->rettime\n");
}

static const struct trace_event_field print_fields[] = {
    FIELD("unsigned long", "ip", struct print_entry, ip, false),
};

/* The text is a flexible array (Linux's "char buf[]", size 0), which event_fields.h has no
 * kind for: its line follows the fields the core prints. */
static void print_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    fs_printf(out, "\tfield:char buf[];\toffset:%u;\tsize:0;\tsigned:1;\n",
              (unsigned)offsetof(struct print_entry, text));
    fs_puts(out, "\nprint fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n");
}

static const struct trace_event_field mmiotrace_rw_fields[] = {
    FIELD("unsigned char", "op", struct mmiotrace_rw_entry, op, false),
    FIELD("unsigned char", "width", struct mmiotrace_rw_entry, width, false),
    ARRAY("unsigned char", "opcode", struct mmiotrace_rw_entry, opcode, 3),
    FIELD("unsigned int", "map_id", struct mmiotrace_rw_entry, map_id, false),
    FIELD("unsigned long", "value", struct mmiotrace_rw_entry, value, false),
    FIELD("unsigned long", "pc", struct mmiotrace_rw_entry, pc, false),
    FIELD("unsigned long long", "phys", struct mmiotrace_rw_entry, phys, false),
};

static void mmiotrace_rw_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    fs_puts(out, "\nprint fmt: \"%llx %lx %lx %d %x %x\", REC->phys, REC->value, REC->pc, "
                 "REC->map_id, REC->op, REC->width\n");
}

static const struct trace_event_field mmiotrace_map_fields[] = {
    FIELD("unsigned char", "op", struct mmiotrace_map_entry, op, false),
    FIELD("unsigned int", "map_id", struct mmiotrace_map_entry, map_id, false),
    FIELD("unsigned long", "virt", struct mmiotrace_map_entry, virt, false),
    FIELD("unsigned long", "len", struct mmiotrace_map_entry, len, false),
    FIELD("unsigned long", "pc", struct mmiotrace_map_entry, pc, false),
    FIELD("unsigned long long", "phys", struct mmiotrace_map_entry, phys, false),
};

static void mmiotrace_map_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    fs_puts(out, "\nprint fmt: \"%llx %lx %lx %d %x\", REC->phys, REC->virt, REC->len, "
                 "REC->map_id, REC->op\n");
}

/* tracekern's extension of mmiotrace's log (mmiotrace.h): port I/O, interrupts, DMA frames. */
static const struct trace_event_field mmiotrace_pio_fields[] = {
    FIELD("unsigned char", "op", struct mmiotrace_pio_entry, op, false),
    FIELD("unsigned char", "width", struct mmiotrace_pio_entry, width, false),
    FIELD("unsigned short", "port", struct mmiotrace_pio_entry, port, false),
    FIELD("unsigned long", "value", struct mmiotrace_pio_entry, value, false),
    FIELD("unsigned long", "pc", struct mmiotrace_pio_entry, pc, false),
};

static void mmiotrace_pio_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    fs_puts(out, "\nprint fmt: \"%s %u 0x%x 0x%lx 0x%lx\", "
                 "__print_symbolic(REC->op, { 1, \"IN\" }, { 2, \"OUT\" }), REC->width, "
                 "REC->port, REC->value, REC->pc\n");
}

static const struct trace_event_field mmiotrace_irq_fields[] = {
    FIELD("unsigned char", "op", struct mmiotrace_irq_entry, op, false),
    FIELD("unsigned int", "irq", struct mmiotrace_irq_entry, irq, false),
    FIELD("unsigned int", "count", struct mmiotrace_irq_entry, count, false),
};

static void mmiotrace_irq_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    fs_puts(out, "\nprint fmt: \"%s %u %u\", "
                 "__print_symbolic(REC->op, { 1, \"IRQ\" }, { 2, \"IRQ_SEEN\" }), REC->irq, "
                 "REC->count\n");
}

static const struct trace_event_field mmiotrace_dma_fields[] = {
    FIELD("unsigned long", "virt", struct mmiotrace_dma_entry, virt, false),
    FIELD("unsigned long", "len", struct mmiotrace_dma_entry, len, false),
    FIELD("unsigned long long", "phys", struct mmiotrace_dma_entry, phys, false),
};

static void mmiotrace_dma_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    fs_puts(out, "\nprint fmt: \"0x%llx 0x%lx 0x%lx\", REC->phys, REC->len, REC->virt\n");
}

static const struct trace_event_field kernel_stack_fields[] = {
    FIELD("unsigned int", "nr", struct ftrace_stack_entry, nr, false),
    ARRAY("unsigned long", "caller", struct ftrace_stack_entry, caller, 8),
};

static void kernel_stack_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    fs_puts(out, "\nprint fmt: \"\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n"
                 "\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\", "
                 "(void *)REC->caller[0], (void *)REC->caller[1], (void *)REC->caller[2], "
                 "(void *)REC->caller[3], (void *)REC->caller[4], (void *)REC->caller[5], "
                 "(void *)REC->caller[6], (void *)REC->caller[7]\n");
}

#define REG(name) FIELD("unsigned long", #name, struct snapshot_entry, regs.name, false)
#define SEG(name) FIELD("unsigned short", #name, struct snapshot_entry, regs.name, false)

static const struct trace_event_field cpu_snapshot_fields[] = {
    FIELD("unsigned int", "number", struct snapshot_entry, number, false),
    FIELD("unsigned long long", "delta", struct snapshot_entry, delta, false),
    REG(eax), REG(ebx), REG(ecx), REG(edx), REG(esi), REG(edi), REG(ebp), REG(esp),
    REG(eip), REG(eflags), REG(cr3),
    SEG(cs), SEG(ss), SEG(ds), SEG(es), SEG(fs), SEG(gs), SEG(back_link), SEG(bad_segments),
};

static void cpu_snapshot_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    fs_puts(out, "\nprint fmt: \"snapshot #%u +%llu cycles at %ps: eax=%08lx ebx=%08lx "
                 "ecx=%08lx edx=%08lx esi=%08lx edi=%08lx ebp=%08lx esp=%08lx eflags=%08lx\", "
                 "REC->number, REC->delta, (void *)REC->eip, REC->eax, REC->ebx, REC->ecx, "
                 "REC->edx, REC->esi, REC->edi, REC->ebp, REC->esp, REC->eflags\n");
}

struct builtin_format {
    uint16_t type;
    struct trace_event_ops ops;
    struct trace_event_call call;
};

#define BUILTIN(t, sys, nm, fl, fn)                                                        \
    { .type = (t), .ops = { .print_format = (fn) },                                        \
      .call = { .system = (sys), .name = (nm), .fields = (fl),                             \
                .nr_fields = sizeof(fl) / sizeof((fl)[0]) } }

static struct builtin_format builtins[] = {
    BUILTIN(TRACE_PRINT, "ftrace", "print", print_fields, print_format),
    BUILTIN(TRACE_MMIO_RW, "ftrace", "mmiotrace_rw", mmiotrace_rw_fields, mmiotrace_rw_format),
    BUILTIN(TRACE_MMIO_MAP, "ftrace", "mmiotrace_map", mmiotrace_map_fields, mmiotrace_map_format),
    BUILTIN(TRACE_FN, "ftrace", "function", function_fields, function_format),
    BUILTIN(TRACE_GRAPH_ENT, "ftrace", "funcgraph_entry", funcgraph_entry_fields,
            funcgraph_entry_format),
    BUILTIN(TRACE_GRAPH_RET, "ftrace", "funcgraph_exit", graph_return_fields, funcgraph_exit_format),
    BUILTIN(TRACE_GRAPH_LEAF, "tracekern", "funcgraph_leaf", graph_return_fields,
            funcgraph_leaf_format),
    BUILTIN(TRACE_STACK, "ftrace", "kernel_stack", kernel_stack_fields, kernel_stack_format),
    BUILTIN(TRACE_CPU_SNAPSHOT, "tracekern", "cpu_snapshot", cpu_snapshot_fields,
            cpu_snapshot_format),
    BUILTIN(TRACE_MMIO_PIO, "tracekern", "mmiotrace_pio", mmiotrace_pio_fields,
            mmiotrace_pio_format),
    BUILTIN(TRACE_MMIO_IRQ, "tracekern", "mmiotrace_irq", mmiotrace_irq_fields,
            mmiotrace_irq_format),
    BUILTIN(TRACE_MMIO_DMA, "tracekern", "mmiotrace_dma", mmiotrace_dma_fields,
            mmiotrace_dma_format),
};

/* printk_formats: Linux lists there the format strings its bprint records point at
 * ("0xADDR : \"fmt\""). tracekern has no trace_printk and so no bprint record: every
 * record carries its text or its fields itself, and the file is empty, as on a Linux
 * kernel without trace_printk calls. */
static int read_printk_formats(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    (void)out;
    return 0;
}

static const struct fs_file_ops printk_formats_ops = { .read = read_printk_formats };

/* Publishes every built-in record's format and id, and printk_formats, at boot. */
static void builtin_formats_init(void)
{
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
        struct builtin_format *b = &builtins[i];
        b->call.ops = &b->ops;
        int err = trace_event_describe_builtin(&b->call, b->type);
        if (err)
            printk("trace: events/%s/%s: error %d\n", b->call.system, b->call.name, err);
    }
    fs_create(tracefs_root(), "printk_formats", &printk_formats_ops, 0);
}
INITCALL(trace, builtin_formats_init);
