/*
 * fpu.c - x87 registers of its own for every task, switched lazily.
 *
 * The CPU has one set of x87/MMX registers, and the kernel is built not to touch them
 * (-mgeneral-regs-only). A program that computes with them must find them as it left them,
 * whatever ran in between. Saving and loading them on every switch would tax the tasks that
 * never use the FPU (most of them), so a switch only keeps CR0.TS set while the running
 * task is not the one whose registers the FPU holds (fpu_owner). The first x87 instruction
 * such a task runs then raises #NM (device not available), and only then does the handler
 * save the owner's registers (FNSAVE) and load the task's (FRSTOR), or give a task that
 * never used the FPU a clean one (FNINIT).
 *
 * The int3 snapshot's hardware task switch sets TS as well; the #NM after it finds the
 * owner unchanged and only clears TS. CR0.NE makes an unmasked x87 error raise #MF
 * (vector 16: the program is killed with SIGFPE) instead of the PC's external IRQ 13, and
 * CR0.MP makes WAIT trap under TS like the other x87 instructions. SSE is not enabled
 * (CR4.OSFXSR stays clear): an SSE instruction is #UD, and the program is killed.
 */
#include "arch/x86/fpu.h"

#include "arch/x86/cpu.h"
#include "arch/x86/trap.h"
#include "kernel/proc.h"

#define CR0_MP (1u << 1)
#define CR0_EM (1u << 2)
#define CR0_NE (1u << 5)
#define VEC_DEVICE_NOT_AVAILABLE 7

_Static_assert(sizeof(((struct task *)0)->fpu_state) == 108, "FNSAVE writes 108 bytes");

static struct task *fpu_owner; /* whose registers the FPU holds; NULL: nobody's */

/* Sets or clears CR0.TS, writing CR0 (a serializing instruction) only when it changes. */
static void set_ts(bool on)
{
    uint32_t cr0 = read_cr0();
    uint32_t want = on ? cr0 | CR0_TS : cr0 & ~CR0_TS;
    if (want != cr0)
        write_cr0(want);
}

void fpu_switch(struct task *prev, struct task *next)
{
    if (prev == fpu_owner && prev->state == TASK_ZOMBIE)
        fpu_owner = 0; /* its registers die with it */
    set_ts(next != fpu_owner);
}

/* #NM: the running task wants the FPU. Hands it over and lets the instruction run again. */
static bool device_not_available(struct trap_frame *tf)
{
    (void)tf;
    __asm__ volatile("clts");
    if (fpu_owner == current)
        return true; /* TS came from the snapshot's task switch */
    if (fpu_owner)
        __asm__ volatile("fnsave %0" : "=m"(fpu_owner->fpu_state));
    if (current->fpu_used) {
        __asm__ volatile("frstor %0" : : "m"(current->fpu_state));
    } else {
        __asm__ volatile("fninit");
        current->fpu_used = true;
    }
    fpu_owner = current;
    return true;
}

void fpu_init(void)
{
    write_cr0((read_cr0() | CR0_MP | CR0_NE | CR0_TS) & ~CR0_EM);
    trap_set_handler(VEC_DEVICE_NOT_AVAILABLE, device_not_available);
}
