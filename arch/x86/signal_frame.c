/*
 * signal_frame.c - signals on x86 as Linux's arch/x86/kernel/signal_32.c has them: what each
 * exception from ring 3 becomes (signal, si_code, address), the frame pushed on the user
 * stack to run a handler (uapi/signal.h), and sigreturn, which takes the registers back
 * from that frame without letting a forged one give ring 3 anything it could not have.
 *
 * Departures from Linux, all on purpose and documented in docs/signals.md:
 *   - no FPU state is saved in the frame (sigcontext.fpstate is 0) or restored from it;
 *   - without SA_RESTORER the handler returns through the frame's retcode (Linux without a
 *     vDSO), as there is no vDSO;
 *   - sigreturn refuses a CS or SS other than the user ones with SIGSEGV at once (Linux
 *     lets the iret fault and answers SIGILL/ILL_BADSTK);
 *   - sigcontext.cr2 is the faulting address of a page fault, 0 for other signals.
 */
#include "arch/x86/signal_frame.h"

#include "arch/x86/cpu.h"
#include "arch/x86/fpu_exception.h"
#include "arch/x86/gdt.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/vm.h"
#include "kernel/log/printk.h"
#include "kernel/proc/task_internal.h"
#include "kernel/trace_hooks.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall_handlers.h"
#include "kernel/mm/uaccess.h"
#include "uapi/syscall.h"

#include <stddef.h>

#define EFLAGS_PF 0x4u
#define EFLAGS_AF 0x10u
#define EFLAGS_ZF 0x40u
#define EFLAGS_SF 0x80u
#define EFLAGS_OF 0x800u
#define EFLAGS_RF 0x10000u
#define EFLAGS_AC 0x40000u
/* What sigreturn may change (Linux's FIX_EFLAGS): never IF, IOPL, NT, VM or VIF/VIP. */
#define SIGRETURN_EFLAGS                                                                   \
    (EFLAGS_AC | EFLAGS_OF | EFLAGS_DF | EFLAGS_TF | EFLAGS_SF | EFLAGS_ZF | EFLAGS_AF |   \
     EFLAGS_PF | EFLAGS_CF | EFLAGS_RF)
#define PF_PRESENT 0x1u

/* The trap frame of the current process's entry from ring 3: every entry from ring 3 lands
 * at the top of its kernel stack (main_tss.esp0), so it is always there. */
static struct trap_frame *user_frame(void)
{
    return (struct trap_frame *)(current->kstack + KERNEL_STACK_PAGES * PAGE_SIZE) - 1;
}

uint32_t arch_user_stack_pointer(void) { return user_frame()->user_esp; }

#define CR4_OSFXSR (1u << 9)

/* The x87 control and status words at an #MF. */
static void read_x87_words(uint16_t *cw, uint16_t *sw)
{
    __asm__ volatile("fnstcw %0\n\tfnstsw %1" : "=m"(*cw), "=m"(*sw));
}

/* MXCSR at an #XM: the faulting process's own (it owns the FPU: it just ran the SSE
 * instruction). stmxcsr is #UD unless CR4.OSFXSR is set, which fpu.c does only on a CPU
 * with FXSR and SSE; without it, as Linux without SSE, MXCSR's default (nothing raised) is
 * the answer (and the CPU cannot raise #XM from ring 3 at all). */
static uint32_t read_mxcsr(void)
{
    if (!(read_cr4() & CR4_OSFXSR))
        return MXCSR_DEFAULT;
    uint32_t mxcsr;
    __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
    return mxcsr;
}

int fault_signal(const struct trap_frame *tf, uint32_t cr2, struct fault_info *fi)
{
    fi->code = SI_KERNEL;
    fi->addr = 0;
    fi->trapno = tf->vector;
    fi->err = tf->error_code;
    fi->cr2 = 0;
    switch (tf->vector) {
    case 0:
        fi->code = FPE_INTDIV, fi->addr = tf->eip;
        return fi->signo = SIGFPE;
    case 1: {
        uint32_t dr6;
        __asm__ volatile("mov %%dr6, %0" : "=r"(dr6));
        __asm__ volatile("mov %0, %%dr6" : : "r"(0u)); /* as Linux: each #DB starts clean */
        fi->code = (dr6 & 0x4000) ? TRAP_TRACE : TRAP_BRKPT, fi->addr = tf->eip;
        return fi->signo = SIGTRAP;
    }
    case 3:
        fi->code = SI_KERNEL;
        return fi->signo = SIGTRAP;
    case 6:
        fi->code = ILL_ILLOPN, fi->addr = tf->eip;
        return fi->signo = SIGILL;
    case 9:
        return fi->signo = SIGFPE;
    case 11:
    case 12:
        return fi->signo = SIGBUS;
    case 14:
        fi->addr = fi->cr2 = cr2;
        if (cr2 >= USER_BASE && cr2 < USER_TOP) {
            /* A PROT_NONE page is the process's though not present: "access error". */
            bool owned = (tf->error_code & PF_PRESENT) || vm_page_used(current->as, cr2);
            fi->code = owned ? SEGV_ACCERR : SEGV_MAPERR;
        } else {
            /* The kernel's part of the address space: as Linux, always "no mapping", and
             * the error code says "protection" whether the page is there or not, so the
             * kernel's layout does not show through. */
            fi->code = SEGV_MAPERR;
            fi->err |= PF_PRESENT;
        }
        return fi->signo = SIGSEGV;
    case VEC_X87_FPU_ERROR: {
        uint16_t cw, sw;
        read_x87_words(&cw, &sw);
        fi->code = fpu_exception_code(VEC_X87_FPU_ERROR, cw, sw, 0), fi->addr = tf->eip;
        return fi->signo = fi->code ? SIGFPE : 0; /* 0: spurious, no signal (Linux) */
    }
    case 17:
        fi->code = BUS_ADRALN;
        return fi->signo = SIGBUS;
    case VEC_SIMD_FP_ERROR:
        fi->code = fpu_exception_code(VEC_SIMD_FP_ERROR, 0, 0, read_mxcsr()), fi->addr = tf->eip;
        return fi->signo = fi->code ? SIGFPE : 0;
    default: /* #OF, #BR, #TS, #GP (every `int N` ring 3 may not use) ... */
        return fi->signo = SIGSEGV;
    }
}

const char *signal_name(int sig)
{
    switch (sig) {
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    default: return "SIGSEGV";
    }
}

/* The registers of tf as a sigcontext (Linux's setup_sigcontext). */
static void save_sigcontext(const struct trap_frame *tf, const struct fault_info *fi,
                            uint32_t mask_low, struct kernel_sigcontext *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->gs = (uint16_t)tf->gs, sc->fs = (uint16_t)tf->fs;
    sc->es = (uint16_t)tf->es, sc->ds = (uint16_t)tf->ds;
    sc->edi = tf->edi, sc->esi = tf->esi, sc->ebp = tf->ebp, sc->esp = tf->user_esp;
    sc->ebx = tf->ebx, sc->edx = tf->edx, sc->ecx = tf->ecx, sc->eax = tf->eax;
    sc->trapno = fi->trapno, sc->err = fi->err, sc->eip = tf->eip;
    sc->cs = (uint16_t)tf->cs, sc->eflags = tf->eflags, sc->esp_at_signal = tf->user_esp;
    sc->ss = (uint16_t)tf->user_ss;
    sc->fpstate = 0;
    sc->oldmask = mask_low;
    sc->cr2 = fi->cr2;
}

/* Where the frame goes (Linux's get_sigframe): below the interrupted ESP, or at the top of
 * the alternate stack for SA_ONSTACK, aligned so that ESP + 4 is a multiple of 16 when
 * the handler starts, as after a call. 0 when it would leave the alternate stack. */
static uint32_t frame_address(const struct sigstate *s, const struct kernel_sigaction *ka,
                              uint32_t sp, uint32_t size)
{
    bool was_on = sigstate_on_altstack(s, sp), entering = false;
    if ((ka->flags & SA_ONSTACK) && sigstate_altstack_flags(s, sp) == 0) {
        sp = s->altstack_sp + s->altstack_size;
        entering = true;
    }
    sp -= size;
    sp = ((sp + 4) & ~15u) - 4;
    if ((was_on || entering) && !sigstate_sp_in_altstack(s, sp))
        return 0;
    return sp;
}

/* Writes the frame for handler ka of fi's signal and points tf at the handler. False
 * (nothing changed in tf) when the frame cannot be written. */
static bool setup_frame(struct trap_frame *tf, const struct fault_info *fi,
                        const struct kernel_sigaction *ka, kernel_sigset_t blocked)
{
    struct sigstate *s = &current->sig;
    uint32_t frame, pinfo = 0, puc = 0;
    if (ka->flags & SA_SIGINFO) {
        static const uint8_t retcode[8] = { 0xb8, SYS_rt_sigreturn, 0, 0, 0, 0xcd, 0x80, 0 };
        struct kernel_rt_sigframe f;
        memset(&f, 0, sizeof f);
        frame = frame_address(s, ka, tf->user_esp, sizeof f);
        if (!frame)
            return false;
        pinfo = frame + offsetof(struct kernel_rt_sigframe, info);
        puc = frame + offsetof(struct kernel_rt_sigframe, uc);
        f.pretcode = (ka->flags & SA_RESTORER) ? ka->restorer
                                               : frame + offsetof(struct kernel_rt_sigframe, retcode);
        f.sig = fi->signo, f.pinfo = pinfo, f.puc = puc;
        f.info.si_signo = fi->signo, f.info.si_errno = 0, f.info.si_code = fi->code;
        f.info.si_addr = fi->addr; /* _kill._pid and _sigchld._pid share its place */
        memcpy(f.info.rest, &fi->uid, 4);     /* si_uid */
        memcpy(f.info.rest + 4, &fi->status, 4); /* si_status (SIGCHLD) */
        f.uc.uc_stack = sigstate_saved_altstack(s);
        save_sigcontext(tf, fi, (uint32_t)blocked, &f.uc.uc_mcontext);
        f.uc.uc_sigmask = blocked;
        memcpy(f.retcode, retcode, sizeof retcode);
        if (copy_to_user(frame, &f, sizeof f))
            return false;
    } else {
        static const uint8_t retcode[8] = { 0x58, 0xb8, SYS_sigreturn, 0, 0, 0, 0xcd, 0x80 };
        struct kernel_sigframe f;
        memset(&f, 0, sizeof f);
        frame = frame_address(s, ka, tf->user_esp, sizeof f);
        if (!frame)
            return false;
        f.pretcode = (ka->flags & SA_RESTORER) ? ka->restorer
                                               : frame + offsetof(struct kernel_sigframe, retcode);
        f.sig = fi->signo;
        save_sigcontext(tf, fi, (uint32_t)blocked, &f.sc);
        f.extramask = (uint32_t)(blocked >> 32);
        memcpy(f.retcode, retcode, sizeof retcode);
        if (copy_to_user(frame, &f, sizeof f))
            return false;
    }
    tf->user_esp = frame;
    tf->eip = ka->handler;
    tf->eax = (uint32_t)fi->signo, tf->edx = pinfo, tf->ecx = puc;
    tf->ds = tf->es = tf->user_ss = SEL_USER_DATA;
    tf->cs = SEL_USER_CODE;
    tf->eflags &= ~(EFLAGS_DF | EFLAGS_RF | EFLAGS_TF);
    return true;
}

/* The process dies of sig with a line saying why (what Linux's force_sigsegv and a
 * sigreturn that cannot be undone end in). */
static void __attribute__((noreturn)) die_of(int sig, int code, const char *why, uint32_t where)
{
    trace_signal_deliver(sig, code, 0, 0); /* taken with its default action: SIG_DFL */
    printk("%s[%d]: killed by %s: %s at %#x\n", current->name, current->pid, signal_name(sig),
           why, where);
    ksnprintf(current->exit_reason, sizeof current->exit_reason, "killed by %s (%s)",
              signal_name(sig), why);
    arch_irq_enable();
    task_exit_signal(sig, sig_default_action(sig) == SIG_DEFAULT_CORE);
}

/* A signal frame could not be written: the process dies of SIGSEGV, forced on it (Linux's
 * force_sigsegv: generated for this task alone, then taken). */
static void __attribute__((noreturn)) die_of_unwritable_frame(uint32_t esp)
{
    trace_signal_generate(SIGSEGV, SI_KERNEL, current, 0, TRACE_SIGNAL_DELIVERED);
    die_of(SIGSEGV, SI_KERNEL, "signal frame not writable", esp);
}

/* tf is a system call that a signal cut short with EINTR, which may be made again. Not
 * after sigreturn: its EAX is the register the frame restored, which may hold -EINTR
 * (the call a handler interrupted answered it), and making "the call" again would run
 * sigreturn once more on a stack with no frame (Linux: orig_ax = -1). */
static bool interrupted_syscall(const struct trap_frame *tf)
{
    return tf->vector == SYSCALL_VECTOR && (int32_t)tf->eax == -EINTR &&
           current->syscall_nr != NO_SYSCALL;
}

void signal_deliver(struct trap_frame *tf)
{
    struct sigstate *s = &current->sig;
    struct sig_origin o;
    int sig;
    while ((sig = sigstate_take(s, &o)) != 0) {
        struct kernel_sigaction ka = s->action[sig - 1];
        trace_signal_deliver(sig, o.code, ka.handler, ka.flags); /* SIG_IGN too, as Linux */
        if (ka.handler == SIG_IGN)
            continue;
        if (ka.handler == SIG_DFL) {
            enum sig_default d = sig_default_action(sig);
            if (d == SIG_DEFAULT_IGNORE || d == SIG_DEFAULT_STOP)
                continue;
            arch_irq_enable();
            task_exit_signal(sig, d == SIG_DEFAULT_CORE);
        }
        /* A handler: its frame records the mask from before rt_sigsuspend, if that is
         * what was interrupted (the handler itself runs with the mask sigsuspend set, as
         * on Linux, plus its own). */
        struct fault_info fi = { .signo = sig, .code = o.code, .addr = o.pid, .uid = o.uid,
                                 .status = o.status };
        kernel_sigset_t mask = s->restore_mask ? s->saved_mask : s->blocked;
        s->restore_mask = false;
        if (interrupted_syscall(tf) && (ka.flags & SA_RESTART) &&
            sig_syscall_restartable(current->syscall_nr)) {
            /* SA_RESTART: the handler returns to the `int $0x80` again, EAX its number. */
            tf->eax = current->syscall_nr;
            tf->eip -= 2;
        }
        if (!setup_frame(tf, &fi, &ka, mask))
            die_of_unwritable_frame(tf->user_esp);
        if (ka.flags & SA_RESETHAND)
            s->action[sig - 1].handler = SIG_DFL;
        sigstate_handler_started(s, sig, &ka);
        return; /* one handler per return to ring 3; the next return takes the next */
    }
    if (s->restore_mask) {
        s->blocked = s->saved_mask;
        s->restore_mask = false;
    }
    /* No handler ran: the signal that cut a sleep short was dropped (ignored by the time it
     * was taken), so the call is made again, as Linux restarts it when no handler is
     * invoked; but for the sleeps, whose time has partly passed (Linux restarts them with
     * what is left; here they answer EINTR and write it). */
    if (interrupted_syscall(tf) && !current->killed && current->syscall_nr != SYS_nanosleep && current->syscall_nr != 267 &&
        current->syscall_nr != 407) {
        tf->eax = current->syscall_nr;
        tf->eip -= 2;
    }
}

bool signal_force(struct trap_frame *tf, const struct fault_info *fi)
{
    /* Linux's force_sig_fault: sent to this task alone, never ignored or blocked; taken at
     * once, by its handler or (the caller's death) by the default action. */
    trace_signal_generate(fi->signo, fi->code, current, 0, TRACE_SIGNAL_DELIVERED);
    struct kernel_sigaction ka;
    if (!sigstate_fault_handler(&current->sig, fi->signo, &ka))
        return false;
    trace_signal_deliver(fi->signo, fi->code, ka.handler, ka.flags);
    if (!setup_frame(tf, fi, &ka, current->sig.blocked))
        die_of_unwritable_frame(tf->user_esp);
    sigstate_handler_started(&current->sig, fi->signo, &ka);
    return true;
}

void signal_force_or_die(struct trap_frame *tf, const struct fault_info *fi, const char *why)
{
    if (!signal_force(tf, fi))
        die_of(fi->signo, fi->code, why, fi->addr);
}

bool signal_fault_from_user(struct trap_frame *tf)
{
    struct fault_info fi;
    if (!fault_signal(tf, tf->vector == 14 ? read_cr2() : 0, &fi))
        return true; /* a spurious #MF/#XM: as Linux, no signal; the instruction runs again */
    if (!signal_force(tf, &fi))
        return false; /* the caller's report reads the x87 error again: leave it pending */
    if (tf->vector == VEC_X87_FPU_ERROR)
        __asm__ volatile("fnclex"); /* the handler starts without the pending x87 error */
    return true;
}

/*
 * The registers back from a sigcontext (Linux's restore_sigcontext): every general register,
 * EIP and ESP as saved (a kernel EIP just faults in ring 3); EFLAGS only in the bits ring 3
 * may change; DS..GS as saved, any that ring 3 may not hold becoming null on the way out
 * (trap.c); CS and SS forced to RPL 3 and refused unless they are the user segments.
 */
static bool restore_sigcontext(struct trap_frame *tf, const struct kernel_sigcontext *sc)
{
    /* Checked before anything is written: a refused frame leaves every register as the
     * sigreturn call had it. */
    uint32_t cs = sc->cs | 3u, ss = sc->ss | 3u;
    if (cs != SEL_USER_CODE || ss != SEL_USER_DATA)
        return false;
    tf->gs = sc->gs, tf->fs = sc->fs, tf->es = sc->es, tf->ds = sc->ds;
    tf->edi = sc->edi, tf->esi = sc->esi, tf->ebp = sc->ebp, tf->user_esp = sc->esp;
    tf->ebx = sc->ebx, tf->edx = sc->edx, tf->ecx = sc->ecx, tf->eax = sc->eax;
    tf->eip = sc->eip;
    tf->cs = cs, tf->user_ss = ss;
    tf->eflags = (tf->eflags & ~SIGRETURN_EFLAGS) | (sc->eflags & SIGRETURN_EFLAGS);
    current->syscall_nr = NO_SYSCALL; /* the registers are the interrupted code's, not a call's */
    return true;
}

/* A sigreturn that cannot be honoured: SIGSEGV is forced (Linux's signal_fault), and with
 * no handler for it the process dies. Returns what goes back in EAX. */
static int32_t bad_frame(struct trap_frame *tf, const char *which, uint32_t frame)
{
    struct fault_info fi = { .signo = SIGSEGV, .code = SI_KERNEL };
    if (!signal_force(tf, &fi))
        die_of(SIGSEGV, SI_KERNEL, which, frame);
    return (int32_t)tf->eax;
}

/* rt_sigreturn: the handler's `ret` popped pretcode, so the frame starts 4 bytes below. */
SYSCALL_HANDLER(rt_sigreturn)
{
    (void)a;
    struct trap_frame *tf = user_frame();
    uint32_t frame = tf->user_esp - 4;
    struct kernel_ucontext uc;
    if (copy_from_user(&uc, frame + offsetof(struct kernel_rt_sigframe, uc), sizeof uc))
        return bad_frame(tf, "bad rt_sigreturn frame", frame);
    if (!restore_sigcontext(tf, &uc.uc_mcontext))
        return bad_frame(tf, "bad rt_sigreturn segments", frame);
    sigstate_restore_mask(&current->sig, uc.uc_sigmask);
    /* Linux's restore_altstack: the frame's uc_stack through sigaltstack's rules; its
     * errors other than EFAULT are ignored, and there is none here. */
    sigstate_altstack(&current->sig, tf->user_esp, &uc.uc_stack, 0);
    return (int32_t)tf->eax;
}

/* sigreturn: the restorer popped pretcode and sig (popl %eax), so the frame is 8 below. */
SYSCALL_HANDLER(sigreturn)
{
    (void)a;
    struct trap_frame *tf = user_frame();
    uint32_t frame = tf->user_esp - 8;
    struct kernel_sigcontext sc;
    uint32_t extramask;
    if (copy_from_user(&sc, frame + offsetof(struct kernel_sigframe, sc), sizeof sc) ||
        copy_from_user(&extramask, frame + offsetof(struct kernel_sigframe, extramask),
                       sizeof extramask))
        return bad_frame(tf, "bad sigreturn frame", frame);
    if (!restore_sigcontext(tf, &sc))
        return bad_frame(tf, "bad sigreturn segments", frame);
    sigstate_restore_mask(&current->sig, ((kernel_sigset_t)extramask << 32) | sc.oldmask);
    return (int32_t)tf->eax;
}
