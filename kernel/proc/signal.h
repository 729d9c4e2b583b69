/*
 * signal.h - each process's signal state, and the rules of Linux's signal calls that do not
 * depend on the CPU: which actions may be set, how the blocked mask changes, the alternate
 * stack, and what a synchronous fault (a page fault, #GP, #UD ...) does to that state.
 *
 * Signals here come only from the CPU: a fault in ring 3 forces its signal on the process
 * that caused it (Linux's force_sig_fault). There is no kill(2) and nothing is ever pending:
 * a fault either runs a handler at once or ends the process. The syscalls are in
 * kernel/syscall/sys_signal.c, the frames on the user stack in arch/x86/signal_frame.c.
 *
 * Portable: compiled for the host by the unit tests (tests/unit/test_signal.c).
 */
#ifndef KERNEL_PROC_SIGNAL_H
#define KERNEL_PROC_SIGNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "uapi/signal.h"

/* One process's signals (struct task's `sig`); all zero is a new process: every action
 * SIG_DFL, nothing blocked, no alternate stack. A process has one thread, so nothing else
 * touches it while its syscalls and faults do: no lock. */
struct sigstate {
    struct kernel_sigaction action[NSIG_LINUX]; /* action[sig - 1] */
    kernel_sigset_t blocked;
    uint32_t altstack_sp, altstack_size; /* sigaltstack(2); size 0: none */
    uint32_t altstack_flags; /* the ss_flags it was set with (SS_AUTODISARM matters) */
};

/* rt_sigaction's rules: sig in 1..64, SIGKILL and SIGSTOP fixed, unknown sa_flags bits
 * dropped, SIGKILL/SIGSTOP never in sa_mask. Stores *old first when old is not NULL, then
 * sets act when not NULL. 0 or -EINVAL. */
int sigstate_set_action(struct sigstate *s, int sig, const struct kernel_sigaction *act,
                        struct kernel_sigaction *old);

/* rt_sigprocmask's rules for how (SIG_BLOCK/SIG_UNBLOCK/SIG_SETMASK) and set; SIGKILL and
 * SIGSTOP can never be blocked. 0 or -EINVAL (mask unchanged). */
int sigstate_change_mask(struct sigstate *s, int how, kernel_sigset_t set);

/* sigaltstack's rules: *old gets the current stack (ss_flags says whether sp is on it);
 * then, when ss is not NULL, sets it: -EPERM while running on it, -EINVAL for bad flags,
 * -ENOMEM for a stack under MINSIGSTKSZ; SS_DISABLE clears it. */
int sigstate_altstack(struct sigstate *s, uint32_t sp, const struct kernel_stack *ss,
                      struct kernel_stack *old);

/* SS_ONSTACK when sp is on the alternate stack, SS_DISABLE when there is none, else 0. */
int sigstate_altstack_flags(const struct sigstate *s, uint32_t sp);

/* The stack a handler's ucontext records (uc_stack): as Linux's __save_altstack, the flags
 * it was set with, SS_DISABLE when there is none. */
struct kernel_stack sigstate_saved_altstack(const struct sigstate *s);

/* True when sp lies on the alternate stack (which grows down from sp + size). */
bool sigstate_sp_in_altstack(const struct sigstate *s, uint32_t sp);

/* Linux's on_sig_stack: sigstate_sp_in_altstack, but always false while the stack was set
 * with SS_AUTODISARM. What sigaltstack's SS_ONSTACK and EPERM, and the choice of stack for
 * a handler, go by. */
bool sigstate_on_altstack(const struct sigstate *s, uint32_t sp);

/*
 * A fault raised signal sig. Returns true when a handler is to run, with its action in *ka
 * (SA_RESETHAND has already reset the stored one). Returns false when the process must die
 * of it: no handler, or the signal is ignored or blocked (a fault cannot be ignored or
 * blocked: as in Linux, the action becomes SIG_DFL).
 */
bool sigstate_fault_handler(struct sigstate *s, int sig, struct kernel_sigaction *ka);

/* The handler's frame was written: blocks sa_mask and, without SA_NODEFER, sig itself for
 * the handler's run; drops an SS_AUTODISARM alternate stack. */
void sigstate_handler_started(struct sigstate *s, int sig, const struct kernel_sigaction *ka);

/* sigreturn: the mask saved in the frame comes back (SIGKILL/SIGSTOP never blocked). */
void sigstate_restore_mask(struct sigstate *s, kernel_sigset_t saved);

#endif
