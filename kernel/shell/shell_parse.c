/*
 * shell_parse.c - splits one console line into commands, their words and redirections.
 *
 * One pass over the line copies each word, with its quotes and escapes removed, into
 * out->storage followed by a NUL. Copying never makes a word longer (quotes and backslashes
 * are dropped, nothing is added), so a word of n bytes in the line takes at most n + 1 <= 2n
 * bytes of storage (every word has at least one byte in the line): twice the line fits.
 *
 * The line is parsed whole before anything runs, so a mistake anywhere in it runs nothing.
 */
#include "kernel/shell/shell_parse.h"

#include <stddef.h>

#include "kernel/lib/parse.h"

#define STRINGIFY_VALUE(x) #x
#define STRINGIFY(x) STRINGIFY_VALUE(x)

struct parser {
    const char *next; /* first character of the line not read yet */
    char *copy;       /* where the next word character goes in out->storage */
};

/* An unquoted word ends at a blank, at an operator glued to it, or at the end of the line.
 * '|', '<' and '`' end it too, to be refused as operators rather than kept as text. */
static bool ends_word(char c)
{
    return c == '\0' || is_space(c) || c == '>' || c == ';' || c == '&' || c == '|' ||
           c == '<' || c == '`';
}

/* Moves past blanks so that ps->next is at a word, an operator, a comment or the end. */
static void skip_blanks(struct parser *ps)
{
    while (is_space(*ps->next))
        ps->next++;
}

/* Appends one character to the word being copied. */
static void put(struct parser *ps, char c)
{
    *ps->copy++ = c;
}

/*
 * Rejects a line that is too long or holds bytes a console line cannot hold, before any
 * parsing; reads at most SHELL_LINE_MAX + 1 bytes of it.
 */
static const char *check_characters(const char *line)
{
    for (size_t n = 0; line[n] != '\0'; n++) {
        unsigned char c = (unsigned char)line[n];
        if (n == SHELL_LINE_MAX)
            return "line too long (at most " STRINGIFY(SHELL_LINE_MAX) " characters)";
        if (c >= 0x80)
            return "non-ascii character in line";
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return "control character in line";
    }
    return NULL;
}

/*
 * True when a '$' followed by c would make sh expand something: a name ($HOME), a
 * positional or special parameter ($1, $?, $#, $@, $*, $!, $$, $-), ${...} or $(...).
 * A '$' before anything else (a blank, '/', the end) is a plain '$' in sh too.
 */
static bool starts_expansion(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '{' || c == '(' || c == '?' || c == '#' || c == '@' || c == '*' ||
           c == '!' || c == '$' || c == '-';
}

/* The refusal for a '$' that sh would expand (ps->next is just past the '$'), or NULL. */
static const char *check_dollar(const struct parser *ps)
{
    if (!starts_expansion(*ps->next))
        return NULL;
    if (*ps->next == '(')
        return "command substitution $(...) is not supported";
    return "variables ($NAME) are not supported; quote a literal '$'";
}

/* Copies the inside of '...' as it is; ps->next is just past the opening quote. */
static const char *copy_single_quoted(struct parser *ps)
{
    while (*ps->next != '\'') {
        if (*ps->next == '\0')
            return "unterminated quote";
        put(ps, *ps->next++);
    }
    ps->next++;
    return NULL;
}

/*
 * Copies the inside of "..." (ps->next is just past the opening quote): \" \\ \$ and \`
 * stand for the character, any other backslash is kept as it is. A '$' that sh would expand
 * and a '`' are refused: sh substitutes inside double quotes.
 */
static const char *copy_double_quoted(struct parser *ps)
{
    while (*ps->next != '"') {
        char c = *ps->next++;
        if (c == '\0')
            return "unterminated quote";
        if (c == '\\' && (*ps->next == '"' || *ps->next == '\\' || *ps->next == '$' ||
                          *ps->next == '`'))
            c = *ps->next++;
        else if (c == '`')
            return "command substitution `...` is not supported";
        else if (c == '$' && check_dollar(ps))
            return check_dollar(ps);
        put(ps, c);
    }
    ps->next++;
    return NULL;
}

/* Copies the character after an unquoted backslash, whatever it is. */
static const char *copy_escaped(struct parser *ps)
{
    if (*ps->next == '\0')
        return "backslash at end of line";
    put(ps, *ps->next++);
    return NULL;
}

/*
 * Copies the word starting at ps->next into storage, NUL-terminated, and points *word at
 * it. Quoted parts glue to what is around them: a"b c"d is the one word "ab cd".
 */
static const char *copy_word(struct parser *ps, char **word)
{
    *word = ps->copy;
    while (!ends_word(*ps->next)) {
        char c = *ps->next++;
        const char *error = NULL;
        if (c == '\'')
            error = copy_single_quoted(ps);
        else if (c == '"')
            error = copy_double_quoted(ps);
        else if (c == '\\')
            error = copy_escaped(ps);
        else if (c == '$' && check_dollar(ps))
            error = check_dollar(ps);
        else
            put(ps, c);
        if (error != NULL)
            return error;
    }
    put(ps, '\0');
    return NULL;
}

/* Adds the word at ps->next to the command; words may not follow its redirection target. */
static const char *parse_argument(struct parser *ps, struct shell_words *cmd)
{
    if (cmd->redirect != NULL)
        return "words after the redirection target";
    if (cmd->argc == SHELL_MAX_ARGS)
        return "too many words (at most " STRINGIFY(SHELL_MAX_ARGS) " a command)";
    return copy_word(ps, &cmd->argv[cmd->argc++]);
}

/*
 * Reads '>' or '>>' (ps->next is at the first '>') and the file name after it, which must be
 * a non-empty word: a comment, another operator or the end of the line do not name a file.
 */
static const char *parse_redirect(struct parser *ps, struct shell_words *cmd)
{
    const char *missing;
    char *target;
    const char *error;

    if (cmd->redirect != NULL)
        return "only one redirection is allowed";
    ps->next++;
    cmd->append = *ps->next == '>';
    if (cmd->append)
        ps->next++;
    missing = cmd->append ? "missing file name after '>>'" : "missing file name after '>'";
    skip_blanks(ps);
    if (*ps->next == '#' || ends_word(*ps->next))
        return missing;
    error = copy_word(ps, &target);
    if (error != NULL)
        return error;
    if (target[0] == '\0')
        return missing;
    cmd->redirect = target;
    return NULL;
}

/*
 * Reads an unquoted '&' (ps->next is at it): "&&" is refused; a lone '&' must end the line
 * (blanks or a comment may follow) and becomes the command's last word "&", after a
 * redirection too (run PROGRAM > FILE &).
 */
static const char *parse_ampersand(struct parser *ps, struct shell_words *cmd)
{
    if (ps->next[1] == '&')
        return "'&&' is not supported; use ';' between commands";
    ps->next++;
    skip_blanks(ps);
    if (*ps->next != '\0' && *ps->next != '#')
        return "'&' may only end the line (run PROGRAM ... &)";
    if (cmd->argc == 0)
        return "'&' without a command";
    if (cmd->argc == SHELL_MAX_ARGS)
        return "too many words (at most " STRINGIFY(SHELL_MAX_ARGS) " a command)";
    cmd->argv[cmd->argc++] = ps->copy;
    cmd->background = true;
    put(ps, '&');
    put(ps, '\0');
    return NULL;
}

/* The refusal for an operator this shell does not have: '|', '||', '<', '`'. */
static const char *unsupported_operator(const struct parser *ps)
{
    switch (*ps->next) {
    case '|':
        return ps->next[1] == '|' ? "'||' is not supported; use ';' between commands"
                                  : "pipes (|) are not supported; use '>' to a file";
    case '<':
        return "input redirection (<) is not supported";
    default:
        return "command substitution `...` is not supported";
    }
}

/* Ends the command at a ';' (ps->next is at it): it must have words, as in sh. */
static const char *end_command(struct parser *ps, struct shell_line *out)
{
    struct shell_words *cmd = &out->cmd[out->count];
    ps->next++;
    if (cmd->argc == 0)
        return cmd->redirect ? "redirection without a command" : "empty command before ';'";
    out->count++;
    skip_blanks(ps);
    if (*ps->next != '\0' && *ps->next != '#' && out->count == SHELL_MAX_COMMANDS)
        return "too many commands (at most " STRINGIFY(SHELL_MAX_COMMANDS) " a line)";
    return NULL;
}

/* Sets out to a line without commands. */
static void make_empty(struct shell_line *out)
{
    out->count = 0;
    for (int c = 0; c < SHELL_MAX_COMMANDS; c++) {
        out->cmd[c].argc = 0;
        for (int i = 0; i <= SHELL_MAX_ARGS; i++)
            out->cmd[c].argv[i] = NULL;
        out->cmd[c].redirect = NULL;
        out->cmd[c].append = false;
        out->cmd[c].background = false;
    }
}

/* Does the work of shell_parse(); on an error out may be left half filled. */
static const char *parse_line(const char *line, struct shell_line *out)
{
    struct parser ps = { .next = line, .copy = out->storage };
    const char *error = check_characters(line);

    while (error == NULL) {
        skip_blanks(&ps);
        if (*ps.next == '\0' || *ps.next == '#')
            break;
        struct shell_words *cmd = &out->cmd[out->count]; /* end_command keeps count < MAX */
        if (*ps.next == ';')
            error = end_command(&ps, out);
        else if (*ps.next == '>')
            error = parse_redirect(&ps, cmd);
        else if (*ps.next == '&')
            error = parse_ampersand(&ps, cmd);
        else if (*ps.next == '|' || *ps.next == '<' || *ps.next == '`')
            error = unsupported_operator(&ps);
        else
            error = parse_argument(&ps, cmd);
    }
    if (error == NULL && out->count < SHELL_MAX_COMMANDS) {
        const struct shell_words *last = &out->cmd[out->count];
        if (last->redirect != NULL && last->argc == 0)
            error = "redirection without a command";
        else if (last->argc > 0)
            out->count++; /* the last command, not ended by ';' */
    }
    return error;
}

/*
 * Splits line as described in shell_parse.h. On success each command's argv[argc] is NULL
 * and every pointer is into out->storage; on an error out holds no commands, so a caller
 * that ignores the message still runs nothing.
 */
const char *shell_parse(const char *line, struct shell_line *out)
{
    const char *error;

    make_empty(out);
    error = parse_line(line, out);
    if (error != NULL)
        make_empty(out);
    return error;
}
