/*
 * ipc_test.c - every error path of the IPC system calls and of the name service, with the
 * errno each must give (uapi/ipc.h). Needs an ipc_pong serving "pong" (started before it):
 * it answers one call late, after we gave up on it; the last checks make that server exit in
 * the middle of a call, to see the caller learn it.
 *
 * Prints TAP-style "ok N - what" / "not ok N - what (got X, want Y)" lines and ends with
 * "ipc_test: P passed, F failed"; the exit status is 1 when anything failed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <tracekern/ipc.h>
#include <unistd.h>

#define PONG_EXIT_WITHOUT_REPLY 0xdeaf
#define PONG_HOLD 0xdeed
#define KERNEL_ADDRESS 0x100000
#define UNMAPPED_ADDRESS 0x1000

static int checks, failures;

/* Something in our read-only code segment, to pass where the kernel must write. */
static const char read_only[IPC_MSG_MAX + 8] = "read-only";

/* Records one check: the call's result must be -1 with errno want (want 0: success). */
static void expect(int result, int want, const char *what)
{
    int got = result < 0 ? errno : 0;
    checks++;
    if (got == want) {
        printf("ok %d - %s\n", checks, what);
        return;
    }
    failures++;
    printf("not ok %d - %s (got %s, want %s)\n", checks, what, got ? strerrorname_np(got) : "success",
           want ? strerrorname_np(want) : "success");
}

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Endpoints that do not exist, and one that is not ours to receive on. */
static void bad_endpoints(void)
{
    struct ipc_msg m = { 0 };
    expect(ipc_send(0, &m, 0), EBADF, "send to endpoint 0");
    expect(ipc_send(63, &m, 0), EBADF, "send to an endpoint never created");
    expect(ipc_send(-5, &m, 0), EBADF, "send to a negative endpoint");
    expect(ipc_recv(IPC_NAMESERVER, &m, 0), EPERM, "receive on the name service's endpoint");
    expect(ipc_reply(99999, &m), ESRCH, "reply to a token nobody holds");
    expect(ipc_reply(getpid(), &m), ESRCH, "reply to oneself, not calling");
}

/* Sizes beyond IPC_MSG_MAX, and bad pointers. */
static void bad_messages(int own)
{
    struct ipc_msg m = { 0, IPC_MSG_MAX + 1, { 0 } }, reply;
    expect(ipc_send(own, &m, 0), EMSGSIZE, "send of IPC_MSG_MAX + 1 bytes");
    expect(ipc_call(own, &m, &reply, 0), EMSGSIZE, "call of IPC_MSG_MAX + 1 bytes");
    expect(ipc_reply(getpid(), &m), EMSGSIZE, "reply of IPC_MSG_MAX + 1 bytes");
    expect(ipc_send(own, (void *)UNMAPPED_ADDRESS, 0), EFAULT, "send from an unmapped message");
    expect(ipc_send(own, (void *)KERNEL_ADDRESS, 0), EFAULT, "send from kernel memory");
    expect(ipc_recv(own, (void *)KERNEL_ADDRESS, 0), EFAULT, "receive into kernel memory");
    expect(ipc_recv(own, (void *)read_only, 0), EFAULT, "receive into read-only code");
    struct ipc_msg ok = { 0 };
    expect(ipc_call(IPC_NAMESERVER, &ok, (void *)read_only, 0), EFAULT, "call with a read-only reply buffer");
    expect(ipc_create((const char *)KERNEL_ADDRESS), EFAULT, "create with a name in kernel memory");
    expect(ipc_create("a-name-much-too-long-for-it"), ENAMETOOLONG, "create with a 27-byte name");
}

/* Nobody on the other side: 0 does not wait, a timeout waits that long. */
static void timeouts(int own)
{
    struct ipc_msg m = { 0 };
    expect(ipc_recv(own, &m, 0), EAGAIN, "receive, timeout 0, no sender");
    expect(ipc_send(own, &m, 0), EAGAIN, "send, timeout 0, no receiver");
    uint64_t start = now_ms();
    expect(ipc_recv(own, &m, 30), ETIMEDOUT, "receive, timeout 30 ms, no sender");
    uint64_t waited = now_ms() - start;
    expect(waited >= 30 && waited < 200 ? 0 : -1, 0, "the receive waited 30 ms (less than 200)");
    expect(ipc_send(own, &m, 20), ETIMEDOUT, "send, timeout 20 ms, no receiver");
}

/* The name service's answers. */
static void name_service(int own)
{
    expect(ipc_lookup("no-such-name"), ENOENT, "lookup of a name nobody registered");
    expect(ipc_register(IPC_NAMESERVER, "stolen"), EPERM, "register someone else's endpoint");
    expect(ipc_register(own, "ipc_test"), 0, "register our endpoint");
    expect(ipc_register(own, "ipc_test"), EEXIST, "register the same name again");
    int found = ipc_lookup("ipc_test");
    expect(found == own ? 0 : -1, 0, "lookup finds our endpoint");
    expect(ipc_register(own, ""), EINVAL, "register an empty name");
}

/*
 * A reply that comes after its caller gave up. ipc_pong holds our first call (PONG_HOLD)
 * until our second call has reached it, then answers the first one, and then the second,
 * telling us in that answer's label what its late answer got. Each call has its own reply
 * token, so the late answer must fail (ESRCH) rather than be taken for the answer to our
 * second call, and the second call must get its own message back. Deterministic: the
 * second call cannot reach ipc_pong before the first has timed out.
 */
static void late_reply(void)
{
    int pong = ipc_lookup("pong");
    if (pong < 0)
        return; /* dead_server() reports it */
    struct ipc_msg first = { PONG_HOLD, 6, "first" }, second = { 8, 7, "second" }, reply;
    expect(ipc_call(pong, &first, &reply, 50), ETIMEDOUT, "call a server that holds it past our 50 ms");
    memset(&reply, 0, sizeof reply);
    expect(ipc_call(pong, &second, &reply, 1000), 0, "call the same server again");
    expect(reply.len == 7 && memcmp(reply.data, "second", 7) == 0 ? 0 : -1, 0,
           "the second call gets its own answer, not the late one");
    expect(reply.label == (uint32_t)-ESRCH ? 0 : -1, 0, "the late answer to the first call fails with ESRCH");
}

/* A server that dies in the middle of a call: the caller learns it (EPIPE); afterwards its
 * endpoint and name are gone. */
static void dead_server(void)
{
    int pong = ipc_lookup("pong");
    expect(pong, 0, "lookup pong (ipc_pong must be running)");
    if (pong < 0)
        return;
    struct ipc_msg m = { 7, 4, "abc" }, reply;
    expect(ipc_call(pong, &m, &reply, 1000), 0, "call pong");
    expect(reply.label == 7 && memcmp(reply.data, "abc", 4) == 0 ? 0 : -1, 0, "pong's answer is our message");
    m.label = PONG_EXIT_WITHOUT_REPLY;
    expect(ipc_call(pong, &m, &reply, 1000), EPIPE, "call a server that exits instead of replying");
    expect(ipc_send(pong, &m, 0), EBADF, "send to the dead server's endpoint");
    expect(ipc_lookup("pong"), ENOENT, "the dead server's name is gone");
}

int main(void)
{
    int own = ipc_create("ipc_test");
    expect(own, 0, "create an endpoint");
    bad_endpoints();
    bad_messages(own);
    timeouts(own);
    name_service(own);
    late_reply();
    dead_server();
    printf("ipc_test: %d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
