/*
 * ipc_test.c - every error path of the IPC system calls and of the name service, with the
 * errno each must give (uapi/ipc.h). Needs an ipc_pong serving "pong" (started before it):
 * it answers one call late, after we gave up on it; the last checks make that server exit in
 * the middle of a call, to see the caller learn it.
 *
 * Prints one line per check ("ok N - what -> EBADF", tracekern/check.h) and ends with
 * "ipc_test: P passed, F failed"; the exit status is 1 when anything failed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <tracekern/check.h>
#include <tracekern/ipc.h>
#include <unistd.h>

#define PONG_EXIT_WITHOUT_REPLY 0xdeaf
#define PONG_HOLD 0xdeed
#define KERNEL_ADDRESS 0xc0100000
#define UNMAPPED_ADDRESS 0x1000

/* Something in our read-only code segment, to pass where the kernel must write. */
static const char read_only[IPC_MSG_MAX + 8] = "read-only";

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
    check_call("send to endpoint 0", ipc_send(0, &m, 0), EBADF);
    check_call("send to an endpoint never created", ipc_send(63, &m, 0), EBADF);
    check_call("send to a negative endpoint", ipc_send(-5, &m, 0), EBADF);
    check_call("receive on the name service's endpoint", ipc_recv(IPC_NAMESERVER, &m, 0), EPERM);
    check_call("reply to a token nobody holds", ipc_reply(99999, &m), ESRCH);
    check_call("reply to oneself, not calling", ipc_reply(getpid(), &m), ESRCH);
}

/* Sizes beyond IPC_MSG_MAX, and bad pointers. */
static void bad_messages(int own)
{
    struct ipc_msg m = { 0, IPC_MSG_MAX + 1, { 0 } }, reply;
    check_call("send of IPC_MSG_MAX + 1 bytes", ipc_send(own, &m, 0), EMSGSIZE);
    check_call("call of IPC_MSG_MAX + 1 bytes", ipc_call(own, &m, &reply, 0), EMSGSIZE);
    check_call("reply of IPC_MSG_MAX + 1 bytes", ipc_reply(getpid(), &m), EMSGSIZE);
    check_call("send from an unmapped message", ipc_send(own, (void *)UNMAPPED_ADDRESS, 0), EFAULT);
    check_call("send from kernel memory", ipc_send(own, (void *)KERNEL_ADDRESS, 0), EFAULT);
    check_call("receive into kernel memory", ipc_recv(own, (void *)KERNEL_ADDRESS, 0), EFAULT);
    check_call("receive into read-only code", ipc_recv(own, (void *)read_only, 0), EFAULT);
    struct ipc_msg ok = { 0 };
    check_call("call with a read-only reply buffer",
               ipc_call(IPC_NAMESERVER, &ok, (void *)read_only, 0), EFAULT);
    check_call("create with a name in kernel memory",
               ipc_create((const char *)KERNEL_ADDRESS), EFAULT);
    check_call("create with a 27-byte name",
               ipc_create("a-name-much-too-long-for-it"), ENAMETOOLONG);
}

/* Nobody on the other side: 0 does not wait, a timeout waits that long. */
static void timeouts(int own)
{
    struct ipc_msg m = { 0 };
    check_call("receive, timeout 0, no sender", ipc_recv(own, &m, 0), EAGAIN);
    check_call("send, timeout 0, no receiver", ipc_send(own, &m, 0), EAGAIN);
    uint64_t start = now_ms();
    check_call("receive, timeout 30 ms, no sender", ipc_recv(own, &m, 30), ETIMEDOUT);
    uint64_t waited = now_ms() - start;
    check_true("the receive waited 30 ms (less than 200)", waited >= 30 && waited < 200);
    check_call("send, timeout 20 ms, no receiver", ipc_send(own, &m, 20), ETIMEDOUT);
}

/* The name service's answers. */
static void name_service(int own)
{
    check_call("lookup of a name nobody registered", ipc_lookup("no-such-name"), ENOENT);
    check_call("register someone else's endpoint", ipc_register(IPC_NAMESERVER, "stolen"), EPERM);
    check_call("register our endpoint", ipc_register(own, "ipc_test"), 0);
    check_call("register the same name again", ipc_register(own, "ipc_test"), EEXIST);
    int found = ipc_lookup("ipc_test");
    check_true("lookup finds our endpoint", found == own);
    check_call("register an empty name", ipc_register(own, ""), EINVAL);
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
    check_call("call a server that holds it past our 50 ms",
               ipc_call(pong, &first, &reply, 50), ETIMEDOUT);
    memset(&reply, 0, sizeof reply);
    check_call("call the same server again", ipc_call(pong, &second, &reply, 1000), 0);
    check_true("the second call gets its own answer, not the late one",
               reply.len == 7 && memcmp(reply.data, "second", 7) == 0);
    check_errno("the late answer to the first call", -(int32_t)reply.label, ESRCH);
}

/* A server that dies in the middle of a call: the caller learns it (EPIPE); afterwards its
 * endpoint and name are gone. */
static void dead_server(void)
{
    int pong = ipc_lookup("pong");
    check_call("lookup pong (ipc_pong must be running)", pong, 0);
    if (pong < 0)
        return;
    struct ipc_msg m = { 7, 4, "abc" }, reply;
    check_call("call pong", ipc_call(pong, &m, &reply, 1000), 0);
    check_true("pong's answer is our message",
               reply.label == 7 && memcmp(reply.data, "abc", 4) == 0);
    m.label = PONG_EXIT_WITHOUT_REPLY;
    check_call("call a server that exits instead of replying",
               ipc_call(pong, &m, &reply, 1000), EPIPE);
    check_call("send to the dead server's endpoint", ipc_send(pong, &m, 0), EBADF);
    check_call("the dead server's name is gone", ipc_lookup("pong"), ENOENT);
}

int main(void)
{
    int own = ipc_create("ipc_test");
    check_call("create an endpoint", own, 0);
    bad_endpoints();
    bad_messages(own);
    timeouts(own);
    name_service(own);
    late_reply();
    dead_server();
    return check_summary("ipc_test");
}
