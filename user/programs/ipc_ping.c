/*
 * ipc_ping.c - the client half of the IPC ping-pong, and its measurement: looks up "pong"
 * at the name service (waiting for the server to register), makes ROUNDS calls with a
 * 16-byte message, checks every answer is the message sent, and counts TSC cycles (guest
 * instructions under QEMU -icount) per round trip: three system calls (call, and the
 * server's recv and reply), two switches of task and address space, and the message copied
 * in and out of both programs. The last call tells the server to quit.
 *
 *   ipc_ping [-r] [ROUNDS [LABEL]]
 * Prints "ipc_ping: ROUNDS round trips, C cycles each" and, with LABEL, a bench row
 * "BENCH LABEL C" for tools/bench.sh. With -r the messages are register messages
 * (ipc_call_regs: a label and 8 bytes, to an `ipc_pong -r`), the kernel's fast path.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracekern/ipc.h>
#include <unistd.h>

#define PONG_QUIT 0xdead
#define LOOKUP_TRIES 200

static inline uint64_t rdtsc(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return (uint64_t)hi << 32 | lo;
}

/* The server's endpoint, waiting (1 ms at a time) for it to register. */
static int find_server(void)
{
    for (int i = 0; i < LOOKUP_TRIES; i++) {
        int ep = ipc_lookup("pong");
        if (ep >= 0)
            return ep;
        usleep(1000);
    }
    perror("ipc_ping: lookup pong");
    exit(1);
}

/* The loop: rounds calls with a 16-byte message, each answer checked. Returns the TSC
 * cycles per round trip; exits on an error. */
static uint64_t memory_rounds(int ep, unsigned rounds)
{
    struct ipc_msg m = { 1, 16, "ping-pong-data!" }, reply;
    uint64_t start = rdtsc();
    for (unsigned i = 0; i < rounds; i++) {
        m.data[0] = (uint8_t)i;
        if (ipc_call(ep, &m, &reply, IPC_FOREVER) < 0) {
            perror("ipc_ping: call");
            exit(1);
        }
        if (reply.len != m.len || memcmp(reply.data, m.data, m.len) != 0) {
            printf("ipc_ping: round %u: the answer differs from the message\n", i);
            exit(1);
        }
    }
    return rounds ? (rdtsc() - start) / rounds : 0;
}

/* The -r loop: rounds register calls, each answer checked. Returns the TSC cycles per
 * round trip; exits on an error. */
static uint64_t regs_rounds(int ep, unsigned rounds)
{
    uint64_t start = rdtsc();
    for (unsigned i = 0; i < rounds; i++) {
        struct ipc_regs m = { 1, 0, { i, 0x676e6970 } }; /* "ping" */
        if (ipc_call_regs(ep, &m, IPC_FOREVER) < 0) {
            perror("ipc_ping: call");
            exit(1);
        }
        if (m.label != 1 || m.len != IPC_REG_BYTES || m.word[0] != i || m.word[1] != 0x676e6970) {
            printf("ipc_ping: round %u: the answer differs from the message\n", i);
            exit(1);
        }
    }
    return rounds ? (rdtsc() - start) / rounds : 0;
}

int main(int argc, char **argv)
{
    bool regs = argc > 1 && strcmp(argv[1], "-r") == 0;
    if (regs) {
        argc--;
        argv++;
    }
    unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 1000;
    const char *label = argc > 2 ? argv[2] : 0;
    int ep = find_server();
    uint64_t per = regs ? regs_rounds(ep, rounds) : memory_rounds(ep, rounds);
    printf("ipc_ping: %u round trips, %llu cycles each\n", rounds, (unsigned long long)per);
    if (label)
        printf("BENCH %s %llu\n", label, (unsigned long long)per);
    /* Printed before the server is told to quit, so that its last words come after ours:
     * a session that shows both reads the same on every run. */
    fflush(stdout);
    if (regs) {
        struct ipc_regs quit = { PONG_QUIT, 0, { 0, 0 } };
        ipc_call_regs(ep, &quit, IPC_FOREVER);
    } else {
        struct ipc_msg quit = { PONG_QUIT, 16, "ping-pong-data!" }, reply;
        ipc_call(ep, &quit, &reply, IPC_FOREVER);
    }
    return 0;
}
