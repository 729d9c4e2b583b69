/*
 * st_smp.c - the cross-CPU contract (kernel/smp.h) on however many CPUs the boot has:
 * tests/run_all.sh runs them with 1, 2 and 4. With one CPU each test checks the one-CPU
 * behaviour (nobody else to call, run_on(0) runs at once).
 */
#include "arch/x86/acpi_madt.h"
#include "arch/x86/gdt.h"
#include "arch/x86/lapic.h"
#include "arch/x86/trap.h"
#include "drivers/serial/com2_stream.h"
#include "kernel/arch.h"
#include "kernel/kernel_lock.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/log/printk.h"
#include "kernel/panic.h"
#include "kernel/proc/task.h"
#include "kernel/selftest.h"
#include "kernel/smp.h"
#include "kernel/time.h"
#include "kernel/spinlock.h"
#include "trace/core/trace_internal.h"

/* What a CPU saw when it ran a piece of work. */
struct seen {
    unsigned cpu;
    int pid;
    char name[16];
    bool irqs_on, in_hardirq;
};

static void record_seen(void *arg)
{
    struct seen *s = arg;
    s->cpu = arch_cpu_id();
    s->pid = task_pid(task_current());
    strlcpy(s->name, task_name(task_current()), sizeof s->name);
    s->irqs_on = arch_irqs_enabled();
    s->in_hardirq = arch_in_hardirq();
}

/* Every online CPU runs handed work in its own context: its number, its idle task (pid 0,
 * swapper/N as on Linux) on the others, interrupts on, not in an interrupt. */
SELFTEST(smp_run_on_every_cpu)
{
    unsigned n = arch_cpu_count();
    printk("smp_run_on_every_cpu: %u CPUs online\n", n);
    ST_CHECK(n >= 1 && n <= MAX_CPUS);
    for (unsigned cpu = 0; cpu < n; cpu++) {
        struct seen s = { .cpu = 99 };
        ST_CHECK(smp_run_on(cpu, record_seen, &s));
        smp_wait(cpu);
        ST_CHECK(s.cpu == cpu);
        ST_CHECK(s.irqs_on && !s.in_hardirq);
        if (cpu != 0) {
            char want[16];
            ksnprintf(want, sizeof want, "swapper/%u", cpu);
            ST_CHECK(s.pid == 0 && strcmp(s.name, want) == 0);
        }
        printk("smp_run_on_every_cpu: CPU %u ran it as pid %d (%s)\n", s.cpu, s.pid, s.name);
    }
    ST_CHECK(!smp_run_on(n, record_seen, 0)); /* not online */
}

static volatile int release_spinner;

static void spin_until_released(void *unused)
{
    (void)unused;
    while (!__atomic_load_n(&release_spinner, __ATOMIC_ACQUIRE))
        arch_cpu_relax();
}

/* A CPU already running work refuses more until it returns; smp_wait waits for it. */
SELFTEST(smp_run_on_busy_cpu)
{
    if (arch_cpu_count() < 2)
        return;
    release_spinner = 0;
    ST_CHECK(smp_run_on(1, spin_until_released, 0));
    ST_CHECK(!smp_run_on(1, spin_until_released, 0));
    __atomic_store_n(&release_spinner, 1, __ATOMIC_RELEASE);
    smp_wait(1);
    struct seen s = { .cpu = 99 };
    ST_CHECK(smp_run_on(1, record_seen, &s));
    smp_wait(1);
    ST_CHECK(s.cpu == 1);
}

static unsigned call_counts[MAX_CPUS];
static unsigned calls_with_irqs_on, calls_outside_hardirq;

static void count_call(void *arg)
{
    __atomic_add_fetch(&call_counts[arch_cpu_id()], 1, __ATOMIC_RELAXED);
    if (arch_irqs_enabled())
        __atomic_add_fetch(&calls_with_irqs_on, 1, __ATOMIC_RELAXED);
    if (!arch_in_hardirq())
        __atomic_add_fetch(&calls_outside_hardirq, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch((unsigned *)arg, 1, __ATOMIC_RELAXED);
}

/* Checks that the last call reached every CPU but caller exactly once. */
static void check_each_other_once(unsigned caller, unsigned total)
{
    unsigned n = arch_cpu_count();
    ST_CHECK(total == n - 1);
    for (unsigned cpu = 0; cpu < n; cpu++)
        ST_CHECK(call_counts[cpu] == (cpu == caller ? 0u : 1u));
    ST_CHECK(calls_with_irqs_on == 0 && calls_outside_hardirq == 0);
}

static void call_from_here(void *total)
{
    smp_call_others(count_call, total);
}

/* smp_call_others runs fn once on each other CPU, in interrupt context, and returns after
 * all did: from CPU 0, from the last CPU, and while another CPU busy-runs handed work. */
SELFTEST(smp_call_others_each_once)
{
    unsigned n = arch_cpu_count();
    unsigned total = 0;
    memset(call_counts, 0, sizeof call_counts);
    calls_with_irqs_on = calls_outside_hardirq = 0;
    smp_call_others(count_call, &total);
    check_each_other_once(0, total);

    if (n < 2)
        return;
    memset(call_counts, 0, sizeof call_counts);
    total = 0;
    ST_CHECK(smp_run_on(n - 1, call_from_here, &total));
    smp_wait(n - 1);
    check_each_other_once(n - 1, total);

    /* CPU 1 busy in handed work (interrupts on) still answers. */
    release_spinner = 0;
    ST_CHECK(smp_run_on(1, spin_until_released, 0));
    for (int round = 0; round < 100; round++) {
        memset(call_counts, 0, sizeof call_counts);
        total = 0;
        smp_call_others(count_call, &total);
        check_each_other_once(0, total);
    }
    __atomic_store_n(&release_spinner, 1, __ATOMIC_RELEASE);
    smp_wait(1);
}

/* Two CPUs calling everyone at the same moment, over and over: each serves the other's
 * call while it waits for its own, so neither hangs. A call served so runs with
 * interrupts off and counted in hardirq, as one served by the IPI (kernel/smp.c). */
static unsigned crossed_total;
static void call_many(void *rounds)
{
    for (unsigned i = 0; i < *(unsigned *)rounds; i++)
        smp_call_others(count_call, &crossed_total);
}

SELFTEST(smp_call_others_crossing)
{
    unsigned n = arch_cpu_count();
    unsigned rounds = 200;
    crossed_total = 0;
    calls_with_irqs_on = calls_outside_hardirq = 0;
    memset(call_counts, 0, sizeof call_counts);
    calls_with_irqs_on = 0;
    for (unsigned cpu = 1; cpu < n; cpu++)
        ST_CHECK(smp_run_on(cpu, call_many, &rounds));
    call_many(&rounds);
    for (unsigned cpu = 1; cpu < n; cpu++)
        smp_wait(cpu);
    ST_CHECK(crossed_total == n * rounds * (n - 1));
    ST_CHECK(calls_with_irqs_on == 0 && calls_outside_hardirq == 0);
    printk("smp_call_others_crossing: %u CPUs x %u calls, %u functions run\n", n, rounds,
           crossed_total);
}

/* smp_sync_cores returns (every other CPU took the IPI and its iret), many times over. */
SELFTEST(smp_sync_cores_returns)
{
    uint64_t t0 = arch_cycles();
    for (int i = 0; i < 1000; i++)
        smp_sync_cores();
    uint64_t per = (arch_cycles() - t0) / 1000;
    printk("smp_sync_cores_returns: %u CPUs, %u cycles per sync\n", arch_cpu_count(),
           (unsigned)per);
    ST_CHECK(true);
}

static void take_stamp(void *out) { *(uint64_t *)out = arch_cycles(); }

/* Timestamps taken one after another on different CPUs never go back: a later event on
 * another CPU never carries an earlier time (the boot's TSC check, as a test). */
SELFTEST(smp_timestamps_order)
{
    unsigned n = arch_cpu_count();
    uint64_t last = arch_cycles();
    unsigned backwards = 0, handoffs = 0;
    for (int round = 0; round < 200; round++)
        for (unsigned cpu = 0; cpu < n; cpu++) {
            uint64_t t = 0;
            ST_CHECK(smp_run_on(cpu, take_stamp, &t));
            smp_wait(cpu);
            backwards += t < last;
            handoffs++;
            last = t;
        }
    printk("smp_timestamps_order: %u handoffs over %u CPUs, %u went back\n", handoffs, n,
           backwards);
    ST_CHECK(backwards == 0);
}

/* --- stopping: run only when named (they leave the other CPUs halted) ------------------ */

static volatile uint32_t spin_counts[MAX_CPUS];

/* Spins with interrupts off: only an NMI can reach this CPU now. */
static void spin_irqs_off(void *unused)
{
    (void)unused;
    arch_irq_save();
    for (;;)
        __atomic_add_fetch(&spin_counts[arch_cpu_id()], 1, __ATOMIC_RELAXED);
}

static void start_spinners(void)
{
    for (unsigned cpu = 1; cpu < arch_cpu_count(); cpu++) {
        ST_CHECK(smp_run_on(cpu, spin_irqs_off, 0));
        while (!__atomic_load_n(&spin_counts[cpu], __ATOMIC_RELAXED))
            arch_cpu_relax();
    }
}

/* smp_stop_others stops CPUs that spin with interrupts off: their counters stand still. */
NAMEDTEST(smp_stop_others)
{
    unsigned n = arch_cpu_count();
    start_spinners();
    smp_stop_others();
    ST_CHECK(smp_stop_requested() || n == 1);
    uint32_t before[MAX_CPUS];
    for (unsigned cpu = 0; cpu < n; cpu++)
        before[cpu] = spin_counts[cpu];
    uint64_t t0 = arch_cycles();
    while (arch_cycles() - t0 < (uint64_t)arch_cycles_khz() * 20)
        arch_cpu_relax();
    unsigned stopped = 0;
    for (unsigned cpu = 1; cpu < n; cpu++) {
        ST_CHECK(spin_counts[cpu] == before[cpu]);
        stopped += spin_counts[cpu] == before[cpu];
    }
    printk("smp_stop_others: %u of %u other CPUs stopped\n", stopped, n - 1);
    /* With the others stopped the calls have nobody to wait for, and must not hang. */
    smp_sync_cores();
    /* An NMI on the stopping CPU itself (CPU 0's LINT1 takes external ones) is ignored:
     * it must not halt the CPU that writes the report. */
    if (n > 1) {
        uint64_t nmis = irq_stat_on(0, IRQ_STAT_NMI);
        arch_send_stop_nmi(0);
        t0 = arch_cycles();
        while (irq_stat_on(0, IRQ_STAT_NMI) == nmis &&
               arch_cycles() - t0 < (uint64_t)arch_cycles_khz() * 100)
            arch_cpu_relax();
        ST_CHECK(irq_stat_on(0, IRQ_STAT_NMI) == nmis + 1);
        printk("smp_stop_others: CPU 0 took %u NMI after the stop and goes on\n",
               (unsigned)(irq_stat_on(0, IRQ_STAT_NMI) - nmis));
    }
}

static void panic_here(void *unused)
{
    (void)unused;
    panic("smp_panic_on_other_cpu: on purpose");
}

/* A panic on the last CPU while the others spin (CPU 0 in smp_wait, the rest with
 * interrupts off): the report names that CPU, the others stop by NMI. */
CRASHTEST(smp_panic_on_other_cpu)
{
    unsigned n = arch_cpu_count();
    for (unsigned cpu = 1; cpu + 1 < n; cpu++) {
        ST_CHECK(smp_run_on(cpu, spin_irqs_off, 0));
        while (!__atomic_load_n(&spin_counts[cpu], __ATOMIC_RELAXED))
            arch_cpu_relax();
    }
    printk("smp_panic_on_other_cpu: CPU %u panics\n", n - 1);
    smp_run_on(n - 1, panic_here, 0);
    smp_wait(n - 1);
}

static void panic_with_com2_held(void *unused)
{
    (void)unused;
    panic("smp_panic_com2_held: on purpose");
}

/* A panic on the last CPU while CPU 0 holds COM2's lock (as when its tick streams
 * trace_pipe) and spins with interrupts off: the NMI stops CPU 0 with the lock held, and
 * the flight recorder must still send its 300 unread markers to COM2 (run_all.sh counts
 * them): the dump writes without the lock, and lock debugging (on in this kernel) does
 * not turn the take-over into a second panic. */
CRASHTEST(smp_panic_com2_held)
{
    unsigned n = arch_cpu_count();
    ST_CHECK(n >= 2 && com2_present());
    if (n < 2 || !com2_present())
        return;
    trace_stream_enabled = false;
    rb_reset(trace_buffer());
    for (int i = 0; i < 300; i++) {
        char text[16];
        int len = ksnprintf(text, sizeof text, "held %d", i);
        tracing_mark_write(text, (uint32_t)len);
    }
    printk("smp_panic_com2_held: CPU 0 holds com2, CPU %u panics\n", n - 1);
    spin_lock_irqsave(&com2_lock);
    ST_CHECK(smp_run_on(n - 1, panic_with_com2_held, 0));
    for (;;)
        arch_cpu_relax(); /* until the NMI stops this CPU, the lock held */
}

/* --- int3 snapshots on every CPU (arch/x86/snapshot.c: a debug TSS and a page each) ---- */

struct int3_seen {
    unsigned cpu;
    uint32_t count_before, count_after;
    uint32_t eip, eax;
    uint16_t link;
    bool recorded;
};

static void __attribute__((noinline)) int3_here(void *arg)
{
    struct int3_seen *s = arg;
    s->cpu = arch_cpu_id();
    snapshot_ring_get(0, &s->count_before);
    __asm__ volatile("int3" : : "a"(0x5a5a0000u + s->cpu) : "memory");
    const struct snapshot_record *rec = snapshot_ring_get(0, &s->count_after);
    s->recorded = rec != 0;
    if (rec) {
        s->eip = rec->regs.eip;
        s->eax = rec->regs.eax;
        s->link = rec->regs.back_link;
    }
}

/* An int3 on each CPU enters that CPU's own debug task (through the shared IDT's task
 * gate, resolved in that CPU's GDT), which records the interrupted registers into that
 * CPU's ring and returns: the count of that CPU alone grows by one. */
SELFTEST(smp_int3_snapshot_every_cpu)
{
    unsigned n = arch_cpu_count();
    uint32_t cpu0_before;
    snapshot_ring_get(0, &cpu0_before);
    for (unsigned cpu = n; cpu-- > 0;) {
        struct int3_seen s = { .cpu = 99 };
        ST_CHECK(smp_run_on(cpu, int3_here, &s));
        smp_wait(cpu);
        ST_CHECK(s.cpu == cpu && s.recorded);
        ST_CHECK(s.count_after == s.count_before + 1);
        ST_CHECK(s.eax == 0x5a5a0000u + cpu);
        ST_CHECK(s.link == SEL_TSS_MAIN);
        ST_CHECK(s.eip > (uintptr_t)int3_here && s.eip < (uintptr_t)int3_here + 256);
        if (cpu == 0) /* the other CPUs' snapshots went to their own rings */
            ST_CHECK(s.count_before == cpu0_before);
        printk("smp_int3_snapshot_every_cpu: CPU %u snapshot #%u, eax %#x\n", s.cpu,
               s.count_after, s.eax);
    }
}

/* --- the MADT parser on malformed tables (arch/x86/acpi_madt.c) ------------------------ */

/* Appends one MADT entry of len bytes: type, len, then body (len - 2 bytes of it). */
static unsigned put_entry(uint8_t *t, unsigned at, uint8_t type, uint8_t len,
                          const uint8_t *body)
{
    t[at] = type;
    t[at + 1] = len;
    memcpy(t + at + 2, body, len - 2u);
    return at + len;
}

/* Every entry type the parser reads, once too short and once whole: the short ones are
 * skipped (read at fixed offsets they would take bytes of the next entry), the whole ones
 * kept; a table shorter than its 44-byte header is refused and leaves the result alone. */
SELFTEST(smp_madt_short_entries)
{
    static uint8_t t[160];
    static struct madt_info m;
    memset(t, 0, sizeof t);
    memset(&m, 0, sizeof m);
    memcpy(t, "APIC", 4);
    const uint32_t lapic = 0xfee00000u, flags = 1;
    memcpy(t + 36, &lapic, 4);
    memcpy(t + 40, &flags, 4);
    /* Bodies: fields as the ACPI spec lays them out after type and length. */
    const uint8_t cpu[] = { 0x01, 0x05, 1, 0, 0, 0 };                   /* acpi 1, apic 5 */
    const uint8_t ioapic[] = { 0x09, 0, 0x00, 0x00, 0xc0, 0xfe, 0x18, 0, 0, 0 };
    const uint8_t ovr[] = { 0, 9, 9, 0, 0, 0, 0x0d, 0 };                /* irq 9 -> 9 */
    const uint8_t nmi[] = { 0xff, 0, 0, 1 };
    const uint8_t addr[] = { 0, 0, 0x00, 0x10, 0xe0, 0xfe, 0, 0, 0, 0 }; /* 0xfee01000 */
    unsigned at = 44;
    at = put_entry(t, at, 0, 6, cpu);    /* short: 8 needed */
    at = put_entry(t, at, 0, 8, cpu);
    at = put_entry(t, at, 1, 10, ioapic); /* short: 12 */
    at = put_entry(t, at, 1, 12, ioapic);
    at = put_entry(t, at, 2, 8, ovr);    /* short: 10 */
    at = put_entry(t, at, 2, 10, ovr);
    at = put_entry(t, at, 4, 5, nmi);    /* short: 6 */
    at = put_entry(t, at, 4, 6, nmi);
    at = put_entry(t, at, 5, 10, addr);  /* short: 12 */
    uint32_t length = at;
    memcpy(t + 4, &length, 4);
    ST_CHECK(acpi_madt_parse(t, &m));
    ST_CHECK(m.cpu_count == 1 && m.cpus[0].acpi_id == 1 && m.cpus[0].apic_id == 5 &&
             m.cpus[0].enabled);
    ST_CHECK(m.ioapic_count == 1 && m.ioapics[0].id == 9 &&
             m.ioapics[0].address == 0xfec00000u && m.ioapics[0].gsi_base == 0x18);
    ST_CHECK(m.override_count == 1 && m.overrides[0].isa_irq == 9 &&
             m.overrides[0].gsi == 9 && m.overrides[0].flags == 0x0d);
    ST_CHECK(m.lapic_address == lapic); /* the short address override was not applied */
    at = put_entry(t, at, 5, 12, addr);
    length = at;
    memcpy(t + 4, &length, 4);
    memset(&m, 0, sizeof m);
    ST_CHECK(acpi_madt_parse(t, &m) && m.lapic_address == 0xfee01000u);

    length = 43;
    memcpy(t + 4, &length, 4);
    memset(&m, 0, sizeof m);
    ST_CHECK(!acpi_madt_parse(t, &m) && m.lapic_address == 0 && m.cpu_count == 0);
    printk("smp_madt_short_entries: 5 short entries skipped, 5 whole ones kept\n");
}

#define LOCK_ROUNDS 20000
static volatile uint32_t lock_counter;

/* LOCK_ROUNDS times: the big kernel lock taken twice (an interrupt's recursion), the
 * counter bumped by a read, a pause (every 2000th time 200 us long) and a write (which
 * loses updates unless one CPU at a time does it), and the lock given back level by
 * level. Counts its own depth errors. */
static void bump_under_kernel_lock(void *errors)
{
    for (unsigned i = 0; i < LOCK_ROUNDS; i++) {
        unsigned long flags = arch_irq_save();
        kernel_lock();
        kernel_lock();
        if (kernel_lock_depth() != 2)
            __atomic_add_fetch((volatile unsigned *)errors, 1, __ATOMIC_RELAXED);
        uint32_t v = lock_counter;
        arch_cpu_relax();
        if (i % 2000 == 0) { /* now and then a long hold, which waiters sleep through */
            uint64_t until = time_ns() + 200000;
            while (time_ns() < until)
                arch_cpu_relax();
        }
        lock_counter = v + 1;
        kernel_unlock();
        if (kernel_lock_depth() != 1)
            __atomic_add_fetch((volatile unsigned *)errors, 1, __ATOMIC_RELAXED);
        kernel_unlock();
        arch_irq_restore(flags);
    }
}

/* The big kernel lock (kernel/kernel_lock.h) excludes: every CPU bumps one counter under
 * it at once and no update is lost; it is recursive per CPU; and with several CPUs some
 * of them found it held, and some slept through a long hold and were woken (the
 * counters count). The test's own thread holds the lock, as every kernel thread does,
 * and lets go of it while the others work. */
SELFTEST(smp_kernel_lock_excludes)
{
    unsigned n = arch_cpu_count(), errors = 0;
    struct kernel_lock_stats before[MAX_CPUS], after;
    for (unsigned cpu = 0; cpu < n; cpu++)
        kernel_lock_stats(cpu, &before[cpu]);
    lock_counter = 0;
    unsigned long flags = arch_irq_save();
    ST_CHECK(kernel_lock_depth() == 1);
    kernel_unlock();
    for (unsigned cpu = 1; cpu < n; cpu++)
        ST_CHECK(smp_run_on(cpu, bump_under_kernel_lock, &errors));
    bump_under_kernel_lock(&errors);
    for (unsigned cpu = 1; cpu < n; cpu++)
        smp_wait(cpu);
    kernel_lock();
    arch_irq_restore(flags);
    uint64_t contended = 0, sleeps = 0;
    for (unsigned cpu = 0; cpu < n; cpu++) {
        kernel_lock_stats(cpu, &after);
        contended += after.contended - before[cpu].contended;
        sleeps += after.sleeps - before[cpu].sleeps;
    }
    printk("smp_kernel_lock_excludes: %u CPUs, counter %u of %u, %llu waits for the lock, "
           "%llu of them slept\n", n, lock_counter, n * LOCK_ROUNDS, (unsigned long long)contended,
           (unsigned long long)sleeps);
    ST_CHECK(errors == 0);
    ST_CHECK(lock_counter == n * LOCK_ROUNDS);
    if (n > 1)
        ST_CHECK(contended > 0 && sleeps > 0);
}

#define HOLD_MS 50
#define UNUSED_IRQ 3 /* COM2's line: tracekern polls COM2, the line has no handler */
static volatile unsigned late_irq_runs;
static volatile uint64_t late_irq_ran_at;

static void count_late_irq(void)
{
    late_irq_runs++;
    late_irq_ran_at = time_ns();
}

struct lock_holder {
    uint8_t victim_apic; /* the CPU that takes the interrupts */
    volatile int holding;
    volatile uint64_t released_at;
};

/* Holds the kernel lock for HOLD_MS with interrupts off and, halfway, raises the test's
 * line on the victim once more (a second edge while its handler waits for the lock). */
static void hold_kernel_lock(void *arg)
{
    struct lock_holder *h = arg;
    unsigned long flags = arch_irq_save();
    kernel_lock();
    __atomic_store_n(&h->holding, 1, __ATOMIC_RELEASE);
    uint64_t start = time_ns();
    bool raised_again = false;
    while (time_ns() - start < HOLD_MS * 1000000ull) {
        if (!raised_again && time_ns() - start > HOLD_MS * 500000ull)
            raised_again = lapic_send_ipi(h->victim_apic, VEC_IRQ_BASE + UNUSED_IRQ);
        arch_cpu_relax();
    }
    h->released_at = time_ns();
    kernel_unlock();
    arch_irq_restore(flags);
}

/* An interrupt whose driver needs the kernel lock, while another CPU holds it for HOLD_MS:
 * it was acknowledged before the wait (arch/x86/trap.c), so its CPU goes on taking the
 * timer's ticks meanwhile (waiting with its vector in service held back the PIT, whose
 * vector is in the same APIC priority class), and a second edge of the line arrives during
 * the wait, served by the one run of the handler that follows it. The line is raised by an IPI carrying its vector, which the local
 * APIC puts in service exactly as a message from the I/O APIC. Run by name under -icount
 * (tests/run_all.sh): without it a loaded host stalls virtual CPUs and merges ticks. */
NAMEDTEST(smp_irq_waits_for_kernel_lock_acknowledged)
{
    if (arch_cpu_count() < 2)
        return;
    unsigned me = arch_cpu_id();
    late_irq_runs = 0;
    irq_set_handler(UNUSED_IRQ, count_late_irq);
    struct lock_holder h = { .victim_apic = lapic_id() };
    unsigned long flags = arch_irq_save();
    kernel_unlock(); /* this thread's own level: the holder is the other CPU */
    ST_CHECK(smp_run_on(me == 1 ? 0 : 1, hold_kernel_lock, &h));
    while (!__atomic_load_n(&h.holding, __ATOMIC_ACQUIRE))
        arch_cpu_relax();
    uint64_t ticks = irq_count_on(me, 0), edges = irq_count_on(me, UNUSED_IRQ);
    uint64_t start = time_ns();
    ST_CHECK(lapic_send_ipi(lapic_id(), VEC_IRQ_BASE + UNUSED_IRQ));
    arch_irq_enable(); /* the interrupt comes here, and returns when the holder let go */
    arch_irq_save();
    uint64_t waited_ms = (time_ns() - start) / 1000000;
    ticks = irq_count_on(me, 0) - ticks;
    edges = irq_count_on(me, UNUSED_IRQ) - edges;
    smp_wait(me == 1 ? 0 : 1);
    kernel_lock();
    arch_irq_restore(flags);
    irq_set_handler(UNUSED_IRQ, NULL);
    printk("smp_irq_waits_for_kernel_lock_acknowledged: %llu interrupts, the handler ran %u "
           "time(s) after a %llu ms wait, %llu timer ticks meanwhile\n",
           (unsigned long long)edges, late_irq_runs, (unsigned long long)waited_ms,
           (unsigned long long)ticks);
    ST_CHECK(edges == 2 && late_irq_runs == 1);
    ST_CHECK(late_irq_ran_at >= h.released_at); /* it waited for the lock */
    ST_CHECK(ticks + 1 >= waited_ms / 10);
}
