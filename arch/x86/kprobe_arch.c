/*
 * kprobe_arch.c - int3 probes and the out-of-line single step (kprobe_arch.h).
 *
 * Several CPUs hit probes at once; one changes the armed table at a time. The table
 * changes only in thread context (enabling or disabling a probe event), and that runs under
 * the big kernel lock (kernel/kernel_lock.h), never preempted in the kernel: one writer at
 * a time, whichever CPU its task runs on.
 * Any CPU may search the table at an int3 (find_site) meanwhile: an entry is complete
 * before the count that makes it visible is published (release; the int3 goes in after
 * that), and disarm never hides a live entry (the last one is copied into the hole while
 * the count still covers both, and the freed place is reused only once every CPU has left
 * the int3 handler it may have been searching from: smp_sync_cores). Each CPU has its own
 * hook flag, step slot and saved flags (struct kprobe_cpu, indexed by arch_cpu_id()), so
 * CPUs hitting probes at once never step each other's copies.
 */
#include "arch/x86/kprobe_arch.h"

#include "arch/x86/cpu.h"
#include "arch/x86/ftrace_arch.h"
#include "arch/x86/insn_decode.h"
#include "arch/x86/snapshot.h"
#include "arch/x86/trap.h"
#include "kernel/arch.h"
#include "kernel/spinlock.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/ioremap.h"
#include "kernel/smp.h"

struct armed_site {
    uint32_t addr;
    uint32_t users;
    uint8_t insn[INSN_MAX]; /* the displaced instruction, first byte included */
    uint8_t len;
    uint8_t fixup;          /* enum insn_fixup */
    bool rep;               /* a rep string instruction: it steps once per iteration */
};

static struct armed_site armed[KPROBE_ARCH_MAX_SITES];
uint32_t kprobe_arch_narmed; /* sites armed (kprobe_arch_may_trap reads it) */
static kprobe_arch_hook_t probe_hook;

/* What a CPU is doing with probes: in the hook, or stepping a copy in its slot. */
struct kprobe_cpu {
    bool in_hook;
    bool stepping;
    uint32_t orig;          /* the probed instruction's address */
    uint8_t len, fixup;
    bool rep;
    uint32_t saved_flags;   /* the probed code's TF and IF */
    uint8_t slot[16] __attribute__((aligned(16))); /* the copy runs here */
};
static struct kprobe_cpu kprobe_cpus[MAX_CPUS];

/* This CPU's state: its own slot, so a step never runs another CPU's copy. Called only with
 * interrupts off (int3 and #DB are interrupt gates), so the CPU cannot change under it. */
static struct kprobe_cpu *this_cpu(void) { return &kprobe_cpus[arch_cpu_id()]; }

/* Who records a hit (trace/kprobes). */
void kprobe_arch_set_hook(kprobe_arch_hook_t hook) { probe_hook = hook; }

/* The armed entry for addr, or 0. Safe on any CPU while another arms or disarms: the
 * count is read once (acquire), and every entry below it is whole (see kprobe_arch_disarm). */
static struct armed_site *find_site(uint32_t addr)
{
    uint32_t n = __atomic_load_n(&kprobe_arch_narmed, __ATOMIC_ACQUIRE);
    for (uint32_t i = 0; i < n; i++)
        if (__atomic_load_n(&armed[i].addr, __ATOMIC_ACQUIRE) == addr)
            return &armed[i];
    return 0;
}

/* The byte the code has at addr, an armed site's int3 seen through. */
uint8_t kprobe_arch_original_byte(uint32_t addr)
{
    const struct armed_site *s = find_site(addr);
    return s ? s->insn[0] : *(const volatile uint8_t *)(uintptr_t)addr;
}

/* Copies n bytes of text at addr, each armed site's int3 replaced by its original byte. */
static void read_text(uint32_t addr, uint8_t *buf, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        buf[i] = kprobe_arch_original_byte(addr + i);
}

/* Decodes from func to addr, so an int3 only ever goes where an instruction starts and
 * only on one that can be stepped out of line. */
int kprobe_arch_prepare(uint32_t func, uint32_t size, uint32_t addr, const char **why)
{
    *why = 0;
    if (addr < func || addr >= func + size)
        return -EINVAL;
    /* Decode from the function's start, one instruction at a time, in a small window. */
    uint32_t at = func;
    while (at < addr) {
        uint8_t buf[INSN_MAX];
        uint32_t n = func + size - at < INSN_MAX ? func + size - at : INSN_MAX;
        read_text(at, buf, n);
        struct insn in;
        if (insn_decode(buf, n, &in) != 0) {
            *why = "an instruction before it cannot be decoded";
            return -EINVAL;
        }
        at += in.length;
    }
    if (at != addr)
        return -EILSEQ;
    uint8_t buf[INSN_MAX];
    uint32_t n = func + size - addr < INSN_MAX ? func + size - addr : INSN_MAX;
    read_text(addr, buf, n);
    struct insn in;
    if (insn_decode(buf, n, &in) != 0) {
        *why = "the instruction cannot be decoded";
        return -EINVAL;
    }
    *why = insn_kprobe_refusal(&in);
    return *why ? -EINVAL : 0;
}

/* Whether any site is armed (mmiotrace asks before it starts). */
bool kprobe_arch_int3_armed(void) { return kprobe_arch_narmed > 0; }

/* Arms addr: the entry is filled in, then published (release), then the int3 written, so a
 * CPU that meets the int3 always finds its entry. Thread context on CPU 0 (the header). */
int kprobe_arch_arm(uint32_t addr)
{
    struct armed_site *s = find_site(addr);
    if (s) {
        s->users++;
        return 0;
    }
    if (mmiotrace_arch_active())
        return -EBUSY; /* see kprobe_arch_int3_armed */
    if (kprobe_arch_narmed == KPROBE_ARCH_MAX_SITES)
        return -ENOSPC;
    struct insn in;
    uint8_t buf[INSN_MAX];
    memcpy(buf, (const void *)(uintptr_t)addr, INSN_MAX);
    if (insn_decode(buf, INSN_MAX, &in) != 0 || insn_kprobe_refusal(&in))
        return -EINVAL; /* prepared before: only if the text changed since */
    s = &armed[kprobe_arch_narmed];
    *s = (struct armed_site){ .addr = addr, .users = 1, .len = in.length,
                              .fixup = (uint8_t)insn_step_fixup(&in),
                              .rep = (in.rep || in.repne) && in.map == INSN_MAP_1 };
    memcpy(s->insn, buf, in.length);
    unsigned long flags = arch_irq_save();
    uint32_t n = kprobe_arch_narmed;
    if (n == 0)
        kprobe_arch_route_int3(true); /* vector 3 through trap_dispatch from now on */
    __atomic_store_n(&kprobe_arch_narmed, n + 1, __ATOMIC_RELEASE);
    arch_irq_restore(flags);
    /* The site is known before its int3 is there; the poke syncs every CPU, interrupts on. */
    text_poke_byte(addr, 0xcc);
    return 0;
}

/* Disarms addr with its last user: the original byte goes back (text_poke_byte syncs every
 * CPU, so none meets this int3 afterwards), then the entry is forgotten without ever hiding
 * another live entry from a CPU searching the table at the same time. */
void kprobe_arch_disarm(uint32_t addr)
{
    struct armed_site *s = find_site(addr);
    if (!s || --s->users > 0)
        return;
    /* The byte goes back first, interrupts on. The poke syncs every CPU by IPI, which a CPU
     * takes only with interrupts on: one that met this int3 before has finished its hook
     * and its step (interrupts off from the int3 to the #DB) by the time the poke returns,
     * so no CPU is left needing this entry, nor kprobe_arch_may_trap, for its #DB. */
    text_poke_byte(addr, s->insn[0]);
    uint32_t last = kprobe_arch_narmed - 1;
    /* The last entry is copied into the hole while the count still covers both, so a CPU
     * searching meanwhile finds it in one place or the other. The hole matches no address
     * while it fills (0 is never kernel text); its address goes in last (release), so a
     * CPU that matches it reads the whole entry. */
    if (s != &armed[last]) {
        __atomic_store_n(&s->addr, 0, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        struct armed_site moved = armed[last];
        s->users = moved.users;
        memcpy(s->insn, moved.insn, sizeof s->insn);
        s->len = moved.len;
        s->fixup = moved.fixup;
        s->rep = moved.rep;
        __atomic_store_n(&s->addr, moved.addr, __ATOMIC_RELEASE);
    }
    unsigned long flags = arch_irq_save();
    __atomic_store_n(&kprobe_arch_narmed, last, __ATOMIC_RELEASE);
    if (last == 0)
        kprobe_arch_route_int3(false);
    arch_irq_restore(flags);
    /* armed[last] is reused by the next arm only once every CPU has finished any search
     * that read the old count: each has left the int3 handler (interrupts off from the
     * trap to its end) when it executes the serializing instruction this waits for. */
    smp_sync_cores();
}

static uint32_t int3_route_holds;

/* Counts who needs vector 3 through trap_dispatch; the first hold and the last release
 * switch the gate. */
void kprobe_arch_route_int3(bool hold)
{
    /* an ftrace round on one CPU and a kprobe arming on another both count here */
    static struct spinlock route_lock = SPINLOCK_INIT("int3 route");
    unsigned long flags = spin_lock_irqsave(&route_lock);
    if (hold && int3_route_holds++ == 0)
        snapshot_use_task_gate(false);
    else if (!hold && int3_route_holds > 0 && --int3_route_holds == 0)
        snapshot_use_task_gate(true);
    spin_unlock_irqrestore(&route_lock, flags);
}

/* The probe's int3: run the hook, then send the CPU to step the copy in its slot. */
static bool breakpoint(struct trap_frame *tf)
{
    uint32_t addr = tf->eip - 1;
    const struct armed_site *s = find_site(addr);
    if (!s)
        return false; /* a snapshot's or the ftrace patcher's int3 */
    struct kprobe_cpu *c = this_cpu();
    uint32_t regs[KPROBE_ARCH_NREGS] = {
        tf->eax, tf->ebx, tf->ecx, tf->edx, tf->esi, tf->edi, tf->ebp,
        trap_frame_esp(tf), addr, tf->eflags,
    };
    bool nested = c->in_hook;
    c->in_hook = true;
    if (probe_hook)
        probe_hook(addr, regs, nested);
    c->in_hook = nested;
    memcpy(c->slot, s->insn, s->len);
    /* The slot held another probe's instruction last time, and under QEMU's multi-threaded
     * TCG that translation may outlive the write above: the slots share a page with the
     * other CPUs', whose translating and running it can leave this CPU's writes to the
     * page on QEMU's fast path, which drops no translation. Then the old instruction ran
     * in place of this one (a one-byte push stepped for a call sent the CPU back to the
     * call's second byte). Written again through a fresh TLB entry, the slot's byte drops
     * every translation starting there. On hardware the iret that enters the slot orders
     * the write before it runs; this costs a page walk. */
    text_rewrite_byte((uint32_t)(uintptr_t)c->slot);
    c->orig = addr;
    c->len = s->len;
    c->fixup = s->fixup;
    c->rep = s->rep;
    c->saved_flags = tf->eflags & (EFLAGS_TF | EFLAGS_IF);
    c->stepping = true;
    tf->eflags = (tf->eflags | EFLAGS_TF) & ~EFLAGS_IF;
    tf->eip = (uint32_t)(uintptr_t)c->slot;
    return true;
}

/* The pushed return address of a call that ran in the slot, made the probed code's. */
static void fix_return_address(const struct kprobe_cpu *c, struct trap_frame *tf)
{
    uint32_t *tos = (uint32_t *)(uintptr_t)trap_frame_esp(tf);
    uint32_t copy = (uint32_t)(uintptr_t)c->slot;
    *tos = c->orig + (*tos - copy);
}

/* The #DB after the copy ran: the fixups of insn_step_fixup, then IF and TF given back. */
static bool single_step(struct trap_frame *tf)
{
    struct kprobe_cpu *c = this_cpu();
    if (!c->stepping || !(read_dr6() & DR6_SINGLE_STEP))
        return false;
    write_dr6(0);
    uint32_t copy = (uint32_t)(uintptr_t)c->slot;
    if (c->rep && tf->eip == copy)
        return true; /* one iteration of a rep string instruction: step the next */
    uint32_t *tos = (uint32_t *)(uintptr_t)trap_frame_esp(tf);
    switch (c->fixup) {
    case INSN_FIX_IP_FLAGS:
        *tos = (*tos & ~(EFLAGS_TF | EFLAGS_IF)) | c->saved_flags;
        tf->eip += c->orig - copy;
        break;
    case INSN_FIX_IP_RET:
        fix_return_address(c, tf);
        tf->eip += c->orig - copy;
        break;
    case INSN_FIX_RET:
        fix_return_address(c, tf);
        break;
    case INSN_FIX_NONE:
        break;
    default:
        tf->eip += c->orig - copy;
        break;
    }
    tf->eflags = (tf->eflags & ~(EFLAGS_TF | EFLAGS_IF)) | c->saved_flags;
    c->stepping = false;
    return true;
}

/* Another exception while a copy was stepping: it came from the copy. The frame is made the
 * probed code's (the faulting instruction at its own address, a call's pushed return
 * address, TF and IF), so the fault is handled or reported as if there were no probe. */
static void fault_in_step(struct trap_frame *tf)
{
    struct kprobe_cpu *c = this_cpu();
    if (!c->stepping)
        return;
    uint32_t copy = (uint32_t)(uintptr_t)c->slot;
    if (tf->eip >= copy && tf->eip < copy + c->len)
        tf->eip = c->orig + (tf->eip - copy);
    else if (c->fixup == INSN_FIX_IP_RET || c->fixup == INSN_FIX_RET)
        fix_return_address(c, tf); /* a call reached its target, which faulted */
    tf->eflags = (tf->eflags & ~(EFLAGS_TF | EFLAGS_IF)) | c->saved_flags;
    c->stepping = false;
}

/* --- return probes ----------------------------------------------------------------------- */

extern void kretprobe_trampoline(void);
static kretprobe_arch_hook_t return_hook;

/* Who answers a return to the trampoline (trace/kprobes). */
void kprobe_arch_set_return_hook(kretprobe_arch_hook_t hook) { return_hook = hook; }

/* The address a hijacked return slot gets. */
uint32_t kprobe_arch_trampoline(void) { return (uint32_t)(uintptr_t)kretprobe_trampoline; }

/* Called by kretprobe_trampoline: the hook, interrupts off, answers the real return address.
 * A slot nobody hijacked cannot reach here: without the hook there is no trampoline. */
uint32_t kretprobe_arch_return(uint32_t slot, uint32_t retval);
uint32_t kretprobe_arch_return(uint32_t slot, uint32_t retval)
{
    unsigned long flags = arch_irq_save();
    uint32_t ret = return_hook(slot, retval, flags != 0);
    arch_irq_restore(flags);
    return ret;
}

/* trap_dispatch's entry into kprobes (kprobe_arch.h). */
bool kprobe_arch_trap(struct trap_frame *tf)
{
    if (tf->vector == VEC_BREAKPOINT)
        return kprobe_arch_narmed > 0 && breakpoint(tf);
    if (tf->vector == VEC_DEBUG)
        return single_step(tf);
    fault_in_step(tf);
    return false;
}
