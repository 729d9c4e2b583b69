/*
 * nameserver.c - the name service: the first server of the system, and itself an IPC
 * client's first contact. It owns endpoint IPC_NAMESERVER and answers two requests
 * (uapi/ipc.h): NS_REGISTER binds a name to an endpoint (only the endpoint's owner may, and
 * only if the name is free or the caller's user's: below),
 * NS_LOOKUP finds the endpoint bound to a name. Programs find each other through it
 * instead of agreeing on endpoint numbers.
 */
#include "kernel/cred.h"
#include "kernel/errno.h"
#include "kernel/ipc.h"
#include "kernel/panic.h"
#include "kernel/proc.h"
#include "kernel/string.h"

#define NAMES_MAX 32

/*
 * Who may bind a name (docs/ipc.md): a name belongs to a user, not to whoever comes first.
 * The names of the servers the kernel ships are root's from boot; a name root registers
 * stays root's after its endpoint is gone, so a server that restarts finds it free and
 * nobody else can take it meanwhile; any other name is its registering user's while its
 * endpoint lives, then free. Only root may bind a name that is root's (-EACCES, as bind()
 * to a privileged port). One task binds at most NS_NAMES_PER_TASK names (-ENOSPC, as
 * Linux's per-user inotify watch limit), so no program can fill the table.
 */
#define NS_NAMES_PER_TASK 4

struct binding {
    char name[IPC_NAME_MAX]; /* "": a free slot */
    int ep;                  /* 0: no endpoint bound now (a root name waiting for its server) */
    uint32_t uid;            /* the name's owner: the registering effective uid */
};

/* The names the kernel's own programs serve: ipc_pong's "pong", ipc_test's "ipc_test",
 * and the name service's own name. */
static const char *const reserved_names[] = { "nameserver", "pong", "ipc_test" };

static struct binding bindings[NAMES_MAX];

/* Drops the endpoint of a binding whose endpoint is gone; the name itself goes too unless
 * it is root's. */
static void forget_if_dead(struct binding *b)
{
    if (b->ep && ipc_endpoint_owner(b->ep) < 0) {
        b->ep = 0;
        if (b->uid != 0)
            b->name[0] = '\0';
    }
}

/* The binding of name (bound to a living endpoint, or a root name without one), or NULL. */
static struct binding *find(const char *name)
{
    for (int i = 0; i < NAMES_MAX; i++) {
        struct binding *b = &bindings[i];
        forget_if_dead(b);
        if (b->name[0] && strcmp(b->name, name) == 0)
            return b;
    }
    return 0;
}

/* How many names the task with pid owner has bound to its endpoints now. */
static int names_of(int owner)
{
    int n = 0;
    for (int i = 0; i < NAMES_MAX; i++)
        n += bindings[i].ep && ipc_endpoint_owner(bindings[i].ep) == owner;
    return n;
}

/* NS_REGISTER from the task with pid sender and credentials cred: data is the endpoint,
 * then the name. */
static int do_register(const struct ipc_msg *m, int sender, const struct cred *cred)
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
    struct binding *b = find(name);
    if (b && b->uid == 0 && !cred_privileged(cred))
        return -EACCES; /* root's, bound or not: checked first, as bind() checks the port */
    if (b && b->ep)
        return -EEXIST;
    if (names_of(sender) >= NS_NAMES_PER_TASK)
        return -ENOSPC;
    for (int i = 0; !b && i < NAMES_MAX; i++)
        if (!bindings[i].name[0])
            b = &bindings[i];
    if (!b)
        return -ENOSPC;
    strlcpy(b->name, name, sizeof b->name);
    b->ep = (int)ep;
    b->uid = cred->euid;
    return 0;
}

/* NS_LOOKUP: data is the name; the answer is the endpoint. */
static int do_lookup(const struct ipc_msg *m)
{
    if (m->len == 0 || m->data[m->len - 1] != 0)
        return -EINVAL;
    const struct binding *b = find((const char *)m->data);
    return b && b->ep ? b->ep : -ENOENT;
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
        struct cred cred;
        int caller = ipc_caller_pid((uint32_t)token, &cred);
        if (caller < 0)
            continue; /* the caller gave up already: nobody to answer */
        int result = m.label == NS_REGISTER ? do_register(&m, caller, &cred)
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
    for (unsigned i = 0; i < sizeof reserved_names / sizeof reserved_names[0]; i++)
        strlcpy(bindings[i].name, reserved_names[i], sizeof bindings[i].name);
}
