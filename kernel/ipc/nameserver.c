/*
 * nameserver.c - the name service: the first server of the system, and itself an IPC
 * client's first contact. It owns endpoint IPC_NAMESERVER and answers two requests
 * (uapi/ipc.h): NS_REGISTER binds a name to an endpoint (only the endpoint's owner may, and
 * only if the name is free or the caller outranks its holder: below),
 * NS_LOOKUP finds the endpoint bound to a name. Programs find each other through it
 * instead of agreeing on endpoint numbers.
 */
#include "kernel/proc/cred.h"
#include "kernel/lib/errno.h"
#include "kernel/ipc/ipc.h"
#include "kernel/panic.h"
#include "kernel/proc/task_internal.h"
#include "kernel/lib/string.h"

#define NAMES_MAX 32

/*
 * Who may bind a name (docs/ipc.md, "Who owns a name"): a name belongs to a user, not to
 * whoever comes first, and root outranks every other user. The names of the servers the
 * kernel ships are reserved for root from boot and stay so; any other name belongs to the
 * effective uid that bound it while its endpoint lives, and is free again when the
 * endpoint goes. Only root may bind a name that is root's (-EACCES, as bind() to a
 * privileged port); root may take a name another user holds (the privileged server wins,
 * and that user's clients reach root's server from then on); between equals the holder
 * keeps it (-EEXIST).
 *
 * Limits (-ENOSPC, as Linux's inotify answers past a user's max_user_watches): a task binds
 * at most NS_NAMES_PER_TASK names, a non-root user at most NS_NAMES_PER_USER, and all users
 * but root together at most NAMES_MAX - NS_NAMES_ROOT_ONLY, so neither one program nor all
 * other users together can fill the table against root's servers.
 */
#define NS_NAMES_PER_TASK 4
#define NS_NAMES_PER_USER 8
#define NS_NAMES_ROOT_ONLY 16

struct binding {
    char name[IPC_NAME_MAX]; /* "": a free slot */
    int ep;                  /* 0: no endpoint bound now (a reserved name without its server) */
    uint32_t uid;            /* the name's owner: the registering effective uid */
    bool reserved;           /* root's from boot, kept with or without an endpoint */
};

/* The names the kernel's own programs serve: ipc_pong's "pong", ipc_test's "ipc_test",
 * and the name service's own name. */
static const char *const reserved_names[] = { "nameserver", "pong", "ipc_test" };

static struct binding bindings[NAMES_MAX];

/* Unbinds every name whose endpoint is gone (ids are never reused, so a dead id names
 * nothing): a reserved name loses only its endpoint, any other name its slot. */
static void forget_dead(void)
{
    for (int i = 0; i < NAMES_MAX; i++) {
        struct binding *b = &bindings[i];
        if (b->ep && ipc_endpoint_owner(b->ep) < 0) {
            b->ep = 0;
            if (!b->reserved)
                b->name[0] = '\0';
        }
    }
}

/* The binding of name (bound to a living endpoint, or reserved), or NULL; after
 * forget_dead(). */
static struct binding *find(const char *name)
{
    for (int i = 0; i < NAMES_MAX; i++)
        if (bindings[i].name[0] && strcmp(bindings[i].name, name) == 0)
            return &bindings[i];
    return 0;
}

/* Why the table refuses one more name to the task with pid owner and credentials cred:
 * 0, or -ENOSPC (its task's or its non-root user's share is used up, or it needs a new
 * slot and there is none it may take). After forget_dead(). */
static int name_refusal(int owner, const struct cred *cred, bool new_slot)
{
    int of_task = 0, of_user = 0, of_others = 0, used = 0;
    for (int i = 0; i < NAMES_MAX; i++) {
        const struct binding *b = &bindings[i];
        if (!b->name[0])
            continue;
        used++;
        of_task += b->ep && ipc_endpoint_owner(b->ep) == owner;
        of_user += b->uid == cred->euid;
        of_others += b->uid != 0;
    }
    bool root = cred->euid == 0;
    if (of_task >= NS_NAMES_PER_TASK || (!root && of_user >= NS_NAMES_PER_USER))
        return -ENOSPC;
    if (new_slot && (used >= NAMES_MAX || (!root && of_others >= NAMES_MAX - NS_NAMES_ROOT_ONLY)))
        return -ENOSPC;
    return 0;
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
    forget_dead();
    struct binding *b = find(name);
    bool privileged = cred_privileged(cred);
    if (b && b->uid == 0 && !privileged)
        return -EACCES; /* root's, bound or not: checked first, as bind() checks the port */
    if (b && b->ep && (b->uid == 0 || !privileged))
        return -EEXIST; /* the holder keeps it against its equals */
    int err = name_refusal(sender, cred, b == 0);
    if (err)
        return err;
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
    forget_dead();
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
    for (unsigned i = 0; i < sizeof reserved_names / sizeof reserved_names[0]; i++) {
        strlcpy(bindings[i].name, reserved_names[i], sizeof bindings[i].name);
        bindings[i].reserved = true;
    }
}
