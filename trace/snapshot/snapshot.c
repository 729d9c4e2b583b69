/*
 * snapshot.c - the snapshot tracer: every int3 becomes a record of the CPU state it
 * interrupted and of the cycles since the previous one (arch/x86/snapshot.c takes them).
 *
 *   echo snapshot > current_tracer
 *   ... code with TRACE_SNAPSHOT() (int3) runs ...
 *   cat trace
 *       <idle>-0  [000] d....  1.234567: snapshot #2 +1744 cycles at do_thing+0x1c: eax=...
 *
 * Two snapshots around a region time it, as Chuck Ebbert's 2003 patch "Debugging i386 using
 * hardware task" times __ide_dma_end: the second one's
 * delta is the region plus one snapshot's own cost. The edu driver does that around its
 * factorial (drivers/pci/edu.c): `echo snapshot > current_tracer; modprobe edu; cat trace`.
 */
#include "trace/snapshot/snapshot.h"

#include "kernel/init.h"
#include "kernel/lib/symbols.h"
#include "trace/core/trace_internal.h"

/* Records a snapshot as a trace event (called by the debug task). */
static void record(const struct snapshot_regs *regs, uint32_t number, uint64_t delta)
{
    struct snapshot_entry *e =
        (struct snapshot_entry *)trace_reserve(TRACE_CPU_SNAPSHOT, sizeof *e);
    if (!e)
        return;
    /* The event is taken in the debug task, interrupts off; what matters is the context. */
    e->ent.flags = (uint8_t)((e->ent.flags & ~TRACE_FLAG_IRQS_OFF) |
                             ((regs->eflags & (1u << 9)) ? 0 : TRACE_FLAG_IRQS_OFF));
    e->number = number;
    e->delta = delta;
    e->regs = *regs;
    trace_commit();
}

void snapshot_print(struct fs_writer *out, const struct trace_event_view *ev)
{
    const struct snapshot_entry *e = (const struct snapshot_entry *)ev->entry;
    const struct snapshot_regs *r = &e->regs;
    uint32_t offset;
    const char *name = symbol_lookup(kernel_symbols(), r->eip, &offset, 0);
    trace_print_context(out, ev);
    fs_printf(out, "snapshot #%u +%llu cycles at ", e->number, (unsigned long long)e->delta);
    if (name)
        fs_printf(out, "%s+%#x", name, offset);
    else
        fs_printf(out, "%#x", r->eip);
    fs_printf(out, ": eax=%08x ebx=%08x ecx=%08x edx=%08x esi=%08x edi=%08x ebp=%08x esp=%08x "
                   "eflags=%08x cs=%04x ss=%04x ds=%04x es=%04x fs=%04x gs=%04x cr3=%08x link=%04x",
              r->eax, r->ebx, r->ecx, r->edx, r->esi, r->edi, r->ebp, r->esp, r->eflags, r->cs,
              r->ss, r->ds, r->es, r->fs, r->gs, r->cr3, r->back_link);
    if (r->bad_segments)
        fs_printf(out, " invalid-segments-nulled=%s%s%s%s",
                  r->bad_segments & SNAPSHOT_BAD_DS ? "ds" : "",
                  r->bad_segments & SNAPSHOT_BAD_ES ? "es" : "",
                  r->bad_segments & SNAPSHOT_BAD_FS ? "fs" : "",
                  r->bad_segments & SNAPSHOT_BAD_GS ? "gs" : "");
    fs_puts(out, "\n");
}

static bool print_event(struct fs_writer *out, const struct trace_event_view *ev)
{
    if (ev->entry->type != TRACE_CPU_SNAPSHOT || ev->length < sizeof(struct snapshot_entry))
        return false;
    snapshot_print(out, ev);
    return true;
}

static int init(void)
{
    snapshot_sink = record;
    return 0;
}

static void reset(void) { snapshot_sink = 0; }

static struct tracer snapshot_tracer = {
    .name = "snapshot",
    .init = init,
    .reset = reset,
    .print_event = print_event,
    .entry_size = sizeof(struct snapshot_entry),
};

static void snapshot_setup(void)
{
    snapshot_arch_init();
    register_tracer(&snapshot_tracer);
}
INITCALL(trace, snapshot_setup);
