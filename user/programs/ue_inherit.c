/*
 * ue_inherit.c - what becomes of a Linux 6.4-style enable bit (struct user_reg) when the
 * process that registered it forks or execs, checked as Linux 6.4+ behaves:
 *
 *   fork   the child's copy of the enable word keeps following the event (Linux's
 *          user_event_mm_dup), and so does the parent's;
 *   exec   the bit is forgotten (Linux's user_events_execve): enabling the event later must
 *          not write into the new program, which has its own variable at that address;
 *   vfork  the child borrows the parent's memory; its exec leaves the parent's bit kept;
 *   fork-full  with the enable-bit budget used up the fork fails with ENOMEM, as Linux's
 *          fails when it cannot copy them; with the bits given back it works.
 *
 * Each mode registers its own event "ue_inherit_MODE u32 n" at bit 0 of `word` (.bss) and
 * enables and disables it itself through events/user_events/ue_inherit_MODE/enable, so the
 * order of things is fixed. The events are not persistent: they go when the process exits.
 *
 * Usage: ue_inherit fork|exec|vfork|fork-full   (and "after-exec" / "exit", which it execs itself)
 * Prints one "ok - ..." or "not ok - ..." line per check; exit status 1 if one failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <linux/user_events.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define SELF "/bin/ue_inherit"
#define DATA_FILE "/sys/kernel/tracing/user_events_data"
#define EVENTS_DIR "/sys/kernel/tracing/events/user_events/"

/* The enable word: at the same address in every image of this program. */
static volatile uint32_t word;
static int failures;

/* One TAP-like line (unnumbered: parent and child both print). */
static void check(bool good, const char *what)
{
    printf("%sok - %s\n", good ? "" : "not ", what);
    if (!good)
        failures++;
}

static void die(const char *what)
{
    perror(what);
    exit(1);
}

/* Registers ue_inherit_MODE at bit 0 of word through the 6.4 ABI; returns the data fd. */
static int register_event(const char *mode)
{
    static char command[64];
    snprintf(command, sizeof command, "ue_inherit_%s u32 n", mode);
    int fd = open(DATA_FILE, O_RDWR);
    if (fd < 0)
        die("ue_inherit: open " DATA_FILE);
    struct user_reg reg = { 0 };
    reg.size = sizeof reg;
    reg.enable_bit = 0;
    reg.enable_size = sizeof word;
    reg.enable_addr = (uintptr_t)&word;
    reg.name_args = (uintptr_t)command;
    if (ioctl(fd, DIAG_IOCSREG, &reg) < 0)
        die("ue_inherit: DIAG_IOCSREG");
    return fd;
}

/* Enables (on) or disables the event ue_inherit_MODE from the events tree, as a tracer would. */
static void set_enabled(const char *mode, bool on)
{
    char path[96];
    snprintf(path, sizeof path, EVENTS_DIR "ue_inherit_%s/enable", mode);
    int fd = open(path, O_WRONLY);
    if (fd < 0 || write(fd, on ? "1" : "0", 1) != 1)
        die(path);
    close(fd);
}

/* Reads one byte from fd: the other process's go-ahead. */
static void wait_for(int fd)
{
    char c;
    if (read(fd, &c, 1) != 1)
        die("ue_inherit: read pipe");
}

static void signal_to(int fd)
{
    if (write(fd, "x", 1) != 1)
        die("ue_inherit: write pipe");
}

/* fork: parent and child each see their own word follow enable and disable. */
static void test_fork(void)
{
    register_event("fork");
    check(word == 0, "fork: the word is 0 while the event is disabled");
    int to_child[2], to_parent[2];
    if (pipe(to_child) < 0 || pipe(to_parent) < 0)
        die("ue_inherit: pipe");
    pid_t pid = fork();
    if (pid < 0)
        die("ue_inherit: fork");
    if (pid == 0) {
        wait_for(to_child[0]);
        check(word == 1, "fork: the child's word is 1 once the parent enabled the event");
        signal_to(to_parent[1]);
        wait_for(to_child[0]);
        check(word == 0, "fork: the child's word is 0 again once it is disabled");
        exit(failures ? 1 : 0);
    }
    set_enabled("fork", true);
    check(word == 1, "fork: the parent's word is 1 while enabled");
    signal_to(to_child[1]);
    wait_for(to_parent[0]);
    set_enabled("fork", false);
    check(word == 0, "fork: the parent's word is 0 again");
    signal_to(to_child[1]);
    int status;
    check(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "fork: the child saw every change");
}

/* exec: register, then become a new image of this program (the data fd stays open, so the
 * event stays too) which checks its own word at the same address. */
static void test_exec(void)
{
    register_event("exec");
    char *argv[] = { "ue_inherit", "after-exec", NULL };
    char *envp[] = { NULL };
    execve(SELF, argv, envp);
    die("ue_inherit: execve");
}

static void after_exec(void)
{
    set_enabled("exec", true);
    check(word == 0, "exec: enabling the event does not write into the new program");
    word = 0x5a5a5a5b; /* bit 0 set: a clear would show */
    set_enabled("exec", false);
    check(word == 0x5a5a5a5b, "exec: disabling it does not either");
}

/* vfork: the child execs a program that exits; the parent's bit is still kept. */
static void test_vfork(void)
{
    register_event("vfork");
    pid_t pid = vfork();
    if (pid < 0)
        die("ue_inherit: vfork");
    if (pid == 0) {
        char *argv[] = { "ue_inherit", "exit", NULL };
        char *envp[] = { NULL };
        execve(SELF, argv, envp);
        _exit(127);
    }
    int status;
    check(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "vfork: the child exec'd and exited");
    set_enabled("vfork", true);
    check(word == 1, "vfork: the parent's word follows enable after the child's exec");
    set_enabled("vfork", false);
    check(word == 0, "vfork: and disable");
}

/* Words for more enable bits than the kernel's budget holds (about 8,190). */
#define MANY_WORDS 512
static volatile uint32_t many[MANY_WORDS];

/* fork-full: with the enable-bit budget used up, a fork cannot copy the bits and fails with
 * ENOMEM, as Linux's does, leaving nothing half copied; with the bits given back it works. */
static void test_fork_full(void)
{
    int fd = register_event("full");
    struct user_reg reg = { 0 };
    reg.size = sizeof reg;
    reg.enable_size = sizeof word;
    reg.name_args = (uintptr_t) "ue_inherit_full u32 n";
    int bits = 1, err = 0; /* register_event's bit at word */
    for (; bits < MANY_WORDS * 32 + 1; bits++) {
        reg.enable_addr = (uintptr_t)&many[(bits - 1) / 32];
        reg.enable_bit = (uint8_t)((bits - 1) % 32);
        if (ioctl(fd, DIAG_IOCSREG, &reg) < 0) {
            err = errno;
            break;
        }
    }
    check(err == ENOMEM && bits > 1000, "fork-full: enable bits until the budget refuses (ENOMEM)");
    pid_t pid = fork();
    if (pid == 0)
        exit(0);
    check(pid < 0 && errno == ENOMEM, "fork-full: fork then fails with ENOMEM");
    if (pid > 0)
        waitpid(pid, NULL, 0);
    struct user_unreg unreg = { 0 };
    unreg.size = sizeof unreg;
    for (int i = 1; i < bits; i++) {
        unreg.disable_addr = (uintptr_t)&many[(i - 1) / 32];
        unreg.disable_bit = (uint8_t)((i - 1) % 32);
        if (ioctl(fd, DIAG_IOCSUNREG, &unreg) < 0)
            die("ue_inherit: DIAG_IOCSUNREG");
    }
    pid = fork();
    if (pid == 0) {
        set_enabled("full", true);
        exit(word == 1 ? 0 : 1);
    }
    int status;
    check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
              WEXITSTATUS(status) == 0,
          "fork-full: with the bits given back, fork works and the child's word follows");
    set_enabled("full", false);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "fork") == 0)
        test_fork();
    else if (strcmp(mode, "exec") == 0)
        test_exec();
    else if (strcmp(mode, "after-exec") == 0)
        after_exec();
    else if (strcmp(mode, "vfork") == 0)
        test_vfork();
    else if (strcmp(mode, "fork-full") == 0)
        test_fork_full();
    else if (strcmp(mode, "exit") == 0)
        return 0;
    else {
        fprintf(stderr, "usage: ue_inherit fork|exec|vfork|fork-full\n");
        return 2;
    }
    return failures ? 1 : 0;
}
