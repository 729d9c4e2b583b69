/*
 * trace.h - the tracing core: one trace buffer, the registered tracers, and what every
 * event carries.
 *
 * A tracer is a struct tracer registered by name (as in Linux's kernel/trace). The core owns
 * the ring buffer (trace/core/ring_buffer.h), timestamps, the files in the tracing directory
 * (`current_tracer`, `trace`, `trace_pipe`, `trace_marker`, ...), the stream of trace_pipe
 * to COM2, and the accounting of lost events. A tracer records events with trace_reserve()/
 * trace_commit() and says how to print them; it never writes to a port itself.
 */
#ifndef TRACE_CORE_TRACE_H
#define TRACE_CORE_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/core/ring_buffer.h"
#include "kernel/fs/fs_tree.h"

/* Event types. Tracers add theirs here so that each number has one meaning. */
enum trace_type {
    TRACE_PRINT = 1,    /* trace_marker text */
    TRACE_MMIO_RW = 2,  /* mmiotrace: a read, a write, or an unknown access */
    TRACE_MMIO_MAP = 3, /* mmiotrace: ioremap or iounmap */
    TRACE_FN = 4,          /* function tracer: a call */
    TRACE_GRAPH_ENT = 5,   /* function_graph: entry of a function that calls others */
    TRACE_GRAPH_RET = 6,   /* function_graph: its return */
    TRACE_GRAPH_LEAF = 7,  /* function_graph: a call with nothing traced inside (entry+return) */
    TRACE_STACK = 8,       /* a stack trace attached to the event before it */
    TRACE_CPU_SNAPSHOT = 9, /* int3 through the task gate (TRACE_SNAPSHOT()): CPU state */
    TRACE_MMIO_PIO = 10,   /* mmiotrace's extension: a port read or write */
    TRACE_MMIO_IRQ = 11,   /* mmiotrace's extension: a device interrupt fired, or was seen */
    TRACE_MMIO_DMA = 12,   /* mmiotrace's extension: a page's frame handed to a driver */
};

/* The common head of every event, filled by trace_reserve. */
struct trace_entry {
    uint16_t type;
    uint8_t flags;         /* TRACE_FLAG_* at the time of the event */
    uint8_t preempt_count;
    int32_t pid;
};

#define TRACE_FLAG_IRQS_OFF 0x01
#define TRACE_FLAG_HARDIRQ 0x08

/* TRACE_PRINT: a marker. */
struct print_entry {
    struct trace_entry ent;
    uint32_t ip;   /* where it was written: tracing_mark_write, as on Linux */
    char text[];   /* NUL-terminated, no trailing newline */
};

#define TRACE_MARKER_MAX 1024 /* longer marker writes are cut here, as Linux does */

/* An event handed to a tracer for printing. */
struct trace_event_view {
    const struct trace_entry *entry; /* the payload, properly aligned */
    uint32_t length;                 /* of the payload */
    uint64_t ts;                     /* ns since boot */
    unsigned cpu;
};

/* What a `trace` header states. */
struct trace_header_info {
    uint64_t entries;  /* in the buffer now */
    uint64_t written;  /* entries + every lost event (overwritten or dropped) */
    unsigned ncpus;
};

struct tracer {
    const char *name;
    /* Selected as current_tracer: prepare (0) or refuse (negative errno). */
    int (*init)(void);
    /* Deselected: undo init. Runs after stop. */
    void (*reset)(void);
    /* Tracing turns on and off (selection, tracing_on). May be NULL. */
    void (*start)(void);
    void (*stop)(void);
    /* The `trace` file's header; NULL gives Linux's default header for this tracer. */
    void (*print_header)(struct fs_writer *out, const struct trace_header_info *info);
    /* What a trace_pipe reader gets first (mmiotrace: VERSION and PCIDEV lines). */
    void (*print_pipe_header)(struct fs_writer *out);
    /* Prints one event. Returns false if the event is not of the tracer's types, and the
     * core prints it (markers). */
    bool (*print_event)(struct fs_writer *out, const struct trace_event_view *ev);
    /* Prints a marker event whose text is text[0..len) (NULL: Linux's
     * "tracing_mark_write: text" line). */
    void (*print_marker)(struct fs_writer *out, const struct trace_event_view *ev,
                         const char *text, uint32_t len);
    /* The record saying events were lost before the next one (NULL: "CPU:n [LOST k EVENTS]"). */
    void (*print_lost)(struct fs_writer *out, unsigned cpu, uint64_t lost);
    /* Typical bytes of one event (payload), to express the buffer size in trace_entries. */
    uint32_t entry_size;
    struct tracer *next;
};

/* Makes a tracer selectable in current_tracer. */
void register_tracer(struct tracer *t);

/* Declares that records of a built-in type (enum trace_type) hold, at offset (struct
 * trace_entry included), a u64 count of cycles where Linux's record has nanoseconds
 * (function_graph's calltime and rettime: the ring keeps what the clock read). Exported
 * pages (per_cpu/cpuN/trace_pipe_raw) carry the field converted, and the binary capture
 * lists it for the host to convert (CAPTURE_CLOCK, uapi/trace_capture.h). Like Linux's
 * trace_event_functions, this belongs to the record's owner: the core knows no record's
 * layout. At boot, before any reader runs. 0, or -EINVAL for another type or an offset
 * that leaves no room for 8 bytes in a record, -EEXIST if declared already, -ENOSPC when
 * TRACE_CYCLE_FIELDS are declared. */
#define TRACE_CYCLE_FIELDS 8
int trace_declare_cycle_field(uint16_t type, uint16_t offset);
/* Converts the declared cycle fields of a record (length bytes, trace_entry first) to
 * nanoseconds of the trace clock, in place; a field the record is too short for stays. */
void trace_record_cycles_to_ns(void *record, uint32_t length);
struct capture_cycle_field; /* uapi/trace_capture.h */
/* The declared fields, for the capture: how many, and the table in *fields. */
unsigned trace_cycle_fields(const struct capture_cycle_field **fields);

/* Writer side, usable in any context: interrupt handlers and exception handlers included.
 * trace_reserve returns the event with its trace_entry filled in, or NULL when the event is
 * not recorded (tracing off, or lost and counted). Inline: see the end of this file. */
static inline struct trace_entry *trace_reserve(uint16_t type, uint32_t length);
static inline void trace_commit(void);

/* Records a marker, as a write to trace_marker does. Returns 0 or -errno. */
int tracing_mark_write(const char *text, uint32_t len);

/* True while events are recorded (tracing_on and a tracer selected). */
bool trace_enabled(void);

/* Prints the context columns Linux puts before an event: "  <idle>-0  [000] d....  12.345678: ". */
void trace_print_context(struct fs_writer *out, const struct trace_event_view *ev);
/* options/irq-info (Linux's, on by default): off leaves the flag columns ("d....") out of
 * the context and the default header. */
extern bool trace_print_irq_info;
/* options/latency-format (Linux's, off by default): the context becomes Linux's latency
 * columns ("  <idle>-0         0d.h..    1us : ", time since trace_time_start_ns and a
 * delay mark from next_ts) and the default header Linux's latency header. */
extern bool trace_print_latency_format;
/* options/record-tgid (Linux's, off by default): the context and the header get a TGID
 * column after TASK-PID. */
extern bool trace_print_record_tgid;
/* When the live buffer was last emptied (boot, a new tracer, `echo > trace`):
 * latency-format counts its times from there, as Linux's time_start. A snapshot swap
 * exchanges it with the snapshot buffer's (trace_snapshot.h). */
extern uint64_t trace_time_start_ns;
/* While out prints another buffer than the live one (the snapshot file), its
 * latency-format times count from start_ns, that buffer's; (NULL, 0) ends it. */
void trace_print_times_from(const struct fs_writer *out, uint64_t start_ns);
/* The time (ns) of the event after the one being printed, for latency-format's delay mark,
 * or 0: set by the `trace` file's reader around each event (trace_print_buffer, one walk at
 * a time under its mutex); trace_pipe does not look ahead and prints no mark. */
extern uint64_t trace_latency_next_ns;
/* Linux's default header for a tracer name (the # lines above the events). */
void trace_print_default_header(struct fs_writer *out, const char *tracer_name,
                                const struct trace_header_info *info);
/* Timestamp as the trace files show it: seconds.microseconds. */
void trace_print_ts(struct fs_writer *out, uint64_t ts_ns);

/* Microseconds to the nearest, as Linux's ns2usecs gives the times the trace file and
 * mmiotrace print (printk's and trace-cmd's own cut the nanoseconds off instead). */
static inline uint64_t trace_ns_to_usecs(uint64_t ns) { return (ns + 500u) / 1000u; }

/* A file holding an on/off setting: reads 1 or 0, takes 1 or 0 (anything else: -EINVAL).
 * The setting is either value alone, a bool the file reads and writes (for one that is
 * only consulted where it is used: `{ .value = &some_bool }`), or get and set (for one
 * that acts when it changes); value is then NULL. */
struct trace_flag {
    bool (*get)(void);
    void (*set)(bool on);
    bool *value;
};
struct fs_node *trace_create_flag_file(struct fs_node *dir, const char *name,
                                       const struct trace_flag *flag);

/* Sends everything unread to the COM2 stream now (tail flush: tracer switch, crash); with
 * options/stream_raw, the open binary capture ends (its last pages, CAPTURE_END). */
void trace_stream_flush(void);


/* The buffer, for the bench and tests. */
struct ring_buffer *trace_buffer(void);

/* --- the writer's fast path, inline (every traced event runs it) --------------------- */

#include "kernel/arch.h"
#include "kernel/proc/task.h"

extern struct ring_buffer *trace_buf; /* NULL until trace_init */
extern volatile bool trace_recording; /* tracing_on, and a buffer exists */

/* Fills an event's common head: its type, the context flags (irqs_were_on: whether
 * interrupts were on where the event happened) and the pid running on cpu, this CPU
 * (arch_cpu_id(), which the caller read once for the whole event). The one place every
 * record's head is written (trace_reserve, the event triggers' scratch records). */
static inline void trace_entry_fill_cpu(struct trace_entry *e, uint16_t type, bool irqs_were_on,
                                        unsigned cpu)
{
    /* type, flags and preempt_count (0) as one 32-bit store of a constant (little-endian,
     * as x86 is); in an interrupt handler the flag is added after. */
    uint32_t head = type | (uint32_t)(irqs_were_on ? 0 : TRACE_FLAG_IRQS_OFF) << 16;
    __builtin_memcpy(e, &head, sizeof head);
    if (__builtin_expect(arch_in_hardirq_on(cpu), 0))
        e->flags |= TRACE_FLAG_HARDIRQ;
    e->pid = cpu_current_pid[cpu];
}

static inline void trace_entry_fill(struct trace_entry *e, uint16_t type, bool irqs_were_on)
{
    trace_entry_fill_cpu(e, type, irqs_were_on, arch_cpu_id());
}

/* An event reserved in rb on cpu, with interrupts off, and its common head filled: the
 * one place the reserving functions below meet. */
static inline __attribute__((always_inline)) struct trace_entry *
trace_reserve_on(struct ring_buffer *rb, unsigned cpu, uint16_t type, uint32_t length,
                 bool irqs_were_on)
{
    struct trace_entry *e = (struct trace_entry *)rb_reserve_cpu(rb, cpu, length);
    if (e)
        trace_entry_fill_cpu(e, type, irqs_were_on, cpu);
    return e;
}

/*
 * The live buffer is read with interrupts off, and the event counted in that buffer's
 * nesting before they go back on (rb_reserve_cpu): a snapshot swap on another CPU either
 * waits for the commit (trace_commit reads trace_buf again, so the swap publishes the other
 * buffer only once no CPU is between reserve and commit) or makes the reservation refuse
 * and count the event lost (the buffer swapped out stays stopped); and freeing a swapped-out
 * buffer waits until every CPU has had interrupts on (trace_snapshot.c), so no writer still
 * holds it. trace_swap_buffers in trace.c has the whole protocol.
 */

/* trace_reserve for a caller with interrupts off on cpu (arch_cpu_id(), read once), whose
 * event happened where interrupts were irqs_were_on: the function tracers, which keep
 * interrupts off from their hook to the commit and commit with trace_commit_cpu(cpu). */
static inline __attribute__((always_inline)) struct trace_entry *
trace_reserve_cpu(unsigned cpu, uint16_t type, uint32_t length, bool irqs_were_on)
{
    if (!trace_recording)
        return 0;
    return trace_reserve_on(trace_buf, cpu, type, length, irqs_were_on);
}

static inline void trace_commit_cpu(unsigned cpu) { rb_commit_cpu(trace_buf, cpu); }

/* issue 18, instances: trace_reserve's work in a given buffer (the caller checked that it
 * records), with the common fields filled; commit with rb_commit(rb). The CPU number is
 * read once, with interrupts off, for the reservation and the head. */
static inline __attribute__((always_inline)) struct trace_entry *
trace_reserve_in(struct ring_buffer *rb, uint16_t type, uint32_t length)
{
    unsigned long irqs = arch_irq_save();
    struct trace_entry *e = trace_reserve_on(rb, arch_cpu_id(), type, length, irqs != 0);
    arch_irq_restore(irqs);
    return e;
}

/* Interrupts go off for the reservation only (rb_reserve says why). The fast path is
 * inlined twice, once for each state interrupts were in: the state is then a constant in
 * each copy (the irqs-off flag costs nothing) instead of one more value kept across it. */
/* trace_reserve_on on this CPU, with interrupts off. The CPU number is read again for the
 * head rather than kept across the reservation (two instructions, the same answer with
 * interrupts off): kept, it is one more register to save and restore around it. */
static inline __attribute__((always_inline)) struct trace_entry *
trace_reserve_here(uint16_t type, uint32_t length, bool irqs_were_on)
{
    struct trace_entry *e =
        (struct trace_entry *)rb_reserve_cpu(trace_buf, arch_cpu_id(), length);
    if (e)
        trace_entry_fill_cpu(e, type, irqs_were_on, arch_cpu_id());
    return e;
}

static inline __attribute__((always_inline)) struct trace_entry *
trace_reserve(uint16_t type, uint32_t length)
{
    if (!trace_recording)
        return 0;
    unsigned long irqs = arch_irq_save();
    if (!irqs)
        return trace_reserve_here(type, length, false);
    struct trace_entry *e = trace_reserve_here(type, length, true);
    arch_irq_restore(irqs);
    return e;
}

static inline void trace_commit(void) { rb_commit(trace_buf); }

#endif
