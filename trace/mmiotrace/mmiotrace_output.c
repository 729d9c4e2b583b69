/*
 * mmiotrace_output.c - mmiotrace's log lines, character for character as Linux prints them
 * (kernel/trace/trace_mmiotrace.c, format VERSION 20070824):
 *
 * (pid: 0 for the kernel's accesses and mappings, as Linux prints; a program's through its
 * mapping of a BAR, and that mapping's MAP and UNMAP, carry its pid: issue 23)
 *
 *   R width secs.usecs map_id 0xphys 0xvalue 0xpc pid
 *   W width secs.usecs map_id 0xphys 0xvalue 0xpc pid
 *   UNKNOWN secs.usecs map_id 0xphys op,op,op 0xpc pid
 *   MAP secs.usecs map_id 0xphys 0xvirt 0xlen 0xpc pid
 *   UNMAP secs.usecs map_id 0xpc pid
 *   MARK secs.usecs text
 *   MARK 0.000000 Lost N events.
 *
 * and tracekern's extension (mmiotrace/extensions; docs/mmiotrace.md), lines Linux's
 * format lacks, in the same style:
 *
 *   IN width secs.usecs 0xport 0xvalue 0xpc pid       a port read
 *   OUT width secs.usecs 0xport 0xvalue 0xpc pid      a port write
 *   IRQ secs.usecs irq                                 the line interrupted a CPU
 *   IRQ_SEEN secs.usecs irq count pid                  its driver saw it (count in all)
 *   DMA secs.usecs 0xphys 0xlen 0xvirt pid             a page's frame made known to pid
 *
 * Portable: tests/unit/test_mmiotrace_output.c.
 */
#include "trace/mmiotrace/mmiotrace.h"

/* "secs.usecs" as mmiotrace prints time: no padding, unlike the trace file's columns. */
static void print_time(struct fs_writer *out, uint64_t ts_ns)
{
    uint64_t usecs = trace_ns_to_usecs(ts_ns);
    fs_printf(out, "%lu.%06lu", (unsigned long)(usecs / 1000000u),
              (unsigned long)(usecs % 1000000u));
}

static void print_rw(struct fs_writer *out, const struct trace_event_view *ev,
                     const struct mmiotrace_rw_entry *rw)
{
    if (rw->op == MMIO_OP_UNKNOWN) {
        fs_puts(out, "UNKNOWN ");
        print_time(out, ev->ts);
        fs_printf(out, " %u 0x%llx %02x,%02x,%02x 0x%lx %d\n", rw->map_id,
                  (unsigned long long)rw->phys, rw->opcode[0], rw->opcode[1], rw->opcode[2],
                  (unsigned long)rw->pc, rw->user ? (int)rw->ent.pid : 0);
        return;
    }
    fs_printf(out, "%c %u ", rw->op == MMIO_OP_READ ? 'R' : 'W', rw->width);
    print_time(out, ev->ts);
    fs_printf(out, " %u 0x%llx 0x%lx 0x%lx %d\n", rw->map_id, (unsigned long long)rw->phys,
              (unsigned long)rw->value, (unsigned long)rw->pc, rw->user ? (int)rw->ent.pid : 0);
}

static void print_map(struct fs_writer *out, const struct trace_event_view *ev,
                      const struct mmiotrace_map_entry *m)
{
    if (m->op == MMIO_OP_MAP) {
        fs_puts(out, "MAP ");
        print_time(out, ev->ts);
        fs_printf(out, " %u 0x%llx 0x%lx 0x%lx 0x%lx %d\n", m->map_id,
                  (unsigned long long)m->phys, (unsigned long)m->virt, (unsigned long)m->len,
                  (unsigned long)m->pc, m->user ? (int)m->ent.pid : 0);
    } else {
        fs_puts(out, "UNMAP ");
        print_time(out, ev->ts);
        fs_printf(out, " %u 0x%lx %d\n", m->map_id, (unsigned long)m->pc,
                  m->user ? (int)m->ent.pid : 0);
    }
}

static void print_pio(struct fs_writer *out, const struct trace_event_view *ev,
                      const struct mmiotrace_pio_entry *p)
{
    fs_printf(out, "%s %u ", p->op == MMIO_OP_READ ? "IN" : "OUT", p->width);
    print_time(out, ev->ts);
    fs_printf(out, " 0x%x 0x%lx 0x%lx %d\n", p->port, (unsigned long)p->value,
              (unsigned long)p->pc, (int)p->ent.pid);
}

static void print_irq(struct fs_writer *out, const struct trace_event_view *ev,
                      const struct mmiotrace_irq_entry *q)
{
    fs_puts(out, q->op == TRACE_DEVICE_IRQ_FIRED ? "IRQ " : "IRQ_SEEN ");
    print_time(out, ev->ts);
    /* Seen by the kernel's handler (in the interrupt): pid 0, as every line the kernel makes;
     * seen by a program (its read of /dev/uioN): the program's pid. */
    int pid = (q->ent.flags & TRACE_FLAG_HARDIRQ) ? 0 : (int)q->ent.pid;
    if (q->op == TRACE_DEVICE_IRQ_FIRED)
        fs_printf(out, " %lu\n", (unsigned long)q->irq);
    else
        fs_printf(out, " %lu %lu %d\n", (unsigned long)q->irq, (unsigned long)q->count, pid);
}

static void print_dma(struct fs_writer *out, const struct trace_event_view *ev,
                      const struct mmiotrace_dma_entry *d)
{
    fs_puts(out, "DMA ");
    print_time(out, ev->ts);
    fs_printf(out, " 0x%llx 0x%lx 0x%lx %d\n", (unsigned long long)d->phys,
              (unsigned long)d->len, (unsigned long)d->virt, (int)d->ent.pid);
}

bool mmiotrace_print_event(struct fs_writer *out, const struct trace_event_view *ev)
{
    uint16_t type = ev->entry->type;
    if (type == TRACE_MMIO_PIO && ev->length >= sizeof(struct mmiotrace_pio_entry)) {
        print_pio(out, ev, (const struct mmiotrace_pio_entry *)ev->entry);
        return true;
    }
    if (type == TRACE_MMIO_IRQ && ev->length >= sizeof(struct mmiotrace_irq_entry)) {
        print_irq(out, ev, (const struct mmiotrace_irq_entry *)ev->entry);
        return true;
    }
    if (type == TRACE_MMIO_DMA && ev->length >= sizeof(struct mmiotrace_dma_entry)) {
        print_dma(out, ev, (const struct mmiotrace_dma_entry *)ev->entry);
        return true;
    }
    if (ev->entry->type == TRACE_MMIO_RW && ev->length >= sizeof(struct mmiotrace_rw_entry)) {
        print_rw(out, ev, (const struct mmiotrace_rw_entry *)ev->entry);
        return true;
    }
    if (ev->entry->type == TRACE_MMIO_MAP && ev->length >= sizeof(struct mmiotrace_map_entry)) {
        print_map(out, ev, (const struct mmiotrace_map_entry *)ev->entry);
        return true;
    }
    return false;
}

void mmiotrace_print_marker(struct fs_writer *out, const struct trace_event_view *ev,
                            const char *text, uint32_t len)
{
    fs_puts(out, "MARK ");
    print_time(out, ev->ts);
    fs_printf(out, " %.*s\n", (int)len, text);
}

void mmiotrace_print_lost(struct fs_writer *out, unsigned cpu, uint64_t lost)
{
    (void)cpu;
    fs_printf(out, "MARK 0.000000 Lost %llu events.\n", (unsigned long long)lost);
}
