/*
 * ftrace_arch.c - rewriting a function's first five bytes while the kernel runs.
 *
 * A call site is either the 5-byte NOP gcc emits (0f 1f 44 00 00) or `call ftrace_caller`
 * (e8 + rel32). Changing one into the other is five byte writes, and a CPU executing the site
 * meanwhile must never see a half-written instruction. We use the sequence Linux uses
 * (text_poke_bp), which stays correct when other CPUs run the same code:
 *
 *   1. write int3 (cc) over the first byte: a CPU arriving now traps, and the int3 handler
 *      below sends it past the site (as if the NOP ran);
 *   2. write bytes 1..4 of the new instruction: nobody executes them, the int3 guards them;
 *   3. write the new first byte: the new instruction is complete.
 *
 * With one CPU and interrupts off during the three steps the int3 never fires; the sequence
 * is there so that patching does not have to change when SMP arrives (then each step must be
 * followed by a serializing instruction on every CPU, which is what sync_cores() is for).
 */
#include "arch/x86/ftrace_arch.h"

#include "arch/x86/trap.h"
#include "kernel/arch.h"

const struct ftrace_graph_unwinder *ftrace_graph_unwinder;

static const uint8_t nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
static volatile uint32_t patching_site; /* the site between steps 1 and 3, or 0 */

/* Makes every CPU see the bytes written so far before it executes them (cpuid serializes).
 * One CPU today: the write itself suffices, cpuid is kept for the SMP day. */
static void sync_cores(void)
{
    uint32_t a = 0, b, c, d;
    __asm__ volatile("cpuid" : "+a"(a), "=b"(b), "=c"(c), "=d"(d) : : "memory");
}

bool ftrace_site_is_nop(uint32_t site)
{
    const uint8_t *p = (const uint8_t *)site;
    for (int i = 0; i < 5; i++)
        if (p[i] != nop5[i])
            return false;
    return true;
}

bool ftrace_site_calls(uint32_t site, uint32_t target)
{
    const uint8_t *p = (const uint8_t *)site;
    int32_t rel = (int32_t)(target - (site + 5));
    return p[0] == 0xe8 && *(const int32_t *)(p + 1) == rel;
}

/* Writes the 5 bytes of insn over site with the breakpoint-first sequence. */
static void poke_site(uint32_t site, const uint8_t insn[5])
{
    volatile uint8_t *p = (volatile uint8_t *)site;
    unsigned long flags = arch_irq_save();
    patching_site = site;
    p[0] = 0xcc;
    sync_cores();
    for (int i = 1; i < 5; i++)
        p[i] = insn[i];
    sync_cores();
    p[0] = insn[0];
    sync_cores();
    patching_site = 0;
    arch_irq_restore(flags);
}

void ftrace_site_patch(uint32_t site, uint32_t target)
{
    if (!target) {
        poke_site(site, nop5);
        return;
    }
    uint8_t call[5] = { 0xe8 };
    int32_t rel = (int32_t)(target - (site + 5));
    for (int i = 0; i < 4; i++)
        call[1 + i] = (uint8_t)((uint32_t)rel >> (8 * i));
    poke_site(site, call);
}

/* kprobes: one byte (an int3, or the byte it covered) written the same way as a site's
 * bytes: interrupts off, then every core synced before anyone may execute it. */
void text_poke_byte(uint32_t addr, uint8_t byte)
{
    unsigned long flags = arch_irq_save();
    *(volatile uint8_t *)(uintptr_t)addr = byte;
    sync_cores();
    arch_irq_restore(flags);
}

bool ftrace_patching_int3(uint32_t *eip)
{
    uint32_t site = patching_site;
    if (!site || *eip != site + 1)
        return false;
    *eip = site + 5;
    return true;
}

/* A CPU hit the int3 of a site being patched: it continues after the site, which is what
 * the NOP would have done (the call, if it was one, is skipped once: one event missed in
 * the instant of enabling or disabling, never a crash). This is the route when vector 3 is
 * an interrupt gate; with the snapshot task gate the debug task asks the same question. */
static bool patching_breakpoint(struct trap_frame *tf) { return ftrace_patching_int3(&tf->eip); }

void ftrace_arch_init(void) { trap_set_handler(VEC_BREAKPOINT, patching_breakpoint); }
