/*
 * shell_parse.h - splits one console line into commands, their words and redirections.
 *
 *     echo "X is up" > trace_marker      cmd[0]: argv = {"echo", "X is up"}, redirect = "trace_marker"
 *     echo 1 >> set_ftrace_filter        ... append = true
 *     echo a; cat trace                  cmd[0]: {"echo", "a"}, cmd[1]: {"cat", "trace"}
 *
 * Portable: tests/unit/test_shell_parse.c and tests/fuzz/fuzz_shell_parse.c.
 */
#ifndef KERNEL_SHELL_SHELL_PARSE_H
#define KERNEL_SHELL_SHELL_PARSE_H

#include <stdbool.h>

#define SHELL_LINE_MAX 4096
#define SHELL_MAX_ARGS 32
#define SHELL_MAX_COMMANDS 32

/* One command of a line: its words and its output redirection. */
struct shell_words {
    int argc;
    char *argv[SHELL_MAX_ARGS + 1]; /* argv[argc] == NULL; point into the line's storage */
    char *redirect;                 /* file after '>' or '>>', or NULL */
    bool append;                    /* '>>' */
    bool background;                /* ended by an unquoted '&' (its last word is "&") */
};

struct shell_line {
    int count;                                 /* commands; 0 for a blank or comment line */
    struct shell_words cmd[SHELL_MAX_COMMANDS]; /* cmd[count...] have no words */
    /* Each word is copied here without its quotes, NUL-terminated: a word of n bytes in the
     * line takes at most n + 1 <= 2n bytes here, so twice the line always fits. */
    char storage[2 * SHELL_LINE_MAX + 2];
};

/*
 * Rules (a small subset of sh): blanks separate words; '...' quotes literally; "..." quotes
 * with \" and \\ escapes; a backslash outside quotes escapes the next character; an unquoted
 * '#' at the start of a word begins a comment; an unquoted ';' ends a command (a line may end
 * with one; an empty command before one is an error, as in sh); an unquoted '>' or '>>'
 * (alone or glued to the words around it) names the command's redirect target, which must be
 * its last word; an unquoted '&' may only end the line, as the word "&" (run ... &).
 *
 * What sh would give another meaning is refused, never taken literally: '|', '||', '&&', '<',
 * '`', and '$' starting an expansion ($NAME, ${...}, $(...), $?, $1, ...) outside single
 * quotes. Quote them ('a|b', '$HOME', \$) to mean the characters themselves.
 *
 * Returns NULL on success or a one-line message; on an error out holds no commands.
 */
const char *shell_parse(const char *line, struct shell_line *out);

#endif
