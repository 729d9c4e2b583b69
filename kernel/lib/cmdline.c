/*
 * cmdline.c - splits the boot loader's command line into words (see cmdline.h).
 *
 * The rules:
 *  - Words are separated by blanks: space, tab, newline, CR, vertical tab, form feed.
 *  - A double quote anywhere in a word opens or closes a quoted stretch, in which blanks are
 *    ordinary characters; the quotes themselves are dropped (name="a b" gives name = a b,
 *    "name=a b" too). A quote left open runs to the end of the text.
 *  - The first '=' of a word ends its key, quoted or not; the rest, '=' included, is the
 *    value. A word without '=' is a flag with value "". A word with an empty key ("=x", "")
 *    says nothing and is skipped.
 *  - The first word is the image path if it has a '/' and no '='.
 *  - Keys, values and the image path live in cl->storage, each NUL-terminated: a word's key,
 *    a NUL, then (for key=value) the value and a NUL. A flag's value is its key's NUL, so
 *    every pointer in a struct cmdline points into its own storage.
 *  - A word that does not fit whole into storage, or that would be parameter number
 *    CMDLINE_MAX_PARAMS + 1, is dropped together with every word after it, and truncated is
 *    set. Keeping part of a word (root=/dev/sd instead of root=/dev/sda1) would be worse.
 */
#include <stdbool.h>
#include <stddef.h>

#include "kernel/lib/cmdline.h"
#include "kernel/lib/parse.h"
#include "kernel/lib/string.h"

/* What copy_word learnt about the word it copied. */
struct word {
    size_t key_len; /* characters before the first '=' (the whole word for a flag) */
    bool has_value; /* the word has an '=' */
    bool has_slash; /* the word has a '/': a first word like that may be the image path */
    size_t size;    /* bytes the word needs in storage, its NULs included */
};

/*
 * Copies the word that starts at text into dst, which has room bytes, in its stored form:
 * quotes dropped, the first '=' turned into the NUL that ends the key, a NUL at the end.
 * Bytes past room are counted in w->size but not written, so the caller can tell whether
 * the word fitted. Returns where the word ends in text.
 */
static const char *copy_word(const char *text, char *dst, size_t room, struct word *w)
{
    bool quoted = false;
    size_t n = 0;

    w->key_len = 0;
    w->has_value = false;
    w->has_slash = false;
    for (; *text != '\0' && (quoted || !is_space(*text)); text++) {
        char c = *text;
        if (c == '"') {
            quoted = !quoted;
            continue;
        }
        if (c == '=' && !w->has_value) {
            w->has_value = true;
            w->key_len = n;
            c = '\0';
        }
        if (c == '/')
            w->has_slash = true;
        if (n < room)
            dst[n] = c;
        n++;
    }
    if (!w->has_value)
        w->key_len = n;
    if (n < room)
        dst[n] = '\0';
    w->size = n + 1;
    return text;
}

/* Fills cl from text (NULL counts as empty), following the rules at the top of this file. */
void cmdline_parse(struct cmdline *cl, const char *text)
{
    size_t filled = 0; /* bytes of storage taken by the words kept so far */
    bool first_word = true;

    memset(cl, 0, sizeof *cl);
    if (text == NULL)
        return;
    for (;;) {
        while (is_space(*text))
            text++;
        if (*text == '\0')
            break;

        char *stored = cl->storage + filled;
        struct word w;
        text = copy_word(text, stored, CMDLINE_MAX_LEN - filled, &w);
        bool is_image = first_word && w.has_slash && !w.has_value;
        first_word = false;

        if (w.key_len == 0)
            continue;
        if (w.size > CMDLINE_MAX_LEN - filled || (!is_image && cl->count == CMDLINE_MAX_PARAMS)) {
            cl->truncated = true;
            break;
        }
        filled += w.size;
        if (is_image) {
            cl->image = stored;
            continue;
        }
        struct cmdline_param *param = &cl->params[cl->count++];
        param->key = stored;
        param->value = stored + w.key_len + (w.has_value ? 1 : 0);
    }
}

/* Looks key up, marking every word with it as used so cmdline_unused leaves it out. */
const char *cmdline_get(struct cmdline *cl, const char *key)
{
    const char *value = NULL;

    for (int i = 0; i < cl->count; i++) {
        if (strcmp(cl->params[i].key, key) == 0) {
            cl->params[i].used = true;
            value = cl->params[i].value;
        }
    }
    return value;
}

/* Whether the key of params[index] is to be listed by cmdline_unused: no word with that key
 * was used, and no earlier word has it (so each key is listed once, where it first appears). */
static bool first_unused_occurrence(const struct cmdline *cl, int index)
{
    const char *key = cl->params[index].key;

    for (int i = 0; i < cl->count; i++) {
        if (strcmp(cl->params[i].key, key) != 0)
            continue;
        if (cl->params[i].used || i < index)
            return false;
    }
    return true;
}

/*
 * Lists the unused keys in order of first appearance, separated by single spaces. buf gets
 * whole keys only: once one does not fit, it and all later ones are left out (but still
 * counted), and buf stays NUL-terminated whenever size > 0. Returns how many keys are unused,
 * so a return larger than the number of words in buf means the list was cut.
 */
int cmdline_unused(const struct cmdline *cl, char *buf, size_t size)
{
    size_t len = 0;
    bool full = false;
    int unused = 0;

    if (size > 0)
        buf[0] = '\0';
    for (int i = 0; i < cl->count; i++) {
        if (!first_unused_occurrence(cl, i))
            continue;
        unused++;

        const char *key = cl->params[i].key;
        size_t key_len = strlen(key);
        size_t separator = len > 0 ? 1 : 0;
        if (full || separator + key_len + 1 > size - len) {
            full = true;
            continue;
        }
        if (separator)
            buf[len++] = ' ';
        memcpy(buf + len, key, key_len);
        len += key_len;
        buf[len] = '\0';
    }
    return unused;
}
