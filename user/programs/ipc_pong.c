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
 */
#include <stdio.h>
#include <tracekern/ipc.h>

#define PONG_QUIT 0xdead
#define PONG_EXIT_WITHOUT_REPLY 0xdeaf /* for ipc_test: a server dying mid-call */
#define PONG_HOLD 0xdeed               /* for ipc_test: a reply after its caller gave up */

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "pong";
    int ep = ipc_create(name);
    if (ep < 0 || ipc_register(ep, name) < 0) {
        perror("ipc_pong: endpoint");
        return 1;
    }
    printf("ipc_pong: serving %s on endpoint %d\n", name, ep);
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
