/*
 * fpu.c - x87 registers of its own for every task, switched lazily.
 *
 * The CPU has one set of x87/MMX registers, and the kernel is built not to touch them
 * (-mgeneral-regs-only). A program that computes with them must find them as it left them,
 * whatever ran in between. Saving and loading them on every switch would tax the tasks that
 * never use the FPU (most of them), so a switch only keeps CR0.TS set while the running
 * task is not the one whose registers the FPU holds (fpu_owner). The first x87 instruction
 * such a task runs then raises #NM (device not available), and only then does the handler
 * load the task's registers (FRSTOR), or a clean set for a task that never used the FPU.
 * An owner that exits just stops being the owner; an x87 error it left pending is cleared
 * (FNCLEX) at the next handover.
 *
 * On SMP a task may run next on another CPU, so its registers cannot wait in one CPU's
 * FPU until someone else needs it: a switch away from a task that used the FPU since it
 * was switched in (TS clear) saves them at once. Each CPU has its own owner, and a task
 * notes the CPU that loaded its registers last (fpu_loaded_on): the registers a CPU still
 * holds are the task's only if that CPU loaded them last, else the saved image is newer
 * (the task used the FPU elsewhere since) and #NM loads it. The save costs a task that
 * computes with the FPU one FXSAVE per switch; tasks that never touch it pay nothing.
 *
 * The int3 snapshot's hardware task switch sets TS as well. When the interrupted task is
 * the owner, the #NM after it only clears TS; otherwise it is an ordinary handover.
 * CR0.NE makes an unmasked x87 error raise #MF (vector 16: the program is killed with
 * SIGFPE) instead of the PC's external IRQ 13, and CR0.MP makes WAIT trap under TS like the
 * other x87 instructions. On a CPU with FXSR and SSE (every QEMU model), CR4.OSFXSR and
 * CR4.OSXMMEXCPT are set, as Linux sets them: programs may use SSE (glibc's string
 * functions do), the state saved is FXSAVE's (x87 and XMM registers, MXCSR), SSE
 * instructions under TS raise #NM like x87 ones, and an unmasked SIMD error is #XM
 * (SIGFPE). Without FXSR the kernel falls back to FNSAVE and SSE stays off (#UD).
 */
#include "arch/x86/fpu.h"

#include "arch/x86/cpu.h"
#include "arch/x86/trap.h"
#include "kernel/lib/string.h"
#include "kernel/smp.h"
#include "kernel/proc/task_internal.h"

#define CR0_MP (1u << 1)
#define CR0_EM (1u << 2)
#define CR0_NE (1u << 5)
#define VEC_DEVICE_NOT_AVAILABLE 7

_Static_assert(sizeof(((struct task *)0)->arch.fpu_state) >= 512 + 15, "FXSAVE writes 512 bytes");

#define CR4_OSFXSR (1u << 9)
#define CR4_OSXMMEXCPT (1u << 10)
#define CPUID1_EDX_FXSR (1u << 24)
#define CPUID1_EDX_SSE (1u << 25)

struct task *cpu_fpu_owner[MAX_CPUS]; /* whose registers each CPU's FPU holds (fpu.h) */
#define fpu_owner (cpu_fpu_owner[arch_cpu_id()])   /* this CPU's; NULL: nobody's */
static bool use_fxsr;          /* FXSAVE/FXRSTOR and SSE on (fpu_init) */

/* Where t's saved image lives: 16-byte aligned for FXSAVE (the task structure's own
 * alignment is the heap's). */
static uint8_t *state_of(struct task *t)
{
    return (uint8_t *)(((uintptr_t)t->arch.fpu_state + 15) & ~(uintptr_t)15);
}

/* Saves the FPU's registers into t's image (FNSAVE also resets the FPU, FXSAVE does not). */
static void save_state(struct task *t)
{
    uint8_t *img = state_of(t);
    if (use_fxsr)
        __asm__ volatile("fxsave %0" : "=m"(*(uint8_t(*)[512])img));
    else
        __asm__ volatile("fnsave %0" : "=m"(*(uint8_t(*)[108])img));
}

/* Loads an image into the FPU. */
static void load_state(const uint8_t *img)
{
    if (use_fxsr)
        __asm__ volatile("fxrstor %0" : : "m"(*(const uint8_t(*)[512])img));
    else
        __asm__ volatile("frstor %0" : : "m"(*(const uint8_t(*)[108])img));
}

/* Sets or clears CR0.TS, writing CR0 (a serializing instruction) only when it changes. */
static void set_ts(bool on)
{
    uint32_t cr0 = read_cr0();
    uint32_t want = on ? cr0 | CR0_TS : cr0 & ~CR0_TS;
    if (want != cr0)
        write_cr0(want);
}

/* True when this CPU's FPU holds t's registers as t left them. */
static bool registers_are(const struct task *t)
{
    return fpu_owner == t && t->arch.fpu_loaded_on == arch_cpu_id() + 1;
}

void fpu_switch(struct task *prev, struct task *next)
{
    unsigned me = arch_cpu_id(); /* interrupts are off: this CPU throughout */
    struct task **owner = &cpu_fpu_owner[me];
    uint32_t cr0 = read_cr0();
    if (prev == *owner && prev->state == TASK_ZOMBIE) {
        *owner = 0; /* its registers die with it */
    } else if (prev == *owner && !(cr0 & CR0_TS)) {
        save_state(prev); /* it used them: its image must be current wherever it runs next */
        if (!use_fxsr)
            *owner = 0; /* FNSAVE reset the FPU */
    }
    /* TS set unless next's registers are the ones in this FPU (registers_are). */
    bool ts = !(*owner == next && next->arch.fpu_loaded_on == me + 1);
    uint32_t want = ts ? cr0 | CR0_TS : cr0 & ~CR0_TS;
    if (want != cr0)
        write_cr0(want);
}

/* What a task that never used the FPU starts with, as an FNSAVE image: FNINIT's control
 * word 0x37f (every exception masked, 64-bit precision, round to nearest), the tag word
 * 0xffff (every register empty), zeros elsewhere. FNINIT alone would leave the data
 * registers as the previous user left them, for MMX instructions to read. */
static const uint8_t clean_fnsave_state[108] = { [0] = 0x7f, [1] = 0x03, [8] = 0xff, [9] = 0xff };
/* The same as FXSAVE's image: control word 0x37f, the abridged tag word 0 (all empty),
 * MXCSR 0x1f80 (every SIMD exception masked, round to nearest), zero registers. */
static const uint8_t clean_fxsave_state[512] __attribute__((aligned(16))) = {
    [0] = 0x7f, [1] = 0x03, [24] = 0x80, [25] = 0x1f,
};

/* #NM: the running task wants the FPU. Hands it over and lets the instruction run again. */
static bool device_not_available(struct trap_frame *tf)
{
    (void)tf;
    __asm__ volatile("clts");
    if (registers_are(current))
        return true; /* TS came from the snapshot's task switch, back into the owner */
    /* The owner's registers were saved when it was switched away, with any error it left
     * pending (FNSAVE or FXSAVE: neither waits). FNCLEX drops that error from the FPU (or
     * one a dead owner left), so that FRSTOR, which waits for pending errors, cannot raise
     * #MF here in the kernel: the error went with the state it belongs to. */
    __asm__ volatile("fnclex");
    const uint8_t *clean = use_fxsr ? clean_fxsave_state : clean_fnsave_state;
    load_state(current->arch.fpu_used ? state_of(current) : clean);
    current->arch.fpu_used = true;
    current->arch.fpu_loaded_on = (uint8_t)(arch_cpu_id() + 1);
    fpu_owner = current;
    return true;
}

void fpu_init(void)
{
    uint32_t a = 1, b, c, d;
    __asm__ volatile("cpuid" : "+a"(a), "=b"(b), "=c"(c), "=d"(d));
    use_fxsr = (d & CPUID1_EDX_FXSR) && (d & CPUID1_EDX_SSE);
    if (use_fxsr)
        write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
    write_cr0((read_cr0() | CR0_MP | CR0_NE | CR0_TS) & ~CR0_EM);
    trap_set_handler(VEC_DEVICE_NOT_AVAILABLE, device_not_available);
}

void fpu_copy_state(struct task *child)
{
    child->arch.fpu_used = current->arch.fpu_used;
    if (!current->arch.fpu_used)
        return;
    unsigned long flags = arch_irq_save();
    if (registers_are(current)) {
        /* The live registers (FNSAVE resets the FPU, so they go back at once). */
        __asm__ volatile("clts");
        save_state(child);
        load_state(state_of(child));
    } else {
        memcpy(state_of(child), state_of(current), 512);
    }
    arch_irq_restore(flags);
}

void fpu_forget(struct task *t)
{
    t->arch.fpu_used = false;
    t->arch.fpu_loaded_on = 0; /* no CPU's registers are its any more */
    if (fpu_owner == t) {
        fpu_owner = 0;
        set_ts(true); /* its next x87 instruction gets a clean set */
    }
}
