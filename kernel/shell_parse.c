/*
 * shell_parse.c - splits one console line into words and an output redirection.
 *
 * One pass over the line copies each word, with its quotes and escapes removed, into
 * out->storage followed by a NUL. Copying never makes a word longer (quotes and backslashes
 * are dropped, nothing is added), so the copied characters fit in SHELL_LINE_MAX bytes, and
 * at most SHELL_MAX_ARGS + 1 NULs follow them (the words and the redirect target): storage
 * is always large enough.
 */
#include "kernel/shell_parse.h"

#include <stddef.h>

#define STRINGIFY_VALUE(x) #x
#define STRINGIFY(x) STRINGIFY_VALUE(x)

struct parser {
    const char *next; /* first character of the line not read yet */
    char *copy;       /* where the next word character goes in out->storage */
};

/* Blanks separate words; a tab is a blank just like a space. */
static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* An unquoted word ends at a blank, at a '>' glued to it, or at the end of the line. */
static bool ends_word(char c)
{
    return c == '\0' || is_blank(c) || c == '>';
}

/* Moves past blanks so that ps->next is at a word, an operator, a comment or the end. */
static void skip_blanks(struct parser *ps)
{
    while (is_blank(*ps->next))
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
 * Copies the inside of "..." (ps->next is just past the opening quote): \" and \\ stand for
 * " and \, any other backslash is kept as it is.
 */
static const char *copy_double_quoted(struct parser *ps)
{
    while (*ps->next != '"') {
        char c = *ps->next++;
        if (c == '\0')
            return "unterminated quote";
        if (c == '\\' && (*ps->next == '"' || *ps->next == '\\'))
            c = *ps->next++;
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
        else
            put(ps, c);
        if (error != NULL)
            return error;
    }
    put(ps, '\0');
    return NULL;
}

/* Adds the word at ps->next to argv; words may not follow the redirection target. */
static const char *parse_argument(struct parser *ps, struct shell_line *out)
{
    if (out->redirect != NULL)
        return "words after the redirection target";
    if (out->argc == SHELL_MAX_ARGS)
        return "too many words (at most " STRINGIFY(SHELL_MAX_ARGS) ")";
    return copy_word(ps, &out->argv[out->argc++]);
}

/*
 * Reads '>' or '>>' (ps->next is at the first '>') and the file name after it, which must be
 * a non-empty word: a comment, another '>' or the end of the line do not name a file.
 */
static const char *parse_redirect(struct parser *ps, struct shell_line *out)
{
    const char *missing;
    char *target;
    const char *error;

    if (out->redirect != NULL)
        return "only one redirection is allowed";
    ps->next++;
    out->append = *ps->next == '>';
    if (out->append)
        ps->next++;
    missing = out->append ? "missing file name after '>>'" : "missing file name after '>'";
    skip_blanks(ps);
    if (*ps->next == '\0' || *ps->next == '#' || *ps->next == '>')
        return missing;
    error = copy_word(ps, &target);
    if (error != NULL)
        return error;
    if (target[0] == '\0')
        return missing;
    out->redirect = target;
    return NULL;
}

/* Sets out to a line without words or redirection. */
static void make_empty(struct shell_line *out)
{
    out->argc = 0;
    for (int i = 0; i <= SHELL_MAX_ARGS; i++)
        out->argv[i] = NULL;
    out->redirect = NULL;
    out->append = false;
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
        if (*ps.next == '>')
            error = parse_redirect(&ps, out);
        else
            error = parse_argument(&ps, out);
    }
    if (error == NULL && out->redirect != NULL && out->argc == 0)
        error = "redirection without a command";
    return error;
}

/*
 * Splits line as described in shell_parse.h. On success argv[argc] is NULL and every pointer
 * is into out->storage; on an error out holds no words and no redirection, so a caller that
 * ignores the message still sees an empty line.
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
