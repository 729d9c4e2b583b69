/*
 * sched_scale.c - two scale curves of issue 24 (docs/scaling.md), measured from ring 3 with
 * the TSC (one count per guest instruction under `make bench`'s -icount): does a path of
 * the scheduler get dearer when many processes exist and sleep? The benchmark
 * (tests/bench/scale_sched_bench.c) starts the sleepers, then this program to measure:
 *   getpid_by_processes     one getpid() while N processes exist (the P sleepers and
 *                           this one: N = P + 1)
 *   ipc_roundtrip_sleepers  one IPC round trip (a 16-byte ipc_call to a forked server, its
 *                           ipc_recv and ipc_reply) while P other processes sleep: the call
 *                           wakes the server and the reply wakes the caller, each wake-up
 *                           and each switch a scheduler path (an IPC wait names its task:
 *                           the wake-up is direct)
 *   pipe_roundtrip_sleepers one byte to a forked child through a pipe and back through
 *                           another while P other processes sleep: each read sleeps on its
 *                           pipe and each write wakes it through the scheduler's wait table
 *
 *   sched_scale sleep K     a sleeper: sleeps until killed, in pause() (a wait on its own
 *                           signals) for even K, in a nanosleep of a day for odd K (a timed
 *                           sleep: a timer the tick must not look at until it is due)
 *   sched_scale measure P   prints `SCALE getpid_by_processes P+1 V`, `SCALE
 *                           ipc_roundtrip_sleepers P V` and `SCALE pipe_roundtrip_sleepers P
 *                           V`: V the smallest of REPEATS runs of ROUNDS operations, per
 *                           operation
 * A call that fails prints `BENCH-ERROR NAME: WHAT: ERRNO (text)` and ends the program
 * with status 1.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <tracekern/ipc.h>
#include <unistd.h>

#define REPEATS 3
#define GETPID_ROUNDS 200
#define IPC_ROUNDS 200
#define PIPE_ROUNDS 200
#define SERVER_QUIT 0xdead
#define LOOKUP_TRIES 200

static pid_t server; /* the forked server, 0 before it exists */
static char server_name[32]; /* its name at the name service: one per run */

static inline uint64_t rdtsc(void)
{
    uint64_t t;
    asm volatile("rdtsc" : "=A"(t) : : "memory");
    return t;
}

/* Reports what failed (errno is the failed call's), kills the server and exits 1. */
static void __attribute__((noreturn)) fail(const char *row, const char *what)
{
    int e = errno;
    printf("BENCH-ERROR %s: %s: %s (%s)\n", row, what,
           strerrorname_np(e) ? strerrorname_np(e) : "?", strerror(e));
    if (server > 0) {
        kill(server, SIGKILL);
        waitpid(server, 0, 0);
    }
    exit(1);
}

/* A sleeper's life: asleep until killed (pause, or a day's nanosleep for odd k). */
static void __attribute__((noreturn)) sleep_forever(unsigned k)
{
    for (;;) {
        if (k & 1) {
            struct timespec day = { 86400, 0 };
            nanosleep(&day, 0);
        } else {
            pause();
        }
    }
}

/* The smallest of REPEATS loops of GETPID_ROUNDS getpid calls, per call. */
static uint64_t getpid_cost(void)
{
    uint64_t best = UINT64_MAX;
    pid_t me = getpid();
    for (unsigned r = 0; r < REPEATS; r++) {
        uint64_t start = rdtsc();
        for (unsigned i = 0; i < GETPID_ROUNDS; i++)
            if (getpid() != me) {
                errno = EINVAL;
                fail("getpid_by_processes", "getpid changed");
            }
        uint64_t per = (rdtsc() - start) / GETPID_ROUNDS;
        best = per < best ? per : best;
    }
    return best;
}

/* The server child: answers every call with its own message until SERVER_QUIT. */
static void __attribute__((noreturn)) serve(void)
{
    int ep = ipc_create(server_name);
    if (ep < 0 || ipc_register(ep, server_name) < 0) {
        perror("sched_scale: server endpoint");
        _exit(1);
    }
    struct ipc_msg m;
    for (;;) {
        int token = ipc_recv(ep, &m, IPC_FOREVER);
        if (token <= 0)
            continue;
        ipc_reply(token, &m);
        if (m.label == SERVER_QUIT)
            _exit(0);
    }
}

/* The server's endpoint, waiting (1 ms at a time) for it to register. */
static int find_server(void)
{
    for (int i = 0; i < LOOKUP_TRIES; i++) {
        int ep = ipc_lookup(server_name);
        if (ep >= 0)
            return ep;
        usleep(1000);
    }
    fail("ipc_roundtrip_sleepers", "lookup of the server");
}

/* The smallest of REPEATS loops of IPC_ROUNDS round trips to ep, per round trip; each
 * answer checked. */
static uint64_t roundtrip_cost(int ep)
{
    struct ipc_msg m = { 1, 16, "sched-scale-msg" }, reply;
    uint64_t best = UINT64_MAX;
    for (unsigned r = 0; r < REPEATS; r++) {
        uint64_t start = rdtsc();
        for (unsigned i = 0; i < IPC_ROUNDS; i++) {
            m.data[0] = (uint8_t)i;
            if (ipc_call(ep, &m, &reply, IPC_FOREVER) < 0)
                fail("ipc_roundtrip_sleepers", "ipc_call");
            if (reply.len != m.len || memcmp(reply.data, m.data, m.len) != 0) {
                errno = EINVAL;
                fail("ipc_roundtrip_sleepers", "the answer differs from the message");
            }
        }
        uint64_t per = (rdtsc() - start) / IPC_ROUNDS;
        best = per < best ? per : best;
    }
    return best;
}

/* The child's side of the pipe round trip: every byte read from in goes back on out, until
 * end of file. */
static void __attribute__((noreturn)) echo_bytes(int in, int out)
{
    char c;
    while (read(in, &c, 1) == 1)
        if (write(out, &c, 1) != 1)
            _exit(1);
    _exit(0);
}

/* The smallest of REPEATS loops of PIPE_ROUNDS one-byte round trips through a forked child,
 * per round trip; each byte checked. */
static uint64_t pipe_cost(void)
{
    static const char *const row = "pipe_roundtrip_sleepers";
    int to_child[2], to_parent[2];
    if (pipe(to_child) != 0 || pipe(to_parent) != 0)
        fail(row, "pipe");
    server = fork();
    if (server < 0)
        fail(row, "fork of the echo child");
    if (server == 0) {
        close(to_child[1]);
        close(to_parent[0]);
        echo_bytes(to_child[0], to_parent[1]);
    }
    close(to_child[0]);
    close(to_parent[1]);
    uint64_t best = UINT64_MAX;
    for (unsigned r = 0; r < REPEATS; r++) {
        uint64_t start = rdtsc();
        for (unsigned i = 0; i < PIPE_ROUNDS; i++) {
            char c = (char)i, back = 0;
            if (write(to_child[1], &c, 1) != 1 || read(to_parent[0], &back, 1) != 1)
                fail(row, "write or read");
            if (back != c) {
                errno = EINVAL;
                fail(row, "the byte came back changed");
            }
        }
        uint64_t per = (rdtsc() - start) / PIPE_ROUNDS;
        best = per < best ? per : best;
    }
    close(to_child[1]); /* end of file: the child exits */
    close(to_parent[0]);
    int status = 0;
    if (waitpid(server, &status, 0) != server || status != 0) {
        errno = status ? EINVAL : errno;
        fail(row, "the echo child's exit");
    }
    server = 0;
    return best;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "sleep") == 0)
        sleep_forever((unsigned)atoi(argv[2]));
    if (argc != 3 || strcmp(argv[1], "measure") != 0) {
        printf("usage: sched_scale sleep K | sched_scale measure P\n");
        return 2;
    }
    unsigned sleepers = (unsigned)atoi(argv[2]);
    snprintf(server_name, sizeof server_name, "sched_%d", (int)getpid()); /* IPC_NAME_MAX: 16 */
    printf("SCALE getpid_by_processes %u %llu\n", sleepers + 1, (unsigned long long)getpid_cost());
    server = fork();
    if (server < 0)
        fail("ipc_roundtrip_sleepers", "fork of the server");
    if (server == 0)
        serve();
    int ep = find_server();
    printf("SCALE ipc_roundtrip_sleepers %u %llu\n", sleepers, (unsigned long long)roundtrip_cost(ep));
    struct ipc_msg quit = { SERVER_QUIT, 0, { 0 } }, reply;
    if (ipc_call(ep, &quit, &reply, IPC_FOREVER) < 0)
        fail("ipc_roundtrip_sleepers", "the server's quit call");
    int status = 0;
    if (waitpid(server, &status, 0) != server || status != 0) {
        errno = status ? EINVAL : errno;
        fail("ipc_roundtrip_sleepers", "the server's exit");
    }
    server = 0;
    printf("SCALE pipe_roundtrip_sleepers %u %llu\n", sleepers, (unsigned long long)pipe_cost());
    return 0;
}
