/*
 * pci_events.c - the pci/ events (pci_events.h): records, fields, print formats and
 * recorders.
 */
#include "trace/events/pci_events.h"

#include <stddef.h>

#include "drivers/pci/pci.h"
#include "kernel/init.h"

struct config_write_entry {
    struct trace_entry ent;
    uint8_t bus, dev, fn, offset, width;
    uint8_t pad[3];
    uint32_t value;
};

/* pci_driver_bind and pci_driver_unbind (which has no ret). */
struct driver_entry {
    struct trace_entry ent;
    uint8_t bus, dev, fn;
    uint8_t pad;
    uint16_t vendor, device;
    uint32_t driver; /* __data_loc: the name follows the fixed part */
    int32_t ret;
};

#define U8(type, name) { "unsigned char", #name, offsetof(type, name), 1, 0, false, TRACE_FIELD_INT }
#define U16(type, name) { "unsigned short", #name, offsetof(type, name), 2, 0, false, TRACE_FIELD_INT }

enum { W_BUS, W_DEV, W_FN, W_OFFSET, W_WIDTH, W_VALUE, W_FIELDS };
enum { D_BUS, D_DEV, D_FN, D_VENDOR, D_DEVICE, D_DRIVER, D_RET, D_FIELDS };

static const struct trace_event_field config_write_fields[W_FIELDS] = {
    U8(struct config_write_entry, bus),
    U8(struct config_write_entry, dev),
    U8(struct config_write_entry, fn),
    U8(struct config_write_entry, offset),
    U8(struct config_write_entry, width),
    { "unsigned int", "value", offsetof(struct config_write_entry, value), 4, 0, false,
      TRACE_FIELD_INT },
};

/* Bind has all of them, unbind the first D_RET. */
static const struct trace_event_field driver_fields[D_FIELDS] = {
    U8(struct driver_entry, bus),
    U8(struct driver_entry, dev),
    U8(struct driver_entry, fn),
    U16(struct driver_entry, vendor),
    U16(struct driver_entry, device),
    { "char", "driver", offsetof(struct driver_entry, driver), 4, 0, true, TRACE_FIELD_DATA_LOC },
    { "int", "ret", offsetof(struct driver_entry, ret), 4, 0, true, TRACE_FIELD_INT },
};

static void record_config_write(const struct pci_device *d, uint8_t offset, uint8_t width,
                                uint32_t value)
{
    struct config_write_entry *e = tracepoint_reserve(&event_pci_config_write, sizeof *e);
    if (!e)
        return;
    e->bus = d->bus;
    e->dev = d->dev;
    e->fn = d->fn;
    e->offset = offset;
    e->width = width;
    e->pad[0] = e->pad[1] = e->pad[2] = 0;
    e->value = value;
    tracepoint_commit(&event_pci_config_write, e, sizeof *e);
}

static void record_driver(struct trace_event_call *call, const struct pci_device *d,
                          const char *driver, int ret)
{
    uint32_t size = (uint32_t)sizeof(struct driver_entry) + tracepoint_string_size(driver);
    struct driver_entry *e = tracepoint_reserve(call, size);
    if (!e)
        return;
    e->bus = d->bus;
    e->dev = d->dev;
    e->fn = d->fn;
    e->pad = 0;
    e->vendor = d->vendor;
    e->device = d->device;
    e->ret = ret;
    tracepoint_put_string(e, &e->driver, sizeof *e, driver);
    tracepoint_commit(call, e, size);
}

static void record_bind(const struct pci_device *d, const char *driver, int ret)
{
    record_driver(&event_pci_driver_bind, d, driver, ret);
}

static void record_unbind(const struct pci_device *d, const char *driver)
{
    record_driver(&event_pci_driver_unbind, d, driver, 0);
}

static void attach_config_write(bool on)
{
    trace_hook_pci_config_write = on ? record_config_write : 0;
}
static void attach_bind(bool on) { trace_hook_pci_driver_bind = on ? record_bind : 0; }
static void attach_unbind(bool on) { trace_hook_pci_driver_unbind = on ? record_unbind : 0; }

#define INT(i) ((unsigned)tracepoint_int(call, ev, (i)))

static void print_config_write(struct fs_writer *out, const struct trace_event_call *call,
                               const struct trace_event_view *ev)
{
    fs_printf(out, "%02x:%02x.%x offset=0x%02x width=%u value=0x%x", INT(W_BUS), INT(W_DEV),
              INT(W_FN), INT(W_OFFSET), INT(W_WIDTH), INT(W_VALUE));
}

/* "00:04.0 1234:11e8 driver=edu", then " ret=N" for a bind. */
static void print_driver(struct fs_writer *out, const struct trace_event_call *call,
                         const struct trace_event_view *ev)
{
    fs_printf(out, "%02x:%02x.%x %04x:%04x driver=", INT(D_BUS), INT(D_DEV), INT(D_FN),
              INT(D_VENDOR), INT(D_DEVICE));
    tracepoint_print_str(out, call, ev, D_DRIVER);
    if (call->nr_fields > D_RET)
        fs_printf(out, " ret=%d", (int)tracepoint_int(call, ev, D_RET));
}

#define SLOT "\"%02x:%02x.%x "
#define SLOT_ARGS "REC->bus, REC->dev, REC->fn"

static const struct tracepoint_info config_write_info = {
    SLOT "offset=0x%02x width=%u value=0x%x\", " SLOT_ARGS ", REC->offset, REC->width, REC->value",
    print_config_write, attach_config_write,
};

static const struct tracepoint_info bind_info = {
    SLOT "%04x:%04x driver=%s ret=%d\", " SLOT_ARGS ", REC->vendor, REC->device, "
    "__get_str(driver), REC->ret",
    print_driver, attach_bind,
};

static const struct tracepoint_info unbind_info = {
    SLOT "%04x:%04x driver=%s\", " SLOT_ARGS ", REC->vendor, REC->device, __get_str(driver)",
    print_driver, attach_unbind,
};

#define PCI_EVENT(nm, info, fl, n)                                                          \
    { .system = "pci", .name = nm, .ops = &tracepoint_ops, .data = (void *)&(info),        \
      .fields = (fl), .nr_fields = (n) }

struct trace_event_call event_pci_config_write =
    PCI_EVENT("pci_config_write", config_write_info, config_write_fields, W_FIELDS);
struct trace_event_call event_pci_driver_bind =
    PCI_EVENT("pci_driver_bind", bind_info, driver_fields, D_FIELDS);
struct trace_event_call event_pci_driver_unbind =
    PCI_EVENT("pci_driver_unbind", unbind_info, driver_fields, D_RET);

static void pci_events_init(void)
{
    tracepoint_register(&event_pci_config_write);
    tracepoint_register(&event_pci_driver_bind);
    tracepoint_register(&event_pci_driver_unbind);
}
INITCALL(trace, pci_events_init);
