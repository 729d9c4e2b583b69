/*
 * ipc_regs_test.c - the register-message calls (uapi/ipc.h: ipc_call_regs,
 * ipc_reply_recv_regs) and the kernel's fast path for them (kernel/ipc/ipc_fast.c): that
 * a round trip answers with what was sent, that register and memory messages meet in both
 * directions, the errors, and the ways a wait ends other than with an answer (a server that
 * exits, a signal, a kill) while the waiter may be blocked by the fast path. Each check runs
 * against a server or client forked here, on whatever CPU the scheduler gives it: with IPC
 * logging off (ipc_log=off) and one CPU the calls take the fast path, else the slow path,
 * and both must give the same lines.
 *
 * Prints one line per check (tracekern/check.h) and "ipc_regs_test: P passed, F failed";
 * the exit status is 1 when anything failed.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <tracekern/check.h>
#include <tracekern/ipc.h>
#include <unistd.h>

#define ROUNDS 200
#define QUIT 0xdead
#define W1 0x55aa1234u

/* The server of the round trips: answers each call with label + 1 and its words swapped,
 * taking the next call in the same system call, until QUIT. Returns the calls answered. */
static int serve(int ep)
{
    struct ipc_regs m = { 0, 0, { 0, 0 } };
    int token = 0, answered = 0;
    for (;;) {
        token = ipc_reply_recv_regs(ep, token, &m);
        if (token <= 0)
            return -1;
        if (m.label == QUIT) {
            struct ipc_msg last = { 0, 0, { 0 } };
            ipc_reply(token, &last);
            return answered;
        }
        uint32_t w0 = m.word[0];
        m.label++;
        m.word[0] = m.word[1];
        m.word[1] = w0;
        answered++;
    }
}

/* A child that runs fn(arg) and exits with its result; its pid, or exits on failure. */
static pid_t child(int (*fn)(int), int arg)
{
    pid_t pid = fork();
    if (pid < 0) {
        perror("ipc_regs_test: fork");
        exit(1);
    }
    if (pid == 0)
        _exit(fn(arg));
    return pid;
}

/* The exit status of child pid (its signal + 128 when killed). */
static int status_of(pid_t pid)
{
    int status = 0;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The client of the round trips: ROUNDS calls, every answer checked. 0 when all were right. */
static int client_rounds(int ep)
{
    for (uint32_t i = 0; i < ROUNDS; i++) {
        struct ipc_regs m = { 10 + i, 0, { i, W1 } };
        int ret = ipc_call_regs(ep, &m, IPC_FOREVER);
        if (ret != 0 || m.label != 11 + i || m.len != IPC_REG_BYTES || m.word[0] != W1 ||
            m.word[1] != i) {
            printf("#   round %u: %d (errno %d), label %u len %u words %#x %#x\n", i, ret, errno,
                   m.label, m.len, m.word[0], m.word[1]);
            return 2;
        }
    }
    struct ipc_regs quit = { QUIT, 0, { 0, 0 } };
    return ipc_call_regs(ep, &quit, IPC_FOREVER) == 0 && quit.len == 0 ? 0 : 3;
}

static void round_trips(int ep)
{
    pid_t pid = child(client_rounds, ep);
    check_number("register round trips answered", serve(ep), ROUNDS);
    check_number("the client found every answer as sent", status_of(pid), 0);
}

/* A client with a 16-byte memory message: the register server sees its label, its length
 * and its first 8 bytes, and answers with 8 bytes. */
static int client_memory(int ep)
{
    struct ipc_msg m = { 7, 16, "0123456789abcdef" }, reply;
    if (ipc_call(ep, &m, &reply, IPC_FOREVER) != 0)
        return 2;
    bool right = reply.label == 8 && reply.len == IPC_REG_BYTES &&
                 memcmp(reply.data, "45670123", 8) == 0;
    struct ipc_regs quit = { QUIT, 0, { 0, 0 } }; /* the server's receive ends with this */
    if (ipc_call_regs(ep, &quit, IPC_FOREVER) != 0)
        return 4;
    return right ? 0 : 3;
}

static void memory_client(int ep)
{
    pid_t pid = child(client_memory, ep);
    struct ipc_regs m = { 0, 0, { 0, 0 } };
    int token = ipc_reply_recv_regs(ep, 0, &m);
    check_true("a memory call reaches ipc_reply_recv_regs", token > 0);
    check_number("... with its label", m.label, 7);
    check_number("... and its length, 16", m.len, 16);
    check_true("... and its first 8 bytes", memcmp(m.word, "01234567", 8) == 0);
    m.label = 8;
    uint32_t w0 = m.word[0];
    m.word[0] = m.word[1];
    m.word[1] = w0;
    /* The answer, and the client's QUIT call next. */
    token = ipc_reply_recv_regs(ep, token, &m);
    check_true("... then its next call, QUIT", token > 0 && m.label == QUIT);
    struct ipc_msg last = { 0, 0, { 0 } };
    if (token > 0)
        ipc_reply(token, &last);
    check_number("its caller got 8 bytes back", status_of(pid), 0);
}

/* A register client whose server receives and answers with memory messages. */
static int client_regs_to_memory(int ep)
{
    struct ipc_regs m = { 21, 0, { 0x64636261, 0x68676665 } }; /* "abcdefgh" */
    if (ipc_call_regs(ep, &m, IPC_FOREVER) != 0)
        return 2;
    /* The 3-byte answer "xyz": its length, and zeros past it. */
    return m.label == 22 && m.len == 3 && m.word[0] == 0x007a7978 && m.word[1] == 0 ? 0 : 3;
}

static void memory_server(int ep)
{
    pid_t pid = child(client_regs_to_memory, ep);
    struct ipc_msg m;
    int token = ipc_recv(ep, &m, IPC_FOREVER);
    check_true("a register call reaches ipc_recv", token > 0);
    check_number("... as a message of 8 bytes", m.len, IPC_REG_BYTES);
    check_true("... its words in order", memcmp(m.data, "abcdefgh", 8) == 0);
    struct ipc_msg reply = { 22, 3, "xyz" };
    check_call("ipc_reply to it", ipc_reply(token, &reply), 0);
    check_number("it got the 3 bytes, zeros after", status_of(pid), 0);
}

static void errors(int ep)
{
    struct ipc_regs m = { 0, 0, { 0, 0 } };
    check_call("call_regs to an endpoint never created", ipc_call_regs(63, &m, 0), EBADF);
    check_call("call_regs to endpoint 0", ipc_call_regs(0, &m, 0), EBADF);
    check_call("reply_recv_regs with a token nobody holds", ipc_reply_recv_regs(ep, 12345, &m),
               ESRCH);
    check_call("reply_recv_regs on the name service's endpoint",
               ipc_reply_recv_regs(IPC_NAMESERVER, 0, &m), EPERM);
    check_call("call_regs to our own endpoint, 20 ms", ipc_call_regs(ep, &m, 20), ETIMEDOUT);
    check_call("call_regs to our own endpoint, timeout 0", ipc_call_regs(ep, &m, 0), EAGAIN);
    /* The name service answers register calls as any other: a lookup of a name of up to
     * 7 characters and its NUL fits. */
    struct ipc_regs lookup = { NS_LOOKUP, 0, { 0x6e6f6e, 0 } }; /* "non" */
    check_call("a lookup of 'non' by call_regs", ipc_call_regs(IPC_NAMESERVER, &lookup, 0), 0);
    check_number("... answered ENOENT in the label", (int32_t)lookup.label, -ENOENT);
}

/* pipe: a child server tells its endpoint through it. */
static int ends[2];

/* A server on an endpoint of its own that takes one call and exits without answering. */
static int server_exits(int unused)
{
    (void)unused;
    int ep = ipc_create("regs_exit");
    struct ipc_regs m = { 0, 0, { 0, 0 } };
    write(ends[1], &ep, sizeof ep);
    return ipc_reply_recv_regs(ep, 0, &m) > 0 ? 0 : 2;
}

/* A server that takes one call, sleeps past the caller's signal (1 s), then answers late. */
static int server_late(int unused)
{
    (void)unused;
    int ep = ipc_create("regs_late");
    struct ipc_regs m = { 0, 0, { 0, 0 } };
    write(ends[1], &ep, sizeof ep);
    int token = ipc_reply_recv_regs(ep, 0, &m);
    if (token <= 0)
        return 2;
    sleep(2);
    return ipc_reply_recv_regs(ep, token, &m) < 0 && errno == ESRCH ? 0 : 3;
}

/* A server that answers calls until killed. */
static int server_forever(int unused)
{
    (void)unused;
    int ep = ipc_create("regs_kill");
    write(ends[1], &ep, sizeof ep);
    serve(ep);
    return 2;
}

/* Starts fn as a child server; its endpoint in *ep. */
static pid_t child_server(int (*fn)(int), int *ep)
{
    pid_t pid = child(fn, 0);
    if (read(ends[0], ep, sizeof *ep) != sizeof *ep)
        *ep = -1;
    return pid;
}

static volatile int alarms;
static void on_alarm(int sig)
{
    (void)sig;
    alarms++;
}

static void endings(void)
{
    int ep;
    pid_t pid = child_server(server_exits, &ep);
    struct ipc_regs m = { 1, 0, { 2, 3 } };
    check_call("call_regs to a server that exits without answering",
               ipc_call_regs(ep, &m, IPC_FOREVER), EPIPE);
    check_number("... which took the call", status_of(pid), 0);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm; /* no SA_RESTART: the call ends with EINTR */
    sigaction(SIGALRM, &sa, 0);
    pid = child_server(server_late, &ep);
    alarm(1);
    check_call("call_regs interrupted by a signal while waiting for the answer",
               ipc_call_regs(ep, &m, IPC_FOREVER), EINTR);
    check_number("... the handler ran", alarms, 1);
    check_number("... and the late answer found nobody (ESRCH)", status_of(pid), 0);

    pid = child_server(server_forever, &ep);
    m.label = 5;
    check_call("call_regs to a server in reply_recv_regs", ipc_call_regs(ep, &m, IPC_FOREVER), 0);
    check_number("... answered", m.label, 6);
    /* It waits in reply_recv_regs now (blocked by the fast path when it took it). */
    kill(pid, SIGKILL);
    check_number("the waiting server dies of SIGKILL", status_of(pid), 128 + SIGKILL);
    check_call("its endpoint is gone with it", ipc_call_regs(ep, &m, 0), EBADF);
}

int main(void)
{
    int ep = ipc_create("regs_test");
    if (ep < 0 || pipe(ends) < 0) {
        perror("ipc_regs_test: setup");
        return 1;
    }
    round_trips(ep);
    memory_client(ep);
    memory_server(ep);
    errors(ep);
    endings();
    return check_summary("ipc_regs_test");
}
