/*
 * uprobe_arch.c - user-space int3 probes stepped in place (uprobe_arch.h).
 *
 * No threads: the step begins at the int3 and ends at the #DB one instruction later with
 * interrupts off in between (so the task cannot move to another CPU meanwhile), so one
 * record of the step in progress per CPU is enough (this_cpu(), indexed by arch_cpu_id()).
 * ONE CPU still: the step puts the original byte back in place, in the process's page,
 * for the one instruction; another CPU running the same page then (a thread, once there
 * are threads) would run the original instruction unprobed, uncounted. Stepping out of
 * line (a per-CPU slot, as kprobe_arch.c) is what an SMP kernel with threads needs.
 */
#include "arch/x86/uprobe_arch.h"

#include "arch/x86/cpu.h"
#include "arch/x86/insn_decode.h"
#include "arch/x86/trap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vm.h"
#include "kernel/proc/task_internal.h"
#include "kernel/smp.h"

#define INT3 0xcc

static uprobe_arch_hook_t uprobe_hook;

/* The step in progress on a CPU. */
struct uprobe_step {
    bool active;
    struct task *task;     /* the stepping process */
    uint32_t addr;         /* the probed instruction */
    uint8_t orig;          /* its first byte */
    bool rep;              /* a rep string instruction: one #DB per iteration */
    bool pushf;            /* the pushed flags need the process's TF and IF */
    uint32_t saved_flags;  /* the process's TF and IF */
};
static struct uprobe_step cpu_steps[MAX_CPUS];

/* This CPU's step. Programs on several CPUs hit probes and step at once, each CPU in its
 * own slot; a stepping process cannot move to another CPU meanwhile, because it steps with
 * interrupts off (no tick, no IPI reaches it before the #DB). */
static struct uprobe_step *this_cpu(void) { return &cpu_steps[arch_cpu_id()]; }

void uprobe_arch_set_hook(uprobe_arch_hook_t hook) { uprobe_hook = hook; }

bool uprobe_arch_poke(struct addr_space *as, uint32_t addr, uint8_t expect, uint8_t byte)
{
    if (!as || !vm_page_private(as, addr))
        return false;
    volatile uint8_t *p = vm_kmap(as, addr);
    bool poked = p && *p == expect;
    if (poked)
        *p = byte;
    vm_kunmap((void *)p);
    return poked;
}

void uprobe_arch_rewrite(struct addr_space *as, uint32_t addr)
{
    volatile uint8_t *p = as && vm_page_private(as, addr) ? vm_kmap(as, addr) : 0;
    if (!p)
        return;
    invlpg((uint32_t)(uintptr_t)p); /* QEMU refills the entry: the store takes its slow path */
    *p = *p;
    vm_kunmap((void *)p);
}

static uint32_t int3_holds;

void uprobe_arch_hold_int3(bool hold)
{
    unsigned long flags = arch_irq_save();
    if (hold && int3_holds++ == 0)
        kprobe_arch_route_int3(true);
    else if (!hold && int3_holds > 0 && --int3_holds == 0)
        kprobe_arch_route_int3(false);
    arch_irq_restore(flags);
}

/* The probe's int3: the hook records, then the original byte goes back for one step. */
static bool breakpoint(struct trap_frame *tf)
{
    struct task *t = current;
    uint32_t addr = tf->eip - 1;
    const volatile uint8_t *p = t->as ? vm_kmap(t->as, addr) : 0;
    bool int3 = p && *p == INT3;
    vm_kunmap((void *)p);
    if (!int3 || !uprobe_hook)
        return false;
    uint32_t regs[KPROBE_ARCH_NREGS] = {
        tf->eax, tf->ebx, tf->ecx, tf->edx, tf->esi, tf->edi, tf->ebp,
        tf->user_esp, addr, tf->eflags,
    };
    uint8_t orig;
    if (!uprobe_hook(addr, regs, &orig))
        return false;
    if (!uprobe_arch_poke(t->as, addr, INT3, orig))
        return false; /* not the process's own page any more: vector 3's other users */
    /* What the step must fix: a pushf pushes the flags of the step (TF set, IF clear). */
    uint8_t code[INSN_MAX];
    uint32_t avail = 0;
    while (avail < INSN_MAX && copy_from_user(&code[avail], addr + avail, 1) == 0)
        avail++;
    struct insn in;
    bool decoded = insn_decode(code, avail, &in) == 0;
    struct uprobe_step *s = this_cpu();
    *s = (struct uprobe_step){
        .active = true, .task = t, .addr = addr, .orig = orig,
        .rep = decoded && (in.rep || in.repne) && in.map == INSN_MAP_1,
        .pushf = decoded && insn_step_fixup(&in) == INSN_FIX_IP_FLAGS,
        .saved_flags = tf->eflags & (EFLAGS_TF | EFLAGS_IF),
    };
    tf->eip = addr;
    tf->eflags = (tf->eflags | EFLAGS_TF) & ~EFLAGS_IF;
    return true;
}

/* Ends the step: the 0xCC back over the instruction (if the probe is still there: the
 * byte is still the original one), the process's TF and IF back. */
static void end_step(struct uprobe_step *s, struct trap_frame *tf)
{
    uprobe_arch_poke(s->task->as, s->addr, s->orig, INT3);
    tf->eflags = (tf->eflags & ~(EFLAGS_TF | EFLAGS_IF)) | s->saved_flags;
    s->active = false;
}

/* The #DB after the step. */
static bool single_step(struct trap_frame *tf, struct uprobe_step *s)
{
    if (!(read_dr6() & DR6_SINGLE_STEP))
        return false;
    write_dr6(0);
    if (s->rep && tf->eip == s->addr)
        return true; /* one iteration of a rep string instruction: step the next */
    if (s->pushf) {
        uint32_t pushed;
        if (copy_from_user(&pushed, tf->user_esp, 4) == 0) {
            pushed = (pushed & ~(EFLAGS_TF | EFLAGS_IF)) | s->saved_flags;
            copy_to_user(tf->user_esp, &pushed, 4);
        }
    }
    end_step(s, tf);
    return true;
}

bool uprobe_arch_trap(struct trap_frame *tf)
{
    struct uprobe_step *s = this_cpu();
    if (s->active && s->task == current) {
        if (tf->vector == VEC_DEBUG)
            return single_step(tf, s);
        /* The stepped instruction faulted: as if it had faulted without a probe. */
        end_step(s, tf);
        return false;
    }
    if (tf->vector == VEC_BREAKPOINT)
        return breakpoint(tf);
    return false;
}

bool uprobe_arch_stepping(void) { return this_cpu()->active; }
