/*
 * st_mmiotrace.c - self-tests of mmiotrace's trapping on a RAM page mapped with ioremap as
 * if it were a device: the instructions beyond a plain mov (read-modify-write, exchange,
 * string, bit test), an access straddling two pages, an instruction the decoder does not
 * know, the interrupt flag, the trace_pc and filter_offset settings, and the CPU's private
 * view of the page tables the step runs on (issue 19). RAM makes every
 * value checkable: what the record says must be what memory held or holds.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/paging.h"
#include "kernel/arch.h"
#include "kernel/mm/ioremap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/selftest.h"
#include "kernel/smp.h"
#include "kernel/lib/string.h"
#include "tests/guest/guest_helpers.h"
#include "trace/mmiotrace/mmiotrace.h"
#include "trace/core/trace_internal.h"

#define MAX_RECORDS 16

struct record {
    char op;          /* 'R', 'W', 'U' (unknown), 'M' (map), 'X' (unmap) */
    uint8_t width;
    uint32_t value, pc;
    uint64_t phys;
};

/* Collects mmiotrace records (read_records). */
struct record_list {
    struct record *out;
    int max, n;
};

static void collect_record(const struct trace_entry *e, uint32_t length, void *ctx)
{
    (void)length;
    struct record_list *l = ctx;
    if (l->n == l->max)
        return;
    if (e->type == TRACE_MMIO_RW) {
        const struct mmiotrace_rw_entry *rw = (const void *)e;
        char op = rw->op == MMIO_OP_READ ? 'R' : rw->op == MMIO_OP_WRITE ? 'W' : 'U';
        l->out[l->n++] = (struct record){ op, rw->width, rw->value, rw->pc, rw->phys };
    } else if (e->type == TRACE_MMIO_MAP) {
        const struct mmiotrace_map_entry *m = (const void *)e;
        l->out[l->n++] = (struct record){ m->op == MMIO_OP_MAP ? 'M' : 'X', 0, m->len, m->pc, m->phys };
    }
}

/* Copies the mmiotrace records in the buffer, oldest first; returns how many. */
static int read_records(struct record *out, int max)
{
    struct record_list l = { out, max, 0 };
    for_each_buffered_event(collect_record, &l);
    return l.n;
}

/* mmiotrace on, the buffer empty, a fresh traced mapping of two RAM pages. */
static uintptr_t pages;    /* physical address of the two pages */
static uintptr_t pages_va; /* the same pages in the direct map */
static volatile uint8_t *traced;

static void setup(void)
{
    trace_stream_enabled = false;
    ST_CHECK(trace_switch(trace_find_tracer("mmiotrace", 9)) == 0);
    pages_va = page_alloc(2);
    pages = virt_to_phys((void *)pages_va);
    traced = ioremap(pages, 2 * PAGE_SIZE);
    ST_CHECK(traced != 0);
}

static void teardown(void)
{
    iounmap((void *)traced);
    page_free(pages_va, 2);
    trace_switch(trace_find_tracer("nop", 3));
    rb_reset(trace_buffer());
    trace_stream_enabled = true;
}

/* Drops what is in the buffer (the MAP record), so each check sees its own records. */
static void clear_records(void) { rb_reset(trace_buffer()); }

static bool is(const struct record *r, char op, uint8_t width, uint64_t phys, uint32_t value)
{
    return r->op == op && r->width == width && r->phys == phys && r->value == value;
}

SELFTEST(mmiotrace_read_modify_write)
{
    setup();
    struct record r[MAX_RECORDS];
    volatile uint32_t *ram = (volatile uint32_t *)pages_va; /* the same bytes, untraced */
    ST_CHECK(read_records(r, MAX_RECORDS) == 1 && r[0].op == 'M' && r[0].phys == pages);

    clear_records();
    ram[1] = 0x10;
    __asm__ volatile("orl $0x3, (%0)" ::"r"(traced + 4) : "memory", "cc");
    ST_CHECK(ram[1] == 0x13);
    ST_CHECK(read_records(r, MAX_RECORDS) == 2);
    ST_CHECK(is(&r[0], 'R', 4, pages + 4, 0x10) && is(&r[1], 'W', 4, pages + 4, 0x13));
    ST_CHECK(r[0].pc != 0 && r[0].pc == r[1].pc);

    clear_records();
    uint32_t reg = 0xaa;
    __asm__ volatile("xchgl %0, (%1)" : "+r"(reg) : "r"(traced + 4) : "memory");
    ST_CHECK(reg == 0x13 && ram[1] == 0xaa);
    ST_CHECK(read_records(r, MAX_RECORDS) == 2);
    ST_CHECK(is(&r[0], 'R', 4, pages + 4, 0x13) && is(&r[1], 'W', 4, pages + 4, 0xaa));

    clear_records();
    ((volatile uint8_t *)ram)[8] = 0xff;
    __asm__ volatile("incb (%0)" ::"r"(traced + 8) : "memory", "cc");
    ST_CHECK(((volatile uint8_t *)ram)[8] == 0);
    ST_CHECK(read_records(r, MAX_RECORDS) == 2);
    ST_CHECK(is(&r[0], 'R', 1, pages + 8, 0xff) && is(&r[1], 'W', 1, pages + 8, 0));

    /* A read-only form: bt reads and writes nothing; the CPU's carry flag is the answer. */
    clear_records();
    ram[3] = 1u << 5;
    uint8_t carry;
    __asm__ volatile("btl $5, (%1); setc %0" : "=q"(carry) : "r"(traced + 12) : "memory", "cc");
    ST_CHECK(carry == 1);
    ST_CHECK(read_records(r, MAX_RECORDS) == 1 && is(&r[0], 'R', 4, pages + 12, 1u << 5));

    /* movzx: a 2-byte read, zero-extended in the register. */
    clear_records();
    ram[4] = 0xbeef8001;
    uint32_t wide;
    __asm__ volatile("movzwl (%1), %0" : "=r"(wide) : "r"(traced + 16) : "memory");
    ST_CHECK(wide == 0x8001);
    ST_CHECK(read_records(r, MAX_RECORDS) == 1 && is(&r[0], 'R', 2, pages + 16, 0x8001));
    teardown();
}

SELFTEST(mmiotrace_strings_and_straddling)
{
    setup();
    struct record r[MAX_RECORDS];
    volatile uint32_t *ram = (volatile uint32_t *)pages_va;

    /* rep movsl from the mapping into ordinary memory: one R per element. */
    clear_records();
    ram[0] = 11, ram[1] = 22, ram[2] = 33;
    uint32_t dst[3] = { 0 };
    const volatile void *src = traced;
    void *to = dst;
    uint32_t count = 3;
    __asm__ volatile("rep movsl" : "+S"(src), "+D"(to), "+c"(count) : : "memory");
    ST_CHECK(dst[0] == 11 && dst[1] == 22 && dst[2] == 33);
    ST_CHECK(read_records(r, MAX_RECORDS) == 3);
    ST_CHECK(is(&r[0], 'R', 4, pages, 11) && is(&r[1], 'R', 4, pages + 4, 22) &&
             is(&r[2], 'R', 4, pages + 8, 33));

    /* rep stosw into the mapping: one W per element. */
    clear_records();
    void *at = (void *)(traced + 32);
    count = 2;
    __asm__ volatile("rep stosw" : "+D"(at), "+c"(count) : "a"(0x5a5a) : "memory");
    ST_CHECK(ram[8] == 0x5a5a5a5a);
    ST_CHECK(read_records(r, MAX_RECORDS) == 2 && is(&r[1], 'W', 2, pages + 34, 0x5a5a));

    /* A 4-byte access across the boundary of the two pages. */
    clear_records();
    *(volatile uint32_t *)(pages_va + PAGE_SIZE - 2) = 0x11223344;
    uint32_t got = *(volatile uint32_t *)(traced + PAGE_SIZE - 2);
    ST_CHECK(got == 0x11223344);
    *(volatile uint32_t *)(traced + PAGE_SIZE - 2) = 0x55667788;
    ST_CHECK(*(volatile uint32_t *)(pages_va + PAGE_SIZE - 2) == 0x55667788);
    ST_CHECK(read_records(r, MAX_RECORDS) == 2);
    ST_CHECK(is(&r[0], 'R', 4, pages + PAGE_SIZE - 2, 0x11223344) &&
             is(&r[1], 'W', 4, pages + PAGE_SIZE - 2, 0x55667788));
    teardown();
}

SELFTEST(mmiotrace_unknown_and_settings)
{
    setup();
    struct record r[MAX_RECORDS];
    volatile uint32_t *ram = (volatile uint32_t *)pages_va;

    /* push from memory is no form the decoder takes: UNKNOWN, and it still works. */
    clear_records();
    ram[5] = 0xfeedf00d;
    uint32_t pushed;
    __asm__ volatile("pushl (%1); popl %0" : "=r"(pushed) : "r"(traced + 20) : "memory");
    ST_CHECK(pushed == 0xfeedf00d);
    ST_CHECK(read_records(r, MAX_RECORDS) == 1 && r[0].op == 'U' && r[0].phys == pages + 20);

    /* The interrupt flag is the traced code's own after the step, on or off. */
    clear_records();
    ST_CHECK(arch_irqs_enabled());
    (void)*(volatile uint32_t *)traced;
    ST_CHECK(arch_irqs_enabled());
    unsigned long flags = arch_irq_save();
    (void)*(volatile uint32_t *)traced;
    ST_CHECK(!arch_irqs_enabled());
    arch_irq_restore(flags);
    ST_CHECK(!(read_eflags() & EFLAGS_TF));

    /* trace_pc=0 records no PC, as Linux's default. */
    clear_records();
    mmiotrace_trace_pc = false;
    __asm__ volatile("" ::: "memory"); /* the fault handler reads it: keep the store here */
    (void)*(volatile uint32_t *)traced;
    __asm__ volatile("" ::: "memory");
    mmiotrace_trace_pc = true;
    ST_CHECK(read_records(r, MAX_RECORDS) == 1 && r[0].pc == 0);

    /* filter_offset: a mapping at another address is neither announced nor armed. */
    clear_records();
    mmiotrace_filter_offset = pages + PAGE_SIZE;
    volatile uint32_t *other = ioremap(pages, 4);
    (void)*other;
    iounmap((void *)other);
    mmiotrace_filter_offset = 0;
    ST_CHECK(read_records(r, MAX_RECORDS) == 0);
    teardown();
}

/*
 * issue 19: the step runs on this CPU's own view of the page tables, never on the shared
 * ones. A copy from an untraced mapping in the same 4 MiB region as the traced one makes
 * the view borrow the untraced page for the step (view_fault); afterwards the CPU is back
 * on its own directory, and the shared tables still have the traced pages not present.
 */
SELFTEST(mmiotrace_private_view)
{
    trace_switch(trace_find_tracer("nop", 3));
    uintptr_t plain_va = page_alloc(1);
    volatile uint32_t *plain = ioremap(virt_to_phys((void *)plain_va), PAGE_SIZE); /* untraced */
    ST_CHECK(plain != 0);
    setup();
    struct record r[MAX_RECORDS];
    volatile uint32_t *ram = (volatile uint32_t *)pages_va;
    volatile uint32_t *plain_ram = (volatile uint32_t *)plain_va;
    ST_CHECK((uintptr_t)plain >> 22 == (uintptr_t)traced >> 22);

    clear_records();
    plain_ram[0] = 7, plain_ram[1] = 8, plain_ram[2] = 9;
    uint32_t cr3 = read_cr3();
    const volatile void *src = plain;
    void *to = (void *)traced;
    uint32_t count = 3;
    __asm__ volatile("rep movsl" : "+S"(src), "+D"(to), "+c"(count) : : "memory");
    ST_CHECK(ram[0] == 7 && ram[1] == 8 && ram[2] == 9);
    ST_CHECK(read_records(r, MAX_RECORDS) == 3);
    ST_CHECK(is(&r[0], 'W', 4, pages, 7) && is(&r[1], 'W', 4, pages + 4, 8) &&
             is(&r[2], 'W', 4, pages + 8, 9));
    ST_CHECK(read_cr3() == cr3);
    ST_CHECK(paging_get_pte((uintptr_t)traced) == 0 &&
             paging_get_pte((uintptr_t)traced + PAGE_SIZE) == 0);
    teardown();
    iounmap((void *)plain);
    page_free(plain_va, 1);
}

/* Reads *at on whichever CPU runs it (smp_run_on). */
struct peek {
    volatile uint32_t *at;
    uint32_t value;
};

static void peek(void *arg)
{
    struct peek *p = arg;
    p->value = *p->at;
}

/*
 * issue 19: iounmap makes every CPU forget the pages (arch/x86/ioremap.c). Another CPU that
 * kept a translation of an unmapped page would reach the old device through the next mapping
 * at that address, untraced (mmiotrace arms only the shared tables). Here another CPU reads
 * a mapping, it is unmapped, the same address is mapped to another page: that CPU must read
 * the new page. With one CPU, this CPU plays the other.
 */
SELFTEST(mmiotrace_unmap_forgets_on_every_cpu)
{
    unsigned other = arch_cpu_count() > 1 ? 1 : arch_cpu_id();
    uintptr_t a = page_alloc(1), b = page_alloc(1);
    ST_CHECK(a && b);
    *(volatile uint32_t *)a = 0xaaaa;
    *(volatile uint32_t *)b = 0xbbbb;
    volatile uint32_t *first = ioremap(virt_to_phys((void *)a), 4);
    struct peek p = { first, 0 };
    ST_CHECK(smp_run_on(other, peek, &p));
    smp_wait(other);
    ST_CHECK(p.value == 0xaaaa);
    iounmap((void *)first);
    volatile uint32_t *second = ioremap(virt_to_phys((void *)b), 4);
    ST_CHECK(second == first); /* the window hands out the freed page again */
    p.at = second;
    ST_CHECK(smp_run_on(other, peek, &p));
    smp_wait(other);
    ST_CHECK(p.value == 0xbbbb);
    iounmap((void *)second);
    page_free(a, 1);
    page_free(b, 1);
}
