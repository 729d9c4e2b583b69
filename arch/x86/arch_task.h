/*
 * arch_task.h - what x86 keeps in every task besides the portable fields: the x87 state,
 * the TLS descriptors, and the I/O ports ring 3 may use (ioperm, iopl: arch/x86/ioport.c).
 * Included by kernel/arch.h in kernel builds; the portable struct task embeds it as
 * `arch` and only arch/x86 looks inside.
 */
#ifndef ARCH_X86_ARCH_TASK_H
#define ARCH_X86_ARCH_TASK_H

#include <stdbool.h>
#include <stdint.h>

struct io_bitmap;

struct arch_task {
    bool fpu_used;            /* has run an x87/SSE instruction: fpu_state is its registers */
    uint8_t fpu_loaded_on;    /* the CPU (plus one; 0: none) whose FPU last loaded them */
    uint8_t fpu_state[512 + 16]; /* its x87 and SSE registers while another task's are in
                                    the FPU: FXSAVE's 512-byte image at the first 16-byte
                                    boundary in it (FNSAVE's 108 bytes at its start on a CPU
                                    without FXSR) (arch/x86/fpu.c) */
    uint64_t tls[3];          /* GDT slots 6..8 while it runs (0: empty); set_thread_area */
    /* What a switch between two processes looks at beyond its straight path, a flag each,
     * read together as switch_work: a switch between two tasks with neither tests one word
     * of each (arch_switch_to). */
    union {
        struct {
            bool tls_used; /* one of tls[] is not 0 (every writer of tls[] sets it) */
            bool io_ports; /* io_bitmap, or iopl_emul 3: a switch to or from this task sets
                            * the TSS's I/O bitmap (ioport_switch_to) */
        };
        uint32_t switch_work; /* (the other two bytes stay 0) */
    };
    struct io_bitmap *io_bitmap; /* ioperm's ports (NULL: none), shared with fork's copies
                                    until one of them changes it (ioport.c) */
    uint8_t iopl_emul;        /* iopl's level: 3 is every port (never IOPL itself) */
    bool iopl_warned;         /* its cli/sti taken as a no-op was reported once */
};

#endif
