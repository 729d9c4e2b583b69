/*
 * mmio_command.c - `mmio`: reading and writing a device's registers by hand.
 *
 *   mmio read DEVICE BAR OFFSET WIDTH [COUNT]          COUNT registers, one line each
 *   mmio write DEVICE BAR OFFSET WIDTH VALUE [COUNT]   VALUE into COUNT registers
 *   mmio copy DEVICE BAR SRC DST WIDTH COUNT           COUNT registers from SRC to DST
 *
 * It goes the way a driver goes: ioremap() of just the bytes the command touches, the
 * accessors kernel/arch.h gives (arch/x86/mmio.h: one mov per register), iounmap(). So mmiotrace records a
 * typed command exactly as it records a driver, MAP, R/W and UNMAP. An I/O BAR is read and
 * written one `in` or `out` per register through the drivers' port accessors
 * (drivers/pci/pci_port.h), which mmiotrace's extension records as IN and OUT; copy needs
 * a memory BAR. A block write is one
 * `rep stos` and a copy one `rep movs`, the string instructions some drivers use, so their
 * tracing can be tried by hand too. Offsets need not be aligned: how a device answers an
 * unaligned or odd-sized access is often the question. A fault during the access is caught
 * and reported; the command gives up and the kernel carries on.
 */
#include "drivers/pci/pci.h"
#include "drivers/pci/pci_format.h"
#include "drivers/pci/pci_port.h"
#include "drivers/pci/pci_resource.h"
#include "kernel/arch.h"
#include "kernel/mm/ioremap.h"
#include "kernel/lib/parse.h"
#include "kernel/log/printk.h"
#include "kernel/shell/shell.h"
#include "kernel/lib/string.h"

enum mmio_op { MMIO_READ, MMIO_WRITE, MMIO_FILL, MMIO_COPY };

/* One access, handed to the fault-catching call. */
struct mmio_access {
    enum mmio_op op;
    unsigned width;           /* 1, 2 or 4 bytes */
    volatile void *dst;       /* the register read or written; a copy's destination */
    const volatile void *src; /* a copy's source */
    uint32_t count;           /* registers, for FILL and COPY */
    uint32_t value;           /* written, or read back */
};

/* COUNT stores of value from dst upwards: one `rep stos` of the width's size. */
static void fill_registers(volatile void *dst, uint32_t value, uint32_t count, unsigned width)
{
    void *d = (void *)dst;
    if (width == 1)
        __asm__ volatile("rep stosb" : "+D"(d), "+c"(count) : "a"(value) : "memory");
    else if (width == 2)
        __asm__ volatile("rep stosw" : "+D"(d), "+c"(count) : "a"(value) : "memory");
    else
        __asm__ volatile("rep stosl" : "+D"(d), "+c"(count) : "a"(value) : "memory");
}

/* COUNT loads from src and stores to dst, ascending: one `rep movs` of the width's size.
 * Overlapping ranges are copied as the instruction copies them, front to back. */
static void copy_registers(volatile void *dst, const volatile void *src, uint32_t count,
                           unsigned width)
{
    void *d = (void *)dst;
    const void *s = (const void *)src;
    if (width == 1)
        __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(count) : : "memory");
    else if (width == 2)
        __asm__ volatile("rep movsw" : "+D"(d), "+S"(s), "+c"(count) : : "memory");
    else
        __asm__ volatile("rep movsl" : "+D"(d), "+S"(s), "+c"(count) : : "memory");
}

/* Performs the access described by arg (a struct mmio_access); runs under
 * arch_call_catching_faults, so it may be abandoned halfway by a fault. */
static void do_access(void *arg)
{
    struct mmio_access *a = arg;
    switch (a->op) {
    case MMIO_READ:
        a->value = mmio_read_sized(a->dst, a->width);
        break;
    case MMIO_WRITE:
        mmio_write_sized(a->dst, a->width, a->value);
        break;
    case MMIO_FILL:
        fill_registers(a->dst, a->value, a->count, a->width);
        break;
    case MMIO_COPY:
        copy_registers(a->dst, a->src, a->count, a->width);
        break;
    }
}

/* Runs the access; on a fault prints what happened and returns false. */
static bool access_caught(struct mmio_access *a, unsigned bar, uint64_t offset)
{
    struct caught_fault f;
    if (!arch_call_catching_faults(do_access, a, &f))
        return true;
    printk("mmio: fault at BAR%u+0x%llx: exception %u, error code %#x, EIP %#x; access "
           "abandoned\n", bar, (unsigned long long)offset, f.vector, f.error_code, f.eip);
    return false;
}

/* Parses a decimal or 0x-hex number, or says which word was not one. */
static bool parse_number(const char *text, uint64_t *out)
{
    if (parse_uint(text, strlen(text), out) == 0)
        return true;
    printk("mmio: bad number '%s'\n", text);
    return false;
}

/* What a command has in common once checked: the device, its BAR, the width. */
struct mmio_target {
    const struct pci_device *dev;
    char slot[PCI_SLOT_NAME_MAX];
    unsigned bar;
    bool io;              /* an I/O BAR: base is a port */
    uint64_t base, size;
    unsigned width;
};

/* Checks DEVICE BAR and WIDTH; prints the reason and returns false if one is wrong. */
static bool parse_target(const char *device, const char *bar, const char *width,
                         struct mmio_target *t)
{
    uint64_t n;
    t->dev = pci_lookup(device);
    if (!t->dev) {
        printk("mmio: %s: no such device (bus:dev.fn as lspci shows it, or a bound driver)\n",
               device);
        return false;
    }
    pci_slot_name(t->dev, t->slot);
    if (!parse_number(bar, &n))
        return false;
    if (n >= PCI_MAX_BARS) {
        printk("mmio: bad BAR %s (0 to %d)\n", bar, PCI_MAX_BARS - 1);
        return false;
    }
    t->bar = (unsigned)n;
    const struct pci_resource *r = &t->dev->resource[t->bar];
    if (!r->flags) {
        printk("mmio: %s: BAR %u is not used\n", t->slot, t->bar);
        return false;
    }
    t->io = (r->flags & IORESOURCE_IO) != 0;
    t->base = r->start;
    t->size = pci_resource_len(r);
    if (!parse_number(width, &n))
        return false;
    if (n != 1 && n != 2 && n != 4) {
        printk("mmio: bad width %s (1, 2 or 4 bytes)\n", width);
        return false;
    }
    t->width = (unsigned)n;
    return true;
}

/* Checks COUNT registers from offset fit inside the BAR; prints why not otherwise. */
static bool check_span(const struct mmio_target *t, uint64_t offset, uint64_t count)
{
    if (count == 0) {
        printk("mmio: count must be at least 1\n");
        return false;
    }
    if (offset >= t->size || count > t->size / t->width || count * t->width > t->size - offset) {
        printk("mmio: %s: 0x%llx + %llu x %u bytes is beyond BAR %u (size 0x%llx)\n", t->slot,
               (unsigned long long)offset, (unsigned long long)count, t->width, t->bar,
               (unsigned long long)t->size);
        return false;
    }
    return true;
}

/* Maps [offset, offset + span) of the BAR; NULL if it cannot, reported in one line. */
static volatile uint8_t *map_span(const struct mmio_target *t, uint64_t offset, uint64_t span)
{
    uint64_t window = ioremap_window_bytes();
    volatile uint8_t *p = span <= window ? ioremap(t->base + offset, (size_t)span) : 0;
    if (!p)
        printk("mmio: cannot map 0x%llx bytes at 0x%llx: %s the 0x%llx-byte ioremap window\n",
               (unsigned long long)span, (unsigned long long)(t->base + offset),
               span > window ? "larger than" : "no room for them in",
               (unsigned long long)window);
    return p;
}

/* mmio read: one access per register, each printed as it is read. */
static int mmio_read(int argc, char **argv, struct fs_writer *out)
{
    struct mmio_target t;
    uint64_t offset, count = 1;
    if (argc < 6 || argc > 7)
        return SHELL_USAGE;
    if (!parse_target(argv[2], argv[3], argv[5], &t) || !parse_number(argv[4], &offset) ||
        (argc == 7 && !parse_number(argv[6], &count)) || !check_span(&t, offset, count))
        return SHELL_FAILED;
    if (t.io) {
        for (uint64_t i = 0; i < count && !out->interrupted(out); i++) {
            uint64_t at = offset + i * t.width;
            uint32_t v = pci_port_read((uint16_t)(t.base + at), t.width);
            fs_printf(out, "%s BAR%u+0x%llx: 0x%0*x\n", t.slot, t.bar, (unsigned long long)at,
                      (int)t.width * 2, v);
        }
        return 0;
    }
    volatile uint8_t *regs = map_span(&t, offset, count * t.width);
    if (!regs)
        return SHELL_FAILED;
    int status = 0;
    for (uint64_t i = 0; i < count; i++) {
        struct mmio_access a = { MMIO_READ, t.width, regs + i * t.width, 0, 1, 0 };
        uint64_t at = offset + i * t.width;
        if (!access_caught(&a, t.bar, at)) {
            status = SHELL_FAILED;
            break;
        }
        fs_printf(out, "%s BAR%u+0x%llx: 0x%0*x\n", t.slot, t.bar, (unsigned long long)at,
                  (int)t.width * 2, a.value);
        if (out->interrupted(out))
            break;
    }
    iounmap((void *)regs);
    return status;
}

/* mmio write: one mov for one register, one rep stos for several. */
static int mmio_write(int argc, char **argv, struct fs_writer *out)
{
    struct mmio_target t;
    uint64_t offset, value, count = 1;
    (void)out;
    if (argc < 7 || argc > 8)
        return SHELL_USAGE;
    if (!parse_target(argv[2], argv[3], argv[5], &t) || !parse_number(argv[4], &offset) ||
        !parse_number(argv[6], &value) || (argc == 8 && !parse_number(argv[7], &count)) ||
        !check_span(&t, offset, count))
        return SHELL_FAILED;
    if (value >> (8 * t.width)) {
        printk("mmio: value %s does not fit in %u byte%s\n", argv[6], t.width,
               t.width > 1 ? "s" : "");
        return SHELL_FAILED;
    }
    if (t.io) {
        for (uint64_t i = 0; i < count; i++) /* one `out` each: there is no rep for a port */
            pci_port_write((uint16_t)(t.base + offset + i * t.width), t.width, (uint32_t)value);
        return 0;
    }
    volatile uint8_t *regs = map_span(&t, offset, count * t.width);
    if (!regs)
        return SHELL_FAILED;
    struct mmio_access a = { count > 1 ? MMIO_FILL : MMIO_WRITE, t.width, regs, 0,
                             (uint32_t)count, (uint32_t)value };
    bool ok = access_caught(&a, t.bar, offset);
    iounmap((void *)regs);
    return ok ? 0 : SHELL_FAILED;
}

/* mmio copy: one rep movs inside one mapping that covers source and destination. */
static int mmio_copy(int argc, char **argv, struct fs_writer *out)
{
    struct mmio_target t;
    uint64_t src, dst, count;
    (void)out;
    if (argc != 8)
        return SHELL_USAGE;
    if (!parse_target(argv[2], argv[3], argv[6], &t) || !parse_number(argv[4], &src) ||
        !parse_number(argv[5], &dst) || !parse_number(argv[7], &count) ||
        !check_span(&t, src, count) || !check_span(&t, dst, count))
        return SHELL_FAILED;
    if (t.io) {
        printk("mmio: %s: BAR %u is I/O space: copy needs a memory BAR\n", t.slot, t.bar);
        return SHELL_FAILED;
    }
    uint64_t low = src < dst ? src : dst, high = (src < dst ? dst : src) + count * t.width;
    volatile uint8_t *regs = map_span(&t, low, high - low);
    if (!regs)
        return SHELL_FAILED;
    struct mmio_access a = { MMIO_COPY, t.width, regs + (dst - low), regs + (src - low),
                             (uint32_t)count, 0 };
    bool ok = access_caught(&a, t.bar, src);
    iounmap((void *)regs);
    return ok ? 0 : SHELL_FAILED;
}

/* Dispatches to the subcommand; anything else gets the usage line. */
static int cmd_mmio(int argc, char **argv, struct fs_writer *out)
{
    if (argc < 2)
        return SHELL_USAGE;
    if (strcmp(argv[1], "read") == 0)
        return mmio_read(argc, argv, out);
    if (strcmp(argv[1], "write") == 0)
        return mmio_write(argc, argv, out);
    if (strcmp(argv[1], "copy") == 0)
        return mmio_copy(argc, argv, out);
    return SHELL_USAGE;
}
SHELL_COMMAND("mmio",
              "mmio read DEV BAR OFF WIDTH [COUNT] | write DEV BAR OFF WIDTH VALUE [COUNT] | "
              "copy DEV BAR SRC DST WIDTH COUNT",
              "access a device's BAR registers by hand (traced like a driver)", cmd_mmio);
