/*
 * ipc_pong.c - the server half of the IPC ping-pong: creates an endpoint, binds it to the
 * name "pong" (argv[1] to choose another) at the name service, and answers every call with
 * the message it got. A call labelled PONG_QUIT is answered and ends it; one labelled
 * PONG_EXIT_WITHOUT_REPLY ends it at once, leaving the caller without an answer. One labelled
 * PONG_HOLD is held unanswered until the next call has been received; then the held call is
 * answered (late: its caller gives up first, as ipc_test does), and the next call gets its
 * own message back with the late answer's result in the label: 0, or -errno.
 *
 * Prints: "ipc_pong: serving NAME on endpoint E", then "ipc_pong: N calls answered" at the
 * end.
 *
 *   ipc_pong [-r] [NAME]
 * With -r it serves register messages (uapi/ipc.h) with ipc_reply_recv_regs, the reply and
 * the wait for the next call in one system call, as `ipc_ping -r` sends them: the kernel's
 * fast path. Its messages are a label and 8 bytes; PONG_QUIT and PONG_EXIT_WITHOUT_REPLY
 * mean there what they mean above.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracekern/ipc.h>

#define PONG_QUIT 0xdead
#define PONG_EXIT_WITHOUT_REPLY 0xdeaf /* for ipc_test: a server dying mid-call */
#define PONG_HOLD 0xdeed               /* for ipc_test: a reply after its caller gave up */

/* The -r loop: answers each call with its own message and takes the next in the same
 * call, until PONG_QUIT, answered alone. Returns the calls answered; exits on an error. */
static unsigned serve_regs(int ep)
{
    unsigned answered = 0;
    struct ipc_regs m = { 0, 0, { 0, 0 } };
    int token = 0; /* the call to answer: none before the first */
    for (;;) {
        token = ipc_reply_recv_regs(ep, token, &m);
        if (token < 0) {
            perror("ipc_pong: reply_recv");
            exit(1);
        }
        if (token == 0)
            continue; /* a plain send: nobody waits for an answer */
        if (m.label == PONG_EXIT_WITHOUT_REPLY)
            exit(0);
        answered++;
        if (m.label == PONG_QUIT) {
            struct ipc_msg last = { m.label, 0, { 0 } };
            if (ipc_reply(token, &last) < 0)
                perror("ipc_pong: reply");
            return answered;
        }
    }
}

int main(int argc, char **argv)
{
    bool regs = argc > 1 && strcmp(argv[1], "-r") == 0;
    if (regs) {
        argc--;
        argv++;
    }
    const char *name = argc > 1 ? argv[1] : "pong";
    int ep = ipc_create(name);
    if (ep < 0 || ipc_register(ep, name) < 0) {
        perror("ipc_pong: endpoint");
        return 1;
    }
    printf("ipc_pong: serving %s on endpoint %d\n", name, ep);
    if (regs) {
        printf("ipc_pong: %u calls answered\n", serve_regs(ep));
        return 0;
    }
    unsigned answered = 0;
    struct ipc_msg m, held_msg;
    int held = 0; /* the token of a PONG_HOLD call not answered yet */
    for (;;) {
        int token = ipc_recv(ep, &m, IPC_FOREVER);
        if (token < 0) {
            perror("ipc_pong: recv");
            return 1;
        }
        if (token == 0)
            continue; /* a plain send: nobody waits for an answer */
        if (m.label == PONG_EXIT_WITHOUT_REPLY)
            return 0;
        if (m.label == PONG_HOLD && !held) {
            held = token;
            held_msg = m;
            continue;
        }
        if (held) {
            m.label = (uint32_t)(ipc_reply(held, &held_msg) < 0 ? -errno : 0);
            held = 0;
        }
        if (ipc_reply(token, &m) < 0)
            perror("ipc_pong: reply");
        answered++;
        if (m.label == PONG_QUIT)
            break;
    }
    printf("ipc_pong: %u calls answered\n", answered);
    return 0;
}
