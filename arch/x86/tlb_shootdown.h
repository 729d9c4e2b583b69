/*
 * tlb_shootdown.h - which CPUs have a page directory loaded, and flushing their TLBs when a
 * user mapping of it goes away (issue 19).
 *
 * A CPU caches translations in its TLB and keeps them until it flushes them (invlpg, or a
 * CR3 write, which drops every entry: no page here is global and PCIDs are not used). When
 * one CPU removes or downgrades an entry of an address space, every other CPU that has the
 * space loaded may still translate through the old one: read a freed frame, write a page
 * made read-only. So each space keeps the mask of CPUs that have its directory loaded, and
 * the CPU that changed an entry sends the others in the mask a TLB shootdown (a call IPI,
 * kernel/smp.h's smp_call_mask) and waits until all of them flushed, before the frame is
 * freed or the call returns. /proc/interrupts counts the shootdowns each CPU received
 * (TLB row).
 *
 * Not lazy: a CPU that switches to a kernel thread or idles loads the kernel's directory
 * (arch_switch_to -> vm_switch_to(NULL)) and leaves the mask of the space it ran; a CR3
 * write costs the same whole-TLB flush with or without a mask, and an idle CPU is then
 * never interrupted for a space it does not run.
 */
#ifndef ARCH_X86_TLB_SHOOTDOWN_H
#define ARCH_X86_TLB_SHOOTDOWN_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/x86/cpu.h"
#include "arch/x86/gdt.h"
#include "kernel/smp.h" /* MAX_CPUS */

/* The CPUs that have one directory loaded (bit per CPU); zero-initialized: none. */
struct tlb_users {
    uint32_t cpus;
};

/*
 * Above this many pages, one flush is a whole-TLB flush (a CR3 reload) instead of an invlpg
 * per page: the loop would cost more than refilling the TLB afterwards. Linux draws the same
 * line at 33 pages (tlb_single_page_flush_ceiling, Documentation/arch/x86/tlb.rst); a
 * kernel without global pages (this one) loses its own entries too on a reload, so the
 * ceiling is not raised. The range is sent in one IPI either way.
 */
#define TLB_FLUSH_ALL_ABOVE 32

/* This CPU loads the directory at physical address root, whose users are next (NULL: the
 * kernel's directory); it joins next's mask before the load and leaves the previous
 * space's after it. Interrupts off (vm_activate, vm_switch_to). */
void tlb_load(struct tlb_users *next, uint32_t root);

/* The users of the directory each CPU has loaded; NULL: the kernel's. Only that CPU
 * writes its slot, with interrupts off. */
extern struct tlb_users *tlb_loaded[MAX_CPUS];

/* tlb_load's work for a caller that has this CPU's number (me) already, with interrupts
 * off; true when CR3 was written (which flushed the whole TLB: the caller's trace event).
 * Inline: every task switch runs it (arch_switch_to), and tlb_load is this and the event. */
static inline __attribute__((always_inline)) bool tlb_load_on(unsigned me, struct tlb_users *next,
                                                              uint32_t root)
{
    struct tlb_users *prev = tlb_loaded[me];
    if (next && next != prev)
        __atomic_or_fetch(&next->cpus, 1u << me, __ATOMIC_SEQ_CST);
    bool switched = read_cr3() != root;
    if (switched)
        write_cr3(root);
    /* A hardware task switch back from the int3 snapshot task loads CR3 from the main TSS
     * (the CPU never saves it there): keep that copy equal to the real one. */
    cpu_tss[me]->cr3 = root;
    tlb_loaded[me] = next;
    if (prev && prev != next)
        __atomic_and_fetch(&prev->cpus, ~(1u << me), __ATOMIC_RELEASE);
    return switched;
}

/* Flushes the pages [start, start + pages * 4 KiB) of the space on this CPU (if it has the
 * space loaded) and on every other CPU in its mask, and returns when all of them did. The
 * caller changed the entries first. */
void tlb_flush_range(struct tlb_users *users, uint32_t start, uint32_t pages);

/* Address-space teardown: returns when no CPU has the space loaded any more (one that
 * still had it switches to the kernel's directory), so its page tables may be freed. */
void tlb_unload_everywhere(struct tlb_users *users);

#endif
