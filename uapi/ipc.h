/*
 * uapi/ipc.h - synchronous message passing between tasks (kernel/ipc/ipc.c).
 *
 * A task creates an endpoint and is its only receiver. Any task may send to it: send()
 * blocks until the receiver takes the message (a rendezvous, as in L4 and seL4: nothing is
 * queued in the kernel but the blocked senders themselves); call() sends and then blocks
 * until the receiver replies to that very message. Endpoints are found by name through the
 * name service, a kernel thread that owns endpoint IPC_NAMESERVER and itself speaks IPC.
 *
 * One system call, SYS_tracekern_ipc, with the operation in its first argument (the rest
 * follow it):
 *   ipc_create(name)                      -> endpoint id, or -errno
 *   ipc_send(ep, msg, timeout_ms)         -> 0
 *   ipc_recv(ep, msg, timeout_ms)         -> the message's reply token: > 0 for a call,
 *                                            its own to that call; 0 for a plain send,
 *                                            which expects no reply
 *   ipc_call(ep, msg, reply, timeout_ms)  -> 0, reply filled
 *   ipc_reply(token, msg)                 -> 0
 *   ipc_call_regs(ep, label, w0, w1, timeout_ms)   -> 0, the reply in registers
 *   ipc_reply_recv_regs(ep, label, w0, w1, token)  -> the next message's reply token, the
 *                                            message in registers (token 0: no reply)
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

/*
 * The number: 0x7000 (28672). Linux i386 numbers its calls densely from 0 and stands below
 * 500 (6.x ends near 460; new calls take the next free numbers, shared by every
 * architecture since 5.1), so a number this far above can never be one Linux assigns, and a
 * Linux program that probes a new call gets ENOSYS here, as it would on an older Linux,
 * never a message sent. One number for all operations (as Linux's own ipc(2) and
 * socketcall(2) multiplex theirs) takes one slot of that space, not five. An operation
 * the kernel does not know is ENOSYS, as ipc(2) answers. Syscall tracepoints still name
 * each operation: syscalls/sys_enter_ipc_call shows the arguments after the operation.
 */
#define SYS_tracekern_ipc 0x7000

/* The operations: the call's first argument. */
#define IPC_OP_CREATE 0
#define IPC_OP_SEND 1
#define IPC_OP_RECV 2
#define IPC_OP_CALL 3
#define IPC_OP_REPLY 4
#define IPC_OP_CALL_REGS 5
#define IPC_OP_REPLY_RECV_REGS 6
#define IPC_OPS 7

#define IPC_MSG_MAX 120      /* bytes of data in one message */
#define IPC_NAME_MAX 16      /* endpoint names, NUL included */
#define IPC_FOREVER 0xffffffffu
#define IPC_NAMESERVER 1     /* the name service's endpoint */

struct ipc_msg {
    uint32_t label;          /* what the message means, by the protocol's convention */
    uint32_t len;            /* bytes used in data */
    uint8_t data[IPC_MSG_MAX];
};

/*
 * Register messages (issue 20): a label and IPC_REG_BYTES of data that travel in the
 * registers of the IPC call, never in memory, as seL4's message registers. Between a client
 * in ipc_call_regs and a server in ipc_reply_recv_regs on the same CPU the kernel takes its
 * fast path (docs/ipc.md, section 17). Both calls return what they received the same way:
 *
 *   in:  EAX SYS_tracekern_ipc, EBX the operation, ECX the endpoint, EDX the label,
 *        ESI and EDI the data (bytes 0-3 and 4-7), EBP the timeout (call) or the reply
 *        token (reply_recv: 0 only receives)
 *   out: EAX 0 (call) or the message's reply token (reply_recv), or -errno; when it is not
 *        an error, EDX the label, ESI and EDI the data, EBX the length the sender gave
 *        (8 for a register message; a longer message from ipc_send or ipc_call arrives
 *        cut to its first 8 bytes, bytes past a shorter one are 0). ECX and EBP are kept.
 *
 * A register message is an ordinary message of IPC_REG_BYTES bytes to the other side:
 * ipc_recv and ipc_call see len 8. ipc_reply_recv_regs first answers the call with the
 * token (-ESRCH etc. as ipc_reply, and then nothing is received), then waits without a
 * time limit for the next message on its own endpoint.
 */
#define IPC_REG_BYTES 8
struct ipc_regs {
    uint32_t label;
    uint32_t len;            /* received: the bytes the sender gave (sent: always 8) */
    uint32_t word[IPC_REG_BYTES / 4];
};

/* The name service's protocol: label, then data. */
#define NS_REGISTER 1        /* data: uint32_t endpoint, then the name (NUL-terminated) */
#define NS_LOOKUP 2          /* data: the name; the reply's label is the endpoint or -errno */

#endif
