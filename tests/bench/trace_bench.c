/*
 * trace_bench.c - what the tracing core costs, in guest instructions (`make bench`).
 *
 *   ring buffer reserve+commit      the bare buffer, for 8-, 32- and 128-byte payloads
 *   trace_reserve+commit            the same through the core (event header, flags)
 *   trace_marker write              a 12-byte `echo ... > trace_marker`, file layer excluded
 *   trace_pipe export               formatting and sending buffered events to COM2
 *   binary capture export           the same events sent as the binary capture's pages
 *                                   (options/stream_raw), measured the same way; and what
 *                                   opening a capture costs (START and the files)
 *   sustained stream                10,000 mmiotrace-sized events per guest second for a
 *                                   quarter guest second at the default buffer size: lost,
 *                                   and the most events the buffer held meanwhile
 *   stream under a flood            markers written as fast as the CPU can for half a guest
 *                                   second with the stream on: the timer's rate meanwhile,
 *                                   and the lines and bytes the tick's share carried
 */
#include "drivers/serial/com2_stream.h"
#include "kernel/arch.h"
#include "kernel/bench.h"
#include "kernel/background.h"
#include "kernel/log/printk.h"
#include "tests/bench/rb_call.h"
#include "kernel/time.h"
#include "trace/core/trace_internal.h"

#define ITERATIONS 20000
/* An mmiotrace record line is about this long; the export rows use markers of this size. */
static const char mmio_sized_text[] = "W 4 12.345678 1 0xfebf0004 0x12345678 0x101234 0";

static void trace_reserve_commit(void *arg)
{
    (void)arg;
    if (trace_reserve(TRACE_PRINT, 8))
        trace_commit();
}

static void marker_write(void *arg)
{
    (void)arg;
    tracing_mark_write("hello world\n", 12);
}

BENCHMARK(ring_buffer)
{
    /* A buffer of its own, in overwrite mode, so every reservation succeeds. */
    struct rb_call call = { rb_create(&trace_rb_env, arch_cpu_count(), 16), 0 };
    if (!call.rb) {
        printk("bench: no memory for the ring buffer benchmark\n");
        return;
    }
    static const uint32_t sizes[] = { 8, 32, 128 };
    static const char *const names[] = {
        "ring buffer reserve+commit, 8-byte payload",
        "ring buffer reserve+commit, 32-byte payload",
        "ring buffer reserve+commit, 128-byte payload",
    };
    for (int i = 0; i < 3; i++) {
        call.length = sizes[i];
        bench_report(names[i], bench_cost(reserve_commit, &call, ITERATIONS), "instructions");
    }
    rb_destroy(call.rb);
}

/* Puts the core in a known state for a benchmark: nop tracer, empty buffer, stream off. */
static void quiet_core(void)
{
    trace_stream_enabled = false;
    trace_switch(trace_find_tracer("nop", 3));
    rb_reset(trace_buffer());
}

BENCHMARK(trace_core)
{
    quiet_core();
    bench_report("trace_reserve+trace_commit, 8-byte event",
                 bench_cost(trace_reserve_commit, 0, ITERATIONS), "instructions");
    rb_reset(trace_buffer());
    bench_report("trace_marker write, 12 bytes", bench_cost(marker_write, 0, ITERATIONS),
                 "instructions");
    rb_reset(trace_buffer());
}

/* Events per second of guest time for count events over cycles. */
static uint64_t per_second(uint64_t count, uint64_t cycles)
{
    return cycles ? count * arch_cycles_khz() * 1000u / cycles : 0;
}

BENCHMARK(trace_pipe_export)
{
    if (!com2_present()) {
        printk("bench: no COM2, no export benchmark\n");
        return;
    }
    quiet_core();
    const uint32_t events = 10000;
    for (uint32_t i = 0; i < events; i++)
        tracing_mark_write(mmio_sized_text, sizeof mmio_sized_text - 1);
    trace_stream_enabled = true;
    uint64_t bytes = com2_bytes_sent(), start = arch_cycles();
    trace_stream_flush();
    uint64_t cycles = arch_cycles() - start;
    bytes = com2_bytes_sent() - bytes;
    bench_report("trace_pipe export to COM2, events per guest second", per_second(events, cycles),
                 "events/s");
    bench_report("trace_pipe export to COM2, bytes per guest second", per_second(bytes, cycles),
                 "bytes/s");
    bench_report("trace_pipe export to COM2, per event", cycles / events, "instructions");
}

/* The binary capture (trace/core/trace_capture.c): the same 10,000 markers as the text row,
 * measured the same way (from a full buffer to all of it on COM2, through the flush), sent
 * as the ring's own records, a page per frame; the capture is opened before they are written, and its START and files,
 * paid once per capture, are a row of their own. The stream is switched off around the
 * writes by its variable, as above, so that the switch does not end the capture. */
BENCHMARK(capture_export)
{
    if (!com2_present()) {
        printk("bench: no COM2, no export benchmark\n");
        return;
    }
    quiet_core();
    trace_stream_enabled = true;
    uint64_t bytes = com2_bytes_sent(), start = arch_cycles();
    trace_stream_set_raw(true);
    uint64_t open_cycles = arch_cycles() - start;
    bench_report("binary capture start (START and the files), bytes", com2_bytes_sent() - bytes,
                 "bytes");
    bench_report("binary capture start (START and the files)", open_cycles, "instructions");
    trace_stream_enabled = false;
    const uint32_t events = 10000;
    for (uint32_t i = 0; i < events; i++)
        tracing_mark_write(mmio_sized_text, sizeof mmio_sized_text - 1);
    trace_stream_enabled = true;
    bytes = com2_bytes_sent();
    start = arch_cycles();
    trace_stream_flush();
    uint64_t cycles = arch_cycles() - start;
    bytes = com2_bytes_sent() - bytes;
    trace_stream_set_raw(false);
    bench_report("binary capture export to COM2, events per guest second",
                 per_second(events, cycles), "events/s");
    bench_report("binary capture export to COM2, bytes per guest second",
                 per_second(bytes, cycles), "bytes/s");
    bench_report("binary capture export to COM2, per event", cycles / events, "instructions");
    bench_report("binary capture export to COM2, bytes per event", bytes / events, "bytes");
}

BENCHMARK(sustained_stream)
{
    if (!com2_present())
        return;
    quiet_core();
    trace_stream_enabled = true;
    /* 10,000 events per guest second for a quarter second (25 ticks), written on schedule
     * by a CPU that is otherwise busy: only the timer tick's share of the stream runs. The
     * most events buffered at once shows whether the stream keeps up or falls behind. */
    const uint32_t rate = 10000, events = rate / 4;
    uint64_t period = (uint64_t)arch_cycles_khz() * 1000u / rate, next = arch_cycles();
    uint64_t peak = 0;
    struct rb_stats st;
    for (uint32_t i = 0; i < events; i++) {
        while (arch_cycles() < next)
            arch_cpu_relax();
        tracing_mark_write(mmio_sized_text, sizeof mmio_sized_text - 1);
        next += period;
        rb_get_stats(trace_buffer(), RB_ALL_CPUS, &st);
        if (st.entries > peak)
            peak = st.entries;
    }
    trace_stream_flush();
    rb_get_stats(trace_buffer(), RB_ALL_CPUS, &st);
    bench_report("sustained 10000 events/s for 0.25 s: written", st.read + st.overrun, "events");
    bench_report("sustained 10000 events/s for 0.25 s: lost", st.overrun + st.dropped, "events");
    bench_report("sustained 10000 events/s for 0.25 s: most events buffered", peak, "events");
}

BENCHMARK(stream_flood)
{
    if (!com2_present())
        return;
    quiet_core();
    trace_stream_enabled = true;
    /* The CPU does nothing but write markers, interrupts on: the stream gets only its share
     * of each tick (BACKGROUND_TICK_US), and the ticks must keep coming at TICK_HZ. */
    const uint64_t span = (uint64_t)arch_cycles_khz() * 500u; /* half a guest second */
    struct rb_stats before, after;
    rb_get_stats(trace_buffer(), RB_ALL_CPUS, &before);
    uint64_t bytes = com2_bytes_sent(), ticks = timer_ticks(), written = 0;
    uint64_t start = arch_cycles(), cycles;
    while ((cycles = arch_cycles() - start) < span) {
        tracing_mark_write(mmio_sized_text, sizeof mmio_sized_text - 1);
        written++;
    }
    ticks = timer_ticks() - ticks;
    bytes = com2_bytes_sent() - bytes;
    rb_get_stats(trace_buffer(), RB_ALL_CPUS, &after);
    bench_report("marker flood, stream on: timer ticks per guest second", per_second(ticks, cycles),
                 "ticks/s");
    bench_report("marker flood, stream on: markers written per guest second",
                 per_second(written, cycles), "events/s");
    bench_report("marker flood, stream on: lines streamed per guest second",
                 per_second(after.read - before.read, cycles), "lines/s");
    bench_report("marker flood, stream on: bytes streamed per guest second",
                 per_second(bytes, cycles), "bytes/s");
    trace_stream_flush();
}
