/*
 * st_tlb.c - TLB shootdown (arch/x86/tlb_shootdown.h): after CPU 0 takes a user mapping
 * away, downgrades it or moves it, no other CPU that had the address space loaded, and
 * had the old translation in its TLB, can still use it.
 *
 * Each case makes an address space, and every other CPU (smp_run_on) loads it, touches
 * the page (its TLB now holds the translation) and waits; CPU 0 changes the mapping; each
 * CPU touches the page again and must fault or see the new frame, never the old one, and
 * must have received exactly one shootdown (the TLB row of /proc/interrupts). Under QEMU a
 * CPU's TLB really does keep a translation until the CPU flushes it: without the shootdown
 * these cases fail. With one CPU there is nobody to shoot at: CPU 0 itself loads the
 * space, with interrupts off, and the local flush is what is checked.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/trap.h"
#include "kernel/arch.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/log/printk.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/vm.h"
#include "kernel/selftest.h"
#include "kernel/smp.h"
#include "tests/guest/guest_helpers.h"
#include "trace/core/trace_internal.h"

#define VA (USER_BASE + 0x100000u)
#define OLD_VALUE 0x01d01d01u
#define NEW_VALUE 0x0e90e90eu
#define RANGE_PAGES_FEW 4
#define RANGE_PAGES_MANY 40 /* above TLB_FLUSH_ALL_ABOVE: one whole flush */

/* What a CPU saw when it touched a page. */
struct touch {
    bool faulted;
    struct caught_fault fault;
    uint32_t value;
};

/* One case: what CPU 0 maps, how the others touch the pages, what CPU 0 changes. */
struct tlb_case {
    const char *name;
    uint32_t pages;  /* pages from VA the CPUs touch (and the change covers) */
    bool write;      /* the touch writes (so the TLB caches a writable entry) */
    void (*change)(struct addr_space **as);
};

/* What one CPU does and saw in a case. */
struct cpu_run {
    const struct tlb_case *c;
    struct addr_space *as;
    volatile int *stage;  /* 1: CPU 0 changed the mapping; 2: it may go on */
    volatile int ready;   /* this CPU touched the pages once */
    struct touch before[RANGE_PAGES_MANY], after[RANGE_PAGES_MANY];
    uint64_t shootdowns;  /* received between its two touches */
    uint32_t cr3_after;
};

struct access {
    uint32_t va;
    bool write;
    uint32_t value;
};

static void do_access(void *arg)
{
    struct access *a = arg;
    volatile uint32_t *p = (volatile uint32_t *)a->va;
    if (a->write)
        *p = OLD_VALUE;
    a->value = *p;
}

/* Touches the case's pages on this CPU, each through the fault catcher. */
static void touch_pages(const struct tlb_case *c, struct touch *out)
{
    for (uint32_t i = 0; i < c->pages; i++) {
        struct access a = { VA + i * PAGE_SIZE, c->write, 0 };
        out[i].faulted = arch_call_catching_faults(do_access, &a, &out[i].fault);
        out[i].value = a.value;
    }
}

/* A CPU's part: load the space, touch, wait for CPU 0's change, touch again, leave. */
static void cpu_script(void *arg)
{
    struct cpu_run *r = arg;
    unsigned me = arch_cpu_id();
    vm_activate(r->as);
    touch_pages(r->c, r->before);
    uint64_t shot = irq_stat_on(me, IRQ_STAT_TLB);
    __atomic_store_n(&r->ready, 1, __ATOMIC_RELEASE);
    while (__atomic_load_n(r->stage, __ATOMIC_ACQUIRE) < 1)
        arch_cpu_relax();
    touch_pages(r->c, r->after);
    r->shootdowns = irq_stat_on(me, IRQ_STAT_TLB) - shot;
    r->cr3_after = read_cr3();
    vm_activate(0); /* after a teardown it is on the kernel's directory already */
}

/* A space with the case's pages mapped writable, each holding OLD_VALUE. */
static struct addr_space *make_space(const struct tlb_case *c)
{
    struct addr_space *as = vm_create();
    ST_CHECK(as != 0);
    for (uint32_t i = 0; as && i < c->pages; i++) {
        uint32_t va = VA + i * PAGE_SIZE;
        ST_CHECK(vm_map_new(as, va, VM_READ | VM_WRITE) == 0);
        uint32_t *p = vm_kmap(as, va);
        ST_CHECK(p != 0);
        if (p)
            *p = OLD_VALUE;
        vm_kunmap(p);
    }
    return as;
}

/* Runs case c on every CPU but 0 at once (or on CPU 0 alone with one CPU) and returns
 * how many CPUs touched the pages; runs[] holds what each saw. */
static unsigned run_case(const struct tlb_case *c, struct cpu_run *runs)
{
    unsigned n = arch_cpu_count();
    struct addr_space *as = make_space(c);
    if (!as)
        return 0;
    volatile int stage = 0;
    if (n == 1) {
        runs[0] = (struct cpu_run){ .c = c, .as = as, .stage = &stage };
        /* No task switch while the space is loaded; the self-tests' task has no space of
         * its own, so vm_activate(0) puts back what it had. */
        unsigned long flags = arch_irq_save();
        vm_activate(as);
        touch_pages(c, runs[0].before);
        uint64_t shot = irq_stat_on(0, IRQ_STAT_TLB);
        c->change(&as);
        touch_pages(c, runs[0].after);
        runs[0].shootdowns = irq_stat_on(0, IRQ_STAT_TLB) - shot;
        runs[0].cr3_after = read_cr3();
        vm_activate(0);
        arch_irq_restore(flags);
    } else {
        for (unsigned cpu = 1; cpu < n; cpu++) {
            runs[cpu - 1] = (struct cpu_run){ .c = c, .as = as, .stage = &stage };
            ST_CHECK(smp_run_on(cpu, cpu_script, &runs[cpu - 1]));
        }
        for (unsigned cpu = 1; cpu < n; cpu++)
            while (!__atomic_load_n(&runs[cpu - 1].ready, __ATOMIC_ACQUIRE))
                arch_cpu_relax();
        c->change(&as);
        __atomic_store_n(&stage, 1, __ATOMIC_RELEASE);
        for (unsigned cpu = 1; cpu < n; cpu++)
            smp_wait(cpu);
    }
    if (as)
        vm_destroy(as);
    return n == 1 ? 1 : n - 1;
}

/* Every CPU touched the old pages without a fault before the change, and got exactly one
 * shootdown for it (none with one CPU: nobody to shoot at, the flush is local). */
static void check_before(const struct cpu_run *r, unsigned cpus)
{
    for (unsigned i = 0; i < cpus; i++) {
        for (uint32_t p = 0; p < r[i].c->pages; p++)
            ST_CHECK(!r[i].before[p].faulted && r[i].before[p].value == OLD_VALUE);
        ST_CHECK(r[i].shootdowns == (arch_cpu_count() > 1 ? 1u : 0u));
    }
}

/* Each page at VA.. must now fault on the access the case makes, with CR2 on it. */
static void check_faults(const struct cpu_run *r, unsigned cpus, uint32_t want_error)
{
    for (unsigned i = 0; i < cpus; i++)
        for (uint32_t p = 0; p < r[i].c->pages; p++) {
            const struct touch *t = &r[i].after[p];
            ST_CHECK(t->faulted && t->fault.vector == VEC_PAGE_FAULT &&
                     t->fault.cr2 == VA + p * PAGE_SIZE && t->fault.error_code == want_error);
        }
}

static struct cpu_run runs[MAX_CPUS];

static void unmap_one(struct addr_space **as) { vm_unmap(*as, VA); }

/* Page fault error codes (ring 0): bit 0 present, bit 1 write. */
#define PF_NOT_PRESENT_READ 0u
#define PF_PROTECTION_WRITE 3u

/* Unmapped on CPU 0: every CPU that had the page cached now faults on it. */
SELFTEST(tlb_shootdown_unmap)
{
    static const struct tlb_case c = { "unmap", 1, false, unmap_one };
    unsigned cpus = run_case(&c, runs);
    check_before(runs, cpus);
    check_faults(runs, cpus, PF_NOT_PRESENT_READ);
    unsigned faulted = 0;
    for (unsigned i = 0; i < cpus; i++)
        faulted += runs[i].after[0].faulted;
    printk("tlb_shootdown_unmap: %u of %u CPU(s) fault on the page after the unmap\n", faulted,
           cpus);
    /* /proc/interrupts shows each CPU's count in the TLB row, as Linux lays it out. */
    char want[128];
    size_t len = ksnprintf(want, sizeof want, "TLB: ");
    for (unsigned cpu = 0; cpu < arch_cpu_count(); cpu++)
        len += ksnprintf(want + len, sizeof want - len, "%10llu ",
                         (unsigned long long)irq_stat_on(cpu, IRQ_STAT_TLB));
    ksnprintf(want + len, sizeof want - len, "  TLB shootdowns\n");
    const char *text = guest_read_file("/proc/interrupts");
    const char *row = strstr(text, "\nTLB: ");
    ST_CHECK(row && strncmp(row + 1, want, strlen(want)) == 0);
    const char *cal = strstr(text, "\nCAL: ");
    if (cal && row)
        printk("tlb_shootdown_unmap: /proc/interrupts:\n%.*s", (int)(row - cal) + (int)strlen(want), cal + 1);
}

static void make_read_only(struct addr_space **as)
{
    ST_CHECK(vm_protect_range(*as, VA, RANGE_PAGES_FEW, VM_READ) == 0);
}

/* Made read-only on CPU 0 (mprotect of 4 pages, one shootdown): a CPU that cached the
 * writable entries may not write. */
SELFTEST(tlb_shootdown_mprotect)
{
    static const struct tlb_case c = { "mprotect", RANGE_PAGES_FEW, true, make_read_only };
    unsigned cpus = run_case(&c, runs);
    check_before(runs, cpus);
    check_faults(runs, cpus, PF_PROTECTION_WRITE);
}

/* The page moves away (mremap) and a new frame with other contents takes its address. */
static void move_and_replace(struct addr_space **as)
{
    ST_CHECK(vm_move_pages(*as, VA, VA + 0x400000u, 1) == 0);
    ST_CHECK(vm_map_new(*as, VA, VM_READ | VM_WRITE) == 0);
    uint32_t *p = vm_kmap(*as, VA);
    if (p)
        *p = NEW_VALUE;
    vm_kunmap(p);
}

/* Another frame at the address: every CPU reads the new frame, not the old one. */
SELFTEST(tlb_shootdown_remap)
{
    static const struct tlb_case c = { "remap", 1, false, move_and_replace };
    unsigned cpus = run_case(&c, runs);
    check_before(runs, cpus);
    for (unsigned i = 0; i < cpus; i++)
        ST_CHECK(!runs[i].after[0].faulted && runs[i].after[0].value == NEW_VALUE);
}

static void unmap_few(struct addr_space **as) { vm_unmap_range(*as, VA, RANGE_PAGES_FEW); }
static void unmap_many(struct addr_space **as) { vm_unmap_range(*as, VA, RANGE_PAGES_MANY); }

/* munmap of a range: one shootdown for all its pages (check_before counts it), a page at a
 * time below TLB_FLUSH_ALL_ABOVE and a whole flush above; either way every page faults. */
SELFTEST(tlb_shootdown_range)
{
    static const struct tlb_case few = { "range", RANGE_PAGES_FEW, false, unmap_few };
    static const struct tlb_case many = { "range", RANGE_PAGES_MANY, false, unmap_many };
    unsigned cpus = run_case(&few, runs);
    check_before(runs, cpus);
    check_faults(runs, cpus, PF_NOT_PRESENT_READ);
    cpus = run_case(&many, runs);
    check_before(runs, cpus);
    check_faults(runs, cpus, PF_NOT_PRESENT_READ);
}

static void destroy(struct addr_space **as)
{
    vm_destroy(*as);
    *as = 0;
}

/* The space is torn down while other CPUs still have it loaded: they are moved to the
 * kernel's directory before its tables are freed, and the user page is gone for them. */
SELFTEST(tlb_shootdown_teardown)
{
    if (arch_cpu_count() == 1)
        return; /* CPU 0 may not destroy the space it runs on (vm.h) */
    static const struct tlb_case c = { "teardown", 1, false, destroy };
    unsigned cpus = run_case(&c, runs);
    check_before(runs, cpus);
    check_faults(runs, cpus, PF_NOT_PRESENT_READ);
    for (unsigned i = 0; i < cpus; i++)
        ST_CHECK(runs[i].cr3_after == vm_root(0));
}

/* How many lines of the trace text are CPU cpu's and end in tail. */
static unsigned lines_of_cpu(const char *text, unsigned cpu, const char *tail)
{
    char column[8];
    ksnprintf(column, sizeof column, "[%03u]", cpu);
    size_t tail_len = strlen(tail);
    unsigned n = 0;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        bool mine = false;
        for (size_t i = 0; i + 5 <= len && !mine; i++)
            mine = strncmp(line + i, column, 5) == 0;
        if (mine && len >= tail_len && strncmp(line + len - tail_len, tail, tail_len) == 0)
            n++;
        line = end ? end + 1 : line + len;
    }
    return n;
}

/* tlb/tlb_flush, enabled through its file, records Linux's lines: the IPI CPU 0 sent and
 * each other CPU's flush of the page; for a 40-page munmap one whole flush (pages -1). With
 * one CPU, CPU 0's own flush. */
SELFTEST(tlb_flush_event)
{
    static const struct tlb_case one = { "event", 1, false, unmap_one };
    static const struct tlb_case many = { "event", RANGE_PAGES_MANY, false, unmap_many };
    unsigned n = arch_cpu_count();
    trace_stream_enabled = false;
    rb_reset(trace_buffer());
    ST_CHECK(guest_write_file("events/tlb/tlb_flush/enable", "1\n", false) == 0);
    run_case(&one, runs);
    const char *text = guest_read_file("trace");
    if (n == 1) {
        ST_CHECK(lines_of_cpu(text, 0, "tlb_flush: pages:1 reason:local shootdown (2)") == 1);
    } else {
        ST_CHECK(lines_of_cpu(text, 0, "tlb_flush: pages:1 reason:remote ipi send (4)") == 1);
        for (unsigned cpu = 1; cpu < n; cpu++)
            ST_CHECK(lines_of_cpu(text, cpu, "tlb_flush: pages:1 reason:remote shootdown (1)") == 1);
    }
    rb_reset(trace_buffer());
    run_case(&many, runs);
    text = guest_read_file("trace");
    for (unsigned cpu = n == 1 ? 0 : 1; cpu < n; cpu++)
        ST_CHECK(lines_of_cpu(text, cpu, n == 1 ? "tlb_flush: pages:-1 reason:local shootdown (2)"
                                                : "tlb_flush: pages:-1 reason:remote shootdown (1)") == 1);
    ST_CHECK(guest_write_file("events/tlb/tlb_flush/enable", "0\n", false) == 0);
    rb_reset(trace_buffer());
    trace_stream_enabled = true;
}
