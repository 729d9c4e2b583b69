/*
 * shell.c - reads lines from the console and runs them as commands.
 *
 * A line is parsed by shell_parse() into words and an optional redirection. The first
 * word names a command from the .shell_commands section. Without a redirection the
 * command's output goes straight to the console; with one, it is collected and then written
 * to the file in one write(), the way a file in Linux's tracefs receives `echo ... > file`.
 */
#include "kernel/shell.h"

#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/file.h"
#include "kernel/heap.h"
#include "kernel/line_edit.h"
#include "kernel/printk.h"
#include "kernel/shell_parse.h"
#include "kernel/string.h"
#include "kernel/time.h"
#include "uapi/syscall.h"

#define REDIRECT_MAX 4096

extern const struct shell_command shell_commands_start[], shell_commands_end[];

static int script_failures;

int shell_script_failures(void) { return script_failures; }

static void console_emit(struct fs_writer *w, const char *text, size_t len)
{
    (void)w;
    console_write(text, len);
}

static uint64_t interrupt_ns; /* when the ^C the running command took arrived; 0: none */

bool shell_interrupted(void)
{
    uint64_t when;
    if (!console_take_interrupt(&when))
        return false;
    if (!interrupt_ns)
        interrupt_ns = when ? when : 1;
    return true;
}

static bool writer_interrupted(struct fs_writer *w)
{
    (void)w;
    return shell_interrupted();
}

static struct fs_writer interactive_writer = { .emit = console_emit,
                                               .interrupted = writer_interrupted,
                                               .follow = true };
static struct fs_writer script_writer = { .emit = console_emit, .interrupted = writer_interrupted };
static bool running_script;

struct fs_writer *shell_console_writer(void)
{
    return running_script ? &script_writer : &interactive_writer;
}

/* Output collected for a redirection: a growing heap buffer, capped at REDIRECT_MAX. */
struct capture {
    char *data;
    size_t len;
    bool overflow;
};

static void capture_emit(struct fs_writer *w, const char *text, size_t len)
{
    struct capture *c = w->ctx;
    if (c->overflow || c->len + len > REDIRECT_MAX) {
        c->overflow = true;
        return;
    }
    memcpy(c->data + c->len, text, len);
    c->len += len;
}

static const struct shell_command *find_command(const char *name)
{
    for (const struct shell_command *c = shell_commands_start; c < shell_commands_end; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return 0;
}

/* Prints "who: what" for a failed command or file operation; for a command that ^C stopped,
 * how long after the key it did (guest time: the console stamps the ^C as it arrives). */
static void report_error(const char *who, const char *what, int err)
{
    if (err == -EINTR && interrupt_ns) {
        uint64_t us = (time_ns() - interrupt_ns) / 1000u;
        printk("%s: interrupted by ^C, stopped %u.%03u ms after the key\n", who,
               (unsigned)(us / 1000u), (unsigned)(us % 1000u));
    } else if (what)
        printk("%s: %s: %s\n", who, what, error_name(err));
    else
        printk("%s: %s\n", who, error_name(err));
}

/* Runs cmd with its output sent to the file path (see the file comment). The file is open
 * (a struct file, as a program's would be) from the lookup to the write: the command may
 * sleep, and while it does an owner may delete what the node belongs to (a user event whose
 * program exits); an open node is not removed (fs_remove, fs_in_use), so the write reaches
 * a live node, and the last close lets its owner remove it then. */
static int run_redirected(const struct shell_command *cmd, struct shell_line *pl)
{
    int err = 0;
    struct file *f = NULL;
    struct fs_node *node = fs_lookup(pl->redirect, &err);
    if (node && (fs_is_dir(node) || !node->ops->write))
        err = fs_is_dir(node) ? -EISDIR : -EACCES;
    else if (node)
        err = file_open(node, O_WRONLY, &f);
    if (err) {
        report_error(pl->argv[0], pl->redirect, err);
        return err;
    }
    struct capture cap = { kmalloc(REDIRECT_MAX), 0, false };
    if (!cap.data) {
        file_put(f);
        report_error(pl->argv[0], NULL, -ENOMEM);
        return -ENOMEM;
    }
    struct fs_writer w = { .emit = capture_emit, .interrupted = writer_interrupted, .ctx = &cap };
    int rc = cmd->run(pl->argc, pl->argv, &w);
    if (rc == 0 && cap.overflow)
        rc = -EFBIG;
    if (rc == 0)
        rc = node->ops->write(node, cap.data, cap.len, pl->append);
    kfree(cap.data);
    file_put(f);
    if (rc < 0)
        report_error(pl->argv[0], pl->redirect, rc);
    else if (rc == SHELL_USAGE)
        printk("usage: %s\n", cmd->usage);
    return rc;
}

int shell_run_line(const char *line)
{
    struct shell_line *pl = kmalloc(sizeof *pl); /* too big for a 16 KiB stack's comfort */
    if (!pl) {
        report_error("shell", NULL, -ENOMEM);
        return -ENOMEM;
    }
    int rc = 0;
    interrupt_ns = 0;
    const char *syntax_error = shell_parse(line, pl);
    if (syntax_error) {
        printk("shell: %s\n", syntax_error);
        rc = -EINVAL;
    } else if (pl->argc > 0) {
        const struct shell_command *cmd = find_command(pl->argv[0]);
        if (!cmd) {
            printk("%s: command not found (type 'help' for the list)\n", pl->argv[0]);
            rc = -ENOENT;
        } else if (pl->redirect) {
            rc = run_redirected(cmd, pl);
        } else {
            rc = cmd->run(pl->argc, pl->argv, shell_console_writer());
            if (rc < 0)
                report_error(pl->argv[0], NULL, rc);
            else if (rc == SHELL_USAGE)
                printk("usage: %s\n", cmd->usage);
        }
    }
    kfree(pl);
    return rc;
}

int shell_run_script(const char *name, const char *text, size_t len)
{
    char line[SHELL_LINE_MAX + 2];
    int failed = 0, lines = 0;
    printk("script: running %s\n", name);
    running_script = true;
    size_t i = 0;
    while (i < len) {
        size_t n = 0;
        bool too_long = false;
        while (i < len && text[i] != '\n') {
            if (n < sizeof line - 1)
                line[n++] = text[i];
            else
                too_long = true;
            i++;
        }
        i++; /* the newline */
        if (n && line[n - 1] == '\r')
            n--;
        line[n] = '\0';
        lines++;
        printk("%s%s\n", SHELL_PROMPT, line);
        int rc = too_long ? (printk("shell: line too long\n"), -EINVAL) : shell_run_line(line);
        if (rc) {
            failed++;
            script_failures++;
        }
    }
    running_script = false;
    printk("script: %s done, %d lines, %d failed\n", name, lines, failed);
    return failed;
}

void shell_loop(void)
{
    static struct line_editor editor;
    char echo[LINE_ECHO_MAX];
    line_edit_init(&editor);
    console_write(SHELL_PROMPT, sizeof SHELL_PROMPT - 1);
    for (;;) {
        size_t echo_len = 0;
        enum line_event ev = line_edit_feed(&editor, console_getc(), echo, &echo_len);
        console_write(echo, echo_len);
        if (ev == LINE_PENDING)
            continue;
        if (ev == LINE_DONE)
            shell_run_line(editor.line);
        console_write(SHELL_PROMPT, sizeof SHELL_PROMPT - 1);
    }
}
