/*
 * uprobe_arch.h - x86's part of uprobes (trace/uprobes/uprobe_events.c): an int3 in ONE
 * process's own copy of a program's text, and the displaced instruction single-stepped.
 *
 * Every process here has its own private copy of its program's text (kernel/proc/exec.c
 * copies the segments into fresh pages, fork copies them again) and exactly one thread
 * (vfork's child borrows its parent's memory while the parent sleeps). So a probe writes
 * its 0xCC into that copy only, and at a hit the original byte goes back for one step in
 * place: the CPU runs the instruction at its own address with TF set and IF clear (no
 * interrupt, signal or other task comes between), the #DB that follows writes the 0xCC
 * again and gives back the process's TF and IF, and fixes a pushf's pushed flags. Nothing
 * runs out of line, so no slot exists that a program could jump into or unmap. A fault
 * raised by the stepped instruction puts the 0xCC back and is then handled as if there were
 * no probe (a signal at the instruction's own address). An SMP kernel with threads would
 * need the XOL slot Linux uses instead: another thread could run the text meanwhile.
 *
 * Writes go only into a page that is present, the process's own and not shared with anyone
 * (vm_page_private), and only over the byte expected there: a program that unmapped or
 * replaced its text, or shares it, is never written through.
 */
#ifndef ARCH_X86_UPROBE_ARCH_H
#define ARCH_X86_UPROBE_ARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/x86/kprobe_arch.h"

struct addr_space;
struct trap_frame;

/* Called for a user int3 at addr (the byte there is 0xCC in the current process's own
 * text) with every register (kprobe_arch.h's order; eip is addr): true when it is an
 * enabled probe's, *orig set to the byte the 0xCC replaced (the hook records the event);
 * false leaves the int3 to vector 3's other users (a snapshot, as without probes). Runs
 * with interrupts off. */
typedef bool (*uprobe_arch_hook_t)(uint32_t addr, const uint32_t regs[KPROBE_ARCH_NREGS],
                                   uint8_t *orig);
void uprobe_arch_set_hook(uprobe_arch_hook_t hook);

/* Writes byte at user address addr of as when the page is the process's own and private
 * and the byte there is expect: true when it wrote. */
bool uprobe_arch_poke(struct addr_space *as, uint32_t addr, uint8_t expect, uint8_t byte);
/* After pokes into processes that may be running on other CPUs (arming or disarming a
 * probe), for each poked byte once every CPU was synced (smp_sync_cores): writes it once
 * more, as it is, and the caller syncs again. On hardware nothing changes; under QEMU's
 * multi-threaded TCG it drops a translation another CPU made from the old byte (the
 * remedy of docs/ftrace.md, section 11). */
void uprobe_arch_rewrite(struct addr_space *as, uint32_t addr);

/* While any uprobe is enabled, vector 3 goes through trap_dispatch (an interrupt gate) and
 * not the snapshot task gate: one hold per enabled probe. */
void uprobe_arch_hold_int3(bool hold);

/* trap_dispatch's question for every exception from ring 3: true when it was a probe's int3
 * or the #DB that ends its step (handled); for any other exception of a stepping process,
 * the step is undone first (the 0xCC back, TF and IF the process's), then false. */
bool uprobe_arch_trap(struct trap_frame *tf);
/* Whether this CPU returns to a step (no scheduling, no signal before its #DB). */
bool uprobe_arch_stepping(void);

#endif
