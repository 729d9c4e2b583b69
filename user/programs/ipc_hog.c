/*
 * ipc_hog.c - takes IPC endpoints and names the way a greedy or hostile user would, so
 * that boot scripts can check the per-task, per-user and root-only limits of the endpoint
 * table and the name service, and who wins a name (docs/ipc.md, "Who owns a name").
 *
 *   ipc_hog hold          create endpoints until refused, bind names to them until
 *                         refused, print how many and why not more, then hold them all
 *                         until released
 *   ipc_hog serve NAME    bind NAME to an endpoint and answer every call with
 *                         "served by uid U" until released
 *   ipc_hog bind NAME...  bind each NAME to an endpoint of its own, print each result, exit
 *                         (the names go with the endpoints, at exit)
 *   ipc_hog call NAME     call the server of NAME and print its answer
 *   ipc_hog release       send "quit" to every endpoint called "hog" (from /proc/ipc) whose
 *                         owner waits on it: the holders and servers above exit
 *
 * Every endpoint it creates is called "hog" in /proc/ipc. Lines start with "ipc_hog: uid U"
 * and say what each request got; the boot script's .expect says what it should get. The
 * exit status is 1 only when serve or call fails, or recv does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracekern/ipc.h>
#include <unistd.h>

#define HOG_QUIT 0x9017
#define HOG_CALL 0x9018
#define MAX_HELD 64

/* errno's name, or "success" for 0. */
static const char *err_name(int e)
{
    const char *name = e ? strerrorname_np(e) : "success";
    return name ? name : "unknown errno";
}

/* Waits on ep for calls until a message labelled HOG_QUIT comes; answers HOG_CALL calls
 * with who serves. */
static int serve_until_released(int ep)
{
    struct ipc_msg m, answer = { .label = HOG_CALL };
    answer.len = (uint32_t)snprintf((char *)answer.data, sizeof answer.data,
                                    "served by uid %u", geteuid()) + 1;
    for (;;) {
        int token = ipc_recv(ep, &m, IPC_FOREVER);
        if (token < 0) {
            perror("ipc_hog: recv");
            return 1;
        }
        if (m.label == HOG_QUIT) {
            if (token > 0)
                ipc_reply(token, &m);
            return 0;
        }
        if (token > 0)
            ipc_reply(token, &answer);
    }
}

/* hold: everything the limits let this task have, then waiting on the first endpoint. */
static int hold(void)
{
    int eps[MAX_HELD], made = 0, ep;
    while (made < MAX_HELD && (ep = ipc_create("hog")) >= 0)
        eps[made++] = ep;
    int create_err = errno;
    int bound = 0, bind_err = 0;
    for (int i = 0; i < made && !bind_err; i++) {
        char name[IPC_NAME_MAX];
        snprintf(name, sizeof name, "hog%u.%d.%d", geteuid(), getpid(), i);
        if (ipc_register(eps[i], name) == 0)
            bound++;
        else
            bind_err = errno;
    }
    printf("ipc_hog: uid %u holds %d endpoints (the next: %s) and %d names (the next: %s)\n",
           geteuid(), made, err_name(create_err), bound, made ? err_name(bind_err) : "-");
    return made ? serve_until_released(eps[0]) : 0;
}

/* serve NAME: one endpoint, bound to NAME, answering until released. */
static int serve(const char *name)
{
    int ep = ipc_create("hog");
    int err = ep < 0 ? errno : ipc_register(ep, name) < 0 ? errno : 0;
    printf("ipc_hog: uid %u serves %s: %s\n", geteuid(), name, err_name(err));
    return err ? 1 : serve_until_released(ep);
}

/* bind NAME...: each name on an endpoint of its own; a probe, so refusals are reported,
 * not failures (the boot script's .expect says which answer each should get). */
static int bind_names(int count, char **names)
{
    for (int i = 0; i < count; i++) {
        int ep = ipc_create("hog");
        int err = ep < 0 ? errno : ipc_register(ep, names[i]) < 0 ? errno : 0;
        printf("ipc_hog: uid %u binds %s: %s\n", geteuid(), names[i], err_name(err));
    }
    return 0;
}

/* call NAME: what its server answers. */
static int call(const char *name)
{
    int ep = ipc_lookup(name);
    struct ipc_msg m = { .label = HOG_CALL }, reply;
    if (ep < 0 || ipc_call(ep, &m, &reply, 1000) < 0) {
        printf("ipc_hog: uid %u calls %s: %s\n", geteuid(), name, err_name(errno));
        return 1;
    }
    reply.data[sizeof reply.data - 1] = '\0';
    printf("ipc_hog: uid %u calls %s: %s\n", geteuid(), name, (char *)reply.data);
    return 0;
}

/* release: "quit" to every waiting "hog" endpoint listed in /proc/ipc. */
static int release(void)
{
    static char text[8192];
    int fd = open("/proc/ipc", O_RDONLY);
    long len = 0, n;
    while (fd >= 0 && (n = read(fd, text + len, sizeof text - 1 - (size_t)len)) > 0)
        len += n;
    if (fd < 0) {
        perror("ipc_hog: /proc/ipc");
        return 1;
    }
    close(fd);
    text[len] = '\0';
    int released = 0;
    struct ipc_msg quit = { .label = HOG_QUIT };
    /* Lines: " EP OWNER NAME ..."; the first is the heading. */
    for (char *line = strchr(text, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        char *end;
        long ep = strtol(line + 1, &end, 10);
        strtol(end, &end, 10); /* the owner */
        while (*end == ' ')
            end++;
        if (ep > 0 && strncmp(end, "hog ", 4) == 0 && ipc_send((int)ep, &quit, 0) == 0)
            released++;
    }
    printf("ipc_hog: released %d\n", released);
    return 0;
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    if (strcmp(what, "hold") == 0 && argc == 2)
        return hold();
    if (strcmp(what, "serve") == 0 && argc == 3)
        return serve(argv[2]);
    if (strcmp(what, "bind") == 0 && argc >= 3)
        return bind_names(argc - 2, argv + 2);
    if (strcmp(what, "call") == 0 && argc == 3)
        return call(argv[2]);
    if (strcmp(what, "release") == 0 && argc == 2)
        return release();
    printf("usage: ipc_hog hold | serve NAME | bind NAME... | call NAME | release\n");
    return 2;
}
