/*
 * proc_commands.c - the shell's commands for processes: run, ps, kill.
 */
#include "kernel/lib/errno.h"
#include "kernel/fs/file.h"
#include "kernel/fs/tty.h"
#include "kernel/mm/heap.h"
#include "kernel/lib/parse.h"
#include "kernel/log/printk.h"
#include "kernel/proc/task_internal.h"
#include "kernel/proc/programs.h"
#include "kernel/proc/sched.h"
#include "kernel/shell/console.h"
#include "kernel/shell/shell.h"
#include "kernel/proc/signal.h"
#include "kernel/lib/string.h"
#include "kernel/time.h"
#include "kernel/mm/vm.h"

#define WAIT_POLL_NS 10000000u /* how often a foreground wait looks for a queued ^C */

/* Lists the programs `run` can start. */
static void list_programs(struct fs_writer *out)
{
    if (!program_list())
        fs_puts(out, "no programs: give ELF files as boot modules (QEMU -initrd, GRUB module)\n");
    for (const struct program *p = program_list(); p; p = p->next)
        fs_printf(out, "%s\n", p->name);
}

/* Waits for a foreground process, which has the console (its process group is the
 * console's foreground group meanwhile): ^C sends SIGINT to that group, as a terminal
 * does, which ends a program that does not catch it. Prints how it ended unless it exited
 * with status 0: "exited with status N", or the signal that killed it, as a shell does
 * ("Terminated (signal 15)", "Segmentation fault (signal 11, core dumped)"), or the
 * fault. Returns 0 for status 0, else SHELL_FAILED. */
static int wait_foreground(struct task *t, struct fs_writer *out)
{
    int status;
    char reason[sizeof t->exit_reason];
    int pid = t->pid, pgid = t->pgid, sid = t->sid;
    char name[TASK_NAME_MAX];
    strlcpy(name, t->name, sizeof name);
    tty_give_terminal(pgid, sid);
    for (;;) {
        int err = task_wait(t, &status, reason, WAIT_POLL_NS);
        if (err == 0)
            break;
        /* A ^C typed while the terminal was the shell's (ahead of `run`) waits in the
         * queue; one typed later is the terminal's own signal (tty.c) and never queued. */
        if (out->interrupted(out))
            signal_send_pgrp(tty_foreground_pgrp(), SIGINT);
    }
    tty_give_terminal(0, 0); /* the shell's again, with the default settings */
    if (status == 0)
        return 0;
    if (reason[0] && status == 128 + SIGINT)
        fs_puts(out, "\n"); /* after the echoed ^C, as bash starts a new line */
    if (reason[0])
        fs_printf(out, "[%d] %s: %s\n", pid, name, reason);
    else
        fs_printf(out, "[%d] %s: exited with status %d\n", pid, name, status);
    return SHELL_FAILED;
}

/* Parses run's -u argument "UID[:GID]" into the ids of a process started as that user:
 * real, effective and saved all UID (and GID; GID defaults to UID, as a user's own group
 * usually is). False unless both are numbers below 2^32 - 1 ((uid_t)-1 is no id). */
static bool parse_user(const char *text, struct cred *c)
{
    const char *colon = strchr(text, ':');
    size_t uid_len = colon ? (size_t)(colon - text) : strlen(text);
    uint64_t uid, gid;
    if (parse_uint(text, uid_len, &uid) != 0 || uid >= CRED_NO_CHANGE)
        return false;
    gid = uid;
    if (colon && (parse_uint(colon + 1, strlen(colon + 1), &gid) != 0 || gid >= CRED_NO_CHANGE))
        return false;
    *c = (struct cred){ (uint32_t)uid, (uint32_t)uid, (uint32_t)uid,
                        (uint32_t)gid, (uint32_t)gid, (uint32_t)gid, 0, { 0 } };
    return true;
}

#define RUN_ENV_MAX 24 /* variables a `run` line may give, besides the defaults */

/* Whether word is a shell's prefix assignment NAME=value (NAME: letters, digits, '_', not
 * starting with a digit). */
static bool is_assignment(const char *word)
{
    const char *c = word;
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || *c == '_'))
        return false;
    while ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
           *c == '_')
        c++;
    return *c == '=';
}

/* Sets NAME=value in env (count entries, room for RUN_ENV_MAX + 5): replaces the entry of
 * the same NAME, else appends. */
static void env_set(char **env, int *count, char *assignment)
{
    size_t name_len = (size_t)(strchr(assignment, '=') - assignment) + 1;
    for (int i = 0; i < *count; i++)
        if (strncmp(env[i], assignment, name_len) == 0) {
            env[i] = assignment;
            return;
        }
    env[(*count)++] = assignment;
}

/* run [-u UID[:GID]] [NAME=value ...] PROGRAM [ARGS...] [&] [> FILE]: starts a program (as
 * that user with -u, else as the shell's root) with the environment a login shell gives
 * (PATH=/bin, HOME=/, TERM=linux, and LOGNAME and USER for root) plus the assignments, its
 * standard output FILE when redirected; waits for it unless the line ends with '&'. */
static int cmd_run(int argc, char **argv, struct fs_writer *out)
{
    if (argc < 2) {
        list_programs(out);
        return 0;
    }
    struct cred cred = current->cred;
    if (strcmp(argv[1], "-u") == 0) {
        if (argc < 4 || !parse_user(argv[2], &cred))
            return SHELL_USAGE;
        argc -= 2;
        argv += 2;
    }
    bool background = strcmp(argv[argc - 1], "&") == 0;
    if (background)
        argc--;
    char *env[RUN_ENV_MAX + 6] = { "PATH=/bin", "HOME=/", "TERM=linux" };
    int envc = 3;
    if (cred.uid == 0) {
        env[envc++] = "LOGNAME=root";
        env[envc++] = "USER=root";
    }
    for (int given = 0; argc >= 2 && is_assignment(argv[1]); argc--, argv++, given++) {
        if (given == RUN_ENV_MAX)
            return -E2BIG;
        env_set(env, &envc, argv[1]);
    }
    env[envc] = 0;
    if (argc < 2)
        return SHELL_USAGE;
    const struct program *p = program_find(argv[1]);
    if (!p) {
        fs_printf(out, "run: %s: no such program (run with no arguments lists them)\n", argv[1]);
        return SHELL_FAILED;
    }
    struct task *t;
    int err = process_spawn_as(p->name, p->image, p->size, argc - 1, argv + 1, env, &cred, &t);
    if (err)
        return err;
    t->program = p;
    task_program_start_hook_run(t); /* uprobes (issue 18): the program's probes */
    if (out->file) {
        /* `run NAME > FILE`: the file the shell opened is the program's standard output,
         * as sh's dup2 before exec; the program has not run yet (one CPU, no preemption
         * of the shell), so it never writes to the console's descriptor 1. */
        file_put(t->files[1]);
        t->files[1] = file_get(out->file);
    }
    if (!background)
        return wait_foreground(t, out);
    t->detached = true;
    t->announce_exit = true;
    fs_printf(out, "[%d] %s\n", t->pid, t->name);
    return 0;
}
SHELL_COMMAND("run", "run [-u UID[:GID]] [VAR=value ...] [PROGRAM [ARGS...] [&]]",
              "start a user program from /bin (-u: as that user; VAR=value: in its "
              "environment; & : in the background); no arguments: list",
              cmd_run);

static const char *state_name(const struct task *t)
{
    if (t == current)
        return "running";
    switch (t->state) {
    case TASK_RUNNABLE: return "runnable";
    case TASK_SLEEPING: return "sleeping";
    default: return "zombie";
    }
}

/* ps: every task, kernel threads in brackets as Linux's ps shows them; UID is the
 * effective user id, as `ps -o uid`; TIME the CPU time it has used, as Linux's ps. */
static int cmd_ps(int argc, char **argv, struct fs_writer *out)
{
    (void)argc;
    (void)argv;
    fs_puts(out, "  PID   UID STATE      MEM(KiB) SYSCALLS  TIME(s) NAME\n");
    for (struct task *t = task_list(); t; t = t->next) {
        uint64_t ms = task_cpu_time_ns(t) / 1000000u;
        fs_printf(out, "%5d %5u %-10s %8u %8u %4u.%03u %s%s%s\n", t->pid, t->cred.euid,
                  state_name(t),
                  t->as ? vm_owned_pages(t->as) * 4 : 0, t->syscalls, (unsigned)(ms / 1000),
                  (unsigned)(ms % 1000), t->as ? "" : "[", t->name, t->as ? "" : "]");
    }
    return 0;
}
SHELL_COMMAND("ps", "ps", "list tasks: kernel threads [in brackets] and user processes", cmd_ps);

/* kill PID: ends a user process (status 137, as SIGKILL gives). */
static int cmd_kill(int argc, char **argv, struct fs_writer *out)
{
    (void)out;
    uint64_t pid;
    if (argc != 2 || parse_uint(argv[1], strlen(argv[1]), &pid) != 0 || pid > 0x7fffffff)
        return SHELL_USAGE;
    struct task *t = task_find((int)pid);
    if (!t || t->state == TASK_ZOMBIE)
        return -ESRCH;
    if (!task_is_user(t))
        return -EPERM; /* kernel threads end only by themselves */
    task_kill(t, SIGKILL, SI_KERNEL, "killed (SIGKILL)");
    return 0;
}
SHELL_COMMAND("kill", "kill PID", "end a user process", cmd_kill);
