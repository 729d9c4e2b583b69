/*
 * ring_buffer_smp_bench.c - the ring buffer with every online CPU writing at once (issue 19,
 * `make bench`; tools/bench.sh runs it with 1, 2 and 4 CPUs, under -icount and without).
 *
 * Each CPU writes EVENTS_PER_CPU 8-byte events into its own ring of one buffer (overwrite
 * mode, so every reservation succeeds), all starting together: CPU 0 starts the others with
 * smp_run_on, waits until each is spinning on the start flag, reads the clock and raises it,
 * then writes its own share. The elapsed time runs from that clock read to the last CPU's
 * last commit; the rows are
 *   cycles per event   elapsed cycles / (CPUs * EVENTS_PER_CPU)
 *   events per second  CPUs * EVENTS_PER_CPU over the elapsed time
 * What they mean depends on the clock (tools/bench.sh says it in its table): under QEMU's
 * -icount one thread runs every CPU in turn and guest time advances with the instructions
 * of all of them, so the first row is the instructions one event costs one CPU (flat across
 * CPU counts when the writers do not slow each other down) and the second cannot grow with
 * CPUs; in real time (multi-threaded TCG) the second is the throughput this host gives.
 * Writers run with interrupts off, so no tick lands inside; every event must be in the
 * buffer (read or overwritten) at the end, or there are no rows and the run says why.
 */
#include "kernel/arch.h"
#include "kernel/bench.h"
#include "kernel/lib/format.h"
#include "kernel/log/printk.h"
#include "kernel/smp.h"
#include "trace/core/trace_internal.h"

#define EVENTS_PER_CPU 1000000u

static struct ring_buffer *bench_rb;
static volatile bool go;
static volatile unsigned waiting; /* writers spinning on go */
static uint64_t end_cycles[MAX_CPUS];

/* One CPU's share: EVENTS_PER_CPU events once go is raised; its clock at the end. */
static void writer(void *arg)
{
    (void)arg;
    unsigned long flags = arch_irq_save();
    unsigned cpu = arch_cpu_id();
    __atomic_add_fetch(&waiting, 1, __ATOMIC_ACQ_REL);
    while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
        arch_cpu_relax();
    for (uint32_t i = 0; i < EVENTS_PER_CPU; i++) {
        uint32_t *p = rb_reserve(bench_rb, 8);
        if (p) {
            p[0] = cpu;
            p[1] = i;
            rb_commit(bench_rb);
        }
    }
    end_cycles[cpu] = arch_cycles();
    arch_irq_restore(flags);
}

/* "ring buffer, all CPUs writing, N CPUs: what" into buf. */
static const char *row(char *buf, size_t size, unsigned ncpus, const char *what)
{
    ksnprintf(buf, size, "ring buffer, all CPUs writing, %u CPU%s: %s", ncpus,
             ncpus == 1 ? "" : "s", what);
    return buf;
}

BENCHMARK(ring_buffer_smp)
{
    static char rows[2][96];
    unsigned ncpus = arch_cpu_count(), self = arch_cpu_id(), started = 0;
    bench_rb = rb_create(&trace_rb_env, ncpus, 16);
    if (!bench_rb) {
        printk("bench: no memory for the ring_buffer_smp benchmark\n");
        return;
    }
    go = false;
    waiting = 0;
    for (unsigned cpu = 0; cpu < ncpus; cpu++)
        if (cpu != self && smp_run_on(cpu, writer, 0))
            started++;
    while (__atomic_load_n(&waiting, __ATOMIC_ACQUIRE) < started)
        arch_cpu_relax();
    uint64_t start = arch_cycles();
    __atomic_store_n(&go, true, __ATOMIC_RELEASE);
    writer(0);
    uint64_t end = end_cycles[self];
    for (unsigned cpu = 0; cpu < ncpus; cpu++) {
        smp_wait(cpu);
        if (end_cycles[cpu] > end)
            end = end_cycles[cpu];
    }
    struct rb_stats st;
    rb_get_stats(bench_rb, RB_ALL_CPUS, &st);
    rb_destroy(bench_rb);
    uint64_t events = (uint64_t)ncpus * EVENTS_PER_CPU, cycles = end - start;
    if (started + 1 != ncpus) {
        printk("bench: ring_buffer_smp: only %u of %u CPUs took the work\n", started + 1, ncpus);
        return;
    }
    if (st.entries + st.overrun != events || st.dropped) {
        printk("bench: ring_buffer_smp: %llu events written, %llu in the buffer or overwritten, "
               "%llu dropped\n", (unsigned long long)events,
               (unsigned long long)(st.entries + st.overrun), (unsigned long long)st.dropped);
        return;
    }
    bench_report(row(rows[0], sizeof rows[0], ncpus, "cycles per event"), cycles / events,
                 "cycles (elapsed / all CPUs' events)");
    bench_report(row(rows[1], sizeof rows[1], ncpus, "events per second"),
                 cycles ? events * arch_cycles_khz() * 1000u / cycles : 0, "events/s");
}
