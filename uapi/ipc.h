/*
 * uapi/ipc.h - synchronous message passing between tasks (kernel/ipc/ipc.c).
 *
 * A task creates an endpoint and is its only receiver. Any task may send to it: send()
 * blocks until the receiver takes the message (a rendezvous, as in L4 and seL4: nothing is
 * queued in the kernel but the blocked senders themselves); call() sends and then blocks
 * until the receiver replies to that very message. Endpoints are found by name through the
 * name service, a kernel thread that owns endpoint IPC_NAMESERVER and itself speaks IPC.
 *
 * System calls (numbers after Linux's i386 range, which has no such calls):
 *   ipc_create(name)                      -> endpoint id, or -errno
 *   ipc_send(ep, msg, timeout_ms)         -> 0
 *   ipc_recv(ep, msg, timeout_ms)         -> the message's reply token: > 0 for a call,
 *                                            its own to that call; 0 for a plain send,
 *                                            which expects no reply
 *   ipc_call(ep, msg, reply, timeout_ms)  -> 0, reply filled
 *   ipc_reply(token, msg)                 -> 0
 * timeout_ms: IPC_FOREVER waits without limit; 0 fails with -EAGAIN instead of waiting for
 * the other side (a call whose message was taken still waits for the reply).
 * Errors: -EBADF (no such endpoint), -EPERM (receiving on someone else's endpoint),
 * -EMSGSIZE (len > IPC_MSG_MAX), -ETIMEDOUT, -EAGAIN, -EPIPE (the endpoint was destroyed:
 * its owner exited), -ESRCH (no call with that token awaits this task's reply: its caller
 * gave up or is gone, or it was answered), -EINTR (killed), -EFAULT (bad pointer), -ENOSPC
 * (no endpoint left, or the caller has 4 names bound already), -EMFILE (the
 * caller owns IPC_ENDPOINTS_PER_TASK endpoints already), -EEXIST (name taken), -EACCES
 * (the name is root's: reserved at boot or registered by root, and the caller is not root).
 */
#ifndef UAPI_IPC_H
#define UAPI_IPC_H

#include <stdint.h>

#define SYS_ipc_create 400
#define SYS_ipc_send 401
#define SYS_ipc_recv 402
#define SYS_ipc_call 403
#define SYS_ipc_reply 404

#define IPC_MSG_MAX 120      /* bytes of data in one message */
#define IPC_NAME_MAX 16      /* endpoint names, NUL included */
#define IPC_FOREVER 0xffffffffu
#define IPC_NAMESERVER 1     /* the name service's endpoint */

struct ipc_msg {
    uint32_t label;          /* what the message means, by the protocol's convention */
    uint32_t len;            /* bytes used in data */
    uint8_t data[IPC_MSG_MAX];
};

/* The name service's protocol: label, then data. */
#define NS_REGISTER 1        /* data: uint32_t endpoint, then the name (NUL-terminated) */
#define NS_LOOKUP 2          /* data: the name; the reply's label is the endpoint or -errno */

#endif
