/*
 * complete.c - Tab completion of the word before the cursor (complete.h).
 *
 * Candidates are visited, not stored: one pass counts the matches and keeps the longest
 * prefix they share and the longest name; a listing then takes the matches in name order by
 * selection (each row looks for the next name after the previous one), which for the few
 * hundred names of a directory costs nothing a person would notice at a keypress.
 */
#include "kernel/shell/complete.h"

#include "kernel/lib/parse.h"
#include "kernel/lib/string.h"

/* What one pass over the candidates gathers. */
struct matcher {
    const char *prefix;           /* what was typed of the name */
    size_t prefix_len;
    int matches;
    char common[FS_NAME_MAX + 2]; /* the longest prefix shared by every match, '/' included */
    size_t common_len;
    size_t widest;                /* the longest match, '/' included */
    /* listing: the smallest match after `after` (NULL: any) goes to next */
    const char *after;
    bool after_dir;
    const char *next;
    bool next_dir;
};

/* Compares name (with a '/' when is_dir) to other the same way, as the listing sorts. */
static int compare_names(const char *name, bool is_dir, const char *other, bool other_dir)
{
    int c = strcmp(name, other);
    return c ? c : (int)is_dir - (int)other_dir;
}

/* True when name starts with what was typed (and is not too long to show). */
static bool matches(const struct matcher *m, const char *name)
{
    size_t len = strlen(name);
    return len >= m->prefix_len && len <= FS_NAME_MAX && memcmp(name, m->prefix, m->prefix_len) == 0;
}

/* Takes one candidate: counts it and narrows the common prefix if it matches. */
static void take_candidate(void *arg, const char *name, bool is_dir)
{
    struct matcher *m = arg;
    if (!matches(m, name))
        return;
    char shown[FS_NAME_MAX + 2];
    size_t len = strlen(name);
    memcpy(shown, name, len);
    if (is_dir)
        shown[len++] = '/';
    if (len > m->widest)
        m->widest = len;
    if (m->matches++ == 0) {
        memcpy(m->common, shown, len);
        m->common_len = len;
        return;
    }
    size_t same = 0;
    while (same < m->common_len && same < len && m->common[same] == shown[same])
        same++;
    m->common_len = same;
}

/* Keeps the smallest match after m->after, for the listing. */
static void find_next(void *arg, const char *name, bool is_dir)
{
    struct matcher *m = arg;
    if (!matches(m, name))
        return;
    if (m->after && compare_names(name, is_dir, m->after, m->after_dir) <= 0)
        return;
    if (!m->next || compare_names(name, is_dir, m->next, m->next_dir) < 0) {
        m->next = name;
        m->next_dir = is_dir;
    }
}

/* The children of a directory, as candidates. */
static void visit_children(struct fs_node *dir, complete_visit visit, void *arg)
{
    for (struct fs_node *n = fs_children(dir); n; n = n->next)
        visit(arg, n->name, fs_is_dir(n));
}

/* Visits every candidate: command names, or the children of dir. */
static void visit_all(complete_commands commands, struct fs_node *dir, complete_visit visit,
                      void *arg)
{
    if (dir)
        visit_children(dir, visit, arg);
    else
        commands(visit, arg);
}

/* Writes the matches sorted, row by row in as many columns as fit COMPLETE_WIDTH. */
static void list_matches(struct matcher *m, complete_commands commands, struct fs_node *dir,
                         struct fs_writer *list)
{
    if (m->matches > COMPLETE_LIST_MAX) {
        fs_printf(list, "(%d names start with '%s': type more of the name)\n", m->matches,
                  m->prefix);
        return;
    }
    size_t width = m->widest + 2;
    int columns = width < COMPLETE_WIDTH ? (int)(COMPLETE_WIDTH / width) : 1;
    m->after = NULL;
    for (int i = 0; i < m->matches; i++) {
        m->next = NULL;
        visit_all(commands, dir, find_next, m);
        if (!m->next)
            break;
        bool last_in_row = (i + 1) % columns == 0 || i + 1 == m->matches;
        fs_printf(list, "%s%s", m->next, m->next_dir ? "/" : "");
        if (last_in_row)
            fs_puts(list, "\n");
        else
            for (size_t pad = strlen(m->next) + m->next_dir; pad < width; pad++)
                fs_puts(list, " ");
        m->after = m->next;
        m->after_dir = m->next_dir;
    }
}

/* True for the bytes that end a word before the cursor: blanks and the shell's operators. */
static bool separates_words(char c)
{
    return is_space(c) || c == ';' || c == '>' || c == '&' || c == '|' || c == '<';
}

void complete_word(const char *line, size_t cursor, complete_commands commands,
                   struct fs_node *cwd, struct completion *out, struct fs_writer *list)
{
    out->matches = 0;
    out->insert[0] = '\0';
    size_t start = cursor;
    while (start > 0 && !separates_words(line[start - 1]))
        start--;
    for (size_t i = start; i < cursor; i++)
        if (line[i] == '\'' || line[i] == '"' || line[i] == '\\' || line[i] == '$')
            return; /* quoting: what the name would be is not simply what was typed */
    size_t before = start;
    while (before > 0 && is_space(line[before - 1]))
        before--;
    bool command = before == 0 || line[before - 1] == ';';

    struct matcher m = { 0 };
    struct fs_node *dir = NULL;
    char path[FS_PATH_MAX];
    m.prefix = line + start;
    m.prefix_len = cursor - start;
    if (!command) {
        size_t slash = cursor;
        while (slash > start && line[slash - 1] != '/')
            slash--;
        size_t dir_len = slash - start;
        if (dir_len >= sizeof path)
            return;
        memcpy(path, line + start, dir_len);
        path[dir_len] = '\0';
        int err = 0;
        if (!cwd && path[0] != '/')
            return;
        dir = fs_resolve(cwd, dir_len ? path : ".", NULL, 0, &err);
        if (!dir || !fs_is_dir(dir))
            return;
        m.prefix = line + slash;
        m.prefix_len = cursor - slash;
    }
    visit_all(commands, dir, take_candidate, &m);
    out->matches = m.matches;
    if (m.matches == 0)
        return;
    size_t add = m.common_len - m.prefix_len;
    memcpy(out->insert, m.common + m.prefix_len, add);
    if (m.matches == 1 && m.common[m.common_len - 1] != '/')
        out->insert[add++] = ' ';
    out->insert[add] = '\0';
    if (list && m.matches > 1)
        list_matches(&m, commands, dir, list);
}
