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

/* One "\tfield:DECL;\toffset:N;\tsize:N;\tsigned:N;" line of a member of TYPE. */
#define FIELD(out, decl, type, member, is_signed)                                           \
    fs_printf(out, "\tfield:%s;\toffset:%u;\tsize:%u;\tsigned:%d;\n", decl,                \
              (unsigned)offsetof(type, member), (unsigned)sizeof(((type *)0)->member),     \
              is_signed)

static void function_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    FIELD(out, "unsigned long ip", struct ftrace_entry, ip, 0);
    FIELD(out, "unsigned long parent_ip", struct ftrace_entry, parent_ip, 0);
    fs_puts(out, "\nprint fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n");
}

static void funcgraph_entry_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    FIELD(out, "unsigned long func", struct ftrace_graph_entry, func, 0);
    FIELD(out, "int depth", struct ftrace_graph_entry, depth, 1);
    FIELD(out, "unsigned long long calltime", struct ftrace_graph_entry, calltime, 0);
    fs_puts(out, "\nprint fmt: \"--> %ps (%d)\", (void *)REC->func, REC->depth\n");
}

/* funcgraph_exit and tracekern's funcgraph_leaf share struct ftrace_graph_return. */
static void graph_return_fields(struct fs_writer *out)
{
    FIELD(out, "unsigned long func", struct ftrace_graph_return, func, 0);
    FIELD(out, "int depth", struct ftrace_graph_return, depth, 1);
    FIELD(out, "unsigned long long calltime", struct ftrace_graph_return, calltime, 0);
    FIELD(out, "unsigned long long rettime", struct ftrace_graph_return, rettime, 0);
    FIELD(out, "unsigned int overrun", struct ftrace_graph_return, overrun, 0);
}

static void funcgraph_exit_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    graph_return_fields(out);
    fs_puts(out, "\nprint fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d\", "
                 "(void *)REC->func, REC->depth, REC->calltime, REC->rettime, REC->overrun\n");
}

static void funcgraph_leaf_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    graph_return_fields(out);
    fs_puts(out, "\nprint fmt: \"%ps(); (%d) (start: %llx  end: %llx)\", "
                 "(void *)REC->func, REC->depth, REC->calltime, REC->rettime\n");
}

static void print_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    FIELD(out, "unsigned long ip", struct print_entry, ip, 0);
    fs_printf(out, "\tfield:char buf[];\toffset:%u;\tsize:0;\tsigned:1;\n",
              (unsigned)offsetof(struct print_entry, text));
    fs_puts(out, "\nprint fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n");
}

static void mmiotrace_rw_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    FIELD(out, "unsigned char op", struct mmiotrace_rw_entry, op, 0);
    FIELD(out, "unsigned char width", struct mmiotrace_rw_entry, width, 0);
    FIELD(out, "unsigned char opcode[3]", struct mmiotrace_rw_entry, opcode, 0);
    FIELD(out, "unsigned int map_id", struct mmiotrace_rw_entry, map_id, 0);
    FIELD(out, "unsigned long value", struct mmiotrace_rw_entry, value, 0);
    FIELD(out, "unsigned long pc", struct mmiotrace_rw_entry, pc, 0);
    FIELD(out, "unsigned long long phys", struct mmiotrace_rw_entry, phys, 0);
    fs_puts(out, "\nprint fmt: \"%llx %lx %lx %d %x %x\", REC->phys, REC->value, REC->pc, "
                 "REC->map_id, REC->op, REC->width\n");
}

static void mmiotrace_map_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    FIELD(out, "unsigned char op", struct mmiotrace_map_entry, op, 0);
    FIELD(out, "unsigned int map_id", struct mmiotrace_map_entry, map_id, 0);
    FIELD(out, "unsigned long virt", struct mmiotrace_map_entry, virt, 0);
    FIELD(out, "unsigned long len", struct mmiotrace_map_entry, len, 0);
    FIELD(out, "unsigned long pc", struct mmiotrace_map_entry, pc, 0);
    FIELD(out, "unsigned long long phys", struct mmiotrace_map_entry, phys, 0);
    fs_puts(out, "\nprint fmt: \"%llx %lx %lx %d %x\", REC->phys, REC->virt, REC->len, "
                 "REC->map_id, REC->op\n");
}

static void kernel_stack_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    FIELD(out, "unsigned int nr", struct ftrace_stack_entry, nr, 0);
    FIELD(out, "unsigned long caller[8]", struct ftrace_stack_entry, caller, 0);
    fs_puts(out, "\nprint fmt: \"\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n"
                 "\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\", "
                 "(void *)REC->caller[0], (void *)REC->caller[1], (void *)REC->caller[2], "
                 "(void *)REC->caller[3], (void *)REC->caller[4], (void *)REC->caller[5], "
                 "(void *)REC->caller[6], (void *)REC->caller[7]\n");
}

#define REG(out, name) FIELD(out, "unsigned long " #name, struct snapshot_entry, regs.name, 0)
#define SEG(out, name) FIELD(out, "unsigned short " #name, struct snapshot_entry, regs.name, 0)

static void cpu_snapshot_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    FIELD(out, "unsigned int number", struct snapshot_entry, number, 0);
    FIELD(out, "unsigned long long delta", struct snapshot_entry, delta, 0);
    REG(out, eax); REG(out, ebx); REG(out, ecx); REG(out, edx);
    REG(out, esi); REG(out, edi); REG(out, ebp); REG(out, esp);
    REG(out, eip); REG(out, eflags); REG(out, cr3);
    SEG(out, cs); SEG(out, ss); SEG(out, ds); SEG(out, es); SEG(out, fs); SEG(out, gs);
    SEG(out, back_link); SEG(out, bad_segments);
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

#define BUILTIN(t, sys, nm, fn) { .type = (t), .ops = { .print_format = (fn) }, \
                                  .call = { .system = (sys), .name = (nm) } }

static struct builtin_format builtins[] = {
    BUILTIN(TRACE_PRINT, "ftrace", "print", print_format),
    BUILTIN(TRACE_MMIO_RW, "ftrace", "mmiotrace_rw", mmiotrace_rw_format),
    BUILTIN(TRACE_MMIO_MAP, "ftrace", "mmiotrace_map", mmiotrace_map_format),
    BUILTIN(TRACE_FN, "ftrace", "function", function_format),
    BUILTIN(TRACE_GRAPH_ENT, "ftrace", "funcgraph_entry", funcgraph_entry_format),
    BUILTIN(TRACE_GRAPH_RET, "ftrace", "funcgraph_exit", funcgraph_exit_format),
    BUILTIN(TRACE_GRAPH_LEAF, "tracekern", "funcgraph_leaf", funcgraph_leaf_format),
    BUILTIN(TRACE_STACK, "ftrace", "kernel_stack", kernel_stack_format),
    BUILTIN(TRACE_CPU_SNAPSHOT, "tracekern", "cpu_snapshot", cpu_snapshot_format),
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
