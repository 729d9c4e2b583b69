/*
 * ipc_regs.c - the register-message IPC calls (uapi/ipc.h: ipc_call_regs and
 * ipc_reply_recv_regs) on x86: the message from and to the caller's registers in its trap
 * frame, by the fast path (kernel/ipc/ipc_fast.c) when it can, else by the system call
 * table's handlers over the slow path.
 *
 * The fast path's entry runs first thing after the system call vector's entry has saved the
 * frame (trap_entry.asm's trap_syscall compares EAX and EBX), before trap_dispatch and its
 * work (the lock, the checks for exceptions, the table, the tracer, interrupts on): the
 * call runs with interrupts off throughout, as seL4's, and returns to ring 3 through the
 * trap path's end unless nothing is pending there. It steps aside, before it has changed
 * anything, for a system call tracer (raw_syscalls and syscalls/ events see every call
 * on the slow path) and for a trap flag in the caller's EFLAGS (a uprobe's single step or
 * a debugger's: the step's #DB must come right after the call, on the caller).
 */
#include "arch/x86/cpu.h"
#include "arch/x86/trap.h"
#include "arch/x86/trap_exit.h"
#include "kernel/ipc/ipc.h"
#include "kernel/kernel_lock.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/proc/sched.h"
#include "kernel/proc/task_internal.h"
#include "kernel/syscall/syscall.h"
#include "kernel/syscall/syscall_handlers.h"
#include "uapi/ipc.h"
#include "uapi/syscall.h"

/* trap_entry.asm's trap_syscall compares EAX and EBX with these numbers, written out there. */
_Static_assert(SYSCALL_VECTOR == 0x80 && SYS_tracekern_ipc == 0x7000 && IPC_OP_CALL_REGS == 5 &&
                   IPC_OP_REPLY_RECV_REGS == 6,
               "trap_entry.asm's trap_syscall has these numbers: change them there too");

/* The message a register call carries in, from its frame: EDX the label, ESI and EDI the
 * data. */
static inline void regs_in(struct ipc_regs *m, const struct trap_frame *tf)
{
    m->label = tf->edx;
    m->len = IPC_REG_BYTES;
    m->word[0] = tf->esi;
    m->word[1] = tf->edi;
}

/* What a register call returns: result in EAX; when it is no error, the message received in
 * EDX, ESI and EDI and its length in EBX. On an error the registers stay as they came (a
 * restarted call finds its arguments). */
static inline void regs_out(struct trap_frame *tf, int result, const struct ipc_regs *m)
{
    tf->eax = (uint32_t)result;
    if (result < 0)
        return;
    tf->ebx = m->len;
    tf->edx = m->label;
    tf->esi = m->word[0];
    tf->edi = m->word[1];
}

bool ipc_regs_fastpath(struct trap_frame *tf)
{
    uint32_t op = tf->ebx; /* IPC_OP_CALL_REGS or IPC_OP_REPLY_RECV_REGS: trap_syscall saw */
    if ((tf->cs & 3) != 3 || (tf->eflags & EFLAGS_TF) || syscall_tracer)
        return false;
    /* A call's timeout: the fast path only waits without one (0 is the same here: the
     * server waits, so the call waits for the reply however long it takes). */
    if (op == IPC_OP_CALL_REGS && tf->ebp != IPC_FOREVER && tf->ebp != 0)
        return false;
    kernel_lock();
    struct task *t = current;
    t->syscalls++; /* counted and named at entry, as syscall_dispatch and syscall_trap do */
    t->syscall_nr = SYS_tracekern_ipc;
    struct ipc_regs m;
    regs_in(&m, tf);
    int result;
    bool done = op == IPC_OP_CALL_REGS ? ipc_fast_call((int)tf->ecx, &m, &result)
                                       : ipc_fast_reply_recv((int)tf->ecx, tf->ebp, &m, &result);
    if (!done) {
        t->syscalls--; /* the slow path counts it */
        kernel_unlock();
        return false;
    }
    /* Done: it ran here from start to end, perhaps with other tasks in between. */
    regs_out(tf, result, &m);
    trap_exit_to_user_task(tf, t); /* t: this task, whichever CPU it runs on now */
    kernel_unlock();
    return true;
}

/* A register call's return registers on the slow path: the current process's frame, at
 * the top of its kernel stack as every entry from ring 3. */
static struct trap_frame *user_frame(void)
{
    return (struct trap_frame *)(current->kstack + KERNEL_STACK_PAGES * PAGE_SIZE) - 1;
}

/* a: ep, label, word 0, word 1, timeout_ms */
SYSCALL_HANDLER(ipc_call_regs)
{
    struct ipc_msg m, reply;
    ipc_msg_from_regs(&m, &(struct ipc_regs){ .label = a[1], .word = { a[2], a[3] } });
    int err = ipc_call((int)a[0], &m, &reply, a[4]);
    if (!err) {
        struct ipc_regs r;
        ipc_regs_from_msg(&r, &reply);
        regs_out(user_frame(), 0, &r);
    }
    return err;
}

/* a: ep, label, word 0, word 1, token */
SYSCALL_HANDLER(ipc_reply_recv_regs)
{
    struct ipc_msg reply, m;
    ipc_msg_from_regs(&reply, &(struct ipc_regs){ .label = a[1], .word = { a[2], a[3] } });
    int token = ipc_reply_recv(a[4], &reply, (int)a[0], &m);
    if (token >= 0) {
        struct ipc_regs r;
        ipc_regs_from_msg(&r, &m);
        regs_out(user_frame(), token, &r);
    }
    return token;
}
