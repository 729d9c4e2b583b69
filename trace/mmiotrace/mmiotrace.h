/*
 * mmiotrace.h - the mmiotrace tracer's events, shared by the tracer (trace/mmiotrace/mmiotrace.c), its
 * record formatter (trace/mmiotrace/mmiotrace_output.c) and the x86 fault machinery that produces the
 * read and write events (arch/x86/mmiotrace_fault.c).
 *
 * The text of each record is Linux's (kernel/trace/trace_mmiotrace.c, log format version
 * 20070824), so tools written for Linux's logs read ours.
 */
#ifndef TRACE_MMIOTRACE_MMIOTRACE_H
#define TRACE_MMIOTRACE_MMIOTRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/mm/ioremap.h"
#include "kernel/trace_hooks.h"
#include "trace/core/trace.h"

/* enum mmio_trace_op (what happened) is kernel/mm/ioremap.h's: the fault path reports with it. */

struct mmiotrace_rw_entry {
    struct trace_entry ent;
    uint8_t op;       /* READ, WRITE or UNKNOWN */
    uint8_t width;    /* bytes */
    uint8_t opcode[3]; /* UNKNOWN: the first opcode bytes */
    uint8_t user;     /* 1: a program's access through its mapping (the line's last field
                       * is then the pid; 0 for the kernel's, as Linux prints) */
    uint8_t pad[2];
    uint32_t map_id;
    uint32_t value;
    uint32_t pc;      /* the instruction's address, or 0 when trace_pc is off */
    uint64_t phys;
};

struct mmiotrace_map_entry {
    struct trace_entry ent;
    uint8_t op;       /* MAP or UNMAP */
    uint8_t user;     /* 1: a program's mapping of a BAR (the pid is printed) */
    uint8_t pad[2];
    uint32_t map_id;
    uint32_t virt;
    uint32_t len;
    uint32_t pc;
    uint64_t phys;
};

/*
 * tracekern's extension of the log (docs/mmiotrace.md, "Beyond Linux's format"): what a
 * driver does to a device besides its memory. Recorded while the mmiotrace tracer is
 * current and mmiotrace/extensions is 1 (the default); with 0 the log has Linux's lines
 * only, for readers that know no others.
 */
struct mmiotrace_pio_entry {
    struct trace_entry ent;
    uint8_t op;       /* MMIO_OP_READ (in) or MMIO_OP_WRITE (out) */
    uint8_t width;    /* bytes: 1, 2 or 4 */
    uint16_t port;
    uint32_t value;
    uint32_t pc;      /* the instruction's address, or 0 when trace_pc is off */
};

struct mmiotrace_irq_entry {
    struct trace_entry ent;
    uint8_t op;       /* enum trace_device_irq_op (kernel/trace_hooks.h): FIRED or SEEN */
    uint8_t pad[3];
    uint32_t irq;     /* the legacy line (0-15) */
    uint32_t count;   /* SEEN: the interrupts the driver has seen in all (uio's count) */
};

struct mmiotrace_dma_entry {
    struct trace_entry ent;
    uint32_t virt;    /* the process's address of the page */
    uint32_t len;     /* bytes from phys */
    uint64_t phys;    /* the frame a device may be given */
};

/* Whether the extension's records are written (mmiotrace/extensions). The kernel reports
 * what they record through kernel/trace_hooks.h (trace_port_io, trace_device_irq,
 * trace_dma_frame), whose hooks are set while the tracer is current and this is on. */
extern bool mmiotrace_extensions;

/* Recording, from any context (the page-fault and debug handlers included): as the
 * tracer's records while mmiotrace is current, else as the mmio/ events while enabled
 * (mmio_events.h); only what the event's filter passes. Records that do not fit the
 * buffer are counted by the core and reported as "Lost N events". */
void mmiotrace_record_rw(uint8_t op, uint8_t width, uint32_t map_id, uint64_t phys,
                         uint32_t value, uint32_t pc, const uint8_t opcode[3]);
void mmiotrace_record_map(uint8_t op, uint32_t map_id, uint64_t phys, uint32_t virt,
                          uint32_t len, uint32_t pc);
/* The recorders of a program's mapping of a BAR and its accesses, mmiotrace_record_user_rw
 * and _map, are declared in kernel/mm/ioremap.h, which the arch's fault path includes. */

/* Holds (on) or lets go of the fault path's arming for the mmio/ event call (its enable,
 * trace/events/mmio_events.c): 0, or -ENOMEM when the fault path cannot be set up. */
struct trace_event_call;
int mmiotrace_event_arm(const struct trace_event_call *call, bool on);

/* Prints one mmiotrace event as its log line; false if ev is no mmiotrace event. */
bool mmiotrace_print_event(struct fs_writer *out, const struct trace_event_view *ev);
/* "MARK secs.usecs text" and "MARK 0.000000 Lost N events." */
void mmiotrace_print_marker(struct fs_writer *out, const struct trace_event_view *ev,
                            const char *text, uint32_t len);
void mmiotrace_print_lost(struct fs_writer *out, unsigned cpu, uint64_t lost);

/* The fault path that reports each access (mmiotrace_arm, mmiotrace_arch_enable) is the
 * arch's, declared in kernel/mm/ioremap.h; mmiotrace_record_rw is the sink it is given. */

/* Settings (files in mmiotrace/): record the PC; trace only the mapping at this address. */
extern bool mmiotrace_trace_pc;
extern uint64_t mmiotrace_filter_offset;

#endif
