/*
 * fuzz_shell_parse.c - fuzz target for kernel/shell_parse.c.
 *
 * The input (up to its first NUL) is one console line. Checks that shell_parse() either
 * fails with a short one-line message and an empty result, or returns at most
 * SHELL_MAX_ARGS words, NULL-terminated, each a NUL-terminated string inside out->storage,
 * not overlapping. Then quotes every word back into a line and checks that parsing that
 * line gives the same words and redirection again.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/shell_parse.h"

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

/* Checks the result of a successful parse. */
static void check_success(const struct shell_line *sl)
{
    const char *next = sl->storage;

    if (sl->argc < 0 || sl->argc > SHELL_MAX_ARGS)
        fail("argc out of range");
    if (sl->argv[sl->argc] != NULL)
        fail("argv not NULL-terminated");
    for (int i = 0; i < sl->argc; i++) {
        if (sl->argv[i] == NULL)
            fail("NULL word before argv[argc]");
        check_string(sl, sl->argv[i], &next);
    }
    if (sl->redirect != NULL) {
        check_string(sl, sl->redirect, &next);
        if (sl->redirect[0] == '\0' || sl->argc == 0)
            fail("empty redirection target or redirection without words");
    } else if (sl->append) {
        fail("append without a redirection");
    }
}

/* Checks the result of a failed parse: a short one-line message and nothing parsed. */
static void check_failure(const struct shell_line *sl, const char *error)
{
    size_t n = strlen(error);

    if (n == 0 || n > 60 || strchr(error, '\n') != NULL)
        fail("error message empty, long or not one line");
    if (sl->argc != 0 || sl->argv[0] != NULL || sl->redirect != NULL || sl->append)
        fail("failed parse left words or a redirection behind");
}

/* Appends word to line[*n...] in double quotes, escaping \ and "; false if it does not fit. */
static bool append_quoted(char *line, size_t *n, size_t size, const char *word)
{
    if (*n + 3 > size)
        return false;
    line[(*n)++] = '"';
    for (; *word != '\0'; word++) {
        if (*n + 4 > size)
            return false;
        if (*word == '"' || *word == '\\')
            line[(*n)++] = '\\';
        line[(*n)++] = *word;
    }
    line[(*n)++] = '"';
    line[(*n)++] = ' ';
    line[*n] = '\0';
    return true;
}

/* Quotes sl back into a line; false if that line would be longer than a line may be. */
static bool requote(const struct shell_line *sl, char *line, size_t size)
{
    size_t n = 0;

    line[0] = '\0';
    for (int i = 0; i < sl->argc; i++) {
        if (!append_quoted(line, &n, size, sl->argv[i]))
            return false;
    }
    if (sl->redirect != NULL) {
        const char *op = sl->append ? ">> " : "> ";
        if (n + strlen(op) >= size)
            return false;
        memcpy(line + n, op, strlen(op) + 1);
        n += strlen(op);
        if (!append_quoted(line, &n, size, sl->redirect))
            return false;
    }
    return n <= SHELL_LINE_MAX;
}

/* Checks that a and b hold the same words and redirection. */
static void check_same(const struct shell_line *a, const struct shell_line *b)
{
    if (a->argc != b->argc || a->append != b->append)
        fail("requoted line parses differently");
    for (int i = 0; i < a->argc; i++) {
        if (strcmp(a->argv[i], b->argv[i]) != 0)
            fail("requoted word parses differently");
    }
    if ((a->redirect == NULL) != (b->redirect == NULL) ||
        (a->redirect != NULL && strcmp(a->redirect, b->redirect) != 0))
        fail("requoted redirection parses differently");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct shell_line sl, again;
    char requoted[4 * SHELL_LINE_MAX];
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
