/*
 * ftrace_arch.h - x86's part of function tracing: the call sites and the trampolines.
 */
#ifndef ARCH_X86_FTRACE_ARCH_H
#define ARCH_X86_FTRACE_ARCH_H

#include <stdbool.h>
#include <stdint.h>

/* The trampolines (arch/x86/ftrace_entry.asm). */
void ftrace_caller(void);
void ftrace_stub(void);
void return_to_handler(void);

/*
 * What ftrace_caller leaves on the stack for the tracer, lowest address first: the traced
 * code's flags, its registers as pushad stores them (eax, ecx and edx may hold the traced
 * function's arguments; ebp is still its caller's frame pointer), the return address into
 * the traced function (site + 5) and the traced function's own return address (parent_ip:
 * its address is the parent slot, which function_graph and return probes rewrite).
 */
struct ftrace_frame {
    uint32_t eflags;    /* the traced code's: FTRACE_FRAME_IF says whether interrupts were on */
    uint32_t edi, esi;
    uint32_t ebp;       /* the caller's frame pointer (fp) */
    uint32_t esp;       /* as pushad stores it: the address of eax's slot below */
    uint32_t ebx, edx, ecx, eax;
    uint32_t site_end;  /* site + 5 */
    uint32_t parent_ip; /* the traced function's return address, into its caller */
};
#define FTRACE_FRAME_IF (1u << 9)

/* The traced function (its call site, its first instruction). */
static inline uint32_t ftrace_frame_ip(const struct ftrace_frame *f) { return f->site_end - 5; }
/* Where the traced function's return address is (function_graph and kprobes rewrite it). */
static inline uint32_t *ftrace_frame_parent_slot(struct ftrace_frame *f) { return &f->parent_ip; }

/* What every patched site calls, with interrupts off and the frame's address in eax
 * (regparm(1): the trampoline passes one register instead of pushing arguments). */
typedef void (*ftrace_func_t)(struct ftrace_frame *f) __attribute__((regparm(1)));
extern volatile ftrace_func_t ftrace_trace_function;

/* Turns gcc's pads into 5-byte NOPs and strikes (zeroes) the entries of sites that hold
 * neither (first thing at boot, one CPU, interrupts off). */
void ftrace_arch_prepare_sites(void);

/* True when site holds the 5-byte NOP / a call to target. */
bool ftrace_site_is_nop(uint32_t site);
bool ftrace_site_calls(uint32_t site, uint32_t target);

/* Room for patch rounds of up to max_sites sites (ftrace.c, once, at boot). */
void ftrace_patch_init(uint32_t max_sites);

/* One patch round (ftrace_arch.c's comment has the sequence): sites[i] becomes
 * `call targets[i]`, or the NOP again where targets[i] is 0, safely while every CPU runs
 * them, with three syncs of every CPU in all. sites is sorted by address, n at most
 * ftrace_patch_init's max_sites. Callers serialize rounds (ftrace.c's ftrace_lock). */
void ftrace_sites_patch(const uint32_t *sites, const uint32_t *targets, uint32_t n);

/* Writes one byte of kernel text safely while code runs (kprobes' int3 and its removal),
 * then syncs every CPU. Call it with interrupts on: the sync waits for the other CPUs. */
void text_poke_byte(uint32_t addr, uint8_t byte);

/* Writes the byte at addr again, through a TLB entry filled now, so that QEMU's
 * multi-threaded TCG drops every translation of the code there made from older bytes (the
 * comment above its definition says how one survives); on hardware a write of the same
 * value. For code this CPU wrote and is about to run: a kprobe's single-step slot. */
void text_rewrite_byte(uint32_t addr);

/* If *eip is just after the int3 of a site being patched, moves it past the site and says
 * so: that int3 is the patcher's, not a breakpoint or a snapshot. Any CPU, interrupts off. */
bool ftrace_patching_int3(uint32_t *eip);

/* Calls that met a site being patched and were sent past it (so not traced), all CPUs. */
uint64_t ftrace_patching_skips(void);

/* Installs the int3 handler the patching sequence relies on. */
void ftrace_arch_init(void);

/*
 * What the arch's stack walks ask the tracer that hijacks return addresses (pointing them
 * at return_to_handler: function_graph and the function profiler, trace/ftrace/
 * ftrace_graph.c, which installs it at boot). NULL while nobody has: the walks then take
 * every return address as it stands, and cost nothing more.
 *   real_return(k)  the real return address that the k-th return_to_handler met walking
 *                   down from the top of the running task's stack stands for (k from 0);
 *                   0 when the return stack holds no such entry (backtraces);
 *   unwind(sp)      forgets the hijacked returns of frames below sp, which a non-local
 *                   exit abandoned and which will never return (arch_call_catching_faults).
 * Both run with interrupts in any state, from a fault report too.
 */
struct ftrace_graph_unwinder {
    uintptr_t (*real_return)(int k);
    void (*unwind)(uintptr_t sp);
};
extern const struct ftrace_graph_unwinder *ftrace_graph_unwinder;

#endif
