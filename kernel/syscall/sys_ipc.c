/*
 * sys_ipc.c - the IPC system calls: messages copied between user memory and the kernel
 * buffers the rendezvous (kernel/ipc/ipc.c) moves them between.
 */
#include "kernel/lib/errno.h"
#include "kernel/ipc/ipc.h"
#include "kernel/proc/task_internal.h"
#include "kernel/syscall/syscall_handlers.h"
#include "kernel/mm/uaccess.h"

/* Copies a message from the program: its header, then only the bytes it says it uses. */
static int msg_from_user(struct ipc_msg *m, uint32_t user)
{
    if (copy_from_user(m, user, 2 * sizeof(uint32_t)))
        return -EFAULT;
    if (m->len > IPC_MSG_MAX)
        return -EMSGSIZE;
    return copy_from_user(m->data, user + 2 * sizeof(uint32_t), m->len);
}

/* Copies a received message to the program (header and the bytes used). */
static int msg_to_user(uint32_t user, const struct ipc_msg *m)
{
    return copy_to_user(user, m, 2 * sizeof(uint32_t) + m->len);
}

SYSCALL_HANDLER(ipc_create)
{
    char name[IPC_NAME_MAX] = "";
    if (a[0]) {
        int len = copy_string_from_user(name, a[0], sizeof name);
        if (len < 0)
            return len == -E2BIG ? -ENAMETOOLONG : len;
    }
    return ipc_create(current, name);
}

SYSCALL_HANDLER(ipc_send)
{
    struct ipc_msg m;
    int err = msg_from_user(&m, a[1]);
    return err ? err : ipc_send((int)a[0], &m, a[2]);
}

SYSCALL_HANDLER(ipc_recv)
{
    struct ipc_msg m;
    if (!user_range_ok(a[1], sizeof m, true))
        return -EFAULT; /* checked first: a message taken is not given back */
    int token = ipc_recv((int)a[0], &m, a[2]);
    if (token >= 0)
        msg_to_user(a[1], &m);
    return token;
}

SYSCALL_HANDLER(ipc_call)
{
    struct ipc_msg m, reply;
    if (!user_range_ok(a[2], sizeof reply, true))
        return -EFAULT;
    int err = msg_from_user(&m, a[1]);
    if (!err)
        err = ipc_call((int)a[0], &m, &reply, a[3]);
    if (!err)
        msg_to_user(a[2], &reply);
    return err;
}

SYSCALL_HANDLER(ipc_reply)
{
    struct ipc_msg m;
    int err = msg_from_user(&m, a[1]);
    return err ? err : ipc_reply(a[0], &m);
}
