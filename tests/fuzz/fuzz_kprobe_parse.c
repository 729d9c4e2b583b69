/*
 * fuzz_kprobe_parse.c - fuzz target for trace/kprobes/kprobe_parse.c.
 *
 * The input is one kprobe_events line. Checks that kp_parse() answers 0, -EINVAL or -E2BIG
 * (never anything else, never a crash or an out-of-bounds read: ASan watches), that a
 * refusal says why and points inside the line, and that an accepted probe has sane names,
 * at most KP_MAX_ARGS args with distinct names, and a kprobe_events line that parses back
 * to a probe printing the very same line. Each input is parsed twice: as a kprobe_events
 * line (kp_parse) and as a uprobe_events line (kp_parse_uprobe, issue 18).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/errno.h"
#include "trace/kprobes/kprobe_parse.h"

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_kprobe_parse: %s\n", what);
    abort();
}

/* Gathers printed text (a line is at most KP_LINE_MAX plus the default names). */
static char text[2 * KP_LINE_MAX + 8192];
static size_t text_len;
static void gather(struct fs_writer *w, const char *t, size_t len)
{
    (void)w;
    if (text_len + len >= sizeof text)
        fail("printed line longer than any probe can make");
    memcpy(text + text_len, t, len);
    text_len += len;
    text[text_len] = '\0';
}
static struct fs_writer writer = { .emit = gather };

static void check_names(const struct kp_command *cmd)
{
    if (!cmd->event[0] || !cmd->group[0] || strchr(cmd->event, '/') || strchr(cmd->group, ' '))
        fail("bad group or event name accepted");
    if (cmd->nargs > KP_MAX_ARGS || (cmd->nargs > 0) != (cmd->args != NULL))
        fail("args count wrong");
    for (uint32_t i = 0; i < cmd->nargs; i++) {
        const struct kp_fetch_arg *a = &cmd->args[i];
        if (!a->name[0] || !a->text[0] || a->type >= KP_NR_TYPES || a->nderef > KP_DEREF_MAX)
            fail("bad fetch arg accepted");
        if (a->base == KP_FETCH_RETVAL && !cmd->is_return)
            fail("$retval accepted on an entry probe");
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(a->name, cmd->args[j].name) == 0)
                fail("two args with one name");
    }
}

/* One line in one of the two syntaxes. */
static void fuzz_one(const uint8_t *data, size_t size, bool uprobe)
{
    int (*parse)(const char *, size_t, struct kp_command *, struct kp_error *) =
        uprobe ? kp_parse_uprobe : kp_parse;
    /* An exact-size copy, so that ASan sees any read past the line. */
    char *line = malloc(size ? size : 1);
    memcpy(line, data, size);
    struct kp_command cmd;
    struct kp_error err;
    int ret = parse(line, size, &cmd, &err);
    if (ret != 0 && ret != -EINVAL && ret != -E2BIG)
        fail("unexpected errno");
    if (ret != 0 && (!err.msg || err.pos > size))
        fail("refusal without a reason or a place");
    if (ret != 0 && cmd.args)
        fail("refusal kept its args");
    if (ret == 0 && cmd.op == KP_OP_ADD) {
        check_names(&cmd);
        text_len = 0;
        kp_print_command(&writer, &cmd);
        static char first[sizeof text];
        memcpy(first, text, text_len + 1);
        size_t first_len = text_len;
        struct kp_command again;
        if (parse(first, first_len - 1, &again, &err) != 0)
            fail("printed line does not parse");
        text_len = 0;
        kp_print_command(&writer, &again);
        if (text_len != first_len || memcmp(text, first, first_len) != 0)
            fail("printed line parses to another probe");
        kp_command_free(&again);
        kp_command_free(&cmd);
    }
    free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_one(data, size, false);
    fuzz_one(data, size, true);
    return 0;
}
