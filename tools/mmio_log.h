/*
 * mmio_log.h - reads the lines of an mmiotrace log (format VERSION 20070824), strictly.
 *
 * The host tools that read mmiotrace logs (mmio_annotate, mmio_replay) share this parser.
 * A log is what trace_pipe gives while the mmiotrace tracer is on, one record per line, in
 * the layouts of Linux's kernel/trace/trace_mmiotrace.c:
 *
 *     VERSION 20070824
 *     PCIDEV 0020 123411e8 b fea00000 0 0 0 0 0 0 100000 0 0 0 0 0 0 edu
 *     MAP 1.000000 1 0xfea00000 0xd0000000 0x100000 0x0 0
 *     R 4 12.345678 1 0xfea00000 0x10000ed 0x101234 0
 *     W 4 12.345700 1 0xfea00004 0x12345678 0x101240 0
 *     UNKNOWN 12.400000 1 0xfea00020 0f,ae,38 0x101250 0
 *     UNMAP 13.000000 1 0x0 0
 *     MARK 12.000000 X is up
 *     MARK 0.000000 Lost 42 events.
 *     LSPCI 00:04.0 Unclassified device [00ff]: Device 1234:11e8 (rev 10)
 *
 * and the lines of tracekern's extension of that format (a tracekern log has them unless
 * mmiotrace/extensions is 0; docs/mmiotrace.md), in the same style:
 *
 *     IN 1 12.345800 0xc004 0x83 0xc0134776 0         a port read
 *     OUT 1 12.345900 0xc000 0x1 0xc01347ea 0         a port write
 *     IRQ 12.346000 11                                 a device's line interrupted a CPU
 *     IRQ_SEEN 12.346010 11 1 0                        its driver saw it (count in all, pid)
 *     DMA 12.346100 0x1234000 0x1000 0xb7f00000 42     a page's frame made known to pid
 *
 * Usage:
 *     struct mmio_record rec;
 *     int kind = mmio_log_parse_line(line, len, &rec);
 *     if (kind < 0)
 *         fprintf(stderr, "line %lu: %s\n", number, rec.error);
 *
 * "Strict" means: fields are separated by exactly one space; numbers have the form and the
 * number of digits Linux prints (hex values with 0x, timestamps with six decimals); nothing may
 * follow the last field but blanks and the line ending (\n or \r\n, as a serial port delivers
 * it). The parser reads only line[0] .. line[len-1]; the line need not end with a NUL.
 *
 * Host code (tools/, tests/unit/test_mmio_log.c, tests/fuzz/fuzz_mmio_log.c).
 */
#ifndef TOOLS_MMIO_LOG_H
#define TOOLS_MMIO_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MMIO_LOG_VERSION "20070824"
#define MMIO_PCI_RESOURCES 7 /* a PCIDEV line lists BARs 0-5 and the expansion ROM */

/* What a line is: mmio_log_parse_line() returns one of these (all > 0) on success. */
enum mmio_kind {
    MMIO_BLANK = 1, /* an empty line, or blanks only */
    MMIO_READ,      /* R */
    MMIO_WRITE,     /* W */
    MMIO_MAP,       /* MAP: an ioremap() */
    MMIO_UNMAP,     /* UNMAP: an iounmap() */
    MMIO_MARK,      /* MARK: a trace_marker write */
    MMIO_LOST,      /* MARK 0.000000 Lost N events. */
    MMIO_UNKNOWN,   /* UNKNOWN: an instruction the tracer could not decode */
    MMIO_VERSION,   /* VERSION 20070824 */
    MMIO_PCIDEV,    /* PCIDEV: one device of /proc/bus/pci/devices */
    MMIO_LSPCI,     /* LSPCI: one line of `lspci -v` */
    MMIO_IN,        /* IN: a port read (tracekern's extension, as the rest below) */
    MMIO_OUT,       /* OUT: a port write */
    MMIO_IRQ,       /* IRQ: a device's interrupt line fired */
    MMIO_IRQ_SEEN,  /* IRQ_SEEN: its driver saw the interrupt */
    MMIO_DMA,       /* DMA: a page's physical frame made known to a process */
};
#define MMIO_KIND_LAST MMIO_DMA

/* Why a line is malformed: returned (all < 0) with a message in out->error. */
enum mmio_error {
    MMIO_ERR_KEYWORD = -1,  /* the line starts with no record keyword */
    MMIO_ERR_MISSING = -2,  /* the line ends before a field */
    MMIO_ERR_FIELD = -3,    /* a field is not of its form (digits, 0x, 6 decimals, blanks) */
    MMIO_ERR_RANGE = -4,    /* a number has too many digits or does not fit its field */
    MMIO_ERR_WIDTH = -5,    /* a width other than 1, 2, 4, 8, or a value wider than it */
    MMIO_ERR_TRAILING = -6, /* something follows the last field */
    MMIO_ERR_VERSION = -7,  /* a VERSION other than 20070824 */
    MMIO_ERR_BYTE = -8,     /* a NUL byte or a newline inside the line */
};

/* A PCIDEV line: the fields of /proc/bus/pci/devices, as numbers. */
struct mmio_pcidev {
    uint8_t bus, devfn;                  /* devfn = device << 3 | function */
    uint16_t vendor, device;
    uint32_t irq;
    uint64_t start[MMIO_PCI_RESOURCES];  /* as printed: address | flag bits 0-3 (bit 0: I/O) */
    uint64_t size[MMIO_PCI_RESOURCES];   /* bytes; 0 for an unused resource */
};

/* One parsed line. Only the fields of its kind are set; the others are zero. */
struct mmio_record {
    int kind;                  /* enum mmio_kind */
    uint32_t secs, usecs;      /* timestamp: R W MAP UNMAP MARK UNKNOWN */
    uint32_t map_id;           /* R W MAP UNMAP UNKNOWN */
    unsigned width;            /* R W IN OUT: bytes */
    uint64_t phys;             /* R W MAP UNKNOWN DMA: bus (physical) address; IN OUT: the port */
    uint64_t value;            /* R W IN OUT */
    uint64_t virt, len;        /* MAP DMA */
    uint64_t pc;               /* R W MAP UNMAP UNKNOWN IN OUT */
    uint32_t pid;              /* R W MAP UNMAP UNKNOWN IN OUT IRQ_SEEN DMA */
    uint32_t irq, count;       /* IRQ IRQ_SEEN: the line; IRQ_SEEN: interrupts seen in all */
    uint8_t opcode[3];         /* UNKNOWN: the instruction's first bytes */
    uint64_t lost;             /* LOST: how many events */
    struct mmio_pcidev pci;    /* PCIDEV */
    /* MARK, LSPCI: the text; PCIDEV: the driver name. Points into the parsed line (not
     * NUL-terminated); text_len is 0 when there is none. */
    const char *text;
    size_t text_len;
    char error[128];           /* on failure: "R record: bad width 3"; "" on success */
};

/*
 * Parses the line line[0..len-1] (a trailing "\n" or "\r\n" is allowed, and so are blanks
 * before it) into *out. Returns its kind (> 0), or an enum mmio_error (< 0) with a one-line
 * message in out->error. Never reads outside line[0..len-1].
 */
int mmio_log_parse_line(const char *line, size_t len, struct mmio_record *out);

/*
 * Prints a record as mmiotrace prints it (no line ending) into buf, NUL-terminated when
 * size > 0. Returns the length of the whole text, as snprintf does (a result >= size means
 * it was cut), or -1 for a record of no known kind.
 */
int mmio_log_format(const struct mmio_record *rec, char *buf, size_t size);

/* True when two records say the same thing: same kind, same fields, same text. */
bool mmio_record_equal(const struct mmio_record *a, const struct mmio_record *b);

/* A PCIDEV resource: is it I/O space (not memory), and its address without the flag bits. */
bool mmio_pci_resource_is_io(uint64_t start);
uint64_t mmio_pci_resource_address(uint64_t start);

/* The memory BAR (0-5) of a device that holds the physical address phys, with phys's offset
 * in it in *offset; -1 if none does. I/O BARs and the expansion ROM are never matched. */
int mmio_pcidev_bar_of(const struct mmio_pcidev *d, uint64_t phys, uint64_t *offset);

/* The I/O BAR (0-5) of a device that holds the port, with the port's offset in it in
 * *offset; -1 if none does (for the extension's IN and OUT records). */
int mmio_pcidev_io_bar_of(const struct mmio_pcidev *d, uint64_t port, uint64_t *offset);

#endif
