/*
 * shell_builtins.c - the commands every tracekern shell has: help, ls, cat, echo, dmesg,
 * poweroff. Subsystems add their own commands next to their code (SHELL_COMMAND).
 */
#include "kernel/arch.h"
#include "kernel/smp.h"
#include "kernel/background.h"
#include "kernel/shell/console.h"
#include "kernel/proc/cred.h"
#include "kernel/lib/errno.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs_task.h"
#include "kernel/lib/format.h"
#include "kernel/log/klog.h"
#include "kernel/panic.h"
#include "kernel/log/printk.h"
#include "kernel/shell/shell.h"
#include "kernel/lib/string.h"
#include "kernel/time.h"
#include "uapi/syscall.h"

extern const struct shell_command shell_commands_start[], shell_commands_end[];

/* The command that sorts right after prev by name (NULL: the first), or NULL at the end.
 * The linker leaves the table in no useful order, and help lists a few dozen at most. */
static const struct shell_command *next_by_name(const struct shell_command *prev)
{
    const struct shell_command *best = 0;
    for (const struct shell_command *c = shell_commands_start; c < shell_commands_end; c++)
        if ((!prev || strcmp(c->name, prev->name) > 0) && (!best || strcmp(c->name, best->name) < 0))
            best = c;
    return best;
}

/* help: every command with its usage; help CMD...: those commands' usage and what they do. */
static int cmd_help(int argc, char **argv, struct fs_writer *out)
{
    if (argc == 1) {
        fs_puts(out, "Commands (files: see 'ls'; relative paths start at the current directory,\n"
                     SHELL_HOME " at boot (cd, pwd); help COMMAND for one; Tab completes names):\n");
        for (const struct shell_command *c = next_by_name(0); c; c = next_by_name(c))
            fs_printf(out, "  %-28s %s\n", c->usage, c->help);
        return 0;
    }
    int status = 0;
    for (int i = 1; i < argc; i++) {
        const struct shell_command *c = shell_find_command(argv[i]);
        if (!c) {
            printk("help: %s: no such command (type 'help' for the list)\n", argv[i]);
            status = SHELL_FAILED;
            continue;
        }
        fs_printf(out, "usage: %s\n  %s\n", c->usage, c->help);
    }
    return status;
}
SHELL_COMMAND("help", "help [COMMAND...]", "list the commands, or show how to use one", cmd_help);

/* The name of a user or group id as /etc/passwd and /etc/group of a Debian system give
 * them for the ids the kernel uses; others as numbers (ls does so for unknown ids). */
static const char *id_name(uint32_t id, bool group, char buf[12])
{
    if (id == 0)
        return "root";
    if (group && id == GID_DIALOUT)
        return "dialout";
    ksnprintf(buf, 12, "%u", id);
    return buf;
}

/* `ls -l`'s type letter of a node: d, l (a symbolic link), c (a device), p, or - . */
static char type_letter(const struct fs_node *n)
{
    switch (fs_type(n)) {
    case 0040000: return 'd';
    case 0120000: return 'l';
    case 0020000: return 'c';
    case 0010000: return 'p';
    default: return '-';
    }
}

/* One line of `ls -l`: type and mode as Linux's ls shows them, links (a directory: 2 and
 * one per subdirectory), owner, group, size (0: these files have no size until read, as
 * in tracefs and /proc), name, and a link's target after " -> ". No date: the kernel has
 * no wall clock. */
static void list_long(struct fs_node *n, struct fs_writer *out)
{
    static const char rwx[] = "rwxrwxrwx";
    char perms[11];
    uint16_t mode = fs_mode(n);
    perms[0] = type_letter(n);
    for (int i = 0; i < 9; i++)
        perms[1 + i] = mode & (0400 >> i) ? rwx[i] : '-';
    perms[10] = '\0';
    unsigned links = 1;
    if (fs_is_dir(n)) {
        links = 2;
        for (const struct fs_node *c = fs_children(n); c; c = c->next)
            links += fs_is_dir(c);
    }
    char ubuf[12], gbuf[12];
    char target[FS_PATH_MAX] = "";
    if (fs_is_symlink(n) && n->ops->readlink((struct fs_node *)n, target, sizeof target) < 0)
        target[0] = '\0';
    fs_printf(out, "%s %u %-7s %-7s %u %s%s%s\n", perms, links, id_name(n->uid, false, ubuf),
              id_name(n->gid, true, gbuf), n->size, n->name, target[0] ? " -> " : "", target);
}

/* Lists one directory: names, directories marked with a trailing '/', or with -l one
 * long line each. */
static void list_directory(struct fs_node *dir, bool long_form, struct fs_writer *out)
{
    for (struct fs_node *n = fs_children(dir); n; n = n->next) {
        if (long_form)
            list_long(n, out);
        else
            fs_printf(out, "%s%s\n", n->name, fs_is_dir(n) ? "/" : "");
    }
}

/* ls -R: the directory named path (len bytes of path[FS_PATH_MAX] used), then each of its
 * subdirectories the same way, each under a "PATH:" line and after a blank line, as Linux's
 * ls -R; -l adds "total 0" (no file here has a size). Stops with -EINTR on ^C and
 * -ENAMETOOLONG on a path too long to show. */
static int list_recursive(struct fs_node *dir, char *path, size_t len, bool long_form,
                          struct fs_writer *out)
{
    if (out->interrupted(out))
        return -EINTR;
    fs_printf(out, "%s:\n", path);
    if (long_form)
        fs_puts(out, "total 0\n");
    list_directory(dir, long_form, out);
    for (struct fs_node *n = fs_children(dir); n; n = n->next) {
        if (!fs_is_dir(n))
            continue;
        int added = ksnprintf(path + len, FS_PATH_MAX - len, "%s%s",
                              len && path[len - 1] == '/' ? "" : "/", n->name);
        if (added < 0 || (size_t)added >= FS_PATH_MAX - len)
            return -ENAMETOOLONG;
        fs_puts(out, "\n");
        int err = list_recursive(n, path, len + (size_t)added, long_form, out);
        path[len] = '\0';
        if (err)
            return err;
    }
    return 0;
}

static int cmd_ls(int argc, char **argv, struct fs_writer *out)
{
    bool long_form = false, recursive = false;
    while (argc > 1 && argv[1][0] == '-' && argv[1][1]) {
        for (const char *flag = argv[1] + 1; *flag; flag++) {
            if (*flag == 'l')
                long_form = true;
            else if (*flag == 'R')
                recursive = true;
            else
                return SHELL_USAGE;
        }
        argc--;
        argv++;
    }
    if (argc > 2)
        return SHELL_USAGE;
    const char *where = argc == 2 ? argv[1] : ".";
    int err = 0;
    struct fs_node *node = task_resolve(where, 0, &err);
    if (!node) {
        printk("ls: %s: %s\n", where, error_name(err));
        return SHELL_FAILED;
    }
    if (fs_is_dir(node) && recursive) {
        char path[FS_PATH_MAX];
        strlcpy(path, where, sizeof path);
        return list_recursive(node, path, strlen(path), long_form, out);
    }
    if (fs_is_dir(node))
        list_directory(node, long_form, out);
    else if (long_form)
        list_long(node, out);
    else
        fs_printf(out, "%s\n", node->name);
    return 0;
}
SHELL_COMMAND("ls", "ls [-l] [-R] [PATH]",
              "list a directory of the tree (default: the current one); -l: mode, owner, group; "
              "-R: and every directory below it",
              cmd_ls);

/* A file of fixed bytes (a program in /bin) goes out as it is, as Linux's cat gives it. */
static int cat_bytes(struct fs_node *node, struct fs_writer *out)
{
    uint32_t size;
    const char *bytes = node->ops->bytes(node, &size);
    out->emit(out, bytes, size);
    return 0;
}

static int cmd_cat(int argc, char **argv, struct fs_writer *out)
{
    if (argc < 2)
        return SHELL_USAGE;
    int status = 0;
    for (int i = 1; i < argc; i++) {
        int err = 0;
        struct file *f = NULL;
        struct fs_node *node = task_resolve(argv[i], 0, &err);
        if (node && fs_is_dir(node))
            err = -EISDIR;
        else if (node && !node->ops->read && !node->ops->bytes)
            err = -EACCES;
        else if (node)
            err = file_open(node, O_RDONLY, &f);
        /* Open while it is read: a consuming file (trace_pipe, log_cont) may sleep, and
         * its owner may not remove an open node meanwhile (see run_redirected). */
        if (f) {
            err = node->ops->read ? node->ops->read(node, out) : cat_bytes(node, out);
            file_put(f);
        }
        if (err) {
            printk("cat: %s: %s\n", argv[i], error_name(err));
            status = SHELL_FAILED;
        }
    }
    return status;
}
SHELL_COMMAND("cat", "cat FILE...", "print files", cmd_cat);

/* cd: makes DIR (relative to the current directory) the shell's current directory, which
 * the programs it starts inherit; without DIR, goes back to SHELL_HOME, as a bare cd goes
 * $HOME. */
static int cmd_cd(int argc, char **argv, struct fs_writer *out)
{
    (void)out;
    if (argc > 2)
        return SHELL_USAGE;
    const char *where = argc == 2 ? argv[1] : SHELL_HOME;
    int err = 0;
    struct fs_node *dir = task_resolve(where, 0, &err);
    if (dir)
        err = task_chdir(dir);
    if (err) {
        printk("cd: %s: %s\n", where, error_name(err));
        return SHELL_FAILED;
    }
    return 0;
}
SHELL_COMMAND("cd", "cd [DIR]", "change the current directory (default: " SHELL_HOME ")", cmd_cd);

/* pwd: the current directory's absolute path, links resolved (as `pwd -P`). */
static int cmd_pwd(int argc, char **argv, struct fs_writer *out)
{
    (void)argv;
    if (argc > 1)
        return SHELL_USAGE;
    int err = 0;
    struct fs_node *dir = task_cwd(&err);
    if (!dir) {
        printk("pwd: %s\n", error_name(err));
        return SHELL_FAILED;
    }
    char path[FS_PATH_MAX];
    fs_path_of(dir, path, sizeof path);
    fs_printf(out, "%s\n", path);
    return 0;
}
SHELL_COMMAND("pwd", "pwd", "print the current directory", cmd_pwd);

static int cmd_echo(int argc, char **argv, struct fs_writer *out)
{
    for (int i = 1; i < argc; i++) {
        if (i > 1)
            fs_puts(out, " ");
        fs_puts(out, argv[i]);
    }
    fs_puts(out, "\n");
    return 0;
}
SHELL_COMMAND("echo", "echo [WORD...] [> FILE]", "print words, or write them to a file", cmd_echo);

static void writer_emit(void *ctx, const char *text, size_t len)
{
    struct fs_writer *out = ctx;
    out->emit(out, text, len);
}

static int cmd_dmesg(int argc, char **argv, struct fs_writer *out)
{
    bool clear = argc == 2 && strcmp(argv[1], "-c") == 0;
    if (argc > 2 || (argc == 2 && !clear))
        return SHELL_USAGE;
    klog_dump(writer_emit, out);
    if (clear)
        klog_clear();
    return 0;
}
SHELL_COMMAND("dmesg", "dmesg [-c]", "print the kernel log (-c: then clear it)", cmd_dmesg);

/* Parses "SECONDS[.FRACTION]" into milliseconds; -1 if it is not that. */
static long parse_seconds_ms(const char *text)
{
    long ms = 0, scale = 1000;
    const char *p = text;
    if (*p < '0' || *p > '9')
        return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        ms = ms * 10 + (*p - '0') * 1000;
        if (ms > 3600L * 1000)
            return -1;
    }
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++)
            ms += (scale /= 10) * (*p - '0');
    return *p ? -1 : ms;
}

/* Sleeps (other tasks run meanwhile); ^C ends it early. */
static int cmd_sleep(int argc, char **argv, struct fs_writer *out)
{
    long ms = argc == 2 ? parse_seconds_ms(argv[1]) : -1;
    if (ms < 0)
        return SHELL_USAGE;
    uint64_t end = time_ns() + (uint64_t)ms * 1000000u;
    for (uint64_t now = time_ns(); now < end; now = time_ns()) {
        if (out->interrupted(out))
            return -EINTR;
        console_wait_input(end - now); /* a keystroke may be ^C */
    }
    return 0;
}
SHELL_COMMAND("sleep", "sleep SECONDS", "wait (decimals allowed: sleep 0.1)", cmd_sleep);

/* Stops the machine the way a crash would, flight recorder included, but on purpose: every
 * unread trace event is written to the serial ports first. */
static int cmd_halt(int argc, char **argv, struct fs_writer *out)
{
    (void)argc;
    (void)argv;
    (void)out;
    arch_irq_save();
    smp_stop_others(); /* the other CPUs stop by NMI before the flight recorder dumps */
    printk_enter_emergency();
    panic_run_last_words();
    printk("halt: stopped\n");
    arch_exit_emulator(EXIT_PASS);
}
SHELL_COMMAND("halt", "halt", "stop now, writing every unread trace event to the serial ports first", cmd_halt);

static int cmd_poweroff(int argc, char **argv, struct fs_writer *out)
{
    (void)argc;
    (void)argv;
    (void)out;
    int failures = shell_script_failures();
    if (failures)
        printk("poweroff: %d boot-script lines failed; exiting with the failure code\n", failures);
    background_end_session(); /* the stream's last events; an open binary capture ends */
    printk("poweroff: bye\n");
    arch_exit_emulator(failures ? EXIT_FAIL : EXIT_PASS);
}
SHELL_COMMAND("poweroff", "poweroff", "stop the machine (QEMU exits: 33, or 35 if a boot-script line failed)", cmd_poweroff);
