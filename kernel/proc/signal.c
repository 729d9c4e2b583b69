/*
 * signal.c - the CPU-independent rules of Linux's signal calls (see signal.h).
 */
#include "kernel/proc/signal.h"

#include "kernel/lib/errno.h"
#include "uapi/ipc.h"
#include "uapi/syscall.h"

/* Neither can be caught, ignored (by a new action) or blocked. */
#define UNBLOCKABLE (SIGSET_BIT(SIGKILL) | SIGSET_BIT(SIGSTOP))

/* The sa_flags bits Linux keeps for x86 (UAPI_SA_FLAGS): others read back as 0, which is
 * how a program finds out a flag is unknown (SA_UNSUPPORTED is never kept). */
#define KNOWN_SA_FLAGS                                                                     \
    (SA_NOCLDSTOP | SA_NOCLDWAIT | SA_SIGINFO | SA_ONSTACK | SA_RESTART | SA_NODEFER |     \
     SA_RESETHAND | SA_EXPOSE_TAGBITS | SA_RESTORER)

static bool valid_signal(int sig) { return sig >= 1 && sig <= NSIG_LINUX; }

int sigstate_set_action(struct sigstate *s, int sig, const struct kernel_sigaction *act,
                        struct kernel_sigaction *old)
{
    if (!valid_signal(sig) || (act && (sig == SIGKILL || sig == SIGSTOP)))
        return -EINVAL;
    struct kernel_sigaction *slot = &s->action[sig - 1];
    if (old)
        *old = *slot;
    if (act) {
        *slot = *act;
        slot->flags &= KNOWN_SA_FLAGS;
        slot->mask &= ~UNBLOCKABLE;
        if (slot->handler == SIG_IGN ||
            (slot->handler == SIG_DFL && sig_default_action(sig) >= SIG_DEFAULT_IGNORE))
            s->pending &= ~SIGSET_BIT(sig);
    }
    return 0;
}

int sigstate_change_mask(struct sigstate *s, int how, kernel_sigset_t set)
{
    set &= ~UNBLOCKABLE;
    switch (how) {
    case SIG_BLOCK:
        s->blocked |= set;
        return 0;
    case SIG_UNBLOCK:
        s->blocked &= ~set;
        return 0;
    case SIG_SETMASK:
        s->blocked = set;
        return 0;
    default:
        return -EINVAL;
    }
}

/* Linux's __on_sig_stack: the stack grows down, so its top (sp + size) is on it, its base
 * is not. */
bool sigstate_sp_in_altstack(const struct sigstate *s, uint32_t sp)
{
    return s->altstack_size && sp > s->altstack_sp && sp - s->altstack_sp <= s->altstack_size;
}

/* Linux's on_sig_stack: never while SS_AUTODISARM is set. Such a stack is dropped when a
 * handler starts on it, so a program is on it with the flag still set only if it set the
 * flag from the stack itself; then a new signal starts again at its top (and sigaltstack
 * may change it), which keeps a program whose ESP strayed near the stack's end alive. */
bool sigstate_on_altstack(const struct sigstate *s, uint32_t sp)
{
    return !(s->altstack_flags & SS_AUTODISARM) && sigstate_sp_in_altstack(s, sp);
}

int sigstate_altstack_flags(const struct sigstate *s, uint32_t sp)
{
    if (!s->altstack_size)
        return SS_DISABLE;
    return sigstate_on_altstack(s, sp) ? SS_ONSTACK : 0;
}

int sigstate_altstack(struct sigstate *s, uint32_t sp, const struct kernel_stack *ss,
                      struct kernel_stack *old)
{
    if (old) {
        old->ss_sp = s->altstack_sp;
        old->ss_size = s->altstack_size;
        old->ss_flags =
            (int32_t)((uint32_t)sigstate_altstack_flags(s, sp) | (s->altstack_flags & SS_AUTODISARM));
    }
    if (!ss)
        return 0;
    if (sigstate_on_altstack(s, sp))
        return -EPERM;
    uint32_t mode = (uint32_t)ss->ss_flags & ~SS_AUTODISARM;
    if (mode != SS_DISABLE && mode != SS_ONSTACK && mode != 0)
        return -EINVAL;
    if (mode == SS_DISABLE) {
        s->altstack_sp = s->altstack_size = s->altstack_flags = 0;
        return 0;
    }
    if (ss->ss_size < MINSIGSTKSZ)
        return -ENOMEM;
    s->altstack_sp = ss->ss_sp;
    s->altstack_size = ss->ss_size;
    s->altstack_flags = (uint32_t)ss->ss_flags;
    return 0;
}

struct kernel_stack sigstate_saved_altstack(const struct sigstate *s)
{
    struct kernel_stack st = { s->altstack_sp, (int32_t)s->altstack_flags, s->altstack_size };
    if (!s->altstack_size)
        st.ss_flags = SS_DISABLE;
    return st;
}

bool sigstate_fault_handler(struct sigstate *s, int sig, struct kernel_sigaction *ka)
{
    struct kernel_sigaction *slot = &s->action[sig - 1];
    if ((s->blocked & SIGSET_BIT(sig)) || slot->handler == SIG_IGN) {
        slot->handler = SIG_DFL; /* force_sig_info: a fault is not to be ignored */
        s->blocked &= ~SIGSET_BIT(sig);
    }
    if (slot->handler == SIG_DFL)
        return false;
    *ka = *slot;
    if (slot->flags & SA_RESETHAND)
        slot->handler = SIG_DFL;
    return true;
}

void sigstate_handler_started(struct sigstate *s, int sig, const struct kernel_sigaction *ka)
{
    s->blocked |= ka->mask;
    if (!(ka->flags & SA_NODEFER))
        s->blocked |= SIGSET_BIT(sig);
    s->blocked &= ~UNBLOCKABLE;
    if (s->altstack_flags & SS_AUTODISARM)
        s->altstack_sp = s->altstack_size = s->altstack_flags = 0;
}

void sigstate_restore_mask(struct sigstate *s, kernel_sigset_t saved)
{
    s->blocked = saved & ~UNBLOCKABLE;
}

enum sig_default sig_default_action(int sig)
{
    switch (sig) {
    case SIGQUIT: case SIGILL: case SIGTRAP: case SIGABRT: case SIGBUS: case SIGFPE:
    case SIGSEGV: case SIGXCPU: case SIGXFSZ: case SIGSYS:
        return SIG_DEFAULT_CORE;
    case SIGCHLD: case SIGCONT: case SIGURG: case SIGWINCH:
        return SIG_DEFAULT_IGNORE;
    case SIGSTOP: case SIGTSTP: case SIGTTIN: case SIGTTOU:
        return SIG_DEFAULT_STOP;
    default: /* HUP INT KILL USR1 USR2 PIPE ALRM TERM STKFLT VTALRM PROF IO PWR, 32..64 */
        return SIG_DEFAULT_TERM;
    }
}

bool sigstate_ignores(const struct sigstate *s, int sig)
{
    if (s->blocked & SIGSET_BIT(sig))
        return false;
    uint32_t handler = s->action[sig - 1].handler;
    return handler == SIG_IGN ||
           (handler == SIG_DFL && sig_default_action(sig) >= SIG_DEFAULT_IGNORE);
}

bool sigstate_post(struct sigstate *s, int sig, const struct sig_origin *origin)
{
    if (sig == SIGKILL || !sigstate_ignores(s, sig)) {
        if (!(s->pending & SIGSET_BIT(sig))) /* a standard signal is queued once */
            s->origin[sig - 1] = *origin;
        s->pending |= SIGSET_BIT(sig);
    }
    return (s->pending & ~s->blocked & SIGSET_BIT(sig)) != 0;
}


int sigstate_take(struct sigstate *s, struct sig_origin *origin)
{
    kernel_sigset_t ready = s->pending & ~s->blocked;
    if (!ready)
        return 0;
    int sig = (ready & SIGSET_BIT(SIGKILL)) ? SIGKILL : __builtin_ctzll(ready) + 1;
    s->pending &= ~SIGSET_BIT(sig);
    *origin = s->origin[sig - 1];
    return sig;
}

void sigstate_exec(struct sigstate *s)
{
    for (int i = 0; i < NSIG_LINUX; i++) {
        struct kernel_sigaction *a = &s->action[i];
        if (a->handler != SIG_IGN)
            a->handler = SIG_DFL;
        a->flags = 0, a->restorer = 0, a->mask = 0;
    }
    s->altstack_sp = s->altstack_size = s->altstack_flags = 0;
}

void sigstate_fork(struct sigstate *child, const struct sigstate *parent)
{
    *child = *parent;
    child->pending = 0;
    child->restore_mask = false;
}

bool sig_syscall_restartable(unsigned nr)
{
    switch (nr) {
    case SYS_nanosleep:
    case 267: /* clock_nanosleep */
    case 407: /* clock_nanosleep_time64 */
    case SYS_pause:
    case 72: /* sigsuspend */
    case SYS_rt_sigsuspend:
    case 177: /* rt_sigtimedwait */
    case 421: /* rt_sigtimedwait_time64 */
    case 82: /* select */
    case 142: /* _newselect */
    case 168: /* poll */
    case 308: /* pselect6 */
    case 309: /* ppoll */
    case 413: /* pselect6_time64 */
    case 414: /* ppoll_time64 */
    case 256: /* epoll_wait */
    case 319: /* epoll_pwait */
        return false;
    default:
        return nr != SYS_tracekern_ipc;
    }
}
