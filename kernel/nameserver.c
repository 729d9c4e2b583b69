/*
 * nameserver.c - the name service: the first server of the system, and itself an IPC
 * client's first contact. It owns endpoint IPC_NAMESERVER and answers two requests
 * (uapi/ipc.h): NS_REGISTER binds a name to an endpoint (only the endpoint's owner may),
 * NS_LOOKUP finds the endpoint bound to a name. Programs find each other through it
 * instead of agreeing on endpoint numbers.
 */
#include "kernel/errno.h"
#include "kernel/ipc.h"
#include "kernel/panic.h"
#include "kernel/proc.h"
#include "kernel/string.h"

#define NAMES_MAX 32

struct binding {
    char name[IPC_NAME_MAX];
    int ep; /* 0: free */
};

static struct binding bindings[NAMES_MAX];

/* The binding of name whose endpoint still exists (a dead endpoint's names are dropped
 * when found), or NULL. */
static struct binding *find(const char *name)
{
    for (int i = 0; i < NAMES_MAX; i++) {
        struct binding *b = &bindings[i];
        if (!b->ep || strcmp(b->name, name) != 0)
            continue;
        if (ipc_endpoint_owner(b->ep) < 0) {
            b->ep = 0;
            return 0;
        }
        return b;
    }
    return 0;
}

/* NS_REGISTER from the task with pid sender: data is the endpoint, then the name. */
static int do_register(const struct ipc_msg *m, int sender)
{
    uint32_t ep;
    if (m->len < sizeof ep + 2 || m->data[m->len - 1] != 0)
        return -EINVAL;
    memcpy(&ep, m->data, sizeof ep);
    const char *name = (const char *)m->data + sizeof ep;
    if (strlen(name) >= IPC_NAME_MAX || !*name)
        return -EINVAL;
    if (ipc_endpoint_owner((int)ep) != sender)
        return -EPERM;
    if (find(name))
        return -EEXIST;
    for (int i = 0; i < NAMES_MAX; i++)
        if (!bindings[i].ep || ipc_endpoint_owner(bindings[i].ep) < 0) {
            strlcpy(bindings[i].name, name, sizeof bindings[i].name);
            bindings[i].ep = (int)ep;
            return 0;
        }
    return -ENOSPC;
}

/* NS_LOOKUP: data is the name; the answer is the endpoint. */
static int do_lookup(const struct ipc_msg *m)
{
    if (m->len == 0 || m->data[m->len - 1] != 0)
        return -EINVAL;
    const struct binding *b = find((const char *)m->data);
    return b ? b->ep : -ENOENT;
}

/* The service loop: receive a request, reply with its result in the label. */
static void nameserver_main(void *unused)
{
    (void)unused;
    struct ipc_msg m, answer = { 0 };
    for (;;) {
        int token = ipc_recv(IPC_NAMESERVER, &m, IPC_FOREVER);
        if (token <= 0)
            continue; /* a plain send expects no answer */
        int caller = ipc_caller_pid((uint32_t)token);
        if (caller < 0)
            continue; /* the caller gave up already: nobody to answer */
        int result = m.label == NS_REGISTER ? do_register(&m, caller)
                     : m.label == NS_LOOKUP ? do_lookup(&m) : -EINVAL;
        answer.label = (uint32_t)result;
        ipc_reply((uint32_t)token, &answer);
    }
}

void nameserver_start(void)
{
    struct task *t = task_create_kernel("nameserver", nameserver_main, 0);
    if (!t)
        panic("ipc: no memory for the name service");
    int ep = ipc_create(t, "nameserver");
    if (ep != IPC_NAMESERVER)
        panic("ipc: the name service did not get endpoint %d", IPC_NAMESERVER);
}
