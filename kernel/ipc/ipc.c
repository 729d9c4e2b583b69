/*
 * ipc.c - endpoints and the rendezvous of synchronous message passing.
 *
 * A task that has to wait describes what it waits for in a struct ipc_wait on its own
 * kernel stack, links it where the other side will find it (an endpoint's queue of
 * senders, the endpoint's waiting receiver, or the list of callers awaiting a reply) and
 * sleeps on it. The other side copies the message, sets the wait's result and wakes it.
 * A call whose message is taken gets a reply token of its own (ipc_new_token), which the
 * receiver's ipc_recv returns and its ipc_reply must name: a token answers one call only.
 * Whoever gives up (timeout, kill) unlinks its own wait, so a wait is never left linked
 * after its task returns. All IPC state changes under the big kernel lock with interrupts
 * off (kernel/ipc/ipc_internal.h). This is the slow path, which does everything; the fast
 * path (kernel/ipc/ipc_fast.c) does the common register-message round trip on one CPU
 * with the same state and the same waits, so either side may be on either path.
 */
#include "kernel/ipc/ipc.h"
#include "kernel/ipc/ipc_internal.h"

#include "kernel/arch.h"
#include "kernel/lib/errno.h"
#include "kernel/init.h"
#include "kernel/params.h"
#include "kernel/proc/task_internal.h"
#include "kernel/proc/sched.h"
#include "kernel/lib/string.h"
#include "kernel/time.h"
#include "kernel/log/ipc_logging.h"
#include "kernel/trace_hooks.h"

/* Waits live on their task's kernel stack and are linked into the lists below while the task
 * sleeps; ipc_wait_for() always unlinks them (or the other side has) before they go out of
 * scope, which gcc cannot see. */
#pragma GCC diagnostic ignored "-Wdangling-pointer"

/* Slot (id - 1) % IPC_ENDPOINTS holds endpoint id. A slot's next endpoint gets a new id, so
 * an id kept after its endpoint died (a stale name binding, a program's variable) names
 * nothing rather than a stranger's endpoint. */
struct endpoint ipc_endpoints[IPC_ENDPOINTS];
struct ipc_wait *ipc_awaiting_reply;              /* callers whose message was taken */
static uint32_t last_token;                       /* the token given to the latest call */

/* IPC's own log (ipc_logging/ipc/): every message taken, every reply, every endpoint made
 * or gone, and every wait given up. 16 pages keep the last few hundred messages. */
#define IPC_LOG_PAGES 16
static struct ipc_log_context *ipc_log;
bool ipc_log_on = true;

void ipc_logging_set(bool on) { ipc_log_on = on; }

/* Logs through IPC_LOG when logging is on: the call site's function name comes first. */
#define LOG(fmt, ...)                                                          \
    do {                                                                       \
        if (ipc_log_on)                                                        \
            IPC_LOG(ipc_log, fmt, ##__VA_ARGS__);                              \
    } while (0)

/*
 * The messages themselves are logged through ipc_log_numbers: a fixed text saying what the
 * numbers are, then the numbers in decimal, written by a formatter of their own rather than
 * printf (a formatted IPC_LOG line costs several times as much, and this is every message).
 * They are ordinary string events, "[ipc_reply] call: ep caller server label len, reply:
 * label len = 2 4 3 1 16 1 16", so every reader of IPC logs reads them, Qualcomm's dump
 * parser included (it decodes string events and stops at any other type).
 */
#define LOG_NUMBERS(what, ...)                                                 \
    do {                                                                       \
        if (ipc_log_on) {                                                      \
            const int32_t numbers_[] = { __VA_ARGS__ };                        \
            ipc_log_numbers(ipc_log, what, sizeof(what) - 1, numbers_,         \
                            sizeof numbers_ / sizeof numbers_[0]);             \
        }                                                                      \
    } while (0)

/* Why the table refuses owner one more endpoint: 0 (it may have one), -EMFILE (the task's
 * share, or its non-root user's, is used up) or -ENOSPC (the table is full, or the owner
 * is not root and the other users' share is used up). Interrupts off. */
static int endpoint_refusal(const struct task *owner)
{
    uint32_t uid = owner->cred.euid;
    int of_task = 0, of_user = 0, of_others = 0, used = 0;
    for (int i = 0; i < IPC_ENDPOINTS; i++) {
        const struct endpoint *e = &ipc_endpoints[i];
        if (!e->owner)
            continue;
        used++;
        of_task += e->owner == owner;
        of_user += e->uid == uid;
        of_others += e->uid != 0;
    }
    if (of_task >= IPC_ENDPOINTS_PER_TASK || (uid != 0 && of_user >= IPC_ENDPOINTS_PER_USER))
        return -EMFILE;
    if (used >= IPC_ENDPOINTS ||
        (uid != 0 && of_others >= IPC_ENDPOINTS - IPC_ENDPOINTS_ROOT_ONLY))
        return -ENOSPC;
    return 0;
}

int ipc_create(struct task *owner, const char *name)
{
    unsigned long flags = arch_irq_save();
    int err = endpoint_refusal(owner);
    if (err) {
        arch_irq_restore(flags);
        return err;
    }
    for (int i = 0; i < IPC_ENDPOINTS; i++) {
        struct endpoint *e = &ipc_endpoints[i];
        if (e->owner)
            continue;
        int id = e->id && e->id <= INT32_MAX - IPC_ENDPOINTS ? e->id + IPC_ENDPOINTS : i + 1;
        memset(e, 0, sizeof *e);
        e->id = id;
        e->owner = owner;
        e->uid = owner->cred.euid;
        strlcpy(e->name, name && *name ? name : owner->name, sizeof e->name);
        arch_irq_restore(flags);
        LOG("ep %d '%s' created by %s-%d", id, e->name, owner->name, owner->pid);
        return id;
    }
    arch_irq_restore(flags);
    return -ENOSPC;
}

int ipc_endpoint_owner(int ep)
{
    struct endpoint *e = endpoint_of(ep);
    return e ? e->owner->pid : -EBADF;
}

/* Removes w from the list at *head if it is there. */
void ipc_unlink_wait(struct ipc_wait **head, struct ipc_wait *w)
{
    for (struct ipc_wait **p = head; *p; p = &(*p)->next)
        if (*p == w) {
            *p = w->next;
            return;
        }
}

/* Ends a wait: its result, and its task woken. The wait names its task, so the wake-up is
 * direct (the task sleeps with sleep_on_direct: nothing to look up). */
static void complete(struct ipc_wait *w, int result)
{
    w->result = result;
    sched_wake_sleeper(w->task, w);
}

/*
 * Sleeps until w is completed, the timeout passes or the task is killed; interrupts off.
 * On giving up, takes w off the list it is on (where the other side would have found it).
 * Returns the wait's result, or -ETIMEDOUT, -EAGAIN (timeout 0) or -EINTR.
 */
int ipc_wait_for(struct ipc_wait *w, uint32_t timeout_ms)
{
    uint64_t deadline = timeout_ms == IPC_FOREVER ? 0 : time_ns() + timeout_ms * 1000000ull;
    while (w->result == PENDING) {
        int err;
        if (timeout_ms == 0) {
            err = -EAGAIN;
        } else if (!deadline) {
            err = sleep_on_direct(w, 0);
        } else {
            uint64_t now = time_ns();
            err = now >= deadline ? -ETIMEDOUT : sleep_on_direct(w, deadline - now);
        }
        if (err && w->result == PENDING) {
            ipc_unlink_wait(w->where, w);
            LOG("%s-%d gave up waiting: error %d", w->task->name, w->task->pid, err);
            return err;
        }
    }
    return w->result;
}

/* The call on ipc_awaiting_reply with this token, or NULL. */
struct ipc_wait *ipc_awaiting(uint32_t token)
{
    for (struct ipc_wait *w = ipc_awaiting_reply; w; w = w->next)
        if (w->token == token)
            return w;
    return 0;
}

/*
 * A reply token for a call whose message is being taken. Each call gets its own, so a reply
 * meant for a call its caller gave up on can never answer that caller's next call. Tokens
 * count up from 1 and wrap within 1 .. INT32_MAX (ipc_recv returns them as positive ints),
 * skipping any still awaiting a reply: no two waiting calls ever share a token.
 */
uint32_t ipc_new_token(void)
{
    do
        last_token = last_token >= INT32_MAX ? 1 : last_token + 1;
    while (ipc_awaiting(last_token));
    return last_token;
}

/* A message taken from sender tx by e's owner: counted; a call gets its token and goes on
 * waiting for its reply, a send is done. Returns what the receiver gets: the call's token,
 * or 0 for a send. */
static int sender_done(struct endpoint *e, struct ipc_wait *tx)
{
    e->messages++;
    if (!tx->reply) {
        LOG_NUMBERS("[ipc_send] send: ep sender receiver label len =", e->id, tx->task->pid,
                    e->owner->pid, (int32_t)tx->msg.label, (int32_t)tx->msg.len);
        trace_ipc_send(e->id, tx->task->pid, e->owner->pid, &tx->msg);
        complete(tx, 0);
        return 0;
    }
    e->calls++;
    tx->token = ipc_new_token();
    tx->ep = e->id; /* logged with its reply: one event per round trip */
    tx->server = e->owner->pid;
    tx->where = &ipc_awaiting_reply;
    tx->next = ipc_awaiting_reply;
    ipc_awaiting_reply = tx;
    trace_ipc_call(e->id, tx->task->pid, tx->server, &tx->msg, tx->token);
    return (int)tx->token;
}

/* Hands tx's message to rx, the receiver blocked on e: copies it and wakes the receiver
 * with what ipc_recv returns (the call's token, 0 for a send). */
static void deliver(struct endpoint *e, struct ipc_wait *rx, struct ipc_wait *tx)
{
    rx->msg = tx->msg;
    rx->peer = tx->task->pid;
    e->receiver = 0;
    complete(rx, sender_done(e, tx));
}

/* The sending half of send and call. */
static int send_common(int ep, const struct ipc_msg *msg, struct ipc_msg *reply,
                       uint32_t timeout_ms)
{
    if (msg->len > IPC_MSG_MAX)
        return -EMSGSIZE;
    struct ipc_wait tx = { .task = current, .msg = *msg, .reply = reply, .result = PENDING };
    unsigned long flags = arch_irq_save();
    struct endpoint *e = endpoint_of(ep);
    int err;
    if (!e) {
        err = -EBADF;
    } else if (e->receiver) {
        deliver(e, e->receiver, &tx);
        /* A call waits for its reply even with timeout 0, which only means "do not wait for
         * the receiver". */
        err = reply ? ipc_wait_for(&tx, timeout_ms == 0 ? IPC_FOREVER : timeout_ms) : 0;
    } else {
        struct ipc_wait **tail = &e->senders;
        while (*tail)
            tail = &(*tail)->next;
        *tail = &tx;
        tx.where = &e->senders;
        err = ipc_wait_for(&tx, timeout_ms);
    }
    arch_irq_restore(flags);
    return err;
}

int ipc_send(int ep, const struct ipc_msg *msg, uint32_t timeout_ms)
{
    return send_common(ep, msg, 0, timeout_ms);
}

int ipc_call(int ep, const struct ipc_msg *msg, struct ipc_msg *reply, uint32_t timeout_ms)
{
    return send_common(ep, msg, reply, timeout_ms);
}

int ipc_recv(int ep, struct ipc_msg *msg, uint32_t timeout_ms)
{
    unsigned long flags = arch_irq_save();
    struct endpoint *e = endpoint_of(ep);
    int result;
    if (!e) {
        result = -EBADF;
    } else if (e->owner != current) {
        result = -EPERM;
    } else if (e->senders) {
        struct ipc_wait *tx = e->senders;
        e->senders = tx->next;
        *msg = tx->msg;
        int sender = tx->task->pid; /* tx is the sender's again once sender_done completes it */
        result = sender_done(e, tx);
        trace_ipc_recv(ep, sender, msg, (uint32_t)result);
    } else {
        struct ipc_wait rx = { .task = current, .result = PENDING, .where = &e->receiver };
        e->receiver = &rx;
        result = ipc_wait_for(&rx, timeout_ms);
        if (result >= 0) {
            *msg = rx.msg;
            trace_ipc_recv(ep, rx.peer, msg, (uint32_t)result);
        }
    }
    arch_irq_restore(flags);
    return result;
}

int ipc_reply(uint32_t token, const struct ipc_msg *msg)
{
    if (msg->len > IPC_MSG_MAX)
        return -EMSGSIZE;
    unsigned long flags = arch_irq_save();
    int err = -ESRCH;
    struct ipc_wait *w = ipc_awaiting(token);
    if (w && w->server == current->pid) {
        ipc_unlink_wait(&ipc_awaiting_reply, w);
        *w->reply = *msg;
        struct endpoint *called = endpoint_of(w->ep);
        if (called)
            called->replies++;
        LOG_NUMBERS("[ipc_reply] call: ep caller server label len, reply: label len =", w->ep,
                    w->task->pid, current->pid, (int32_t)w->msg.label, (int32_t)w->msg.len,
                    (int32_t)msg->label, (int32_t)msg->len);
        trace_ipc_reply(w->ep, w->task->pid, current->pid, msg, token);
        complete(w, 0);
        err = 0;
    }
    arch_irq_restore(flags);
    return err;
}

int ipc_reply_recv(uint32_t token, const struct ipc_msg *reply, int ep, struct ipc_msg *msg)
{
    if (token) {
        int err = ipc_reply(token, reply);
        if (err)
            return err;
    }
    return ipc_recv(ep, msg, IPC_FOREVER);
}

/* Tokens say nothing about the caller; a server that must know who called (the name
 * service) asks here, while the call still awaits its reply. */
int ipc_caller_pid(uint32_t token, struct cred *cred)
{
    unsigned long flags = arch_irq_save();
    const struct ipc_wait *w = ipc_awaiting(token);
    int pid = w && w->server == current->pid ? w->task->pid : -ESRCH;
    if (pid >= 0 && cred)
        *cred = w->task->cred;
    arch_irq_restore(flags);
    return pid;
}

/* A task is ending: its endpoints go, and everyone waiting on them or for its replies
 * learns it with -EPIPE. */
static void ipc_task_exit(struct task *t)
{
    unsigned long flags = arch_irq_save();
    for (int i = 0; i < IPC_ENDPOINTS; i++) {
        struct endpoint *e = &ipc_endpoints[i];
        if (e->owner != t)
            continue;
        while (e->senders) {
            struct ipc_wait *w = e->senders;
            e->senders = w->next;
            complete(w, -EPIPE);
        }
        LOG("ep %d '%s' gone with %s-%d", e->id, e->name, t->name, t->pid);
        e->owner = 0;
    }
    for (struct ipc_wait **p = &ipc_awaiting_reply; *p;) {
        struct ipc_wait *w = *p;
        if (w->server == t->pid) {
            *p = w->next;
            complete(w, -EPIPE);
        } else {
            p = &w->next;
        }
    }
    arch_irq_restore(flags);
}

static struct task_exit_hook ipc_exit_hook = { ipc_task_exit, 0 };

/* IPC's log starts on, unless the command line says ipc_log=off: then the register calls
 * take their fast path from boot (which a running kernel's log would keep them from), as
 * tests/shell/ipc_regs.script boots. */
static void ipc_init(void)
{
    task_on_exit(&ipc_exit_hook);
    ipc_log = ipc_log_context_create(IPC_LOG_PAGES, "ipc", 0);
    const char *log = kernel_param("ipc_log");
    if (log && strcmp(log, "off") == 0)
        ipc_log_on = false;
}
INITCALL(core, ipc_init);

bool ipc_endpoint_stats(int i, struct ipc_endpoint_stats *out)
{
    unsigned long flags = arch_irq_save();
    const struct endpoint *e = &ipc_endpoints[i];
    bool used = e->owner != 0;
    if (used) {
        out->id = e->id;
        out->owner = e->owner->pid;
        memcpy(out->name, e->name, sizeof out->name);
        out->messages = e->messages;
        out->calls = e->calls;
        out->replies = e->replies;
        out->waiting_senders = 0;
        for (const struct ipc_wait *w = e->senders; w; w = w->next)
            out->waiting_senders++;
        out->receiver_waiting = e->receiver != 0;
    }
    arch_irq_restore(flags);
    return used;
}
