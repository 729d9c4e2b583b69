/*
 * shell.c - reads lines from the console and runs them as commands.
 *
 * A line is parsed whole by shell_parse() into commands separated by ';', each with words
 * and an optional redirection; a syntax error anywhere runs nothing. The first word names a
 * command from the .shell_commands section. Without a redirection the command's output goes
 * straight to the console. With one, the file is opened (a struct file, checked as a
 * program's open would be) and the output goes to it: streamed as it comes to a file that
 * takes pieces (/dev/ttyS1, /dev/null), else collected and written in one write(), the way
 * a file in Linux's tracefs receives `echo ... > file`. `run` hands the open file to the
 * program as its standard output instead.
 */
#include "kernel/background.h"
#include "kernel/shell/shell.h"

#include "kernel/shell/complete.h"
#include "kernel/shell/console.h"
#include "kernel/proc/cred.h"
#include "kernel/lib/errno.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs_task.h"
#include "kernel/mm/heap.h"
#include "kernel/shell/line_edit.h"
#include "kernel/log/printk.h"
#include "kernel/proc/task_internal.h"
#include "kernel/shell/shell_parse.h"
#include "kernel/lib/string.h"
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

/* Output collected for a redirection to a file that takes one write: a heap buffer,
 * capped at REDIRECT_MAX. */
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

/* Output streamed to a file that takes pieces: the first error stops the rest. */
struct stream {
    struct file *file;
    int err;
};

static void stream_emit(struct fs_writer *w, const char *text, size_t len)
{
    struct stream *st = w->ctx;
    if (st->err || len == 0)
        return;
    st->err = st->file->node->ops->write(st->file->node, text, len, true);
}

static const struct shell_command *find_command(const char *name)
{
    for (const struct shell_command *c = shell_commands_start; c < shell_commands_end; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return 0;
}

const struct shell_command *shell_find_command(const char *name) { return find_command(name); }

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

/* True for `run`, whose redirection is its program's standard output. */
static bool runs_program(const struct shell_command *cmd)
{
    return strcmp(cmd->name, "run") == 0;
}

/* Reports how a command ended: an error, or its usage line. */
static void report_result(const struct shell_command *cmd, const char *what, int rc)
{
    if (rc < 0)
        report_error(cmd->name, what, rc);
    else if (rc == SHELL_USAGE)
        printk("usage: %s\n", cmd->usage);
}

/*
 * Opens a redirection's target for writing as a program's open(O_WRONLY | O_TRUNC or
 * O_APPEND) would, with the shell's credentials. The file is open (a struct file) from the
 * lookup to the last write: the command may sleep, and while it does an owner may delete
 * what the node belongs to (a user event whose program exits); an open node is never freed
 * (fs_remove refuses it; fs_detach takes it out of the tree and the last close frees it),
 * so the writes reach valid memory, and the node answers as its owner left it (ENODEV for
 * a deleted event's file). 0 with *out set, or -errno.
 */
static int open_redirect(const struct shell_words *w, bool for_program, struct file **out)
{
    int err = 0;
    struct fs_node *node = task_resolve(w->redirect, 0, &err);
    if (!node)
        return err;
    if (fs_is_dir(node))
        return -EISDIR;
    /* A program may write what it could open itself (write_data too: user_events_data);
     * the shell's own commands write with ops->write, as echo does. */
    if (!node->ops->write && !(for_program && node->ops->write_data))
        return -EACCES;
    err = fs_may_open(node, &current->cred, MAY_WRITE);
    if (err)
        return err;
    /* '>' empties the file at the open (O_TRUNC) for a program, which writes as it likes,
     * and for a file that streams; the others are emptied by the one write in
     * run_redirected(), with append false, so that output they refuse leaves them as
     * they were. */
    bool truncate = !w->append && (for_program || node->ops->streams);
    uint32_t flags = O_WRONLY | (w->append ? O_APPEND : truncate ? O_TRUNC : 0);
    return file_open(node, flags, out);
}

/* Runs cmd with its output sent to the open file f (see the file comment). */
static int run_redirected(const struct shell_command *cmd, struct shell_words *w,
                          struct file *f)
{
    struct fs_node *node = f->node;
    int rc;
    if (runs_program(cmd)) {
        /* The program's standard output; run's own notices go to the console. */
        struct fs_writer out = *shell_console_writer();
        out.file = f;
        rc = cmd->run(w->argc, w->argv, &out);
    } else if (node->ops->streams) {
        struct stream st = { f, 0 };
        struct fs_writer out = { .emit = stream_emit, .interrupted = writer_interrupted,
                                 .ctx = &st, .file = f };
        rc = cmd->run(w->argc, w->argv, &out);
        if (rc == 0)
            rc = st.err;
    } else {
        struct capture cap = { kmalloc(REDIRECT_MAX), 0, false };
        if (!cap.data)
            return -ENOMEM;
        struct fs_writer out = { .emit = capture_emit, .interrupted = writer_interrupted,
                                 .ctx = &cap, .file = f };
        rc = cmd->run(w->argc, w->argv, &out);
        if (rc == 0 && cap.overflow)
            rc = -EFBIG;
        if (rc == 0)
            rc = node->ops->write(node, cap.data, cap.len, w->append);
        kfree(cap.data);
    }
    return rc;
}

/* Runs one command of a line; returns as shell_run_line does. */
static int run_command(struct shell_words *w)
{
    const struct shell_command *cmd = find_command(w->argv[0]);
    if (!cmd) {
        printk("%s: command not found (type 'help' for the list)\n", w->argv[0]);
        return -ENOENT;
    }
    if (w->background && !runs_program(cmd)) {
        printk("%s: only 'run PROGRAM ... &' runs in the background\n", cmd->name);
        return -EINVAL;
    }
    if (!w->redirect) {
        int rc = cmd->run(w->argc, w->argv, shell_console_writer());
        report_result(cmd, NULL, rc);
        return rc;
    }
    struct file *f = NULL;
    int rc = open_redirect(w, runs_program(cmd), &f);
    if (rc == 0) {
        rc = run_redirected(cmd, w, f);
        file_put(f);
    }
    report_result(cmd, rc == -EINTR ? NULL : w->redirect, rc);
    return rc;
}

/* Runs the commands of a parsed line one after another, as sh runs a list: each runs
 * whatever the one before returned, but a ^C stops the whole line (bash does so too). */
int shell_run_line(const char *line)
{
    struct shell_line *pl = kmalloc(sizeof *pl); /* too big for a 16 KiB stack */
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
    }
    for (int i = 0; i < pl->count && !interrupt_ns; i++) {
        int status = run_command(&pl->cmd[i]);
        if (status && !rc)
            rc = status;
    }
    kfree(pl);
    return rc;
}

int shell_run_script(const char *name, const char *text, size_t len)
{
    static char line[SHELL_LINE_MAX + 2]; /* scripts run one at a time, at boot */
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
        int rc = too_long ? (printk("shell: line too long (at most %d characters); nothing run\n",
                                    SHELL_LINE_MAX), -EINVAL)
                          : shell_run_line(line);
        if (rc) {
            failed++;
            script_failures++;
        }
    }
    running_script = false;
    background_end_session(); /* the stream's last events; an open binary capture ends */
    printk("script: %s done, %d lines, %d failed\n", name, lines, failed);
    return failed;
}

/* Every command's name, for completion. */
static void visit_commands(complete_visit visit, void *arg)
{
    for (const struct shell_command *c = shell_commands_start; c < shell_commands_end; c++)
        visit(arg, c->name, false);
}

/*
 * Tab at the console, as bash answers it: the word before the cursor is completed as far as
 * its matches agree; when that adds nothing, the bell rings, and a second Tab in a row lists
 * the matches below the line, then shows the prompt and the line again.
 */
static void complete_at_cursor(struct line_editor *le, char *echo)
{
    struct completion c;
    size_t echo_len = 0;
    int err = 0;
    struct fs_node *cwd = task_cwd(&err); /* NULL once removed: no path completes */
    complete_word(le->line, le->cursor, visit_commands, cwd, &c, NULL);
    if (c.insert[0] && line_edit_insert(le, c.insert, strlen(c.insert), echo, &echo_len)) {
        console_write(echo, echo_len);
    } else if (c.matches > 1 && le->tabs_in_row >= 2) {
        console_write("\n", 1);
        complete_word(le->line, le->cursor, visit_commands, cwd, &c, &interactive_writer);
        console_write(SHELL_PROMPT, sizeof SHELL_PROMPT - 1);
        line_edit_redraw(le, echo, &echo_len);
        console_write(echo, echo_len);
    } else {
        console_write("\a", 1);
    }
}

/* Says so when typed bytes were dropped because the console's input queue was full, so
 * that a line which lost some of them is not mistaken for what was typed. */
static void report_lost_input(void)
{
    static unsigned reported;
    unsigned lost = console_input_overruns();
    if (lost != reported)
        printk("console: %u typed bytes lost (input queue full)\n", lost - reported);
    reported = lost;
}

void shell_loop(void)
{
    static struct line_editor editor;
    static char echo[LINE_ECHO_MAX]; /* 12 KiB: not on the stack; one console, one loop */
    line_edit_init(&editor);
    console_write(SHELL_PROMPT, sizeof SHELL_PROMPT - 1);
    for (;;) {
        size_t echo_len = 0;
        enum line_event ev = line_edit_feed(&editor, console_getc(), echo, &echo_len);
        console_write(echo, echo_len);
        if (ev == LINE_PENDING)
            continue;
        if (ev == LINE_COMPLETE) {
            complete_at_cursor(&editor, echo);
            continue;
        }
        if (ev == LINE_DONE)
            shell_run_line(editor.line);
        else if (ev == LINE_TOO_LONG)
            printk("shell: line too long (at most %d characters); nothing run\n", SHELL_LINE_MAX);
        report_lost_input();
        console_write(SHELL_PROMPT, sizeof SHELL_PROMPT - 1);
    }
}
