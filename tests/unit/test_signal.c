/* test_signal.c - the CPU-independent rules of the signal calls (kernel/proc/signal.c), the
 * i386 layouts of uapi/signal.h as a 64-bit host compiles them, and the UMIP decoder. */
#include "unit.h"

#include <stddef.h>
#include <string.h>

#include "arch/x86/fpu_exception.h"
#include "arch/x86/umip_decode.h"
#include "kernel/lib/errno.h"
#include "kernel/proc/signal.h"

TEST(layouts_are_linux_i386)
{
    CHECK_EQ_INT(sizeof(struct kernel_sigaction), 20);
    CHECK_EQ_INT(offsetof(struct kernel_sigaction, mask), 12);
    CHECK_EQ_INT(offsetof(struct kernel_sigcontext, trapno), 48);
    CHECK_EQ_INT(offsetof(struct kernel_sigcontext, eip), 56);
    CHECK_EQ_INT(offsetof(struct kernel_sigcontext, cr2), 84);
    CHECK_EQ_INT(offsetof(struct kernel_ucontext, uc_mcontext), 20);
    CHECK_EQ_INT(offsetof(struct kernel_ucontext, uc_sigmask), 108);
    CHECK_EQ_INT(offsetof(struct kernel_rt_sigframe, info), 16);
    CHECK_EQ_INT(offsetof(struct kernel_rt_sigframe, uc), 144);
    CHECK_EQ_INT(offsetof(struct kernel_rt_sigframe, retcode), 260);
    CHECK_EQ_INT(offsetof(struct kernel_sigframe, sc), 8);
    CHECK_EQ_INT(offsetof(struct kernel_sigframe, extramask), 720);
    CHECK_EQ_INT(offsetof(struct kernel_sigframe, retcode), 724);
}

TEST(set_action_rules)
{
    struct sigstate s = { 0 };
    struct kernel_sigaction act = { 0x1234, SA_SIGINFO | SA_UNSUPPORTED | 0x100, 0x5678,
                                    SIGSET_BIT(SIGKILL) | SIGSET_BIT(SIGSTOP) | SIGSET_BIT(SIGUSR1) };
    struct kernel_sigaction old;
    CHECK_EQ_INT(sigstate_set_action(&s, 0, &act, 0), -EINVAL);
    CHECK_EQ_INT(sigstate_set_action(&s, 65, &act, 0), -EINVAL);
    CHECK_EQ_INT(sigstate_set_action(&s, SIGKILL, &act, 0), -EINVAL);
    CHECK_EQ_INT(sigstate_set_action(&s, SIGSTOP, &act, 0), -EINVAL);
    CHECK_EQ_INT(sigstate_set_action(&s, SIGKILL, 0, &old), 0);
    CHECK_EQ_INT(sigstate_set_action(&s, 64, &act, &old), 0);
    CHECK_EQ_INT(old.handler, SIG_DFL);
    CHECK_EQ_INT(sigstate_set_action(&s, 64, 0, &old), 0);
    CHECK_EQ_INT(old.handler, 0x1234);
    CHECK_EQ_INT(old.flags, SA_SIGINFO);
    CHECK(old.mask == SIGSET_BIT(SIGUSR1));
}

TEST(mask_rules)
{
    struct sigstate s = { 0 };
    CHECK_EQ_INT(sigstate_change_mask(&s, 3, ~0ull), -EINVAL);
    CHECK(s.blocked == 0);
    CHECK_EQ_INT(sigstate_change_mask(&s, SIG_SETMASK, ~0ull), 0);
    CHECK(s.blocked == ~(SIGSET_BIT(SIGKILL) | SIGSET_BIT(SIGSTOP)));
    CHECK_EQ_INT(sigstate_change_mask(&s, SIG_UNBLOCK, SIGSET_BIT(SIGSEGV)), 0);
    CHECK(!(s.blocked & SIGSET_BIT(SIGSEGV)));
    CHECK_EQ_INT(sigstate_change_mask(&s, SIG_BLOCK, SIGSET_BIT(SIGSEGV)), 0);
    CHECK(s.blocked & SIGSET_BIT(SIGSEGV));
    sigstate_restore_mask(&s, ~0ull);
    CHECK(!(s.blocked & SIGSET_BIT(SIGKILL)));
}

TEST(fault_handler_rules)
{
    struct sigstate s = { 0 };
    struct kernel_sigaction ka, act = { 0x4000, SA_SIGINFO | SA_RESETHAND, 0, SIGSET_BIT(SIGUSR2) };
    CHECK(!sigstate_fault_handler(&s, SIGSEGV, &ka)); /* SIG_DFL: dies */
    sigstate_set_action(&s, SIGSEGV, &act, 0);
    CHECK(sigstate_fault_handler(&s, SIGSEGV, &ka));
    CHECK_EQ_INT(ka.handler, 0x4000);
    CHECK_EQ_INT(s.action[SIGSEGV - 1].handler, SIG_DFL); /* SA_RESETHAND */
    sigstate_handler_started(&s, SIGSEGV, &ka);
    CHECK(s.blocked == (SIGSET_BIT(SIGSEGV) | SIGSET_BIT(SIGUSR2)));
    /* blocked: a fault cannot be blocked, the process dies and the action is SIG_DFL */
    act.flags = SA_NODEFER;
    sigstate_set_action(&s, SIGSEGV, &act, 0);
    CHECK(!sigstate_fault_handler(&s, SIGSEGV, &ka));
    CHECK(!(s.blocked & SIGSET_BIT(SIGSEGV)));
    CHECK_EQ_INT(s.action[SIGSEGV - 1].handler, SIG_DFL);
    /* ignored: the same */
    act.handler = SIG_IGN;
    sigstate_set_action(&s, SIGILL, &act, 0);
    CHECK(!sigstate_fault_handler(&s, SIGILL, &ka));
    CHECK_EQ_INT(s.action[SIGILL - 1].handler, SIG_DFL);
    /* SA_NODEFER leaves the signal unblocked in its handler */
    act.handler = 0x5000;
    s.blocked = 0;
    sigstate_set_action(&s, SIGFPE, &act, 0);
    CHECK(sigstate_fault_handler(&s, SIGFPE, &ka));
    sigstate_handler_started(&s, SIGFPE, &ka);
    CHECK(s.blocked == SIGSET_BIT(SIGUSR2));
}

TEST(altstack_rules)
{
    struct sigstate s = { 0 };
    struct kernel_stack ss = { 0x10000, 0, MINSIGSTKSZ - 1 }, old;
    CHECK_EQ_INT(sigstate_altstack_flags(&s, 0x5000), SS_DISABLE);
    CHECK_EQ_INT(sigstate_altstack(&s, 0x5000, &ss, &old), -ENOMEM);
    CHECK_EQ_INT(old.ss_flags, SS_DISABLE);
    ss.ss_size = 0x4000, ss.ss_flags = 4;
    CHECK_EQ_INT(sigstate_altstack(&s, 0x5000, &ss, 0), -EINVAL);
    ss.ss_flags = 0;
    CHECK_EQ_INT(sigstate_altstack(&s, 0x5000, &ss, 0), 0);
    CHECK(!sigstate_on_altstack(&s, 0x10000)); /* its base is not on it */
    CHECK(sigstate_on_altstack(&s, 0x14000)); /* its top is */
    CHECK_EQ_INT(sigstate_altstack(&s, 0x12000, &ss, &old), -EPERM);
    CHECK_EQ_INT(old.ss_flags, SS_ONSTACK);
    /* Set with SS_AUTODISARM (here from the stack itself, which is allowed: Linux's
     * on_sig_stack is false for such a stack) it is never "on": no SS_ONSTACK, no EPERM. */
    ss.ss_flags = (int32_t)SS_AUTODISARM;
    CHECK_EQ_INT(sigstate_altstack(&s, 0x5000, &ss, 0), 0);
    CHECK(sigstate_sp_in_altstack(&s, 0x14000));
    CHECK(!sigstate_sp_in_altstack(&s, 0x10000));
    CHECK(!sigstate_on_altstack(&s, 0x14000));
    CHECK_EQ_INT(sigstate_altstack_flags(&s, 0x12000), 0);
    CHECK_EQ_INT(sigstate_altstack(&s, 0x12000, &ss, &old), 0);
    CHECK_EQ_INT(old.ss_flags, (int32_t)SS_AUTODISARM);
    struct kernel_sigaction ka = { 1, SA_ONSTACK, 0, 0 };
    sigstate_handler_started(&s, SIGSEGV, &ka); /* SS_AUTODISARM: gone */
    CHECK_EQ_INT(sigstate_altstack_flags(&s, 0x12000), SS_DISABLE);
    CHECK_EQ_INT(sigstate_saved_altstack(&s).ss_flags, SS_DISABLE);
    ss.ss_flags = SS_DISABLE;
    CHECK_EQ_INT(sigstate_altstack(&s, 0x5000, &ss, 0), 0);
}

/* #MF's si_code from the x87 words and #XM's from MXCSR, as Linux's fpu__exception_code;
 * nothing raised and unmasked is spurious: 0, no signal. */
TEST(fpu_exception_codes)
{
    const uint16_t masked = 0x037f, zm_open = 0x037b; /* FNINIT's control word; ZM clear */
    CHECK_EQ_INT(fpu_exception_code(VEC_X87_FPU_ERROR, zm_open, 0x0084, 0), FPE_FLTDIV);
    CHECK_EQ_INT(fpu_exception_code(VEC_X87_FPU_ERROR, 0x0372, 0x00a5, 0), FPE_FLTINV);
    CHECK_EQ_INT(fpu_exception_code(VEC_X87_FPU_ERROR, 0x0340, 0x00b8, 0), FPE_FLTOVF);
    CHECK_EQ_INT(fpu_exception_code(VEC_X87_FPU_ERROR, 0x0340, 0x00b0, 0), FPE_FLTUND);
    CHECK_EQ_INT(fpu_exception_code(VEC_X87_FPU_ERROR, 0x0340, 0x00a2, 0), FPE_FLTUND);
    CHECK_EQ_INT(fpu_exception_code(VEC_X87_FPU_ERROR, 0x0340, 0x00a0, 0), FPE_FLTRES);
    /* ES set, the flags raised all masked (fldenv can leave that): spurious */
    CHECK_EQ_INT(fpu_exception_code(VEC_X87_FPU_ERROR, masked, 0x0084, 0), 0);
    CHECK_EQ_INT(fpu_exception_code(VEC_X87_FPU_ERROR, zm_open, 0x0080, 0), 0);
    /* MXCSR: flags in bits 0-5, masks in 7-12 */
    CHECK_EQ_INT(fpu_exception_code(VEC_SIMD_FP_ERROR, 0, 0, MXCSR_DEFAULT), 0);
    CHECK_EQ_INT(fpu_exception_code(VEC_SIMD_FP_ERROR, 0, 0, (MXCSR_DEFAULT & ~0x200u) | 0x4), FPE_FLTDIV);
    CHECK_EQ_INT(fpu_exception_code(VEC_SIMD_FP_ERROR, 0, 0, MXCSR_DEFAULT | 0x4), 0);
    CHECK_EQ_INT(fpu_exception_code(VEC_SIMD_FP_ERROR, 0, 0, 0x0021), FPE_FLTINV);
    CHECK_EQ_INT(fpu_exception_code(VEC_SIMD_FP_ERROR, 0, 0, (MXCSR_DEFAULT & ~0x1000u) | 0x20), FPE_FLTRES);
    /* the x87 words do not count for #XM, nor MXCSR for #MF */
    CHECK_EQ_INT(fpu_exception_code(VEC_SIMD_FP_ERROR, zm_open, 0x0084, MXCSR_DEFAULT), 0);
    CHECK_EQ_INT(fpu_exception_code(VEC_X87_FPU_ERROR, masked, 0, 0x0004), 0);
}

/* The UMIP decoder on the encodings the hostile program uses, and on what it refuses. */
TEST(umip_decode_encodings)
{
    const uint32_t regs[8] = { 0x100, 0x3, 0x200, 0x300, 0x400, 0x500, 0x600, 0x700 };
    struct umip_insn in;
    static const uint8_t sgdt_eax[] = { 0x0f, 0x01, 0x00 };
    CHECK(umip_decode(sgdt_eax, 3, regs, &in));
    CHECK_EQ_INT(in.length, 3);
    CHECK_EQ_INT(in.reg, 0);
    CHECK_EQ_INT(in.address, 0x100);
    static const uint8_t sgdt_sib[] = { 0x0f, 0x01, 0x44, 0x48, 0x08 }; /* 8(%eax,%ecx,2) */
    CHECK(umip_decode(sgdt_sib, 5, regs, &in));
    CHECK_EQ_INT(in.length, 5);
    CHECK_EQ_INT(in.address, 0x100 + 3 * 2 + 8);
    CHECK(!umip_decode(sgdt_sib, 4, regs, &in)); /* the displacement is missing */
    static const uint8_t smsw_ax[] = { 0x66, 0x0f, 0x01, 0xe0 };
    CHECK(umip_decode(smsw_ax, 4, regs, &in));
    CHECK(in.operand16 && in.mod == 3 && in.reg == 4 && in.rm == 0);
    static const uint8_t sidt_ebp[] = { 0x64, 0x0f, 0x01, 0x4d, 0xfc }; /* %fs:-4(%ebp) */
    CHECK(umip_decode(sidt_ebp, 5, regs, &in));
    CHECK(in.segment == 4 && in.stack_default && in.address == 0x4fc);
    static const uint8_t addr16[] = { 0x67, 0x0f, 0x01, 0x00 };
    CHECK(!umip_decode(addr16, 4, regs, &in));
    uint8_t too_long[16];
    memset(too_long, 0x66, sizeof too_long);
    too_long[12] = 0x0f, too_long[13] = 0x01, too_long[14] = 0x05; /* + disp32: 19 bytes */
    CHECK(!umip_decode(too_long, 16, regs, &in));
}

/* Issue 16: signals sent between processes (kernel/proc/signal.c's pending set). */
TEST(default_actions_are_linux)
{
    CHECK_EQ_INT(sig_default_action(SIGTERM), SIG_DEFAULT_TERM);
    CHECK_EQ_INT(sig_default_action(SIGKILL), SIG_DEFAULT_TERM);
    CHECK_EQ_INT(sig_default_action(SIGALRM), SIG_DEFAULT_TERM);
    CHECK_EQ_INT(sig_default_action(40), SIG_DEFAULT_TERM); /* real-time */
    CHECK_EQ_INT(sig_default_action(SIGSEGV), SIG_DEFAULT_CORE);
    CHECK_EQ_INT(sig_default_action(SIGQUIT), SIG_DEFAULT_CORE);
    CHECK_EQ_INT(sig_default_action(SIGSYS), SIG_DEFAULT_CORE);
    CHECK_EQ_INT(sig_default_action(SIGCHLD), SIG_DEFAULT_IGNORE);
    CHECK_EQ_INT(sig_default_action(SIGWINCH), SIG_DEFAULT_IGNORE);
    CHECK_EQ_INT(sig_default_action(SIGTSTP), SIG_DEFAULT_STOP);
}

TEST(post_and_take)
{
    struct sigstate s = { 0 };
    struct sig_origin o = { SI_USER, 7, 1000, 0 }, got;
    /* Ignored by default, not blocked: dropped on arrival. */
    CHECK(!sigstate_post(&s, SIGCHLD, &o));
    CHECK_EQ_INT(s.pending, 0);
    /* Blocked: kept pending even if ignored (its action may change before unblocking). */
    s.blocked = SIGSET_BIT(SIGCHLD) | SIGSET_BIT(SIGUSR1);
    CHECK(!sigstate_post(&s, SIGCHLD, &o));
    CHECK(!sigstate_post(&s, SIGUSR1, &o));
    CHECK(!sigstate_deliverable(&s));
    CHECK_EQ_INT(sigstate_take(&s, &got), 0);
    /* Unblocked: taken lowest first, with its origin; SIGKILL before all. */
    s.blocked = 0;
    struct sig_origin k = { SI_USER, 9, 0, 0 };
    CHECK(sigstate_post(&s, SIGKILL, &k));
    CHECK(sigstate_deliverable(&s));
    CHECK_EQ_INT(sigstate_take(&s, &got), SIGKILL);
    CHECK_EQ_INT(got.pid, 9);
    CHECK_EQ_INT(sigstate_take(&s, &got), SIGUSR1);
    CHECK_EQ_INT(got.pid, 7);
    CHECK_EQ_INT(got.uid, 1000);
    CHECK_EQ_INT(sigstate_take(&s, &got), SIGCHLD);
    CHECK_EQ_INT(sigstate_take(&s, &got), 0);
    /* A second send of a pending standard signal keeps the first origin (one bit). */
    struct sig_origin o2 = { SI_USER, 8, 0, 0 };
    sigstate_post(&s, SIGUSR2, &o);
    sigstate_post(&s, SIGUSR2, &o2);
    CHECK_EQ_INT(sigstate_take(&s, &got), SIGUSR2);
    CHECK_EQ_INT(got.pid, 7);
    CHECK_EQ_INT(sigstate_take(&s, &got), 0);
}

TEST(ignoring_discards_pending)
{
    struct sigstate s = { 0 };
    struct sig_origin o = { SI_USER, 1, 0, 0 };
    s.blocked = SIGSET_BIT(SIGTERM);
    sigstate_post(&s, SIGTERM, &o);
    CHECK(s.pending & SIGSET_BIT(SIGTERM));
    struct kernel_sigaction ign = { SIG_IGN, 0, 0, 0 };
    CHECK_EQ_INT(sigstate_set_action(&s, SIGTERM, &ign, 0), 0);
    CHECK(!(s.pending & SIGSET_BIT(SIGTERM)));
}

TEST(exec_and_fork_rules)
{
    struct sigstate s = { 0 };
    struct kernel_sigaction caught = { 0x1234, SA_RESTART, 0, SIGSET_BIT(SIGINT) };
    struct kernel_sigaction ign = { SIG_IGN, 0, 0, 0 };
    sigstate_set_action(&s, SIGUSR1, &caught, 0);
    sigstate_set_action(&s, SIGUSR2, &ign, 0);
    s.blocked = SIGSET_BIT(SIGINT);
    s.pending = SIGSET_BIT(SIGINT);
    s.altstack_sp = 0x1000, s.altstack_size = 8192;
    struct sigstate child;
    sigstate_fork(&child, &s);
    CHECK_EQ_INT(child.action[SIGUSR1 - 1].handler, 0x1234);
    CHECK(child.blocked == SIGSET_BIT(SIGINT));
    CHECK_EQ_INT(child.pending, 0);
    CHECK_EQ_INT(child.altstack_size, 8192);
    sigstate_exec(&s);
    CHECK_EQ_INT(s.action[SIGUSR1 - 1].handler, SIG_DFL);
    CHECK_EQ_INT(s.action[SIGUSR1 - 1].flags, 0);
    CHECK_EQ_INT(s.action[SIGUSR2 - 1].handler, SIG_IGN);
    CHECK(s.blocked == SIGSET_BIT(SIGINT));   /* kept across execve */
    CHECK(s.pending == SIGSET_BIT(SIGINT));   /* so are pending signals */
    CHECK_EQ_INT(s.altstack_size, 0);
}

TEST(restartable_calls)
{
    CHECK(sig_syscall_restartable(3));   /* read */
    CHECK(sig_syscall_restartable(114)); /* wait4 */
    CHECK(sig_syscall_restartable(54));  /* ioctl */
    CHECK(!sig_syscall_restartable(162)); /* nanosleep: EINTR with a handler, as Linux */
    CHECK(!sig_syscall_restartable(29));  /* pause */
    CHECK(!sig_syscall_restartable(179)); /* rt_sigsuspend */
    CHECK(!sig_syscall_restartable(168)); /* poll */
    CHECK(!sig_syscall_restartable(142)); /* _newselect */
}
