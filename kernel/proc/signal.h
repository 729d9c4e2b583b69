/*
 * signal.h - each process's signal state, and the rules of Linux's signal calls that do not
 * depend on the CPU: which actions may be set, how the blocked mask changes, the alternate
 * stack, and what a synchronous fault (a page fault, #GP, #UD ...) does to that state.
 *
 * A fault in ring 3 forces its signal on the process that caused it (Linux's
 * force_sig_fault): a handler runs at once or the process ends. Other signals (kill(2),
 * SIGCHLD, SIGALRM, ^C) are made pending (one bit each, as Linux's standard signals) and
 * delivered on the process's next return to ring 3 (kernel/proc/task_signal.c sends them,
 * arch/x86/signal_frame.c delivers them). The syscalls are in kernel/syscall/sys_signal.c
 * and sys_process.c, the frames on the user stack in arch/x86/signal_frame.c.
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
    kernel_sigset_t pending;  /* sent, not yet delivered */
    struct sig_origin {       /* for each pending signal, what its siginfo says */
        int32_t code;         /* SI_USER, SI_TKILL, SI_KERNEL, CLD_* */
        uint32_t pid, uid;    /* the sender (SIGCHLD: the child) */
        int32_t status;       /* SIGCHLD: the exit code or signal */
    } origin[NSIG_LINUX];
    kernel_sigset_t saved_mask; /* rt_sigsuspend: the mask to put back after delivery */
    bool restore_mask;        /* saved_mask is set */
};

/* What a signal does under SIG_DFL: Linux's default actions (signal(7)). */
enum sig_default {
    SIG_DEFAULT_TERM,   /* the process ends, killed by the signal */
    SIG_DEFAULT_CORE,   /* the same, with the core flag (0x80) in its wait status */
    SIG_DEFAULT_IGNORE, /* nothing happens (SIGCHLD, SIGURG, SIGWINCH, SIGCONT) */
    SIG_DEFAULT_STOP,   /* SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU: Linux stops the process;
                         * this kernel has no stopped state and ignores them */
};
enum sig_default sig_default_action(int sig);

/* Whether sig would be dropped on arrival: not blocked, and its action SIG_IGN or a SIG_DFL
 * that ignores (Linux's sig_ignored; a blocked signal stays pending, its action may change
 * before it is unblocked). */
bool sigstate_ignores(const struct sigstate *s, int sig);

/* A signal arrives (kill, SIGCHLD, SIGALRM ...): pending unless ignored. True when it is
 * pending and not blocked, i.e. the process should be woken to take it. sig in 1..64. */
bool sigstate_post(struct sigstate *s, int sig, const struct sig_origin *origin);

/* True when some pending signal is not blocked: what makes a sleep end with EINTR. Inline,
 * as Linux's signal_pending: every sleep asks it. */
static inline bool sigstate_deliverable(const struct sigstate *s)
{
    return (s->pending & ~s->blocked) != 0;
}

/* Takes the lowest pending signal that is not blocked off the pending set (SIGKILL first),
 * with its origin in *origin; 0 when there is none. */
int sigstate_take(struct sigstate *s, struct sig_origin *origin);

/* Whether system call nr, interrupted (EINTR) by a signal whose handler has SA_RESTART, is
 * made again after the handler, as Linux's -ERESTARTSYS calls are (read, write, wait4,
 * ioctl ...). Never for the calls Linux answers EINTR whatever the flag: the sleeps
 * (nanosleep, clock_nanosleep), the waits for a signal (pause, sigsuspend,
 * rt_sigsuspend, rt_sigtimedwait), the multiplexers (select, poll, ppoll, pselect6,
 * epoll_wait), and tracekern's own IPC calls, which have timeouts. */
bool sig_syscall_restartable(unsigned nr);

/* execve's rule: caught signals go back to SIG_DFL (ignored ones stay ignored, as do the
 * mask and pending signals), the alternate stack is dropped. */
void sigstate_exec(struct sigstate *s);

/* fork's rule: the child gets the parent's actions, mask and alternate stack, with
 * nothing pending. */
void sigstate_fork(struct sigstate *child, const struct sigstate *parent);

/* rt_sigaction's rules: sig in 1..64, SIGKILL and SIGSTOP fixed, unknown sa_flags bits
 * dropped, SIGKILL/SIGSTOP never in sa_mask. Stores *old first when old is not NULL, then
 * sets act when not NULL; an action that ignores sig discards it if pending (as Linux).
 * 0 or -EINVAL. */
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

/*
 * Sending signals to tasks (kernel/proc/task_signal.c; kernel only, not portable). Each may
 * be called with interrupts off (the timer's SIGALRM, the console's ^C).
 */
struct task;
/* Sends sig (1..64; 0 does nothing) to task t with origin o, no permission asked: a
 * kernel thread or a zombie ignores it; a signal whose action is the default "terminate"
 * or "core" (and SIGKILL) kills t at once, as Linux's fatal-signal shortcut; any other is
 * made pending and wakes t from an interruptible sleep. */
void signal_send(struct task *t, int sig, const struct sig_origin *o);
/* Sends sig from the kernel (SI_KERNEL) to every process of group pgid: 0, or -ESRCH when
 * it has none. The console's ^C (SIGINT to the foreground group) calls it. */
int signal_send_pgrp(int pgid, int sig);
/* kill(2) from the current process: pid > 0 that process, 0 the caller's group, -1 every
 * process but the shell and itself (refusals there are not errors, as on Linux), < -1
 * group -pid. Linux's permission rule (the sender's real or effective uid is the target's
 * real or saved uid, or the sender is root): 0, -EINVAL, -ESRCH or -EPERM. sig 0 only
 * checks. A kernel thread ignores every signal (as Linux's do). */
int signal_kill(int pid, int sig);
/* tgkill(2) (tgid -1: tkill(2)): one task by its thread id, with SI_TKILL. */
int signal_tgkill(int tgid, int tid, int sig);
/* From the timer tick: t's ITIMER_REAL expired at now: SIGALRM, and the timer rearmed
 * with its interval or disarmed. */
void signal_alarm_expired(struct task *t, uint64_t now);

#endif
