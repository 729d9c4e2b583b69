/*
 * sys_signal.c - the signal system calls that do not touch the CPU's registers:
 * rt_sigaction, rt_sigprocmask and sigaltstack, with Linux's i386 arguments and errors.
 * (rt_sigreturn and sigreturn are in arch/x86/signal_frame.c.)
 */
#include "kernel/arch.h"
#include "kernel/lib/errno.h"
#include "kernel/proc/task_internal.h"
#include "kernel/proc/signal.h"
#include "kernel/syscall/syscall_handlers.h"
#include "kernel/mm/uaccess.h"

/* rt_sigaction(sig, act, oact, sigsetsize): the order of checks is Linux's: the size, then
 * reading act (EFAULT), then the signal (EINVAL), then writing oact (EFAULT). */
SYSCALL_HANDLER(rt_sigaction)
{
    int sig = (int)a[0];
    uint32_t act_ptr = a[1], old_ptr = a[2];
    if (a[3] != sizeof(kernel_sigset_t))
        return -EINVAL;
    struct kernel_sigaction act, old;
    if (act_ptr && copy_from_user(&act, act_ptr, sizeof act))
        return -EFAULT;
    int err = sigstate_set_action(&current->sig, sig, act_ptr ? &act : 0, old_ptr ? &old : 0);
    if (err)
        return err;
    if (old_ptr && copy_to_user(old_ptr, &old, sizeof old))
        return -EFAULT;
    return 0;
}

/* rt_sigprocmask(how, set, oset, sigsetsize): oset gets the mask from before the change. */
SYSCALL_HANDLER(rt_sigprocmask)
{
    int how = (int)a[0];
    uint32_t set_ptr = a[1], old_ptr = a[2];
    if (a[3] != sizeof(kernel_sigset_t))
        return -EINVAL;
    kernel_sigset_t old = current->sig.blocked, set;
    if (set_ptr) {
        if (copy_from_user(&set, set_ptr, sizeof set))
            return -EFAULT;
        int err = sigstate_change_mask(&current->sig, how, set);
        if (err)
            return err;
    }
    if (old_ptr && copy_to_user(old_ptr, &old, sizeof old))
        return -EFAULT;
    return 0;
}

/* sigaltstack(ss, old_ss). */
SYSCALL_HANDLER(sigaltstack)
{
    uint32_t ss_ptr = a[0], old_ptr = a[1];
    struct kernel_stack ss, old;
    if (ss_ptr && copy_from_user(&ss, ss_ptr, sizeof ss))
        return -EFAULT;
    int err = sigstate_altstack(&current->sig, arch_user_stack_pointer(), ss_ptr ? &ss : 0,
                                &old);
    if (err)
        return err;
    if (old_ptr && copy_to_user(old_ptr, &old, sizeof old))
        return -EFAULT;
    return 0;
}
