/*
 * shell_parse.h - splits one console line into words and an output redirection.
 *
 *     echo "X is up" > trace_marker      argv = {"echo", "X is up"}, redirect = "trace_marker"
 *     echo 1 >> set_ftrace_filter        ... append = true
 *
 * Portable: tests/unit/test_shell_parse.c and tests/fuzz/fuzz_shell_parse.c.
 */
#ifndef KERNEL_SHELL_PARSE_H
#define KERNEL_SHELL_PARSE_H

#include <stdbool.h>

#define SHELL_LINE_MAX 256
#define SHELL_MAX_ARGS 16

struct shell_line {
    int argc;
    char *argv[SHELL_MAX_ARGS + 1]; /* argv[argc] == NULL; point into storage */
    char *redirect;                 /* file after '>' or '>>', or NULL */
    bool append;                    /* '>>' */
    char storage[SHELL_LINE_MAX + SHELL_MAX_ARGS + 2];
};

/*
 * Rules (a small subset of sh): blanks separate words; '...' quotes literally; "..." quotes
 * with \" and \\ escapes; a backslash outside quotes escapes the next character; an unquoted
 * '#' at the start of a word begins a comment; an unquoted '>' or '>>' (alone or glued to the
 * words around it) names the redirect target, which must be the last word.
 * Returns NULL on success (argc may be 0 for a blank or comment line) or a one-line message.
 */
const char *shell_parse(const char *line, struct shell_line *out);

#endif
