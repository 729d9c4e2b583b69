/*
 * ipc_events.h - ipc/ipc_send, ipc_call, ipc_recv and ipc_reply: tracekern's message passing
 * (kernel/ipc/ipc.c) as events (Linux has no counterpart; the names are the issue's, the
 * fields what a user filters on: endpoints, pids, labels, lengths, reply tokens):
 *
 *   ipc_send   ep sender receiver label len          a plain message was taken
 *   ipc_call   ep caller server label len token      a call's message was taken
 *   ipc_recv   ep sender label len token             the receiver's ipc_recv returns it
 *   ipc_reply  ep caller server label len token      the server answered (the reply's
 *                                                    label and len)
 * ipc_send and ipc_call are recorded at the rendezvous, by whichever task makes it (the
 * receiver taking a queued message, or the sender finding the receiver waiting): the fields
 * name both sides. ipc_recv is recorded by the receiver as its call returns, ipc_reply by
 * the server. A call's four records share its token. Hooks in kernel/trace_hooks.h: each
 * costs one load and a branch while off.
 */
#ifndef TRACE_EVENTS_IPC_EVENTS_H
#define TRACE_EVENTS_IPC_EVENTS_H

#include "trace/events/tracepoint.h"

extern struct trace_event_call event_ipc_send, event_ipc_call, event_ipc_recv, event_ipc_reply;

#endif
