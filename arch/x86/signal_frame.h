/*
 * signal_frame.h - exceptions from ring 3 as Linux's i386 signals (arch/x86/signal_frame.c).
 */
#ifndef ARCH_X86_SIGNAL_FRAME_H
#define ARCH_X86_SIGNAL_FRAME_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/x86/trap.h"
#include "kernel/proc/signal.h"

/* A signal the CPU raised, with what its siginfo and sigcontext say about it. */
struct fault_info {
    int signo, code;     /* si_signo, si_code */
    uint32_t addr;       /* si_addr */
    uint32_t trapno, err; /* sigcontext's trapno and err (a page fault's err sanitized) */
    uint32_t cr2;        /* sigcontext's cr2 */
    uint32_t uid;        /* a sent signal's si_uid (faults: 0) */
    int32_t status;      /* SIGCHLD's si_status */
};

/* What Linux sends for exception tf->vector from ring 3 (cr2: the page-fault address):
 * fills *fi and returns the signal number; 0 (no signal) for an #MF or #XM with no
 * unmasked exception raised, which Linux treats as spurious. */
int fault_signal(const struct trap_frame *tf, uint32_t cr2, struct fault_info *fi);

/* "SIGSEGV" ... for a signal fault_signal can return. */
const char *signal_name(int sig);

/* A fault from ring 3: when the process has a handler for its signal (not blocked, not
 * ignored), pushes the handler's frame and points tf at the handler: true. True as well,
 * with tf untouched, for a spurious #MF/#XM (no signal, as Linux). False when the process
 * is to die of it (the caller reports and kills, as before signals existed). Kills the
 * process itself with SIGSEGV when the frame cannot be written. */
bool signal_fault_from_user(struct trap_frame *tf);

/* On the way back to ring 3 (tf: the current process's user registers), with interrupts
 * off: the next pending signal it does not block is taken. A handler gets its frame (the
 * mask it restores is the one from before rt_sigsuspend, if that was interrupted); a
 * default action that terminates ends the process (with the core flag for "core"); an
 * ignored signal is dropped. A system call the signal interrupted (EINTR) is made again
 * after a handler with SA_RESTART (sig_syscall_restartable), or when no handler ran at
 * all (the sleeps excepted), as Linux restarts them. */
void signal_deliver(struct trap_frame *tf);

/* Forces fi's signal on the current process, whose user registers are tf (Linux's
 * force_sig_fault): true when a handler will run, false when it must die. */
bool signal_force(struct trap_frame *tf, const struct fault_info *fi);

/* signal_force, and when no handler runs, the process dies of fi's signal with a line
 * saying why (Linux's force_sig for a fault found by the kernel, not by the CPU). */
void signal_force_or_die(struct trap_frame *tf, const struct fault_info *fi, const char *why);

#endif
