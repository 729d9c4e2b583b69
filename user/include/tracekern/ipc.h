/*
 * tracekern/ipc.h - message passing for user programs (the kernel side: uapi/ipc.h).
 *
 * Thin wrappers over the IPC system call (one number, the operation first), with libc's convention: -1 and errno on
 * failure. ipc_lookup() and ipc_register() talk to the name service with ipc_call().
 */
#ifndef USER_TRACEKERN_IPC_H
#define USER_TRACEKERN_IPC_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "uapi/ipc.h"

static inline int ipc_create(const char *name)
{
    return (int)syscall(SYS_tracekern_ipc, IPC_OP_CREATE, name);
}

static inline int ipc_send(int ep, const struct ipc_msg *m, unsigned timeout_ms)
{
    return (int)syscall(SYS_tracekern_ipc, IPC_OP_SEND, ep, m, timeout_ms);
}

/* Returns the message's reply token: > 0 for a call (its own, to pass to ipc_reply), 0 for
 * a plain send. */
static inline int ipc_recv(int ep, struct ipc_msg *m, unsigned timeout_ms)
{
    return (int)syscall(SYS_tracekern_ipc, IPC_OP_RECV, ep, m, timeout_ms);
}

static inline int ipc_call(int ep, const struct ipc_msg *m, struct ipc_msg *reply,
                           unsigned timeout_ms)
{
    return (int)syscall(SYS_tracekern_ipc, IPC_OP_CALL, ep, m, reply, timeout_ms);
}

static inline int ipc_reply(int token, const struct ipc_msg *m)
{
    return (int)syscall(SYS_tracekern_ipc, IPC_OP_REPLY, token, m);
}

/*
 * Register messages (uapi/ipc.h): the message travels in registers, in and out, and a
 * client and a server on one CPU take the kernel's fast path. EBP carries the timeout or
 * the token; it is the frame pointer here, so it is saved around the call, and the value
 * goes on the stack first (before ESP moves: an ESP-based operand stays right).
 */
static inline int ipc_regs_syscall(uint32_t op, int ep, struct ipc_regs *m, uint32_t ebp)
{
    int ret;
    uint32_t label = m->label, w0 = m->word[0], w1 = m->word[1], len = op;
    __asm__ volatile("push %[ebp]\n\t"
                     "push %%ebp\n\t"
                     "mov 4(%%esp), %%ebp\n\t"
                     "int $0x80\n\t"
                     "pop %%ebp\n\t"
                     "add $4, %%esp"
                     : "=a"(ret), "+b"(len), "+d"(label), "+S"(w0), "+D"(w1)
                     : "0"(SYS_tracekern_ipc), "c"(ep), [ebp] "g"(ebp)
                     : "memory", "cc");
    if (ret < 0) {
        errno = -ret;
        return -1;
    }
    m->label = label;
    m->len = len;
    m->word[0] = w0;
    m->word[1] = w1;
    return ret;
}

/* Calls ep with m's label and words; m becomes the reply. 0, or -1 with errno. */
static inline int ipc_call_regs(int ep, struct ipc_regs *m, unsigned timeout_ms)
{
    return ipc_regs_syscall(IPC_OP_CALL_REGS, ep, m, timeout_ms);
}

/* Answers the call with token (0: none) with m, then waits for the next message on ep,
 * which m becomes: its reply token (0 for a plain send), or -1 with errno. */
static inline int ipc_reply_recv_regs(int ep, int token, struct ipc_regs *m)
{
    return ipc_regs_syscall(IPC_OP_REPLY_RECV_REGS, ep, m, (uint32_t)token);
}

/* Asks the name service: label op, data = prefix (if any) then the name with its NUL.
 * Returns the service's answer (>= 0) or -1 with errno. */
static inline int ns_request(uint32_t op, const void *prefix, uint32_t prefix_len,
                             const char *name)
{
    struct ipc_msg m = { op, 0, { 0 } }, reply;
    size_t n = strlen(name) + 1;
    if (prefix_len + n > IPC_MSG_MAX) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(m.data, prefix, prefix_len);
    memcpy(m.data + prefix_len, name, n);
    m.len = (uint32_t)(prefix_len + n);
    if (ipc_call(IPC_NAMESERVER, &m, &reply, IPC_FOREVER) < 0)
        return -1;
    if ((int32_t)reply.label < 0) {
        errno = -(int32_t)reply.label;
        return -1;
    }
    return (int)reply.label;
}

/* Binds name to endpoint ep (which the caller must own). */
static inline int ipc_register(int ep, const char *name)
{
    uint32_t e = (uint32_t)ep;
    return ns_request(NS_REGISTER, &e, sizeof e, name) < 0 ? -1 : 0;
}

/* The endpoint bound to name. */
static inline int ipc_lookup(const char *name) { return ns_request(NS_LOOKUP, "", 0, name); }

#endif
