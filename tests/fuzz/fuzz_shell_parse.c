/*
 * fuzz_shell_parse.c - fuzz target for kernel/shell/shell_parse.c.
 *
 * The input (up to its first NUL) is one console line. Checks that shell_parse() either
 * fails with a short one-line message and an empty result, or returns at most
 * SHELL_MAX_COMMANDS commands of at most SHELL_MAX_ARGS words, NULL-terminated, each a
 * NUL-terminated string inside out->storage, not overlapping. Then quotes every word back
 * into a line (commands joined by "; ") and checks that parsing that line gives the same
 * commands, words and redirections again.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/shell/shell_parse.h"

/* Aborts with a message: the fuzzer records the input as a crash. */
static void fail(const char *what)
{
    fprintf(stderr, "fuzz_shell_parse: %s\n", what);
    abort();
}

/* Checks that s is a NUL-terminated string lying in sl->storage at or after *next, then
 * moves *next past it, so that strings must come in order and must not overlap. */
static void check_string(const struct shell_line *sl, const char *s, const char **next)
{
    const char *end = sl->storage + sizeof sl->storage;

    if (s < *next || s >= end)
        fail("pointer outside storage or overlapping the previous word");
    const char *nul = memchr(s, '\0', (size_t)(end - s));
    if (nul == NULL)
        fail("word not NUL-terminated inside storage");
    *next = nul + 1;
}

/* Orders strings by address, for check_string. */
static int by_address(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    return x < y ? -1 : x > y;
}

/* Checks one command of a successful parse; *next walks storage through all of them. Its
 * strings are checked in storage order: a trailing '&' is stored after the redirect. */
static void check_command(const struct shell_line *sl, const struct shell_words *w,
                          const char **next)
{
    const char *strings[SHELL_MAX_ARGS + 1];
    int n = 0;

    if (w->argc < 1 || w->argc > SHELL_MAX_ARGS)
        fail("argc out of range");
    if (w->argv[w->argc] != NULL)
        fail("argv not NULL-terminated");
    for (int i = 0; i < w->argc; i++) {
        if (w->argv[i] == NULL)
            fail("NULL word before argv[argc]");
        strings[n++] = w->argv[i];
    }
    if (w->redirect != NULL)
        strings[n++] = w->redirect;
    else if (w->append)
        fail("append without a redirection");
    qsort(strings, (size_t)n, sizeof strings[0], by_address);
    for (int i = 0; i < n; i++)
        check_string(sl, strings[i], next);
    if (w->redirect != NULL && w->redirect[0] == '\0')
        fail("empty redirection target");
}

/* True when cmd[from...] hold no words and no redirection. */
static bool rest_empty(const struct shell_line *sl, int from)
{
    for (int c = from; c < SHELL_MAX_COMMANDS; c++)
        if (sl->cmd[c].argc != 0 || sl->cmd[c].argv[0] != NULL || sl->cmd[c].redirect != NULL ||
            sl->cmd[c].append)
            return false;
    return true;
}

/* Checks the result of a successful parse. */
static void check_success(const struct shell_line *sl)
{
    const char *next = sl->storage;

    if (sl->count < 0 || sl->count > SHELL_MAX_COMMANDS)
        fail("count out of range");
    for (int c = 0; c < sl->count; c++)
        check_command(sl, &sl->cmd[c], &next);
    if (!rest_empty(sl, sl->count))
        fail("words in a command past count");
}

/* Checks the result of a failed parse: a short one-line message and nothing parsed. */
static void check_failure(const struct shell_line *sl, const char *error)
{
    size_t n = strlen(error);

    if (n == 0 || n > 60 || strchr(error, '\n') != NULL)
        fail("error message empty, long or not one line");
    if (sl->count != 0 || !rest_empty(sl, 0))
        fail("failed parse left commands behind");
}

/* Appends text to line[*n...]; false if it does not fit. */
static bool append_text(char *line, size_t *n, size_t size, const char *text)
{
    size_t len = strlen(text);
    if (*n + len + 1 > size)
        return false;
    memcpy(line + *n, text, len + 1);
    *n += len;
    return true;
}

/* Appends word in single quotes (a quote inside as '\''), then a blank; false if it does
 * not fit. Single quotes keep every character, '$' and '`' included. */
static bool append_quoted(char *line, size_t *n, size_t size, const char *word)
{
    if (!append_text(line, n, size, "'"))
        return false;
    for (; *word != '\0'; word++) {
        char one[2] = { *word, '\0' };
        if (!append_text(line, n, size, *word == '\'' ? "'\\''" : one))
            return false;
    }
    return append_text(line, n, size, "' ");
}

/* Quotes sl back into a line; false if that line would be longer than a line may be. */
static bool requote(const struct shell_line *sl, char *line, size_t size)
{
    size_t n = 0;

    line[0] = '\0';
    for (int c = 0; c < sl->count; c++) {
        const struct shell_words *w = &sl->cmd[c];
        if (c > 0 && !append_text(line, &n, size, "; "))
            return false;
        for (int i = 0; i < w->argc; i++) {
            if (!append_quoted(line, &n, size, w->argv[i]))
                return false;
        }
        if (w->redirect != NULL) {
            if (!append_text(line, &n, size, w->append ? ">> " : "> ") ||
                !append_quoted(line, &n, size, w->redirect))
                return false;
        }
    }
    return n <= SHELL_LINE_MAX;
}

/* Checks that a and b hold the same commands, words and redirections. */
static void check_same(const struct shell_line *a, const struct shell_line *b)
{
    if (a->count != b->count)
        fail("requoted line has a different number of commands");
    for (int c = 0; c < a->count; c++) {
        const struct shell_words *x = &a->cmd[c], *y = &b->cmd[c];
        if (x->argc != y->argc || x->append != y->append)
            fail("requoted line parses differently");
        for (int i = 0; i < x->argc; i++) {
            if (strcmp(x->argv[i], y->argv[i]) != 0)
                fail("requoted word parses differently");
        }
        if ((x->redirect == NULL) != (y->redirect == NULL) ||
            (x->redirect != NULL && strcmp(x->redirect, y->redirect) != 0))
            fail("requoted redirection parses differently");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct shell_line sl, again;
    static char requoted[4 * SHELL_LINE_MAX + 16];
    /* An exactly-sized copy, so that ASan sees any read past the terminating NUL. */
    char *line = malloc(size + 1);
    const char *error;

    if (line == NULL)
        return 0;
    memcpy(line, data, size);
    line[size] = '\0';
    error = shell_parse(line, &sl);
    if (error != NULL) {
        check_failure(&sl, error);
    } else {
        if (strlen(line) > SHELL_LINE_MAX)
            fail("accepted an over-long line");
        check_success(&sl);
        if (requote(&sl, requoted, sizeof requoted)) {
            if (shell_parse(requoted, &again) != NULL)
                fail("requoted line does not parse");
            check_success(&again);
            check_same(&sl, &again);
        }
    }
    free(line);
    return 0;
}
