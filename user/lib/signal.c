/*
 * signal.c - sigaction, sigprocmask, sigaltstack, the signal set helpers, and
 * sigsetjmp/siglongjmp.
 *
 * sigaction always passes SA_RESTORER, as glibc does on i386: a handler returns into
 * __restore_rt (rt_sigreturn, for SA_SIGINFO frames) or __restore (sigreturn, for the old
 * frame, whose restorer first pops the signal number).
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>

#include "libc_internal.h"

void __restore_rt(void);
void __restore(void);
asm(".text\n"
    ".globl __restore_rt\n"
    "__restore_rt:\n"
    "    movl $173, %eax\n" /* SYS_rt_sigreturn */
    "    int $0x80\n"
    ".globl __restore\n"
    "__restore:\n"
    "    popl %eax\n"
    "    movl $119, %eax\n" /* SYS_sigreturn */
    "    int $0x80\n");

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    struct kernel_sigaction kact, kold;
    if (act) {
        kact.handler = (uint32_t)(uintptr_t)act->sa_handler;
        kact.flags = (uint32_t)act->sa_flags | SA_RESTORER;
        kact.restorer = (uint32_t)(uintptr_t)((act->sa_flags & SA_SIGINFO) ? __restore_rt : __restore);
        kact.mask = act->sa_mask;
    }
    long r = syscall_result(syscall_raw(SYS_rt_sigaction, sig, act ? (long)&kact : 0,
                                        old ? (long)&kold : 0, sizeof(sigset_t), 0, 0));
    if (r == 0 && old) {
        old->sa_handler = (void (*)(int))(uintptr_t)kold.handler;
        old->sa_mask = kold.mask;
        old->sa_flags = (int)kold.flags;
        old->sa_restorer = (void (*)(void))(uintptr_t)kold.restorer;
    }
    return (int)r;
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
    return (int)syscall_result(
        syscall_raw(SYS_rt_sigprocmask, how, (long)set, (long)old, sizeof(sigset_t), 0, 0));
}

int sigaltstack(const stack_t *ss, stack_t *old)
{
    return (int)syscall_result(syscall_raw(SYS_sigaltstack, (long)ss, (long)old, 0, 0, 0, 0));
}

int sigemptyset(sigset_t *set)
{
    *set = 0;
    return 0;
}

int sigfillset(sigset_t *set)
{
    *set = ~(sigset_t)0;
    return 0;
}

/* The signal number's bit, or -1 with EINVAL for a number out of 1..64. */
static int check_signal(int sig)
{
    if (sig < 1 || sig > NSIG_LINUX) {
        errno = EINVAL;
        return -1;
    }
    return 0;
}

int sigaddset(sigset_t *set, int sig)
{
    if (check_signal(sig))
        return -1;
    *set |= SIGSET_BIT(sig);
    return 0;
}

int sigdelset(sigset_t *set, int sig)
{
    if (check_signal(sig))
        return -1;
    *set &= ~SIGSET_BIT(sig);
    return 0;
}

int sigismember(const sigset_t *set, int sig)
{
    if (check_signal(sig))
        return -1;
    return (*set & SIGSET_BIT(sig)) != 0;
}

/* sigsetjmp saves the callee-saved registers, the stack pointer its caller will have and
 * the return address, then continues in __sigjmp_save (same arguments), which returns 0. */
int __sigjmp_save(sigjmp_buf env, int savemask) __attribute__((used));
int __sigjmp_save(sigjmp_buf env, int savemask)
{
    env->mask_saved = savemask != 0;
    if (savemask)
        sigprocmask(SIG_BLOCK, NULL, &env->mask);
    return 0;
}

asm(".text\n"
    ".globl sigsetjmp\n"
    "sigsetjmp:\n"
    "    movl 4(%esp), %eax\n"
    "    movl %ebx, 0(%eax)\n"
    "    movl %esi, 4(%eax)\n"
    "    movl %edi, 8(%eax)\n"
    "    movl %ebp, 12(%eax)\n"
    "    leal 4(%esp), %ecx\n"
    "    movl %ecx, 16(%eax)\n"
    "    movl (%esp), %ecx\n"
    "    movl %ecx, 20(%eax)\n"
    "    jmp __sigjmp_save\n"
    /* __sigjmp_back(env, val): the registers back, and sigsetjmp returns val */
    ".globl __sigjmp_back\n"
    "__sigjmp_back:\n"
    "    movl 4(%esp), %edx\n"
    "    movl 8(%esp), %eax\n"
    "    movl 0(%edx), %ebx\n"
    "    movl 4(%edx), %esi\n"
    "    movl 8(%edx), %edi\n"
    "    movl 12(%edx), %ebp\n"
    "    movl 16(%edx), %esp\n"
    "    jmp *20(%edx)\n");

void __sigjmp_back(sigjmp_buf env, int val) __attribute__((noreturn));

void siglongjmp(sigjmp_buf env, int val)
{
    if (env->mask_saved)
        sigprocmask(SIG_SETMASK, &env->mask, NULL);
    __sigjmp_back(env, val ? val : 1);
}
