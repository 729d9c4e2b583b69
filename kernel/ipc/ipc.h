/*
 * ipc.h - synchronous message passing between tasks (the protocol: uapi/ipc.h).
 *
 * Kernel threads call these directly; user processes reach them through the ipc_*
 * system calls (kernel/syscall/sys_ipc.c), which copy messages in and out of user memory. Messages
 * move from one task's kernel buffer to another's at the rendezvous; nothing waits in the
 * kernel but the blocked tasks.
 */
#ifndef KERNEL_IPC_IPC_H
#define KERNEL_IPC_IPC_H

#include <stdbool.h>
#include <stdint.h>

#include "uapi/ipc.h"

#define IPC_ENDPOINTS 64
/* The most endpoints one task may own (-EMFILE, as Linux's per-process limit on
 * descriptors). */
#define IPC_ENDPOINTS_PER_TASK 8
/* The most endpoints the tasks of one non-root user may own together (-EMFILE, as Linux's
 * per-user limits answer: mq_open past RLIMIT_MSGQUEUE, inotify_init past
 * max_user_instances). An endpoint counts for the effective uid that created it, the id
 * that owns names too (kernel/ipc/nameserver.c). */
#define IPC_ENDPOINTS_PER_USER 16
/* Endpoints only root (effective uid 0) may take: the tasks of all other users together
 * own at most IPC_ENDPOINTS - IPC_ENDPOINTS_ROOT_ONLY (-ENOSPC, as Linux keeps the end of
 * its file table for the privileged), so they cannot starve root's servers. */
#define IPC_ENDPOINTS_ROOT_ONLY 16

struct task;

/* A new endpoint owned (received on) by task owner; name is for people (listings, logs).
 * Returns its id (>= 1, never reused within a boot, as far as 31 bits go), -EMFILE (owner
 * has IPC_ENDPOINTS_PER_TASK already, or its non-root user IPC_ENDPOINTS_PER_USER),
 * -ENOSPC (the table is full, or the owner is not root and the endpoints of users other
 * than root fill all but the root-only slots). It lives until its owner exits. */
int ipc_create(struct task *owner, const char *name);

/* The rendezvous operations of uapi/ipc.h, for the current task. ipc_recv returns a call's
 * reply token (> 0, its own to each call, not reused while the call awaits its reply) or 0
 * for a plain send; ipc_reply answers the call with that token, if the current task took it
 * and its caller still waits. */
int ipc_send(int ep, const struct ipc_msg *msg, uint32_t timeout_ms);
int ipc_recv(int ep, struct ipc_msg *msg, uint32_t timeout_ms);
int ipc_call(int ep, const struct ipc_msg *msg, struct ipc_msg *reply, uint32_t timeout_ms);
int ipc_reply(uint32_t token, const struct ipc_msg *msg);
/* A server's loop in one call, as L4's ReplyWait: answers the call with token (0: none; an
 * error of ipc_reply is returned and nothing received), then waits without a time limit
 * for the next message on its endpoint ep: what ipc_recv returns. */
int ipc_reply_recv(uint32_t token, const struct ipc_msg *reply, int ep, struct ipc_msg *msg);

/*
 * The fast path (kernel/ipc/ipc_fast.c) of the register-message calls (uapi/ipc.h): a call
 * to a server that waits on this CPU, a reply to a caller that waits on this CPU followed by
 * the wait for the next message, with a direct switch to the other side. Each checks in a
 * few instructions that its case holds and returns false, having changed nothing, when it
 * does not: the slow path then does the call. When it returns true the call is done, with
 * its result in *result and what was received in *io (a result >= 0). Kernel lock held,
 * interrupts off.
 */
bool ipc_fast_call(int ep, struct ipc_regs *io, int *result);
bool ipc_fast_reply_recv(int ep, uint32_t token, struct ipc_regs *io, int *result);

/* For a server that must know who calls (the name service checks owners): the pid of the
 * caller of the call with this token, which the current task received and has not answered,
 * and (if cred is not NULL) its credentials; -ESRCH when there is no such call (never taken
 * by this task, answered, or given up). */
struct cred;
int ipc_caller_pid(uint32_t token, struct cred *cred);

/* The pid of the endpoint's owner, or -EBADF when there is no such endpoint. */
int ipc_endpoint_owner(int ep);

/* Per endpoint: counters for /proc/ipc. */
struct ipc_endpoint_stats {
    int id, owner;
    char name[IPC_NAME_MAX];
    uint64_t messages, calls, replies;
    unsigned waiting_senders;
    bool receiver_waiting;
};
/* Fills out with endpoint slot i (0 .. IPC_ENDPOINTS-1); false when the slot is free. */
bool ipc_endpoint_stats(int i, struct ipc_endpoint_stats *out);

/* IPC's own log (ipc_logging/ipc/) on or off; on from boot. For measuring what it costs. */
void ipc_logging_set(bool on);

/* A register message as the message it is to the other side: label, 8 bytes. Both paths
 * of the register calls use these (kernel/ipc/ipc_fast.c, arch/x86/ipc_regs.c). */
static inline void ipc_msg_from_regs(struct ipc_msg *m, const struct ipc_regs *r)
{
    m->label = r->label;
    m->len = IPC_REG_BYTES;
    __builtin_memcpy(m->data, r->word, IPC_REG_BYTES);
}

/* A received message as registers: the label, the length the sender gave, and its first 8
 * bytes (zeros past a shorter one: the rest of m is not the sender's). */
static inline void ipc_regs_from_msg(struct ipc_regs *r, const struct ipc_msg *m)
{
    r->label = m->label;
    r->len = m->len;
    if (m->len >= IPC_REG_BYTES) {
        __builtin_memcpy(r->word, m->data, IPC_REG_BYTES);
    } else {
        r->word[0] = r->word[1] = 0;
        for (uint32_t i = 0; i < m->len; i++)
            ((uint8_t *)r->word)[i] = m->data[i];
    }
}

/* Starts the name service (a kernel thread owning endpoint IPC_NAMESERVER). */
void nameserver_start(void);

#endif
