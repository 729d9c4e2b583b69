/*
 * ipc_fast.c - the fast path of the register-message calls (uapi/ipc.h), as seL4's
 * fastpath: a round trip between a client in ipc_call_regs and a server in
 * ipc_reply_recv_regs on one CPU, with the message in registers and a direct switch to the
 * other side.
 *
 * It does what the slow path (kernel/ipc/ipc.c) does, on the same endpoints, waits and
 * lists, so that either side may be on either path: a message for a waiting receiver, a
 * token for a call, a reply for a caller awaiting it. It leaves out what the common case
 * does not need: no 128-byte copies (the 8 bytes a register message has), no search of the
 * task list for the sleeper to wake (the partner's wait names it), no run queue (the CPU
 * goes straight to the partner, which has the CPU's time slice from here on, as seL4's
 * direct switch). Every check of the common case is a test of a field or two; when one
 * fails, the call returns false having changed nothing and the slow path does it. It
 * steps aside for:
 *  - IPC logging or any ipc/ event on (the slow path logs and records them);
 *  - no such endpoint, or a partner that is not there waiting: the server not in recv (a
 *    call queues), senders queued (reply_recv takes the first at once), a call with a
 *    timeout (the slow path's wait keeps the deadline), a caller that gave up;
 *  - a partner that cannot run on this CPU now: last ran on another (the slow path wakes
 *    it there by IPI), not allowed here, or already woken (a kill: it is queued);
 *  - a current task that may not sleep: killed, or a signal it takes pending.
 * Everything runs under the big kernel lock with interrupts off, from the system call's
 * entry (arch/x86/ipc_regs.c) to its switch.
 */
#include "kernel/ipc/ipc.h"
#include "kernel/ipc/ipc_internal.h"

#include "kernel/proc/sched.h"
#include "kernel/proc/task_internal.h"
#include "kernel/trace_hooks.h"

/* A wait is linked while its task sleeps on its own stack (see ipc.c). */
#pragma GCC diagnostic ignored "-Wdangling-pointer"

/* Nothing watches IPC: neither its log nor any of its events, which the fast path would
 * not see. */
static inline bool nobody_watches(void)
{
    return !ipc_log_on && !trace_hook_ipc_call && !trace_hook_ipc_recv && !trace_hook_ipc_reply &&
           !trace_hook_ipc_send;
}

/* The current task may go to sleep in an interruptible wait: sleep_on would not return
 * -EINTR at once. */
static inline bool may_sleep(const struct task *t)
{
    return !t->killed && !(t->sig.pending & ~t->sig.blocked);
}

bool ipc_fast_call(int ep, struct ipc_regs *io, int *result)
{
    struct task *self = current;
    struct endpoint *e = endpoint_of(ep);
    struct ipc_wait *rx = e ? e->receiver : 0;
    /* The receiver asleep in its own wait, as ipc_fast_reply_recv asks of a caller: a
     * receiver registered but asleep on anything else is the slow path's to wake. */
    if (!rx || !nobody_watches() || !sched_can_switch_to(rx->task) ||
        rx->task->wait.chan != rx || !may_sleep(self))
        return false;
    struct ipc_msg reply;
    struct ipc_wait tx; /* only what a call awaiting its reply uses: not the 128-byte msg */
    tx.task = self;
    tx.msg.label = io->label; /* ipc_reply logs these, should logging come on meanwhile */
    tx.msg.len = IPC_REG_BYTES;
    tx.reply = &reply;
    tx.result = PENDING;
    /* The receiver takes the message (ipc.c's deliver and sender_done, for a call). */
    ipc_msg_from_regs(&rx->msg, io);
    rx->peer = self->pid;
    e->receiver = 0;
    e->messages++;
    e->calls++;
    tx.token = ipc_new_token();
    tx.ep = e->id;
    tx.server = e->owner->pid;
    tx.where = &ipc_awaiting_reply;
    tx.next = ipc_awaiting_reply;
    ipc_awaiting_reply = &tx;
    rx->result = (int)tx.token;
    /* The server runs now; this task sleeps until the reply (or a kill) wakes it. */
    sched_sleep_and_switch_to(&tx, rx->task);
    if (tx.result == PENDING) /* woken for another reason: the slow path's wait decides */
        tx.result = ipc_wait_for(&tx, IPC_FOREVER);
    *result = tx.result;
    if (tx.result == 0)
        ipc_regs_from_msg(io, &reply);
    return true;
}

bool ipc_fast_reply_recv(int ep, uint32_t token, struct ipc_regs *io, int *result)
{
    struct task *self = current;
    struct endpoint *e = endpoint_of(ep);
    if (!token || !e || e->owner != self || e->senders || !nobody_watches())
        return false;
    struct ipc_wait *w = ipc_awaiting_reply; /* most often the first: one call awaits */
    if (w && w->token != token)
        w = ipc_awaiting(token);
    if (!w || w->server != self->pid || !sched_can_switch_to(w->task) ||
        w->task->wait.chan != w || !may_sleep(self))
        return false;
    /* The reply (ipc.c's ipc_reply). */
    if (ipc_awaiting_reply == w)
        ipc_awaiting_reply = w->next;
    else
        ipc_unlink_wait(&ipc_awaiting_reply, w);
    ipc_msg_from_regs(w->reply, io);
    struct endpoint *called = w->ep == ep ? e : endpoint_of(w->ep);
    if (called)
        called->replies++;
    w->result = 0;
    /* The receive: this task waits on its endpoint (ipc.c's ipc_recv, nobody queued). */
    struct ipc_wait rx;
    rx.task = self;
    rx.result = PENDING;
    rx.where = &e->receiver;
    rx.next = 0;
    e->receiver = &rx;
    sched_sleep_and_switch_to(&rx, w->task);
    if (rx.result == PENDING)
        rx.result = ipc_wait_for(&rx, IPC_FOREVER);
    *result = rx.result;
    if (rx.result >= 0) {
        trace_ipc_recv(ep, rx.peer, &rx.msg, (uint32_t)rx.result); /* as ipc_recv's */
        ipc_regs_from_msg(io, &rx.msg);
    }
    return true;
}
