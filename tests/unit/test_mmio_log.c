/*
 * test_mmio_log.c - the mmiotrace log parser of the host tools (tools/mmio_log.c): every
 * record kind, every error with its message, the line endings a serial capture has, bounds
 * (nothing read past len), and printing a record back as Linux prints it.
 */
#include "unit.h"

#include <stdlib.h>

#include "tools/mmio_log.h"

static struct mmio_record rec;

/* Parses a NUL-terminated line into rec. */
static int parse(const char *line)
{
    return mmio_log_parse_line(line, strlen(line), &rec);
}

/* Parses line and prints the record back: the canonical text, or "(error)". */
static const char *reprint(const char *line)
{
    static char text[512];
    if (parse(line) < 0)
        return "(error)";
    CHECK(mmio_log_format(&rec, text, sizeof text) < (int)sizeof text);
    return text;
}

/* Parses line[0..len-1] from an exactly-sized heap copy, so ASan sees any over-read. */
static int parse_exact(const char *line, size_t len)
{
    static char *copy; /* kept until the next call: rec.text may point into it */
    free(copy);
    copy = malloc(len ? len : 1);
    memcpy(copy, line, len);
    return mmio_log_parse_line(copy, len, &rec);
}

/* The text of rec (MARK, LSPCI, PCIDEV driver) as a C string. */
static const char *text_of(void)
{
    static char text[512];
    snprintf(text, sizeof text, "%.*s", (int)rec.text_len, rec.text ? rec.text : "");
    return text;
}

TEST(read_record)
{
    CHECK_EQ_INT(parse("R 4 12.345678 1 0xfea00000 0x10000ed 0x101234 0\n"), MMIO_READ);
    CHECK_EQ_INT(rec.kind, MMIO_READ);
    CHECK_EQ_INT(rec.width, 4);
    CHECK_EQ_INT(rec.secs, 12);
    CHECK_EQ_INT(rec.usecs, 345678);
    CHECK_EQ_INT(rec.map_id, 1);
    CHECK(rec.phys == 0xfea00000u);
    CHECK(rec.value == 0x10000ed);
    CHECK(rec.pc == 0x101234);
    CHECK_EQ_INT(rec.pid, 0);
    CHECK_EQ_STR(rec.error, "");
}

TEST(write_record_from_a_serial_port)
{
    CHECK_EQ_INT(parse("W 1 0.000001 7 0x1fea00004 0xff 0x0 0\r\n"), MMIO_WRITE);
    CHECK_EQ_INT(rec.width, 1);
    CHECK_EQ_INT(rec.usecs, 1);
    CHECK(rec.phys == 0x1fea00004ull);
    CHECK(rec.value == 0xff);
    CHECK_EQ_INT(parse("W 2 3.000000 1 0xfea00004 0xffff 0x0 0 \t \r\n"), MMIO_WRITE);
    CHECK_EQ_INT(parse("W 4 3.000000 1 0xfea00004 0x1 0x0 0"), MMIO_WRITE); /* no ending */
}

TEST(widths_and_values)
{
    CHECK_EQ_INT(parse("R 8 1.000000 1 0xfea00080 0xffffffffffffffff 0xffffffff81000000 0"),
                 MMIO_READ);
    CHECK(rec.value == UINT64_MAX);
    CHECK(rec.pc == 0xffffffff81000000ull);
    CHECK_EQ_INT(parse("W 2 1.000000 1 0xfea00000 0x00ff 0x0 0"), MMIO_WRITE);
    CHECK(rec.value == 0xff);
    CHECK_EQ_INT(parse("R 4 4294967295.999999 4294967295 0xFEA00000 0xABCDEF01 0x0 4294967295"),
                 MMIO_READ);
    CHECK(rec.secs == 4294967295u && rec.map_id == 4294967295u && rec.pid == 4294967295u);
    CHECK(rec.value == 0xabcdef01u);
}

TEST(map_and_unmap)
{
    CHECK_EQ_INT(parse("MAP 1.000000 1 0xfea00000 0xd0000000 0x100000 0x0 0\n"), MMIO_MAP);
    CHECK_EQ_INT(rec.map_id, 1);
    CHECK(rec.phys == 0xfea00000u);
    CHECK(rec.virt == 0xd0000000u);
    CHECK(rec.len == 0x100000);
    CHECK(rec.pc == 0);
    CHECK_EQ_INT(parse("UNMAP 13.500000 1 0x1050a0 0\n"), MMIO_UNMAP);
    CHECK_EQ_INT(rec.secs, 13);
    CHECK_EQ_INT(rec.usecs, 500000);
    CHECK(rec.pc == 0x1050a0);
}

TEST(markers)
{
    CHECK_EQ_INT(parse("MARK 12.000000 X is up\n"), MMIO_MARK);
    CHECK_EQ_STR(text_of(), "X is up");
    CHECK_EQ_INT(parse("MARK 12.000000  two  blanks\tand a tab \r\n"), MMIO_MARK);
    CHECK_EQ_STR(text_of(), " two  blanks\tand a tab");
    CHECK_EQ_INT(parse("MARK 12.000000 \n"), MMIO_MARK); /* echo > trace_marker */
    CHECK_EQ_INT(rec.text_len, 0);
    CHECK_EQ_INT(parse("MARK 12.000000"), MMIO_MARK);
    CHECK_EQ_INT(rec.text_len, 0);
}

TEST(loss_record)
{
    CHECK_EQ_INT(parse("MARK 0.000000 Lost 42 events.\n"), MMIO_LOST);
    CHECK(rec.lost == 42);
    CHECK_EQ_INT(rec.text_len, 0);
    CHECK_EQ_INT(parse("MARK 0.000000 Lost 18446744073709551615 events."), MMIO_LOST);
    CHECK(rec.lost == UINT64_MAX);
    /* Only the tracer's exact text at time zero is a loss; anything else is a marker. */
    CHECK_EQ_INT(parse("MARK 5.000000 Lost 42 events."), MMIO_MARK);
    CHECK_EQ_INT(parse("MARK 0.000000 Lost many events."), MMIO_MARK);
    CHECK_EQ_INT(parse("MARK 0.000000 Lost 42 events"), MMIO_MARK);
    CHECK_EQ_INT(parse("MARK 0.000000 Lost 18446744073709551616 events."), MMIO_MARK);
    CHECK_EQ_STR(text_of(), "Lost 18446744073709551616 events.");
}

TEST(unknown_opcode)
{
    CHECK_EQ_INT(parse("UNKNOWN 12.400000 2 0x1fea00010 0f,ae,38 0x10abcd 0\n"), MMIO_UNKNOWN);
    CHECK_EQ_INT(rec.map_id, 2);
    CHECK(rec.phys == 0x1fea00010ull);
    CHECK_EQ_INT(rec.opcode[0], 0x0f);
    CHECK_EQ_INT(rec.opcode[1], 0xae);
    CHECK_EQ_INT(rec.opcode[2], 0x38);
    CHECK(rec.pc == 0x10abcd);
}

TEST(version)
{
    CHECK_EQ_INT(parse("VERSION 20070824\n"), MMIO_VERSION);
    CHECK_EQ_INT(parse("VERSION 20070824\r\n"), MMIO_VERSION);
}

TEST(pcidev_with_and_without_driver)
{
    CHECK_EQ_INT(parse("PCIDEV 0020 123411e8 b fea00000 0 0 0 0 0 0 100000 0 0 0 0 0 0 edu\n"),
                 MMIO_PCIDEV);
    CHECK_EQ_INT(rec.pci.bus, 0);
    CHECK_EQ_INT(rec.pci.devfn, 0x20);
    CHECK_EQ_INT(rec.pci.vendor, 0x1234);
    CHECK_EQ_INT(rec.pci.device, 0x11e8);
    CHECK_EQ_INT(rec.pci.irq, 11);
    CHECK(rec.pci.start[0] == 0xfea00000u);
    CHECK(rec.pci.size[0] == 0x100000);
    CHECK(rec.pci.size[6] == 0);
    CHECK_EQ_STR(text_of(), "edu");
    /* No driver bound: Linux prints a blank before the line ending. */
    CHECK_EQ_INT(parse("PCIDEV 0028 1b360005 0 febf1000 c001 0 0 0 0 0 1000 100 0 0 0 0 0 \n"),
                 MMIO_PCIDEV);
    CHECK_EQ_INT(rec.pci.devfn, 0x28);
    CHECK_EQ_INT(rec.text_len, 0);
    CHECK(!mmio_pci_resource_is_io(rec.pci.start[0]));
    CHECK(mmio_pci_resource_is_io(rec.pci.start[1]));
    CHECK(mmio_pci_resource_address(rec.pci.start[1]) == 0xc000);
    CHECK(mmio_pci_resource_address(0xfebf100c) == 0xfebf1000u); /* prefetchable, 64-bit */
}

TEST(lspci_and_blank_lines)
{
    CHECK_EQ_INT(parse("LSPCI 00:04.0 Unclassified device [00ff]: Device 1234:11e8 (rev 10)\n"),
                 MMIO_LSPCI);
    CHECK_EQ_STR(text_of(), "00:04.0 Unclassified device [00ff]: Device 1234:11e8 (rev 10)");
    CHECK_EQ_INT(parse("LSPCI \tFlags: fast devsel, IRQ 11\n"), MMIO_LSPCI);
    CHECK_EQ_STR(text_of(), "\tFlags: fast devsel, IRQ 11");
    CHECK_EQ_INT(parse("LSPCI\n"), MMIO_LSPCI);
    CHECK_EQ_INT(parse(""), MMIO_BLANK);
    CHECK_EQ_INT(parse("\r\n"), MMIO_BLANK);
    CHECK_EQ_INT(parse(" \t \n"), MMIO_BLANK);
}

TEST(error_keyword)
{
    CHECK_EQ_INT(parse("FOO 1 2\n"), MMIO_ERR_KEYWORD);
    CHECK_EQ_STR(rec.error, "unknown record type FOO");
    CHECK_EQ_INT(parse("r 4 1.000000 1 0x0 0x0 0x0 0"), MMIO_ERR_KEYWORD);
    CHECK_EQ_INT(parse("R\t4 1.000000 1 0x0 0x0 0x0 0"), MMIO_ERR_KEYWORD);
    CHECK_EQ_STR(rec.error, "unknown record type R?4");
    CHECK_EQ_INT(parse(" R 4 1.000000 1 0x0 0x0 0x0 0"), MMIO_ERR_KEYWORD);
    CHECK_EQ_STR(rec.error, "line starts with a blank");
    CHECK_EQ_INT(parse("tracekern> cat trace_pipe"), MMIO_ERR_KEYWORD);
}

TEST(error_missing_field)
{
    CHECK_EQ_INT(parse("R 4 12.345678 1 0xfea00000 0x10000ed 0x101234\n"), MMIO_ERR_MISSING);
    CHECK_EQ_STR(rec.error, "R record: missing pid");
    CHECK_EQ_INT(parse("W"), MMIO_ERR_MISSING);
    CHECK_EQ_STR(rec.error, "W record: missing width");
    CHECK_EQ_INT(parse("UNMAP 1.000000 1\n"), MMIO_ERR_MISSING);
    CHECK_EQ_STR(rec.error, "UNMAP record: missing pc");
    CHECK_EQ_INT(parse("MARK\n"), MMIO_ERR_MISSING);
    CHECK_EQ_STR(rec.error, "MARK record: missing timestamp");
    CHECK_EQ_INT(parse("VERSION\n"), MMIO_ERR_MISSING);
    CHECK_EQ_STR(rec.error, "VERSION record: missing version");
    CHECK_EQ_INT(parse("UNKNOWN 1.000000 1 0xfea00000\n"), MMIO_ERR_MISSING);
    CHECK_EQ_STR(rec.error, "UNKNOWN record: missing opcode bytes");
    CHECK_EQ_INT(parse("MAP 1.000000 1 0xfea00000 0xd0000000 0x100000 0x0"), MMIO_ERR_MISSING);
    CHECK_EQ_STR(rec.error, "MAP record: missing pid");
    CHECK_EQ_INT(parse("PCIDEV 0020 123411e8 b fea00000 0 0 0 0 0 0 100000 0 0 0 0 0\n"),
                 MMIO_ERR_MISSING);
    CHECK_EQ_STR(rec.error, "PCIDEV record: missing size[6]");
}

TEST(error_field_form)
{
    CHECK_EQ_INT(parse("R 4 12.34567 1 0xfea00000 0x1 0x0 0"), MMIO_ERR_FIELD);
    CHECK_EQ_STR(rec.error, "R record: bad timestamp 12.34567");
    CHECK_EQ_INT(parse("R 4 12 1 0xfea00000 0x1 0x0 0"), MMIO_ERR_FIELD);
    CHECK_EQ_STR(rec.error, "R record: bad timestamp 12");
    CHECK_EQ_INT(parse("R 4 .345678 1 0xfea00000 0x1 0x0 0"), MMIO_ERR_FIELD);
    CHECK_EQ_INT(parse("R 4 1.00000a 1 0xfea00000 0x1 0x0 0"), MMIO_ERR_FIELD);
    CHECK_EQ_INT(parse("R 4 12.345678 1 fea00000 0x1 0x0 0"), MMIO_ERR_FIELD);
    CHECK_EQ_STR(rec.error, "R record: bad phys fea00000");
    CHECK_EQ_INT(parse("R 4 12.345678 1 0x 0x1 0x0 0"), MMIO_ERR_FIELD);
    CHECK_EQ_STR(rec.error, "R record: bad phys 0x");
    CHECK_EQ_INT(parse("R 4 12.345678 1 0X10 0x1 0x0 0"), MMIO_ERR_FIELD);
    CHECK_EQ_INT(parse("W 4 12.345678 1 0xfea00000 0x1g 0x0 0"), MMIO_ERR_FIELD);
    CHECK_EQ_STR(rec.error, "W record: bad value 0x1g");
    CHECK_EQ_INT(parse("W 4 12.345678 -1 0xfea00000 0x1 0x0 0"), MMIO_ERR_FIELD);
    CHECK_EQ_STR(rec.error, "W record: bad map id -1");
    CHECK_EQ_INT(parse("W 4 12.345678  1 0xfea00000 0x1 0x0 0"), MMIO_ERR_FIELD);
    CHECK_EQ_STR(rec.error, "W record: two blanks before map id");
    CHECK_EQ_INT(parse("UNKNOWN 1.000000 1 0xfea00000 0f,ae 0x0 0"), MMIO_ERR_FIELD);
    CHECK_EQ_STR(rec.error, "UNKNOWN record: bad opcode bytes 0f,ae");
    CHECK_EQ_INT(parse("UNKNOWN 1.000000 1 0xfea00000 0f;ae;38 0x0 0"), MMIO_ERR_FIELD);
    CHECK_EQ_INT(parse("UNKNOWN 1.000000 1 0xfea00000 0f,xe,38 0x0 0"), MMIO_ERR_FIELD);
    CHECK_EQ_INT(parse("PCIDEV 020 123411e8 b fea00000 0 0 0 0 0 0 100000 0 0 0 0 0 0"),
                 MMIO_ERR_FIELD);
    CHECK_EQ_STR(rec.error, "PCIDEV record: bad bus/devfn 020");
    CHECK_EQ_INT(parse("PCIDEV 0020 1234:11e8 b fea00000 0 0 0 0 0 0 100000 0 0 0 0 0 0"),
                 MMIO_ERR_FIELD);
    CHECK_EQ_STR(rec.error, "PCIDEV record: bad vendor/device 1234:11e8");
    CHECK_EQ_INT(parse("PCIDEV 0020 123411e8 b 0xfea00000 0 0 0 0 0 0 100000 0 0 0 0 0 0"),
                 MMIO_ERR_FIELD);
    CHECK_EQ_STR(rec.error, "PCIDEV record: bad start[0] 0xfea00000");
}

TEST(error_out_of_range)
{
    CHECK_EQ_INT(parse("R 4 1.000000 1 0x1fea0000000000000 0x1 0x0 0"), MMIO_ERR_RANGE);
    CHECK_EQ_STR(rec.error, "R record: phys out of range: 0x1fea0000000000000");
    CHECK_EQ_INT(parse("R 4 1.000000 1 0x00000000000000000 0x1 0x0 0"), MMIO_ERR_RANGE);
    CHECK_EQ_INT(parse("R 4 4294967296.000000 1 0xfea00000 0x1 0x0 0"), MMIO_ERR_RANGE);
    CHECK_EQ_STR(rec.error, "R record: timestamp out of range: 4294967296.000000");
    CHECK_EQ_INT(parse("R 4 1.000000 4294967296 0xfea00000 0x1 0x0 0"), MMIO_ERR_RANGE);
    CHECK_EQ_STR(rec.error, "R record: map id out of range: 4294967296");
    CHECK_EQ_INT(parse("R 4 1.000000 1 0xfea00000 0x1 0x0 00000000000"), MMIO_ERR_RANGE);
    CHECK_EQ_STR(rec.error, "R record: pid out of range: 00000000000");
    CHECK_EQ_INT(parse("PCIDEV 0020 123411e8 123456789 fea00000 0 0 0 0 0 0 100000 0 0 0 0 0 0"),
                 MMIO_ERR_RANGE);
    CHECK_EQ_STR(rec.error, "PCIDEV record: irq out of range: 123456789");
}

TEST(error_width)
{
    CHECK_EQ_INT(parse("R 3 12.345678 1 0xfea00000 0x1 0x0 0"), MMIO_ERR_WIDTH);
    CHECK_EQ_STR(rec.error, "R record: bad width 3");
    CHECK_EQ_INT(parse("R 16 12.345678 1 0xfea00000 0x1 0x0 0"), MMIO_ERR_WIDTH);
    CHECK_EQ_STR(rec.error, "R record: bad width 16");
    CHECK_EQ_INT(parse("W 0 12.345678 1 0xfea00000 0x1 0x0 0"), MMIO_ERR_WIDTH);
    CHECK_EQ_INT(parse("W x 12.345678 1 0xfea00000 0x1 0x0 0"), MMIO_ERR_WIDTH);
    CHECK_EQ_INT(parse("W 1 12.345678 1 0xfea00000 0x100 0x0 0"), MMIO_ERR_WIDTH);
    CHECK_EQ_STR(rec.error, "W record: value 0x100 does not fit in width 1");
    CHECK_EQ_INT(parse("R 4 12.345678 1 0xfea00000 0x100000000 0x0 0"), MMIO_ERR_WIDTH);
}

TEST(error_trailing)
{
    CHECK_EQ_INT(parse("R 4 12.345678 1 0xfea00000 0x1 0x0 0 junk\n"), MMIO_ERR_TRAILING);
    CHECK_EQ_STR(rec.error, "R record: trailing characters after pid: junk");
    CHECK_EQ_INT(parse("R 4 12.345678 1 0xfea00000 0x1 0x0 0  # LIVENESS"), MMIO_ERR_TRAILING);
    CHECK_EQ_STR(rec.error, "R record: trailing characters after pid:  # LIVENESS");
    CHECK_EQ_INT(parse("VERSION 20070824 and more"), MMIO_ERR_TRAILING);
    CHECK_EQ_STR(rec.error, "VERSION record: trailing characters after version: and more");
    CHECK_EQ_INT(parse("PCIDEV 0020 123411e8 b fea00000 0 0 0 0 0 0 100000 0 0 0 0 0 0 edu x"),
                 MMIO_ERR_TRAILING);
    CHECK_EQ_STR(rec.error, "PCIDEV record: trailing characters after driver: x");
    CHECK_EQ_INT(parse("UNMAP 1.000000 1 0x0 0 0"), MMIO_ERR_TRAILING);
}

TEST(error_version)
{
    CHECK_EQ_INT(parse("VERSION 20080101\n"), MMIO_ERR_VERSION);
    CHECK_EQ_STR(rec.error, "VERSION record: unsupported version 20080101 (expected 20070824)");
    CHECK_EQ_INT(parse("VERSION 2007082"), MMIO_ERR_VERSION);
}

TEST(error_bytes_inside_the_line)
{
    static const char nul[] = "R 4\0 1.000000 1 0x0 0x0 0x0 0";
    CHECK_EQ_INT(mmio_log_parse_line(nul, sizeof nul - 1, &rec), MMIO_ERR_BYTE);
    CHECK_EQ_STR(rec.error, "NUL byte at column 4");
    CHECK_EQ_INT(parse("MARK 1.000000 a\nb\n"), MMIO_ERR_BYTE);
    CHECK_EQ_STR(rec.error, "newline at column 16");
}

TEST(failure_leaves_no_fields)
{
    CHECK_EQ_INT(parse("R 4 12.345678 1 0xfea00000 0x1 0x0 0 junk"), MMIO_ERR_TRAILING);
    CHECK_EQ_INT(rec.kind, 0);
    CHECK(rec.phys == 0 && rec.value == 0 && rec.width == 0 && rec.text == NULL);
}

TEST(long_bad_field_is_cut_in_message)
{
    CHECK_EQ_INT(parse("R 4 1.000000 1 0xfea00000zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz 0x1 0x0 0"),
                 MMIO_ERR_FIELD);
    CHECK_EQ_STR(rec.error, "R record: bad phys 0xfea00000zzzzzzzzzzzzzz...");
    CHECK_EQ_INT(parse("FOO\x01\xff"), MMIO_ERR_KEYWORD);
    CHECK_EQ_STR(rec.error, "unknown record type FOO??");
}

TEST(never_reads_past_len)
{
    static const char line[] = "VERSION 20070824 trailing words";
    CHECK_EQ_INT(parse_exact(line, 16), MMIO_VERSION);
    CHECK_EQ_INT(parse_exact(line, 15), MMIO_ERR_VERSION);
    CHECK_EQ_INT(parse_exact(line, 7), MMIO_ERR_MISSING);
    CHECK_EQ_INT(parse_exact(line, 0), MMIO_BLANK);

    static const char rw[] = "R 4 12.345678 1 0xfea00000 0x10000ed 0x101234 0";
    CHECK_EQ_INT(parse_exact(rw, sizeof rw - 1), MMIO_READ);
    CHECK_EQ_INT(parse_exact(rw, sizeof rw - 3), MMIO_ERR_MISSING);
    CHECK_EQ_STR(rec.error, "R record: missing pid");
    CHECK_EQ_INT(parse_exact(rw, sizeof rw - 4), MMIO_ERR_MISSING);
    for (size_t n = 0; n < sizeof rw; n++)
        CHECK(parse_exact(rw, n) != 0);

    static const char mark[] = "MARK 1.000000 text";
    CHECK_EQ_INT(parse_exact(mark, 15), MMIO_MARK);
    CHECK_EQ_STR(text_of(), "t");
    static const char lost[] = "MARK 0.000000 Lost 3 events.";
    CHECK_EQ_INT(parse_exact(lost, sizeof lost - 1), MMIO_LOST);
    CHECK_EQ_INT(parse_exact(lost, sizeof lost - 2), MMIO_MARK);
}

TEST(extension_port_records)
{
    CHECK_EQ_INT(parse("IN 1 0.283263 0xc001 0x1 0xc01347c4 1\r\n"), MMIO_IN);
    CHECK_EQ_INT(rec.width, 1);
    CHECK_EQ_INT(rec.usecs, 283263);
    CHECK(rec.phys == 0xc001 && rec.value == 1 && rec.pc == 0xc01347c4);
    CHECK_EQ_INT(rec.pid, 1);
    CHECK_EQ_INT(parse("OUT 4 3.000000 0xcf8 0x80000000 0x0 0"), MMIO_OUT);
    CHECK(rec.phys == 0xcf8 && rec.value == 0x80000000u && rec.width == 4);
    CHECK_EQ_INT(parse("IN 8 3.000000 0xcf8 0x0 0x0 0"), MMIO_ERR_WIDTH);
    CHECK_EQ_STR(rec.error, "IN record: a port access of 8 bytes");
    CHECK_EQ_INT(parse("OUT 1 3.000000 0x10000 0x0 0x0 0"), MMIO_ERR_RANGE);
    CHECK_EQ_STR(rec.error, "OUT record: port 0x10000 beyond 0xffff");
    CHECK_EQ_INT(parse("OUT 1 3.000000 0x80 0x100 0x0 0"), MMIO_ERR_WIDTH);
    CHECK_EQ_INT(parse("IN 1 3.000000 0x80 0x1 0x0"), MMIO_ERR_MISSING);
    CHECK_EQ_INT(parse("IN 1 3.000000 0x80 0x1 0x0 0 more"), MMIO_ERR_TRAILING);
}

TEST(extension_interrupt_and_dma_records)
{
    CHECK_EQ_INT(parse("IRQ 0.060920 11"), MMIO_IRQ);
    CHECK_EQ_INT(rec.irq, 11);
    CHECK_EQ_INT(rec.pid, 0);
    CHECK_EQ_INT(parse("IRQ_SEEN 0.060972 11 3 42\n"), MMIO_IRQ_SEEN);
    CHECK(rec.irq == 11 && rec.count == 3 && rec.pid == 42);
    CHECK_EQ_INT(parse("IRQ_SEEN 0.060972 11 3"), MMIO_ERR_MISSING);
    CHECK_EQ_INT(parse("IRQ 0.060972 x"), MMIO_ERR_FIELD);
    CHECK_EQ_INT(parse("DMA 5.000001 0x1234000 0x1000 0xb7f00000 42"), MMIO_DMA);
    CHECK(rec.phys == 0x1234000 && rec.len == 0x1000 && rec.virt == 0xb7f00000u && rec.pid == 42);
    CHECK_EQ_INT(parse("DMA 5.000001 1234000 0x1000 0xb7f00000 42"), MMIO_ERR_FIELD);
}

TEST(prints_back_as_linux_does)
{
    CHECK_EQ_STR(reprint("R 4 12.345678 1 0xFEA00000 0x010000ED 0x101234 0\r\n"),
                 "R 4 12.345678 1 0xfea00000 0x10000ed 0x101234 0");
    CHECK_EQ_STR(reprint("W 1 0.000000 01 0xfea00000 0x0 0x0 00"),
                 "W 1 0.000000 1 0xfea00000 0x0 0x0 0");
    CHECK_EQ_STR(reprint("MAP 2.000001 3 0xfea00000 0xd0000000 0x100000 0x1050a0 0"),
                 "MAP 2.000001 3 0xfea00000 0xd0000000 0x100000 0x1050a0 0");
    CHECK_EQ_STR(reprint("UNMAP 3.000000 3 0x1050a0 0"), "UNMAP 3.000000 3 0x1050a0 0");
    CHECK_EQ_STR(reprint("UNKNOWN 1.000000 2 0x1fea00010 0F,AE,38 0x10abcd 0"),
                 "UNKNOWN 1.000000 2 0x1fea00010 0f,ae,38 0x10abcd 0");
    CHECK_EQ_STR(reprint("MARK 0.005500 X is up"), "MARK 0.005500 X is up");
    CHECK_EQ_STR(reprint("MARK 0.005500 "), "MARK 0.005500");
    CHECK_EQ_STR(reprint("MARK 0.000000 Lost 007 events."), "MARK 0.000000 Lost 7 events.");
    CHECK_EQ_STR(reprint("VERSION 20070824"), "VERSION 20070824");
    CHECK_EQ_STR(reprint("PCIDEV 0020 123411e8 b fea00000 0 0 0 0 0 0 100000 0 0 0 0 0 0 edu"),
                 "PCIDEV 0020 123411e8 b fea00000 0 0 0 0 0 0 100000 0 0 0 0 0 0 edu");
    CHECK_EQ_STR(reprint("PCIDEV 0028 1b360005 0 febf1000 c001 0 0 0 0 0 1000 100 0 0 0 0 0"),
                 "PCIDEV 0028 1b360005 0 febf1000 c001 0 0 0 0 0 1000 100 0 0 0 0 0 ");
    CHECK_EQ_STR(reprint("LSPCI \tFlags: fast devsel"), "LSPCI \tFlags: fast devsel");
    CHECK_EQ_STR(reprint("\r\n"), "");
    /* tracekern's extension, printed as tracekern prints it */
    CHECK_EQ_STR(reprint("IN 2 1.000000 0xC004 0x0083 0xc0134776 0"),
                 "IN 2 1.000000 0xc004 0x83 0xc0134776 0");
    CHECK_EQ_STR(reprint("OUT 1 1.000000 0xc000 0x1 0x0 7"), "OUT 1 1.000000 0xc000 0x1 0x0 7");
    CHECK_EQ_STR(reprint("IRQ 1.000000 011"), "IRQ 1.000000 11");
    CHECK_EQ_STR(reprint("IRQ_SEEN 1.000000 11 2 7"), "IRQ_SEEN 1.000000 11 2 7");
    CHECK_EQ_STR(reprint("DMA 1.000000 0x1000 0x1000 0xb0000000 7"),
                 "DMA 1.000000 0x1000 0x1000 0xb0000000 7");
}

TEST(format_into_a_small_buffer)
{
    char small[8];
    CHECK_EQ_INT(parse("VERSION 20070824"), MMIO_VERSION);
    CHECK_EQ_INT(mmio_log_format(&rec, small, sizeof small), 16);
    CHECK_EQ_STR(small, "VERSION");
    CHECK_EQ_INT(mmio_log_format(&rec, NULL, 0), 16);
    struct mmio_record none = { .kind = 0 };
    CHECK_EQ_INT(mmio_log_format(&none, small, sizeof small), -1);
}

TEST(records_compare_by_content)
{
    struct mmio_record a, b;
    static const char one[] = "MARK 1.000000 same text", two[] = "MARK 1.000000 same text";
    CHECK_EQ_INT(mmio_log_parse_line(one, sizeof one - 1, &a), MMIO_MARK);
    CHECK_EQ_INT(mmio_log_parse_line(two, sizeof two - 1, &b), MMIO_MARK);
    CHECK(a.text != b.text);
    CHECK(mmio_record_equal(&a, &b));
    CHECK_EQ_INT(mmio_log_parse_line("MARK 1.000000 same texT", 23, &b), MMIO_MARK);
    CHECK(!mmio_record_equal(&a, &b));
    CHECK_EQ_INT(mmio_log_parse_line("MARK 1.000001 same text", 23, &b), MMIO_MARK);
    CHECK(!mmio_record_equal(&a, &b));
}

TEST(finds_the_memory_bar_of_an_address)
{
    uint64_t offset = 0;
    CHECK_EQ_INT(parse("PCIDEV 0018 8086100e b febc0000 c001 0 0 fe00000c 0 feb80000 20000 40 0 0 "
                       "4000 0 40000"), MMIO_PCIDEV);
    CHECK_EQ_INT(mmio_pcidev_bar_of(&rec.pci, 0xfebc0008, &offset), 0);
    CHECK(offset == 8);
    CHECK_EQ_INT(mmio_pcidev_bar_of(&rec.pci, 0xfebdffff, &offset), 0);
    CHECK(offset == 0x1ffff);
    CHECK_EQ_INT(mmio_pcidev_bar_of(&rec.pci, 0xfebe0000, &offset), -1); /* just past BAR 0 */
    CHECK_EQ_INT(mmio_pcidev_bar_of(&rec.pci, 0xfebbffff, &offset), -1);
    CHECK_EQ_INT(mmio_pcidev_bar_of(&rec.pci, 0xc004, &offset), -1);     /* BAR 1 is I/O */
    CHECK_EQ_INT(mmio_pcidev_bar_of(&rec.pci, 0xfe003ff0, &offset), 4);  /* 64-bit prefetchable */
    CHECK(offset == 0x3ff0);
    CHECK_EQ_INT(mmio_pcidev_bar_of(&rec.pci, 0xfeb80000, &offset), -1); /* the ROM */
}
