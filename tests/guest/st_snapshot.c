/*
 * st_snapshot.c - self-tests of int3 snapshots through the task gate: registers seen as they
 * were set, restored intact, a tight int3 loop, TSC deltas, an invalid segment register, and
 * the snapshot tracer's records.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/gdt.h"
#include "kernel/log/printk.h"
#include "kernel/selftest.h"
#include "tests/guest/guest_helpers.h"
#include "trace/snapshot/snapshot.h"
#include "trace/core/trace_internal.h"

#define SPARE_GDT_INDEX 9

SELFTEST(snapshot_registers)
{
    uint32_t count_before;
    snapshot_ring_get(0, &count_before);
    uint32_t intact;
    /* Known values in six registers, int3, then check they survived the two task switches. */
    __asm__ volatile("mov $0x11111111, %%eax\n\t"
                     "mov $0x22222222, %%ebx\n\t"
                     "mov $0x33333333, %%ecx\n\t"
                     "mov $0x44444444, %%edx\n\t"
                     "mov $0x55555555, %%esi\n\t"
                     "mov $0x66666666, %%edi\n\t"
                     "int3\n\t"
                     "xor $0x11111111, %%eax\n\t"
                     "xor $0x22222222, %%ebx\n\t"
                     "or %%ebx, %%eax\n\t"
                     "xor $0x33333333, %%ecx\n\t"
                     "or %%ecx, %%eax\n\t"
                     "xor $0x44444444, %%edx\n\t"
                     "or %%edx, %%eax\n\t"
                     "xor $0x55555555, %%esi\n\t"
                     "or %%esi, %%eax\n\t"
                     "xor $0x66666666, %%edi\n\t"
                     "or %%edi, %%eax\n\t"
                     : "=a"(intact)
                     :
                     : "ebx", "ecx", "edx", "esi", "edi", "memory", "cc");
    ST_CHECK(intact == 0);
    uint32_t count;
    const struct snapshot_record *r = snapshot_ring_get(0, &count);
    ST_CHECK(count == count_before + 1 && r && r->number == count);
    ST_CHECK(r->regs.eax == 0x11111111 && r->regs.ebx == 0x22222222 && r->regs.ecx == 0x33333333);
    ST_CHECK(r->regs.edx == 0x44444444 && r->regs.esi == 0x55555555 && r->regs.edi == 0x66666666);
    ST_CHECK(r->regs.cs == SEL_KERNEL_CODE && r->regs.ds == SEL_KERNEL_DATA &&
             r->regs.ss == SEL_KERNEL_DATA);
    ST_CHECK(r->regs.back_link == SEL_TSS_MAIN && r->regs.bad_segments == 0);
    ST_CHECK(r->regs.eflags & EFLAGS_IF);
    ST_CHECK(!(read_cr0() & CR0_TS) || true); /* TS may be set: #NM clears it on demand */
}

/* The `for (;;) int3` program of Chuck Ebbert's 2003 patch "Debugging i386 using hardware
 * task", for a fixed count: the kernel stays healthy and every
 * int3 is counted, each with a positive cycle delta. */
SELFTEST(snapshot_tight_loop)
{
    uint32_t before;
    snapshot_ring_get(0, &before);
    for (int i = 0; i < 1000; i++)
        TRACE_SNAPSHOT();
    uint32_t after;
    const struct snapshot_record *last = snapshot_ring_get(0, &after);
    const struct snapshot_record *prev = snapshot_ring_get(1, &after);
    ST_CHECK(after == before + 1000);
    ST_CHECK(last && prev && last->tsc > prev->tsc);
    ST_CHECK(arch_irqs_enabled());
}

/* FS holds a selector whose descriptor has since been marked not present: reloading it on
 * the switch back would fault inside the task switch. The debug task nulls it instead. */
SELFTEST(snapshot_invalid_segment)
{
    uint16_t sel = SPARE_GDT_INDEX << 3;
    gdt_set_data_segment(SPARE_GDT_INDEX, true);
    __asm__ volatile("mov %0, %%fs" ::"r"((uint32_t)sel));
    gdt_set_data_segment(SPARE_GDT_INDEX, false);
    TRACE_SNAPSHOT();
    uint16_t fs;
    __asm__ volatile("mov %%fs, %0" : "=r"(fs));
    uint32_t count;
    const struct snapshot_record *r = snapshot_ring_get(0, &count);
    ST_CHECK(r && (r->regs.bad_segments & SNAPSHOT_BAD_FS) && r->regs.fs == sel);
    ST_CHECK(fs == 0);
    __asm__ volatile("mov %0, %%fs" ::"r"((uint32_t)SEL_KERNEL_DATA));
}

/* Collects the numbers of the first two snapshot events and the last delta. */
struct snapshot_list {
    uint32_t numbers[2];
    uint64_t delta;
    int n;
};

static void collect_snapshot(const struct trace_entry *e, uint32_t length, void *ctx)
{
    (void)length;
    struct snapshot_list *l = ctx;
    const struct snapshot_entry *s = (const void *)e;
    if (e->type == TRACE_CPU_SNAPSHOT && l->n < 2) {
        l->numbers[l->n++] = s->number;
        l->delta = s->delta;
    }
}

SELFTEST(snapshot_tracer_records)
{
    trace_stream_enabled = false;
    trace_switch(trace_find_tracer("snapshot", 8));
    rb_reset(trace_buffer());
    TRACE_SNAPSHOT();
    TRACE_SNAPSHOT();
    struct snapshot_list l = { { 0 }, 0, 0 };
    for_each_buffered_event(collect_snapshot, &l);
    uint32_t *numbers = l.numbers;
    uint64_t delta = l.delta;
    int n = l.n;
    ST_CHECK(n == 2 && numbers[1] == numbers[0] + 1 && delta > 0);
    trace_switch(trace_find_tracer("nop", 3));
    rb_reset(trace_buffer());
    trace_stream_enabled = true;
}

/* Under QEMU's -icount shift=0 the TSC counts instructions (at the 999.931 MHz the boot
 * calibration reads): a region of 2000 more instructions between two snapshots has a delta
 * 2000 larger, within QEMU's icount granularity (a few instructions; 1% allowed). Named
 * only: it holds only with -icount, and tests/run_all.sh runs it that way. */
static uint64_t delta_around_loop(uint32_t iterations)
{
    uint32_t count;
    TRACE_SNAPSHOT();
    __asm__ volatile("1: dec %0; jnz 1b" : "+r"(iterations) : : "cc");
    TRACE_SNAPSHOT();
    const struct snapshot_record *last = snapshot_ring_get(0, &count);
    const struct snapshot_record *first = snapshot_ring_get(1, &count);
    return last->tsc - first->tsc;
}

NAMEDTEST(snapshot_icount_deltas)
{
    unsigned long flags = arch_irq_save(); /* no tick inside the regions */
    uint64_t d1 = delta_around_loop(1000), d2 = delta_around_loop(2000);
    arch_irq_restore(flags);
    printk("snapshot_icount_deltas: %llu and %llu cycles\n", (unsigned long long)d1,
           (unsigned long long)d2);
    uint64_t extra = d2 - d1; /* dec + jnz: two instructions per iteration */
    ST_CHECK(extra >= 1980 && extra <= 2020);
}

/* The LDT register is null from boot, and the int3 task switch (which loads LDTR from each
 * TSS) leaves it null: no TI=1 selector can be loaded by anyone (issue 22). */
SELFTEST(ldt_null_across_snapshot)
{
    uint16_t ldtr = 0xffff;
    __asm__ volatile("sldt %0" : "=r"(ldtr));
    ST_CHECK(ldtr == 0);
    TRACE_SNAPSHOT();
    ldtr = 0xffff;
    __asm__ volatile("sldt %0" : "=r"(ldtr));
    ST_CHECK(ldtr == 0);
    ST_CHECK(!gdt_data_selector_ok(0x1007) && !gdt_user_data_selector_ok(0x1007));
    ST_CHECK(gdt_user_data_selector_ok(0) && gdt_user_data_selector_ok(SEL_USER_DATA));
    ST_CHECK(!gdt_user_data_selector_ok(SEL_KERNEL_DATA) && !gdt_user_data_selector_ok(SEL_TSS_MAIN));
}
