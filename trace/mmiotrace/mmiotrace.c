/*
 * mmiotrace.c - the mmiotrace tracer: every access a driver makes to device memory.
 *
 *   echo mmiotrace > current_tracer      from now on, ioremap() arms what it maps
 *   modprobe edu                         the driver maps its BAR: MAP, then R/W records
 *   echo "X is up" > trace_marker        MARK record
 *   echo nop > current_tracer            disarm, stream the rest, stop
 *
 * Only mappings made while the tracer is on are traced, as on Linux. The records and their
 * text are Linux's (trace/mmiotrace/mmiotrace_output.c); the trapping is x86's
 * (arch/x86/mmiotrace_fault.c). A trace_pipe reader first gets `VERSION 20070824`, a PCIDEV
 * line per PCI device and the `lspci -v` text as LSPCI lines, as mmiotrace's log format asks.
 *
 * Files in mmiotrace/: trace_pc (1: record each access's instruction address; Linux's
 * default is 0, ours 1 since a PC is what a reader wants) and filter_offset (nonzero: trace
 * only the mapping starting at this physical address).
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
#include "trace/core/trace_internal.h"

bool mmiotrace_trace_pc = true;
uint64_t mmiotrace_filter_offset;

void mmiotrace_record_rw(uint8_t op, uint8_t width, uint32_t map_id, uint64_t phys,
                         uint32_t value, uint32_t pc, const uint8_t opcode[3])
{
    struct mmiotrace_rw_entry *e =
        (struct mmiotrace_rw_entry *)trace_reserve(TRACE_MMIO_RW, sizeof *e);
    if (!e)
        return; /* counted as lost by the core */
    e->op = op;
    e->width = width;
    for (int i = 0; i < 3; i++)
        e->opcode[i] = opcode ? opcode[i] : 0;
    e->map_id = map_id;
    e->value = value;
    e->pc = mmiotrace_trace_pc ? pc : 0;
    e->phys = phys;
    trace_commit();
}

void mmiotrace_record_map(uint8_t op, uint32_t map_id, uint64_t phys, uint32_t virt,
                          uint32_t len, uint32_t pc)
{
    struct mmiotrace_map_entry *e =
        (struct mmiotrace_map_entry *)trace_reserve(TRACE_MMIO_MAP, sizeof *e);
    if (!e)
        return;
    e->op = op;
    e->map_id = map_id;
    e->virt = virt;
    e->len = len;
    e->pc = mmiotrace_trace_pc ? pc : 0;
    e->phys = phys;
    trace_commit();
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

static int mmiotrace_init(void)
{
    int err = mmiotrace_arch_enable(mmiotrace_record_rw);
    if (err)
        return err;
    ioremap_set_observer(&mmiotrace_observer);
    return 0;
}

/* Stops following ioremap and disarms every traced mapping: its pages work directly again. */
static void mmiotrace_reset(void)
{
    ioremap_set_observer(0);
    for (const struct io_mapping *c = ioremap_list(); c; c = c->next)
        if (c->traced)
            mmiotrace_arm((struct io_mapping *)c, false);
    mmiotrace_arch_enable(0);
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

static bool trace_pc_get(void) { return mmiotrace_trace_pc; }
static void trace_pc_set(bool on) { mmiotrace_trace_pc = on; }
static const struct trace_flag trace_pc_flag = { trace_pc_get, trace_pc_set };

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
    fs_create(dir, "filter_offset", &filter_offset_ops, 0);
}
INITCALL(trace, mmiotrace_setup);
