/*
 * arch_task.h - what x86 keeps in every task besides the portable fields: the x87 state.
 * Included by kernel/arch.h in kernel builds; the portable struct task embeds it as
 * `arch` and only arch/x86 looks inside.
 */
#ifndef ARCH_X86_ARCH_TASK_H
#define ARCH_X86_ARCH_TASK_H

#include <stdbool.h>
#include <stdint.h>

struct arch_task {
    bool fpu_used;            /* has run an x87/SSE instruction: fpu_state is its registers */
    uint8_t fpu_loaded_on;    /* the CPU (plus one; 0: none) whose FPU last loaded them */
    uint8_t fpu_state[512 + 16]; /* its x87 and SSE registers while another task's are in
                                    the FPU: FXSAVE's 512-byte image at the first 16-byte
                                    boundary in it (FNSAVE's 108 bytes at its start on a CPU
                                    without FXSR) (arch/x86/fpu.c) */
    uint64_t tls[3];          /* GDT slots 6..8 while it runs (0: empty); set_thread_area */
    bool tls_used;            /* one of tls[] is not 0 (every writer of tls[] sets it): a
                               * switch between two tasks without tests one flag of each */
};

#endif
