/*
 * trap_exit.h - the tests at the end of every entry from ring 3 (trap.c's
 * trap_exit_to_user), inline for a caller that has the task in hand: the IPC fast path
 * (ipc_regs.c) returns to ring 3 after each call and most often has nothing to do there.
 * They are trap_exit_to_user's own tests (written out there too, as gcc lays that function
 * out best for every other return): a new one goes in both.
 */
#ifndef ARCH_X86_TRAP_EXIT_H
#define ARCH_X86_TRAP_EXIT_H

#include <stdbool.h>

#include "arch/x86/gdt.h"
#include "arch/x86/trap.h"
#include "kernel/proc/sched.h"
#include "kernel/proc/task_internal.h"

/* Something t, the current task, must see to before it returns to ring 3: a kill, a
 * reschedule, a signal, a signal mask to restore (sched_return_to_user and signal_deliver,
 * unless a uprobe's step is on its way). One test of each. */
static inline bool trap_exit_pending(const struct task *t)
{
    return t->killed || sched_need_resched() || t->sig.pending || t->sig.restore_mask;
}

/* The frame's four data selectors hold the user data selector, as every program starts and
 * a system call leaves them: nothing to check before they are popped. Only the low half of
 * a slot counts: a 32-bit push of a segment register may leave the upper half as it was. */
static inline bool trap_user_segments_plain(const struct trap_frame *tf)
{
    return (uint16_t)tf->ds == SEL_USER_DATA && (uint16_t)tf->es == SEL_USER_DATA &&
           (uint16_t)tf->fs == SEL_USER_DATA && (uint16_t)tf->gs == SEL_USER_DATA;
}

/* trap_exit_to_user(tf) for the current task t, its common case inline: the call only when
 * something is pending or a selector is not the plain one. */
static inline void trap_exit_to_user_task(struct trap_frame *tf, const struct task *t)
{
    if (trap_exit_pending(t) || !trap_user_segments_plain(tf))
        trap_exit_to_user(tf);
}

#endif
