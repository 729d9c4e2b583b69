/* test_mmiotrace_output.c - mmiotrace's records print exactly as Linux's do. */
#include "unit.h"

#include "collect_writer.h"
#include "trace/mmiotrace/mmiotrace.h"

static const char *print(const void *entry, uint32_t length, uint64_t ts)
{
    struct trace_event_view ev = { entry, length, ts, 0 };
    collect_reset();
    CHECK(mmiotrace_print_event(&collect_writer, &ev));
    return collected;
}

TEST(read_and_write)
{
    struct mmiotrace_rw_entry rw = { { TRACE_MMIO_RW, 0, 0, 9 }, MMIO_OP_READ, 4, { 0 }, 0, { 0 },
                                     1, 0x10000ed, 0x101234, 0xfea00000ull };
    CHECK_EQ_STR(print(&rw, sizeof rw, 12345678901ull),
                 "R 4 12.345679 1 0xfea00000 0x10000ed 0x101234 0\n"); /* to the nearest us, as Linux */
    rw.op = MMIO_OP_WRITE;
    rw.width = 1;
    rw.value = 0;
    rw.pc = 0;
    CHECK_EQ_STR(print(&rw, sizeof rw, 999), "W 1 0.000001 1 0xfea00000 0x0 0x0 0\n");
    /* A program's access through its mapping of a BAR: its pid in the last field. */
    rw.user = 1;
    rw.pc = 0x80485d5;
    CHECK_EQ_STR(print(&rw, sizeof rw, 999), "W 1 0.000001 1 0xfea00000 0x0 0x80485d5 9\n");
}

TEST(unknown)
{
    struct mmiotrace_rw_entry rw = { { TRACE_MMIO_RW, 0, 0, 0 }, MMIO_OP_UNKNOWN, 4,
                                     { 0x0f, 0xae, 0x38 }, 0, { 0 }, 2, 0, 0x10abcd, 0x1fea00010ull };
    CHECK_EQ_STR(print(&rw, sizeof rw, 1000000000ull),
                 "UNKNOWN 1.000000 2 0x1fea00010 0f,ae,38 0x10abcd 0\n");
}

TEST(map_and_unmap)
{
    struct mmiotrace_map_entry m = { { TRACE_MMIO_MAP, 0, 0, 5 }, MMIO_OP_MAP, 0, { 0 }, 3,
                                     0xd0000000u, 0x100000, 0x1050a0, 0xfea00000ull };
    CHECK_EQ_STR(print(&m, sizeof m, 2000001000ull),
                 "MAP 2.000001 3 0xfea00000 0xd0000000 0x100000 0x1050a0 0\n");
    m.op = MMIO_OP_UNMAP;
    CHECK_EQ_STR(print(&m, sizeof m, 3000000000ull), "UNMAP 3.000000 3 0x1050a0 0\n");
    /* A program's mapping of a BAR (pc 0: its call site is not known): its pid. */
    m.user = 1;
    m.pc = 0;
    CHECK_EQ_STR(print(&m, sizeof m, 3000000000ull), "UNMAP 3.000000 3 0x0 5\n");
    m.op = MMIO_OP_MAP;
    m.virt = 0xb7fff000u;
    m.len = 0x1000;
    CHECK_EQ_STR(print(&m, sizeof m, 3000000000ull),
                 "MAP 3.000000 3 0xfea00000 0xb7fff000 0x1000 0x0 5\n");
}

TEST(extension_lines)
{
    struct mmiotrace_pio_entry p = { { TRACE_MMIO_PIO, 0, 0, 7 }, MMIO_OP_READ, 1, 0xc004, 0x83,
                                     0xc0134776u };
    CHECK_EQ_STR(print(&p, sizeof p, 283278000ull), "IN 1 0.283278 0xc004 0x83 0xc0134776 7\n");
    p.op = MMIO_OP_WRITE;
    p.width = 4;
    p.value = 0x12345678;
    CHECK_EQ_STR(print(&p, sizeof p, 1000000000ull),
                 "OUT 4 1.000000 0xc004 0x12345678 0xc0134776 7\n");
    struct mmiotrace_irq_entry q = { { TRACE_MMIO_IRQ, 0, 0, 3 }, TRACE_DEVICE_IRQ_FIRED, { 0 },
                                     11, 0 };
    CHECK_EQ_STR(print(&q, sizeof q, 60920000ull), "IRQ 0.060920 11\n");
    q.op = TRACE_DEVICE_IRQ_SEEN;
    q.count = 2;
    CHECK_EQ_STR(print(&q, sizeof q, 60972000ull), "IRQ_SEEN 0.060972 11 2 3\n");
    q.ent.flags = TRACE_FLAG_HARDIRQ; /* the kernel's handler: pid 0, whoever it interrupted */
    CHECK_EQ_STR(print(&q, sizeof q, 60972000ull), "IRQ_SEEN 0.060972 11 2 0\n");
    struct mmiotrace_dma_entry d = { { TRACE_MMIO_DMA, 0, 0, 42 }, 0xb7f00000u, 0x1000,
                                     0x1234000ull };
    CHECK_EQ_STR(print(&d, sizeof d, 400000000ull), "DMA 0.400000 0x1234000 0x1000 0xb7f00000 42\n");
}

TEST(marker_and_lost)
{
    struct trace_entry e = { TRACE_PRINT, 0, 0, 0 };
    struct trace_event_view ev = { &e, sizeof e, 5500000ull, 0 };
    collect_reset();
    mmiotrace_print_marker(&collect_writer, &ev, "X is up", 7);
    CHECK_EQ_STR(collected, "MARK 0.005500 X is up\n");
    collect_reset();
    mmiotrace_print_lost(&collect_writer, 0, 42);
    CHECK_EQ_STR(collected, "MARK 0.000000 Lost 42 events.\n");
}

TEST(other_events_not_claimed)
{
    struct trace_entry e = { TRACE_PRINT, 0, 0, 0 };
    struct trace_event_view ev = { &e, sizeof e, 0, 0 };
    CHECK(!mmiotrace_print_event(&collect_writer, &ev));
    struct mmiotrace_rw_entry rw = { { TRACE_MMIO_RW, 0, 0, 0 }, MMIO_OP_READ, 4, { 0 }, 0, { 0 }, 1, 0, 0, 0 };
    ev.entry = &rw.ent;
    ev.length = 8; /* cut short: not printed from beyond its end */
    CHECK(!mmiotrace_print_event(&collect_writer, &ev));
}
