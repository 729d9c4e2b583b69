/*
 * hostile_instances.c - attacks on tracefs's instances/ (issue 18) from a program
 * (tests/shell/hostile_instances.script): names that are not one word or too long, paths
 * that are no memory, mkdir and rmdir where tracefs makes no instances, a flood of mkdir
 * (bounded: ENOSPC), rmdir while another process writes the instance's trace_marker
 * (EBUSY until it closes), a user event deleted while an instance records it (EBUSY until
 * it is off there, or the instance is gone), and MemFree after all of it.
 *
 * Usage: hostile_instances     one check line each (tracekern/check.h)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <tracekern/check.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing/"
#define INST TRACEFS "instances/"
#define FLOOD 20
#define MARKERS 3000

/* write() of text to path in one call: 0 or -errno (of open or write). */
static long write_text(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -errno;
    long r = write(fd, text, strlen(text));
    long err = r < 0 ? -errno : 0;
    close(fd);
    return err;
}

/* One check: writing text to path gives want (an errno, or 0). */
static void put_is(const char *what, const char *path, const char *text, int want)
{
    check_errno(what, (int)-write_text(path, text), want);
}

/* MemFree of /proc/meminfo, in kB; -1 if it cannot be read. */
static long mem_free_kb(void)
{
    static char buf[1024];
    int fd = open("/proc/meminfo", O_RDONLY);
    long n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = 0;
    const char *p = strstr(buf, "MemFree:");
    return p ? strtol(p + 8, 0, 10) : -1;
}

/* A child that writes MARKERS markers through fd and exits 0 if each returned its length.
 * After the first marker it says so on started and waits on go: the parent's first rmdir
 * then surely meets an instance still held open, whichever process the scheduler runs
 * first (before this handshake, a child that ran all its writes before the parent's first
 * rmdir made the EBUSY check fail on a slow host). */
static void marker_child(int fd, int started, int go)
{
    int bad = write(fd, "busy-marker", 11) != 11;
    char byte = 1;
    if (write(started, &byte, 1) != 1 || read(go, &byte, 1) != 1)
        _exit(2);
    for (int i = 1; i < MARKERS; i++)
        bad += write(fd, "busy-marker", 11) != 11;
    _exit(bad ? 1 : 0);
}

int main(void)
{
    /* Warm-up: a first round of instances, and the first event enabled in one (the
     * per-CPU scratch records, event_commit.c), grow the kernel's heap for good. */
    char name[64];
    for (int i = 0; i < 7; i++) {
        snprintf(name, sizeof name, INST "warmup%d", i);
        mkdir(name, 0755);
        snprintf(name, sizeof name, INST "warmup%d/set_event", i);
        write_text(name, "sched:sched_switch");
    }
    for (int i = 0; i < 7; i++) {
        snprintf(name, sizeof name, INST "warmup%d", i);
        rmdir(name);
    }
    long free_before = mem_free_kb();

    check_call("mkdir a name with a blank", mkdir(INST "a b", 0755), EINVAL);
    check_call("mkdir a name with a control character", mkdir(INST "a\tb", 0755), EINVAL);
    check_call("mkdir a 100-character name",
               mkdir(INST "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                          "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 0755),
               ENAMETOOLONG);
    check_call("mkdir a path in no memory", mkdir((const char *)16, 0755), EFAULT);
    check_call("mkdir in the tracefs root", mkdir(TRACEFS "mine", 0755), EPERM);
    check_call("mkdir in /proc", mkdir("/proc/mine", 0755), EPERM);
    check_call("mkdir below a missing directory", mkdir(INST "none/x", 0755), ENOENT);
    check_call("mkdir below a file", mkdir(TRACEFS "trace/x", 0755), ENOTDIR);
    check_call("rmdir events/ (not an instance)", rmdir(TRACEFS "events"), EPERM);
    check_call("rmdir instances/ itself", rmdir(TRACEFS "instances"), EPERM);
    check_call("rmdir a file", rmdir(TRACEFS "trace"), ENOTDIR);
    check_call("rmdir a missing instance", rmdir(INST "nosuch"), ENOENT);
    check_call("rmdir a path in no memory", rmdir((const char *)16), EFAULT);

    /* A flood of mkdir: bounded, and everything made is removed again. */
    int made = 0, refused_nospc = 0, other = 0;
    for (int i = 0; i < FLOOD; i++) {
        snprintf(name, sizeof name, INST "flood%d", i);
        if (mkdir(name, 0755) == 0)
            made++;
        else if (errno == ENOSPC)
            refused_nospc++;
        else
            other++;
    }
    check_number("mkdir flood: instances made (TRACE_INSTANCES_MAX)", made, 7);
    check_number("mkdir flood: the rest refused with ENOSPC", refused_nospc, FLOOD - 7);
    check_number("mkdir flood: other errors", other, 0);
    check_call("mkdir an existing instance", mkdir(INST "flood0", 0755), EEXIST);
    int removed = 0;
    for (int i = 0; i < FLOOD; i++) {
        snprintf(name, sizeof name, INST "flood%d", i);
        removed += rmdir(name) == 0;
    }
    check_number("rmdir of every flooded instance", removed, 7);
    long free_after = mem_free_kb();
    printf("# MemFree before the flood %ld kB, after its rmdir %ld kB\n", free_before, free_after);
    check_true("MemFree is back after the flood's rmdir", free_after == free_before);

    /* rmdir while another process writes the instance's trace_marker. */
    check_call("mkdir instances/busy", mkdir(INST "busy", 0755), 0);
    int fd = open(INST "busy/trace_marker", O_WRONLY);
    check_true("open instances/busy/trace_marker", fd >= 0);
    int started[2], go[2];
    check_true("two pipes for the writer's handshake", pipe(started) == 0 && pipe(go) == 0);
    pid_t child = fork();
    if (child == 0)
        marker_child(fd, started[1], go[0]);
    close(fd);
    char byte;
    check_true("the writer has written its first marker", read(started[0], &byte, 1) == 1);
    int busy = 0, wrong = 0;
    /* The writer is parked holding the file: this rmdir must be refused... */
    if (rmdir(INST "busy") != 0)
        busy += errno == EBUSY, wrong += errno != EBUSY;
    /* ...and refused again for as long as it writes the rest. */
    check_true("let the writer go on", write(go[1], &byte, 1) == 1);
    while (rmdir(INST "busy") != 0) {
        if (errno == EBUSY)
            busy++;
        else
            wrong++;
        if (busy + wrong > 100000)
            break;
        usleep(1000);
    }
    int status = -1;
    waitpid(child, &status, 0);
    check_true("rmdir refused with EBUSY while the writer holds trace_marker", busy > 0);
    check_number("rmdir: errors other than EBUSY", wrong, 0);
    check_true("every marker write returned its length",
               WIFEXITED(status) && WEXITSTATUS(status) == 0);
    check_call("instances/busy is gone", access(INST "busy", F_OK), ENOENT);

    /* A user event enabled in an instance cannot be deleted until it is off there. */
    check_call("mkdir instances/ue", mkdir(INST "ue", 0755), 0);
    put_is("create user event inst_ev", TRACEFS "dynamic_events", "u:inst_ev u32 n\n", 0);
    put_is("enable it in the instance", INST "ue/set_event", "user_events:inst_ev", 0);
    put_is("delete it while the instance records it", TRACEFS "dynamic_events", "!u:inst_ev\n",
           EBUSY);
    put_is("disable it in the instance", INST "ue/set_event", "!user_events:inst_ev", 0);
    put_is("delete it now", TRACEFS "dynamic_events", "!u:inst_ev\n", 0);
    put_is("enable a deleted event in the instance", INST "ue/set_event", "user_events:inst_ev",
           EINVAL);
    put_is("create it again", TRACEFS "dynamic_events", "u:inst_ev u32 n\n", 0);
    put_is("enable it in the instance again", INST "ue/set_event", "user_events:inst_ev", 0);
    check_call("rmdir the instance that records it", rmdir(INST "ue"), 0);
    put_is("delete the event: no instance holds it", TRACEFS "dynamic_events", "!u:inst_ev\n",
           0);

    return check_summary("hostile_instances");
}
