/*
 * kprobe_arch.h - x86's part of kprobes away from a function's entry: an int3 over the
 * probed instruction's first byte, and the displaced instruction single-stepped out of line.
 *
 * Arming writes 0xCC over the instruction (the text-patching path ftrace uses, interrupts
 * off, cores synced) and keeps its bytes. A CPU that reaches it traps to vector 3 (an
 * interrupt gate while any site is armed: the snapshot tracer's task gate cannot nest, see
 * snapshot_use_task_gate); the hook runs with every register of the probed code; then the
 * saved copy of the instruction runs in this CPU's slot with TF set and IF clear, and the
 * #DB that follows fixes what running elsewhere changed (insn_step_fixup: EIP, a pushed
 * return address, pushed flags) and gives back IF and TF. A fault raised by the copy is
 * reported at the probed address, as if it had run in place.
 *
 * A hit while this CPU is already in the hook (the hook's own code probed) still steps the
 * instruction but tells the hook it is nested, which only counts a miss (Linux's nmissed).
 */
#ifndef ARCH_X86_KPROBE_ARCH_H
#define ARCH_X86_KPROBE_ARCH_H

#include <stdbool.h>
#include <stdint.h>

#define KPROBE_ARCH_MAX_SITES 256 /* addresses armed at once */

/* The registers at a hit, in this order (trace/kprobes/kprobe_parse.h's enum kp_reg):
 * eax ebx ecx edx esi edi ebp esp eip eflags; esp is the probed code's, eip the probed
 * instruction's address. */
#define KPROBE_ARCH_NREGS 10
typedef void (*kprobe_arch_hook_t)(uint32_t addr, const uint32_t regs[KPROBE_ARCH_NREGS],
                                   bool nested);
void kprobe_arch_set_hook(kprobe_arch_hook_t hook);

/* Whether an int3 can go at addr in the function [func, func + size): 0; -EILSEQ when addr
 * is not where an instruction starts (decoding from func); -EINVAL with *why set when the
 * instruction cannot be stepped out of line or cannot be decoded. Armed sites are read with
 * their original byte. */
int kprobe_arch_prepare(uint32_t func, uint32_t size, uint32_t addr, const char **why);

/* Arms addr (prepared before): 0, or -ENOSPC with KPROBE_ARCH_MAX_SITES armed, or -EBUSY
 * while mmiotrace traps accesses (see kprobe_arch_int3_armed). Arming an armed address
 * counts one more user; disarming puts the original byte back with the last. */
int kprobe_arch_arm(uint32_t addr);
void kprobe_arch_disarm(uint32_t addr);

/* Whether any int3 site is armed. mmiotrace and int3 probes exclude each other (each refuses
 * to start, -EBUSY, while the other runs): a stepped copy that touched a traced page would
 * fault at the slot, be reported at the probed address where the 0xCC now is, and leave
 * mmiotrace decoding the int3 and both waiting for the same #DB. */
bool kprobe_arch_int3_armed(void);

/* Vector 3 through trap_dispatch (an interrupt gate) while anyone holds it, the snapshot
 * task gate otherwise: armed kprobes hold it once, uprobes (uprobe_arch.h) once. */
void kprobe_arch_route_int3(bool hold);

/* The first byte at addr as the code has it, whether or not an int3 covers it. */
uint8_t kprobe_arch_original_byte(uint32_t addr);

/*
 * Return probes: a function's return address, replaced at its entry by the trampoline's
 * (kretprobe_trampoline, arch/x86/kretprobe_entry.asm), brings its return there. The hook
 * gets where the return address was (slot), the return value (eax) and the flags' IF, runs
 * with interrupts off, and answers the real return address, where the function's caller
 * continues with eax and edx as the function left them. The hook must always answer one:
 * it is the only one who knows it.
 */
typedef uint32_t (*kretprobe_arch_hook_t)(uint32_t slot, uint32_t retval, bool irqs);
void kprobe_arch_set_return_hook(kretprobe_arch_hook_t hook);
/* The address to put in a hijacked return slot. */
uint32_t kprobe_arch_trampoline(void);

/* trap_dispatch's first question for an exception from ring 0: true when it was a probe's
 * int3 or single-step (handled); for any other exception raised by a stepped copy, the
 * frame is moved back to the probed instruction first (then false). */
struct trap_frame;
bool kprobe_arch_trap(struct trap_frame *tf);

/* Whether trap_dispatch need ask kprobe_arch_trap at all: only while a site is armed (a
 * step happens only then), so that other exceptions (mmiotrace's #PF and #DB) pay a load. */
extern uint32_t kprobe_arch_narmed;
static inline bool kprobe_arch_may_trap(void) { return kprobe_arch_narmed != 0; }

#endif
