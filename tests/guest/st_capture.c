/*
 * st_capture.c - self-tests of the pages built for export (trace/core/trace_raw.h, shared by
 * trace_pipe_raw and the COM2 capture): the function_graph records' calltime and rettime,
 * TSC cycles in the ring, are nanoseconds of the trace clock on the page, as the event
 * timestamps are (their declared cycle fields, trace_declare_cycle_field); and those
 * declarations are their owner's.
 */
#include "kernel/arch.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"
#include "kernel/selftest.h"
#include "samples/ftrace/ftrace_testmod.h"
#include "tests/guest/guest_helpers.h"
#include "trace/core/trace_internal.h"
#include "trace/core/trace_raw.h"
#include "trace/events/trace_events.h"
#include "trace/ftrace/ftrace.h"
#include "uapi/trace_capture.h"

#define NS_PER_MS 1000000u

static uint32_t get32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* What the graph records on one page showed. */
struct graph_times {
    int records; /* funcgraph_entry, funcgraph_exit and funcgraph_leaf records */
    int bad;     /* whose times are not nanoseconds just before the event's timestamp */
};

/* Checks one record at ts (ns): its times lie before ts, in order, and close to it: within
 * 50 ms, room for the host to deschedule QEMU mid-call (a 1 ms bound failed under load),
 * while cycles read as ns would lie seconds away (the TSC runs at GHz). */
static void check_record(const uint8_t *payload, uint32_t length, uint64_t ts,
                         struct graph_times *g)
{
    struct trace_entry ent;
    memcpy(&ent, payload, sizeof ent);
    uint64_t call, ret;
    if (ent.type == TRACE_GRAPH_ENT && length >= sizeof(struct ftrace_graph_entry)) {
        call = get64(payload + offsetof(struct ftrace_graph_entry, calltime));
        ret = call;
    } else if ((ent.type == TRACE_GRAPH_RET || ent.type == TRACE_GRAPH_LEAF) &&
               length >= sizeof(struct ftrace_graph_return)) {
        call = get64(payload + offsetof(struct ftrace_graph_return, calltime));
        ret = get64(payload + offsetof(struct ftrace_graph_return, rettime));
    } else {
        return;
    }
    g->records++;
    if (!(call <= ret && ret <= ts && ts - call < 50 * NS_PER_MS))
        g->bad++;
}

/* Walks a Linux page's events (raw_page.h) and checks the graph records on it. */
static void check_page(const uint8_t *page, struct graph_times *g)
{
    uint64_t ts = get64(page);
    uint32_t commit = get32(page + 8) & 0xfffffu;
    const uint8_t *at = page + RAW_PAGE_HEADER, *end = at + commit;
    while (at + 4 <= end) {
        uint32_t word = get32(at), type_len = word & 31u;
        ts += word >> 5;
        if (type_len == RAW_TYPE_TIME_EXTEND) {
            ts += (uint64_t)get32(at + 4) << RAW_DELTA_BITS;
            at += 8;
        } else if (type_len == 0) {
            uint32_t length = get32(at + 4) - 4;
            check_record(at + 8, length, ts, g);
            at += 8 + length;
        } else if (type_len <= RAW_TYPE_DATA_MAX) {
            check_record(at + 4, type_len * 4, ts, g);
            at += 4 + type_len * 4;
        } else {
            g->bad++; /* padding and absolute stamps are never written */
            return;
        }
    }
}

SELFTEST(capture_graph_times_are_ns)
{
    trace_stream_enabled = false;
    ST_CHECK(guest_write_file("set_ftrace_filter", "ftrace_test_*\n", false) == 0);
    ST_CHECK(guest_write_file("current_tracer", "function_graph\n", false) == 0);
    rb_reset(trace_buffer());
    for (int i = 0; i < 3; i++)
        ftrace_test_top(1);
    struct raw_filler *f = kmalloc(sizeof *f);
    ST_CHECK(f != 0);
    if (!f)
        return;
    struct graph_times g = { 0, 0 };
    raw_fill_init(f, 0);
    while (raw_fill(f) == RAW_FILL_FULL || f->page.events) {
        if (!raw_fill_finish(f))
            break;
        check_page(f->bytes, &g);
        raw_fill_next(f);
    }
    kfree(f);
    ST_CHECK(g.records == 30); /* 10 per call of ftrace_test_top (st_ftrace.c) */
    ST_CHECK(g.bad == 0);
    ST_CHECK(guest_write_file("current_tracer", "nop\n", false) == 0);
    ST_CHECK(guest_write_file("set_ftrace_filter", "\n", false) == 0);
    rb_reset(trace_buffer());
    trace_stream_enabled = true;
}

/* The graph record types' cycle fields are declared by their owner (ftrace_graph.c) and
 * cannot be declared twice; a type that is not built in, a field inside struct
 * trace_entry or past the largest record cannot be declared at all. */
SELFTEST(capture_cycle_fields_are_owned)
{
    ST_CHECK(trace_declare_cycle_field(TRACE_GRAPH_ENT,
                                       offsetof(struct ftrace_graph_entry, calltime)) == -EEXIST);
    ST_CHECK(trace_declare_cycle_field(TRACE_GRAPH_LEAF,
                                       offsetof(struct ftrace_graph_return, rettime)) == -EEXIST);
    ST_CHECK(trace_declare_cycle_field(0, 8) == -EINVAL);
    ST_CHECK(trace_declare_cycle_field(TRACE_EVENT_ID_FIRST, 8) == -EINVAL);
    ST_CHECK(trace_declare_cycle_field(TRACE_PRINT, 4) == -EINVAL);
    ST_CHECK(trace_declare_cycle_field(TRACE_PRINT, RB_MAX_EVENT) == -EINVAL);
    const struct capture_cycle_field *fields;
    ST_CHECK(trace_cycle_fields(&fields) == 5); /* entry's calltime; ret's and leaf's two */
}
