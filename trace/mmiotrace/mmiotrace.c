/*
 * mmiotrace.c - the mmiotrace tracer: every access a driver makes to device memory.
 *
 *   echo mmiotrace > current_tracer      from now on, ioremap() arms what it maps
 *   modprobe edu                         the driver maps its BAR: MAP, then R/W records
 *   echo "X is up" > trace_marker        MARK record
 *   echo nop > current_tracer            disarm, stream the rest, stop
 *
 * Only mappings made while the tracer is on are traced, as on Linux. Its records are also
 * the events mmio/mmio_rw and mmio_map (trace/events/mmio_events.h): their filters decide
 * which accesses it records, and enabling them arms the same fault path without the tracer. The records and their
 * text are Linux's (trace/mmiotrace/mmiotrace_output.c); the trapping is x86's
 * (arch/x86/mmiotrace_fault.c). A trace_pipe reader first gets `VERSION 20070824`, a PCIDEV
 * line per PCI device and the `lspci -v` text as LSPCI lines, as mmiotrace's log format asks.
 *
 * Files in mmiotrace/: trace_pc (1: record each access's instruction address; Linux's
 * default is 0, ours 1 since a PC is what a reader wants), filter_offset (nonzero: trace
 * only the mapping starting at this physical address) and extensions (1: port I/O,
 * interrupts and DMA frames too, in lines Linux's format lacks; 0: Linux's lines only).
 */
#include "kernel/fs/fs_layout.h"
#include "trace/mmiotrace/mmiotrace.h"

#include "drivers/pci/pci.h"
#include "drivers/pci/pci_format.h"
#include "kernel/lib/errno.h"
#include "kernel/init.h"
#include "kernel/mm/ioremap.h"
#include "kernel/lib/parse.h"
#include "kernel/lib/string.h"
#include "kernel/mutex.h"
#include "kernel/trace_hooks.h"
#include "trace/core/trace_internal.h"
#include "trace/events/event_filter.h"
#include "trace/events/mmio_events.h"

bool mmiotrace_trace_pc = true;
uint64_t mmiotrace_filter_offset;
bool mmiotrace_extensions = true;

/* Whether the mmiotrace tracer is current (set by its init and reset). */
static bool tracer_current;

/* The interrupt lines of the PCI devices, bit n for line n (computed when the tracer
 * starts: the devices are enumerated once, at boot). */
static uint32_t pci_irq_lines;

static void record_pio(uint8_t op, uint8_t width, uint16_t port, uint32_t value, uint32_t pc);
static void record_irq(uint8_t op, uint32_t irq, uint32_t count);
static void record_dma(uint64_t phys, uint32_t virt, uint32_t len);
static void record_user_iomap(uint32_t va, uint32_t len, uint64_t phys, uint32_t pc);

/* The extension's hooks on or off, from what they depend on: the tracer switch and the
 * extensions file, both under arming_mutex (below). */
static void update_extended_on(void)
{
    bool on = tracer_current && mmiotrace_extensions;
    bool was = trace_hook_port_io != 0;
    trace_hook_port_io = on ? record_pio : 0;
    trace_hook_device_irq = on ? record_irq : 0;
    trace_hook_dma_frame = on ? record_dma : 0;
    trace_hook_user_iomap = tracer_current ? record_user_iomap : 0;
    if (on != was)
        arch_port_tracing_changed(); /* programs' port accesses trap while recorded */
}

/* The type call's record is written with now: the tracer's tracer_type while mmiotrace is
 * current, else the event's own id while the event is enabled, else 0 (not recorded). */
static uint16_t record_type(const struct trace_event_call *call, uint16_t tracer_type)
{
    return tracer_current ? tracer_type : call->enabled ? call->id : 0;
}

/*
 * Whether call's filter passes draft, a whole record of size bytes whose own fields are
 * filled: its trace_entry is filled here as trace_reserve would (type, flags, pid), since a
 * filter may name the common fields. The filter runs on the draft before the record takes
 * room, so that an access it rejects is not counted lost when the buffer is full (Linux
 * filters into a scratch record the same way). Loaded and run with interrupts off, as
 * trace_event_filter_commit does: event_filter_files.c frees a replaced filter only when no
 * writer can still be inside that stretch. Only called when the event has a filter.
 */
static bool filter_passes(const struct trace_event_call *call, uint16_t type,
                          struct trace_entry *draft, uint32_t size)
{
    unsigned long irqs = arch_irq_save();
    draft->type = type;
    draft->flags = (uint8_t)((irqs ? 0 : TRACE_FLAG_IRQS_OFF) |
                             (arch_in_hardirq() ? TRACE_FLAG_HARDIRQ : 0));
    draft->preempt_count = 0;
    draft->pid = current_pid;
    const struct event_filter *f = __atomic_load_n(&call->filter, __ATOMIC_ACQUIRE);
    bool pass = !f || event_filter_match(f, draft, size);
    arch_irq_restore(irqs);
    return pass;
}

/* An access's fields, into a record in the buffer or a draft for the filter. */
static inline void fill_rw(struct mmiotrace_rw_entry *e, uint8_t op, uint8_t width,
                           uint32_t map_id, uint64_t phys, uint32_t value, uint32_t pc,
                           const uint8_t opcode[3], bool user)
{
    e->op = op;
    e->user = user;
    e->width = width;
    for (int i = 0; i < 3; i++)
        e->opcode[i] = opcode ? opcode[i] : 0;
    e->map_id = map_id;
    e->value = value;
    e->pc = mmiotrace_trace_pc ? pc : 0;
    e->phys = phys;
}

static inline void fill_map(struct mmiotrace_map_entry *e, uint8_t op, uint32_t map_id,
                            uint64_t phys, uint32_t virt, uint32_t len, uint32_t pc, bool user)
{
    e->op = op;
    e->user = user;
    e->map_id = map_id;
    e->virt = virt;
    e->len = len;
    e->pc = mmiotrace_trace_pc ? pc : 0;
    e->phys = phys;
}

/*
 * The two recorders: when the event has a filter, its fields go into a draft the filter
 * judges first; then the record is reserved through the event (trace_event_reserve, so
 * whatever decides for an event applies), filled in place, given its type and committed
 * through the event (trace_event_commit). Without a filter no draft is made.
 */
static inline __attribute__((always_inline)) void
record_rw(uint8_t op, uint8_t width, uint32_t map_id, uint64_t phys, uint32_t value,
          uint32_t pc, const uint8_t opcode[3], bool user)
{
    uint16_t type = record_type(&event_mmio_rw, TRACE_MMIO_RW);
    if (!type)
        return;
    if (event_mmio_rw.filter) {
        struct mmiotrace_rw_entry d;
        fill_rw(&d, op, width, map_id, phys, value, pc, opcode, user);
        if (!filter_passes(&event_mmio_rw, type, &d.ent, sizeof d))
            return;
    }
    struct mmiotrace_rw_entry *e =
        (struct mmiotrace_rw_entry *)trace_event_reserve(&event_mmio_rw, sizeof *e);
    if (!e)
        return; /* counted as lost by the core */
    fill_rw(e, op, width, map_id, phys, value, pc, opcode, user);
    e->ent.type = type;
    trace_event_commit(&event_mmio_rw, &e->ent, sizeof *e);
}

static void record_map(uint8_t op, uint32_t map_id, uint64_t phys, uint32_t virt,
                       uint32_t len, uint32_t pc, bool user)
{
    uint16_t type = record_type(&event_mmio_map, TRACE_MMIO_MAP);
    if (!type)
        return;
    if (event_mmio_map.filter) {
        struct mmiotrace_map_entry d;
        fill_map(&d, op, map_id, phys, virt, len, pc, user);
        if (!filter_passes(&event_mmio_map, type, &d.ent, sizeof d))
            return;
    }
    struct mmiotrace_map_entry *e =
        (struct mmiotrace_map_entry *)trace_event_reserve(&event_mmio_map, sizeof *e);
    if (!e)
        return;
    fill_map(e, op, map_id, phys, virt, len, pc, user);
    e->ent.type = type;
    trace_event_commit(&event_mmio_map, &e->ent, sizeof *e);
}

/* The kernel's accesses (the fault path's sink) and mappings, and a program's. */
void mmiotrace_record_rw(uint8_t op, uint8_t width, uint32_t map_id, uint64_t phys,
                         uint32_t value, uint32_t pc, const uint8_t opcode[3])
{
    record_rw(op, width, map_id, phys, value, pc, opcode, false);
}

void mmiotrace_record_user_rw(uint8_t op, uint8_t width, uint32_t map_id, uint64_t phys,
                              uint32_t value, uint32_t pc, const uint8_t opcode[3])
{
    record_rw(op, width, map_id, phys, value, pc, opcode, true);
}

void mmiotrace_record_map(uint8_t op, uint32_t map_id, uint64_t phys, uint32_t virt,
                          uint32_t len, uint32_t pc)
{
    record_map(op, map_id, phys, virt, len, pc, false);
}

void mmiotrace_record_user_map(uint8_t op, uint32_t map_id, uint64_t phys, uint32_t virt,
                               uint32_t len, uint32_t pc)
{
    record_map(op, map_id, phys, virt, len, pc, true);
}

/* --- the extension's records (mmiotrace.h) ---------------------------------------------- */

/* A PCI driver's port access (trace_port_io). */
static void record_pio(uint8_t op, uint8_t width, uint16_t port, uint32_t value, uint32_t pc)
{
    struct mmiotrace_pio_entry *e =
        (struct mmiotrace_pio_entry *)trace_reserve(TRACE_MMIO_PIO, sizeof *e);
    if (!e)
        return; /* counted as lost by the core */
    e->op = op;
    e->width = width;
    e->port = port;
    e->value = value;
    e->pc = mmiotrace_trace_pc ? pc : 0;
    trace_commit();
}

/* Interrupt line irq fired, or its driver saw it (trace_device_irq). Only the lines of PCI
 * devices: the timer's and the serial ports' would fill the log with the kernel's own. */
static void record_irq(uint8_t op, uint32_t irq, uint32_t count)
{
    if (irq >= 32 || !(pci_irq_lines & (1u << irq)))
        return;
    struct mmiotrace_irq_entry *e =
        (struct mmiotrace_irq_entry *)trace_reserve(TRACE_MMIO_IRQ, sizeof *e);
    if (!e)
        return;
    e->op = op;
    e->pad[0] = e->pad[1] = e->pad[2] = 0;
    e->irq = irq;
    e->count = count;
    trace_commit();
}

/* A frame made known to the current process (trace_dma_frame). */
static void record_dma(uint64_t phys, uint32_t virt, uint32_t len)
{
    struct mmiotrace_dma_entry *e =
        (struct mmiotrace_dma_entry *)trace_reserve(TRACE_MMIO_DMA, sizeof *e);
    if (!e)
        return;
    e->virt = virt;
    e->len = len;
    e->phys = phys;
    trace_commit();
}

/* A program mapped a BAR (sysfs's resourceN): traced from now on, unless filter_offset
 * names another mapping (arch/x86/mmiotrace_user.c). */
static void record_user_iomap(uint32_t va, uint32_t len, uint64_t phys, uint32_t pc)
{
    if (mmiotrace_filter_offset && phys != mmiotrace_filter_offset)
        return;
    mmiotrace_user_map(va, len, phys, pc);
}

/* --- following ioremap ------------------------------------------------------------------ */

static void on_mapped(struct io_mapping *m, uintptr_t caller)
{
    if (mmiotrace_filter_offset && m->phys != mmiotrace_filter_offset)
        return;
    mmiotrace_record_map(MMIO_OP_MAP, m->id, m->phys, (uint32_t)m->virt, (uint32_t)m->size,
                         (uint32_t)caller);
    mmiotrace_arm(m, true);
}

/* The pages go away right after this; only the record is ours to make. */
static void on_unmapping(struct io_mapping *m, uintptr_t caller)
{
    if (!m->traced)
        return;
    mmiotrace_record_map(MMIO_OP_UNMAP, m->id, m->phys, (uint32_t)m->virt, (uint32_t)m->size,
                         (uint32_t)caller);
}

static const struct ioremap_observer mmiotrace_observer = { on_mapped, on_unmapping };

/*
 * Arming: following ioremap and trapping the accesses of what it maps. Held by the tracer
 * while it is current and by each enabled mmio/ event (mmio_events.h); it starts with the
 * first holder and ends with the last, when every traced mapping is disarmed. Changed only
 * in thread context (tracer switch, enable writes), under arming_mutex: two tasks may switch
 * the tracer and write an enable file at once (kernel/mutex.h: safe on several CPUs under
 * the big kernel lock). A mutex, not a spinlock: letting
 * go waits for every other CPU (mmiotrace_arch_enable), which needs interrupts on.
 */
enum { HELD_BY_TRACER = 1, HELD_BY_RW_EVENT = 2, HELD_BY_MAP_EVENT = 4 };
static unsigned arming_holders;
static struct mutex arming_mutex = MUTEX_INIT("mmiotrace arming");

static int arming_hold(unsigned holder)
{
    if (!arming_holders) {
        int err = mmiotrace_arch_enable(mmiotrace_record_rw);
        if (err)
            return err;
        ioremap_set_observer(&mmiotrace_observer);
    }
    arming_holders |= holder;
    return 0;
}

/* Gives a traced mapping's pages back to direct access (ioremap lock held). */
static void disarm_if_traced(struct io_mapping *m)
{
    if (m->traced)
        mmiotrace_arm(m, false);
}

/* Stops following ioremap and disarms every traced mapping once nobody holds the arming:
 * their pages work directly again. */
static void arming_release(unsigned holder)
{
    if (!(arming_holders & holder))
        return;
    arming_holders &= ~holder;
    if (arming_holders)
        return;
    ioremap_detach_observer(disarm_if_traced);
    mmiotrace_arch_enable(0);
}

int mmiotrace_event_arm(const struct trace_event_call *call, bool on)
{
    unsigned holder = call == &event_mmio_rw ? HELD_BY_RW_EVENT : HELD_BY_MAP_EVENT;
    int err = 0;
    mutex_lock(&arming_mutex);
    if (on)
        err = arming_hold(holder);
    else
        arming_release(holder);
    mutex_unlock(&arming_mutex);
    return err;
}

static int mmiotrace_init(void)
{
    mutex_lock(&arming_mutex);
    int err = arming_hold(HELD_BY_TRACER);
    if (!err)
        tracer_current = true;
    pci_irq_lines = 0;
    for (struct pci_device *d = pci_devices(); d; d = d->next)
        if (d->irq_pin && d->irq_line < 16)
            pci_irq_lines |= 1u << d->irq_line;
    update_extended_on();
    mutex_unlock(&arming_mutex);
    return err;
}

static void mmiotrace_reset(void)
{
    mutex_lock(&arming_mutex);
    tracer_current = false;
    update_extended_on();
    mmiotrace_user_disarm_all(); /* programs' mappings: only the tracer traces them */
    arming_release(HELD_BY_TRACER);
    mutex_unlock(&arming_mutex);
}

/* --- what a reader sees first ---------------------------------------------------------- */

/* Passes text to the real writer with "LSPCI " before every line. */
struct prefix_writer {
    struct fs_writer w;
    struct fs_writer *out;
    bool at_line_start;
};

static void prefix_emit(struct fs_writer *w, const char *text, size_t len)
{
    struct prefix_writer *p = (struct prefix_writer *)w;
    for (size_t i = 0; i < len; i++) {
        if (p->at_line_start)
            p->out->emit(p->out, "LSPCI ", 6);
        p->out->emit(p->out, &text[i], 1);
        p->at_line_start = text[i] == '\n';
    }
}

static bool prefix_interrupted(struct fs_writer *w)
{
    struct prefix_writer *p = (struct prefix_writer *)w;
    return p->out->interrupted(p->out);
}

static void mmiotrace_pipe_header(struct fs_writer *out)
{
    fs_puts(out, "VERSION 20070824\n");
    for (struct pci_device *d = pci_devices(); d; d = d->next)
        pci_print_pcidev(out, d);
    struct prefix_writer lspci = { { .emit = prefix_emit, .interrupted = prefix_interrupted }, out, true };
    for (struct pci_device *d = pci_devices(); d; d = d->next)
        pci_print_lspci(&lspci.w, d, true);
}

static struct tracer mmiotrace_tracer = {
    .name = "mmiotrace",
    .init = mmiotrace_init,
    .reset = mmiotrace_reset,
    .print_pipe_header = mmiotrace_pipe_header,
    .print_event = mmiotrace_print_event,
    .print_marker = mmiotrace_print_marker,
    .print_lost = mmiotrace_print_lost,
    .entry_size = sizeof(struct mmiotrace_rw_entry),
};

/* --- files ------------------------------------------------------------------------------ */

static const struct trace_flag trace_pc_flag = { .value = &mmiotrace_trace_pc };

static bool get_extensions(void) { return mmiotrace_extensions; }

static void set_extensions(bool on)
{
    mutex_lock(&arming_mutex);
    mmiotrace_extensions = on;
    update_extended_on();
    mutex_unlock(&arming_mutex);
}

static const struct trace_flag extensions_flag = { .get = get_extensions, .set = set_extensions };

static int read_filter_offset(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    fs_printf(out, "0x%llx\n", (unsigned long long)mmiotrace_filter_offset);
    return 0;
}

/* Takes effect for mappings made from now on, as Linux's module parameter at load. */
static int write_filter_offset(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)f;
    (void)append;
    uint64_t v;
    int err = parse_uint(data, len, &v);
    if (err)
        return err;
    mmiotrace_filter_offset = v;
    return 0;
}

static const struct fs_file_ops filter_offset_ops = { .read = read_filter_offset, .write = write_filter_offset };

static void mmiotrace_setup(void)
{
    register_tracer(&mmiotrace_tracer);
    struct fs_node *dir = fs_mkdir_at(tracefs_root(), "mmiotrace");
    trace_create_flag_file(dir, "trace_pc", &trace_pc_flag);
    trace_create_flag_file(dir, "extensions", &extensions_flag);
    fs_create(dir, "filter_offset", &filter_offset_ops, 0);
}
INITCALL(trace, mmiotrace_setup);
