/*
 * ipc_internal.h - the rendezvous's state, shared by its slow path (kernel/ipc/ipc.c) and
 * its fast path (kernel/ipc/ipc_fast.c). Nothing outside kernel/ipc includes it.
 *
 * Everything here is under the big kernel lock (kernel/kernel_lock.h) with interrupts off:
 * every entry from ring 3 takes the lock, and the name service, a kernel thread, runs
 * holding it.
 */
#ifndef KERNEL_IPC_IPC_INTERNAL_H
#define KERNEL_IPC_IPC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/ipc/ipc.h"

#define PENDING (-100000) /* ipc_wait.result while the other side has not come: no token
                           * (always > 0) and no -errno looks like it */

/* What a blocked task waits for, on its own kernel stack while it sleeps on its address. */
struct ipc_wait {
    struct task *task;
    struct ipc_msg msg;       /* sending: the message; receiving: where it goes */
    struct ipc_msg *reply;    /* a call: where the reply goes */
    int result;               /* PENDING, then 0 / a token / -errno */
    uint32_t token;           /* a call awaiting its reply: the token its reply must name */
    int server;               /* ... the pid that must reply */
    int ep;                   /* ... and the endpoint it called */
    int peer;                 /* receiving: the sender's pid, set by deliver (ipc/ events) */
    struct ipc_wait **where;  /* the list it is linked on while pending */
    struct ipc_wait *next;
};

struct endpoint {
    int id;                   /* the last id this slot had: slot + 1 + k * IPC_ENDPOINTS */
    struct task *owner;       /* NULL: the slot is free */
    uint32_t uid;             /* the user it counts for: its owner's effective uid then */
    char name[IPC_NAME_MAX];
    struct ipc_wait *senders; /* blocked senders and callers, oldest first */
    struct ipc_wait *receiver; /* the owner, blocked in recv */
    uint64_t messages, calls, replies;
};

extern struct endpoint ipc_endpoints[IPC_ENDPOINTS];
extern struct ipc_wait *ipc_awaiting_reply; /* callers whose message was taken */
extern bool ipc_log_on;                     /* IPC's own log (ipc_logging_set) */

/* The endpoint with id ep, or NULL. */
static inline struct endpoint *endpoint_of(int ep)
{
    if (ep < 1)
        return 0;
    struct endpoint *e = &ipc_endpoints[(ep - 1) % IPC_ENDPOINTS];
    return e->owner && e->id == ep ? e : 0;
}

/* Removes w from the list at *head if it is there. */
void ipc_unlink_wait(struct ipc_wait **head, struct ipc_wait *w);

/* Sleeps until w is completed, the timeout passes or the task is killed; interrupts off.
 * On giving up, takes w off the list it is on (where the other side would have found it).
 * Returns the wait's result, or -ETIMEDOUT, -EAGAIN (timeout 0) or -EINTR. */
int ipc_wait_for(struct ipc_wait *w, uint32_t timeout_ms);

/* The call on ipc_awaiting_reply with this token, or NULL. */
struct ipc_wait *ipc_awaiting(uint32_t token);

/* A new reply token for a call whose message is being taken (see ipc.c). */
uint32_t ipc_new_token(void);

#endif
