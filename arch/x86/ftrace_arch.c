/*
 * ftrace_arch.c - rewriting functions' first five bytes while every CPU runs them.
 *
 * A call site is either the 5-byte NOP gcc emits (0f 1f 44 00 00) or `call ftrace_caller`
 * (e8 + rel32). Changing one into the other is five byte writes, and a CPU executing the site
 * meanwhile must never see a half-written instruction. We use the sequence Linux uses
 * (text_poke_bp_batch, arch/x86/kernel/alternative.c), with no CPU stopped:
 *
 *   0. publish the batch: the sorted list of every site this round changes;
 *   1. write int3 (cc) over the first byte of each; sync every CPU: from now on a CPU
 *      arriving at one traps, and the int3 handler (on whichever CPU) finds the site in the
 *      batch and sends that CPU past the site, as if the NOP ran;
 *   2. write bytes 1..4 of each new instruction; sync: nobody executes them, the int3s
 *      guard them, and now every CPU fetches them as written;
 *   3. write each new first byte; sync: the new instructions are complete everywhere, and
 *      no CPU can meet one of the round's int3s any more;
 *   4. write each new first byte once more, the same value, after an invlpg of its page;
 *      sync (text_rewrite_byte: on hardware a no-op, under QEMU's multi-threaded TCG what
 *      drops a translation made from the bytes before step 3);
 *   5. retire the batch.
 *
 * A sync (smp_sync_cores, kernel/smp.h) returns once every other CPU executed a serializing
 * instruction; it reaches them by interrupt, so a CPU inside the int3 handler (interrupts
 * off) finishes it first. So a round costs four syncs however many sites change: enabling
 * the function tracer on every function is one round.
 *
 * The batch is read by int3 handlers on other CPUs while this one patches. It is one
 * pointer (to a count and the sites), stored with release order after the batch is filled
 * and cleared after step 4; a handler loads it once with acquire order. A batch's memory is
 * filled again only two rounds later: the round in between made four syncs after this
 * batch was retired, so no handler still reads it (the two arrays alternate).
 *
 * During a round vector 3 goes through an interrupt gate (kprobe_arch_route_int3), not the
 * snapshot's task gate: several CPUs may meet the round's int3s at once, and each then
 * runs the handler on its own stack, where a task gate would send them all into the one
 * debug task.
 */
#include "arch/x86/ftrace_arch.h"

#include "arch/x86/cpu.h"
#include "arch/x86/kprobe_arch.h"
#include "arch/x86/trap.h"
#include "kernel/arch.h"
#include "kernel/mm/heap.h"
#include "kernel/panic.h"
#include "kernel/lib/string.h"
#include "kernel/smp.h"

const struct ftrace_graph_unwinder *ftrace_graph_unwinder;

static const uint8_t nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

/* The call sites, as gcc lists them (linker.ld). */
extern uint32_t mcount_loc_start[], mcount_loc_end[];

/* The 5-byte NOP as a little-endian word and its last byte: a site is compared and
 * written with two loads or stores, not five (the boot does it for every site). */
#define NOP5_WORD 0x00441f0fu
#define NOP5_LAST 0x00u
#define PAD_WORD 0x90909090u
#define PAD_LAST 0x90u

/* gcc pads each traced function with five one-byte NOPs (-fpatchable-function-entry=5);
 * each pad becomes the one 5-byte NOP the rest of this file patches: one instruction per
 * call while tracing is off, not five. A site that holds anything else is struck from the
 * list (its entry in __patchable_function_entries becomes 0), so that ftrace.c reports it
 * and never touches it, without looking at every site again. Runs first thing at boot, on
 * the only CPU, with interrupts off: no code can be part-way through a pad while it
 * changes. */
void ftrace_arch_prepare_sites(void)
{
    for (uint32_t *s = mcount_loc_start; s < mcount_loc_end; s++) {
        uint8_t *p = (uint8_t *)(uintptr_t)*s;
        uint32_t word;
        __builtin_memcpy(&word, p, 4);
        if (word == PAD_WORD && p[4] == PAD_LAST) {
            word = NOP5_WORD;
            __builtin_memcpy(p, &word, 4);
            p[4] = NOP5_LAST;
        } else if (!ftrace_site_is_nop(*s)) {
            *s = 0;
        }
    }
}

/* One round's sites, sorted by address (the int3 handler binary-searches them). */
struct patch_batch {
    uint32_t count;
    uint32_t site[];
};

static struct patch_batch *batches[2]; /* alternate rounds fill alternate arrays */
static uint32_t batch_capacity;        /* sites each holds */
static unsigned next_batch;            /* the array the next round fills */
static struct patch_batch *live_batch; /* the round under way, or NULL (handlers read it) */
/* Per CPU, each on a cache line of its own: calls sent past a site being patched. */
static volatile uint32_t int3_skips[MAX_CPUS * 16] __attribute__((aligned(64)));

bool ftrace_site_is_nop(uint32_t site)
{
    const uint8_t *p = (const uint8_t *)site;
    uint32_t word;
    __builtin_memcpy(&word, p, 4);
    return word == NOP5_WORD && p[4] == NOP5_LAST;
}

bool ftrace_site_calls(uint32_t site, uint32_t target)
{
    const uint8_t *p = (const uint8_t *)site;
    int32_t rel = (int32_t)(target - (site + 5));
    return p[0] == 0xe8 && *(const int32_t *)(p + 1) == rel;
}

void ftrace_patch_init(uint32_t max_sites)
{
    size_t size = sizeof(struct patch_batch) + (max_sites ? max_sites : 1) * sizeof(uint32_t);
    batches[0] = kmalloc(size);
    batches[1] = kmalloc(size);
    if (!batches[0] || !batches[1])
        panic("ftrace: no memory for the patch batches of %u call sites", max_sites);
    batch_capacity = max_sites;
}

/*
 * Writes the byte at addr again, the value it holds, through a TLB entry filled now: what
 * makes a finished write of patched code reach QEMU's multi-threaded TCG. Call it once the
 * write was synced (smp_sync_cores), and sync again before relying on it.
 *
 * QEMU translates guest code into blocks and runs those. A write to a page holding
 * translated code goes through its slow path (cputlb.c notdirty_write), which first drops
 * the blocks covering the bytes written (tb-maint.c tb_invalidate_phys_page_fast) and only
 * then stores. Another vCPU translates with no lock (translate-all.c tb_gen_code reads the
 * guest bytes, then tb_link_page takes the page lock): a block it read before the store
 * and linked after the drop keeps the old bytes for good, whatever the writer syncs. When
 * that block was the page's first, linking it marked the page clean again
 * (tlb_protect_code), and notdirty_write on the writer can then undo that mark in the
 * writer's own TLB entry (tlb_set_dirty), so its later writes to the page take the fast
 * path and drop nothing. Both are undone here: invlpg makes the next write fill the entry
 * afresh (tlb_set_page_full marks it not-dirty while the page holds code), and the write
 * drops every block covering addr. No translation can still be reading the old bytes: a
 * vCPU takes an interrupt only between blocks, so each had published what it was
 * translating before it ran the first sync. The second sync makes sure no CPU is still
 * inside a dropped block.
 *
 * On hardware the byte does not change, so no CPU sees anything new; the cost is a write
 * and a page walk.
 */
void text_rewrite_byte(uint32_t addr)
{
    volatile uint8_t *p = (volatile uint8_t *)(uintptr_t)addr;
    invlpg(addr);
    *p = *p;
}

/* The instruction site should hold: call target, or the NOP when target is 0. */
static void site_insn(uint32_t site, uint32_t target, uint8_t insn[5])
{
    if (!target) {
        for (int i = 0; i < 5; i++)
            insn[i] = nop5[i];
        return;
    }
    uint32_t rel = target - (site + 5);
    insn[0] = 0xe8;
    for (int i = 0; i < 4; i++)
        insn[1 + i] = (uint8_t)(rel >> (8 * i));
}

void ftrace_sites_patch(const uint32_t *sites, const uint32_t *targets, uint32_t n)
{
    if (n == 0)
        return;
    if (n > batch_capacity)
        panic("ftrace: a patch round of %u sites, room for %u", n, batch_capacity);
    struct patch_batch *b = batches[next_batch];
    next_batch ^= 1;
    for (uint32_t i = 0; i < n; i++)
        b->site[i] = sites[i];
    b->count = n;
    kprobe_arch_route_int3(true);
    __atomic_store_n(&live_batch, b, __ATOMIC_RELEASE);

    uint8_t insn[5];
    for (uint32_t i = 0; i < n; i++)
        *(volatile uint8_t *)(uintptr_t)sites[i] = 0xcc;
    smp_sync_cores();
    for (uint32_t i = 0; i < n; i++) {
        volatile uint8_t *p = (volatile uint8_t *)(uintptr_t)sites[i];
        site_insn(sites[i], targets[i], insn);
        for (int k = 1; k < 5; k++)
            p[k] = insn[k];
    }
    smp_sync_cores();
    for (uint32_t i = 0; i < n; i++) {
        site_insn(sites[i], targets[i], insn);
        *(volatile uint8_t *)(uintptr_t)sites[i] = insn[0];
    }
    smp_sync_cores();
    for (uint32_t i = 0; i < n; i++)
        text_rewrite_byte(sites[i]);
    smp_sync_cores();
    __atomic_store_n(&live_batch, (struct patch_batch *)0, __ATOMIC_RELEASE);
    kprobe_arch_route_int3(false);
}

/* kprobes: one byte (an int3, or the byte it covered) is written whole, so no int3 guard
 * is needed; every CPU is synced before the caller goes on, so none still executes what
 * the byte replaced (an int3 being removed, once this returns, is met by no CPU). The
 * byte is written once more and synced again for QEMU (text_rewrite_byte). */
void text_poke_byte(uint32_t addr, uint8_t byte)
{
    *(volatile uint8_t *)(uintptr_t)addr = byte;
    smp_sync_cores();
    text_rewrite_byte(addr);
    smp_sync_cores();
}

bool ftrace_patching_int3(uint32_t *eip)
{
    const struct patch_batch *b = __atomic_load_n(&live_batch, __ATOMIC_ACQUIRE);
    if (!b)
        return false;
    uint32_t site = *eip - 1, lo = 0, hi = b->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (b->site[mid] < site)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == b->count || b->site[lo] != site)
        return false;
    *eip = site + 5;
    int3_skips[arch_cpu_id() * 16]++;
    return true;
}

uint64_t ftrace_patching_skips(void)
{
    uint64_t sum = 0;
    for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++)
        sum += int3_skips[cpu * 16];
    return sum;
}

/* A CPU hit the int3 of a site being patched: it continues after the site, which is what
 * the NOP would have done (the call, if it was one, is skipped once: one call not traced
 * in the instant of enabling or disabling, counted in ftrace_patching_skips, never a
 * crash). This is the route when vector 3 is an interrupt gate; with the snapshot task
 * gate the debug task asks the same question. */
static bool patching_breakpoint(struct trap_frame *tf) { return ftrace_patching_int3(&tf->eip); }

void ftrace_arch_init(void) { trap_set_handler(VEC_BREAKPOINT, patching_breakpoint); }
