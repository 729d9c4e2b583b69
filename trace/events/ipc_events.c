/*
 * ipc_events.c - the ipc/ events (ipc_events.h): records, fields, print formats and
 * recorders.
 */
#include "trace/events/ipc_events.h"

#include <stddef.h>

#include "kernel/init.h"
#include "uapi/ipc.h"

/* ipc_call and ipc_reply: both sides of a call, and its token. */
struct call_entry {
    struct trace_entry ent;
    int32_t ep, caller, server;
    uint32_t label, len, token;
};

struct send_entry {
    struct trace_entry ent;
    int32_t ep, sender, receiver;
    uint32_t label, len;
};

struct recv_entry {
    struct trace_entry ent;
    int32_t ep, sender;
    uint32_t label, len, token;
};

#define FIELD(ctype, type, name, is_signed) \
    { ctype, #name, offsetof(type, name), 4, 0, is_signed, TRACE_FIELD_INT }

enum { C_EP, C_CALLER, C_SERVER, C_LABEL, C_LEN, C_TOKEN, C_FIELDS };
enum { S_EP, S_SENDER, S_RECEIVER, S_LABEL, S_LEN, S_FIELDS };
enum { R_EP, R_SENDER, R_LABEL, R_LEN, R_TOKEN, R_FIELDS };

static const struct trace_event_field call_fields[C_FIELDS] = {
    FIELD("int", struct call_entry, ep, true),
    FIELD("pid_t", struct call_entry, caller, true),
    FIELD("pid_t", struct call_entry, server, true),
    FIELD("unsigned int", struct call_entry, label, false),
    FIELD("unsigned int", struct call_entry, len, false),
    FIELD("unsigned int", struct call_entry, token, false),
};

static const struct trace_event_field send_fields[S_FIELDS] = {
    FIELD("int", struct send_entry, ep, true),
    FIELD("pid_t", struct send_entry, sender, true),
    FIELD("pid_t", struct send_entry, receiver, true),
    FIELD("unsigned int", struct send_entry, label, false),
    FIELD("unsigned int", struct send_entry, len, false),
};

static const struct trace_event_field recv_fields[R_FIELDS] = {
    FIELD("int", struct recv_entry, ep, true),
    FIELD("pid_t", struct recv_entry, sender, true),
    FIELD("unsigned int", struct recv_entry, label, false),
    FIELD("unsigned int", struct recv_entry, len, false),
    FIELD("unsigned int", struct recv_entry, token, false),
};

static void record_call_like(struct trace_event_call *call, int ep, int caller, int server,
                             uint32_t label, uint32_t len, uint32_t token)
{
    struct call_entry *e = tracepoint_reserve(call, sizeof *e);
    if (!e)
        return;
    e->ep = ep;
    e->caller = caller;
    e->server = server;
    e->label = label;
    e->len = len;
    e->token = token;
    tracepoint_commit(call, e, sizeof *e);
}

static void record_call(int ep, int caller, int server, const struct ipc_msg *msg,
                        uint32_t token)
{
    record_call_like(&event_ipc_call, ep, caller, server, msg->label, msg->len, token);
}

static void record_reply(int ep, int caller, int server, const struct ipc_msg *msg,
                         uint32_t token)
{
    record_call_like(&event_ipc_reply, ep, caller, server, msg->label, msg->len, token);
}

static void record_send(int ep, int sender, int receiver, const struct ipc_msg *msg)
{
    struct send_entry *e = tracepoint_reserve(&event_ipc_send, sizeof *e);
    if (!e)
        return;
    e->ep = ep;
    e->sender = sender;
    e->receiver = receiver;
    e->label = msg->label;
    e->len = msg->len;
    tracepoint_commit(&event_ipc_send, e, sizeof *e);
}

static void record_recv(int ep, int sender, const struct ipc_msg *msg, uint32_t token)
{
    struct recv_entry *e = tracepoint_reserve(&event_ipc_recv, sizeof *e);
    if (!e)
        return;
    e->ep = ep;
    e->sender = sender;
    e->label = msg->label;
    e->len = msg->len;
    e->token = token;
    tracepoint_commit(&event_ipc_recv, e, sizeof *e);
}

static void attach_send(bool on) { trace_hook_ipc_send = on ? record_send : 0; }
static void attach_call(bool on) { trace_hook_ipc_call = on ? record_call : 0; }
static void attach_recv(bool on) { trace_hook_ipc_recv = on ? record_recv : 0; }
static void attach_reply(bool on) { trace_hook_ipc_reply = on ? record_reply : 0; }

#define INT(i) ((int)tracepoint_int(call, ev, (i)))
#define UINT(i) ((unsigned)tracepoint_int(call, ev, (i)))

static void print_call_like(struct fs_writer *out, const struct trace_event_call *call,
                            const struct trace_event_view *ev)
{
    fs_printf(out, "ep=%d caller=%d server=%d label=%u len=%u token=%u", INT(C_EP), INT(C_CALLER),
              INT(C_SERVER), UINT(C_LABEL), UINT(C_LEN), UINT(C_TOKEN));
}

static void print_send(struct fs_writer *out, const struct trace_event_call *call,
                       const struct trace_event_view *ev)
{
    fs_printf(out, "ep=%d sender=%d receiver=%d label=%u len=%u", INT(S_EP), INT(S_SENDER),
              INT(S_RECEIVER), UINT(S_LABEL), UINT(S_LEN));
}

static void print_recv(struct fs_writer *out, const struct trace_event_call *call,
                       const struct trace_event_view *ev)
{
    fs_printf(out, "ep=%d sender=%d label=%u len=%u token=%u", INT(R_EP), INT(R_SENDER),
              UINT(R_LABEL), UINT(R_LEN), UINT(R_TOKEN));
}

#define CALL_FMT                                                                            \
    "\"ep=%d caller=%d server=%d label=%u len=%u token=%u\", REC->ep, REC->caller, "        \
    "REC->server, REC->label, REC->len, REC->token"

static const struct tracepoint_info send_info = {
    "\"ep=%d sender=%d receiver=%d label=%u len=%u\", REC->ep, REC->sender, REC->receiver, "
    "REC->label, REC->len",
    print_send, attach_send,
};
static const struct tracepoint_info call_info = { CALL_FMT, print_call_like, attach_call };
static const struct tracepoint_info recv_info = {
    "\"ep=%d sender=%d label=%u len=%u token=%u\", REC->ep, REC->sender, REC->label, "
    "REC->len, REC->token",
    print_recv, attach_recv,
};
static const struct tracepoint_info reply_info = { CALL_FMT, print_call_like, attach_reply };

#define IPC_EVENT(nm, info, fl, n)                                                          \
    { .system = "ipc", .name = nm, .ops = &tracepoint_ops, .data = (void *)&(info),        \
      .fields = (fl), .nr_fields = (n) }

struct trace_event_call event_ipc_send = IPC_EVENT("ipc_send", send_info, send_fields, S_FIELDS);
struct trace_event_call event_ipc_call = IPC_EVENT("ipc_call", call_info, call_fields, C_FIELDS);
struct trace_event_call event_ipc_recv = IPC_EVENT("ipc_recv", recv_info, recv_fields, R_FIELDS);
struct trace_event_call event_ipc_reply =
    IPC_EVENT("ipc_reply", reply_info, call_fields, C_FIELDS);

static void ipc_events_init(void)
{
    tracepoint_register(&event_ipc_call);
    tracepoint_register(&event_ipc_reply);
    tracepoint_register(&event_ipc_send);
    tracepoint_register(&event_ipc_recv);
}
INITCALL(trace, ipc_events_init);
