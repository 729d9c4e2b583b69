/*
 * trace_meta.c - kallsyms and saved_cmdlines for the converter (see trace_meta.h).
 */
#include "tools/tkconvert/trace_meta.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEAREST_LIMIT (1u << 20)

/* Calls line_fn for each line of text (a NUL-terminated copy of each). */
static int for_each_line(const char *text, size_t len, int (*line_fn)(void *, char *), void *arg)
{
    char line[512];
    size_t at = 0;
    while (at < len) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
        if (n >= sizeof line)
            n = sizeof line - 1; /* too long for a name: parsed as cut, refused below */
        memcpy(line, text + at, n);
        line[n] = '\0';
        if (line_fn(arg, line) < 0)
            return -1;
        at += (nl ? (size_t)(nl - (text + at)) + 1 : len - at);
    }
    return 0;
}

/* A name: printable, 1..255 bytes, blanks only inside when blanks_inside (a comm may
 * hold spaces, a symbol may not). */
static bool is_name(const char *s, bool blanks_inside)
{
    size_t n = strlen(s);
    if (n == 0 || n > 255 || s[0] == ' ' || s[n - 1] == ' ')
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(blanks_inside ? isprint((unsigned char)s[i]) : isgraph((unsigned char)s[i])))
            return false;
    return true;
}

static int add_symbol(void *arg, char *line)
{
    struct tk_symbols *s = arg;
    char *end, *save;
    if (line[0] == '\0')
        return 0;
    char *addr = strtok_r(line, " \t", &save), *type = strtok_r(NULL, " \t", &save);
    char *name = strtok_r(NULL, " \t", &save);
    if (!addr || !type || !name || strtok_r(NULL, " \t", &save) || strlen(type) != 1 ||
        !is_name(name, false)) {
        s->bad_lines++;
        return 0;
    }
    unsigned long long a = strtoull(addr, &end, 16);
    if (*end || end == addr) {
        s->bad_lines++;
        return 0;
    }
    if ((s->n & (s->n - 1)) == 0) { /* n a power of two (or 0): double */
        struct tk_symbol *bigger = realloc(s->syms, (s->n ? s->n * 2 : 16) * sizeof *bigger);
        if (!bigger)
            return -1;
        s->syms = bigger;
    }
    struct tk_symbol *syms = s->syms;
    if (!(syms[s->n].name = strdup(name)))
        return -1;
    syms[s->n++].addr = a;
    return 0;
}

static int by_addr(const void *a, const void *b)
{
    const struct tk_symbol *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int tk_symbols_parse(struct tk_symbols *s, const char *text, size_t len)
{
    memset(s, 0, sizeof *s);
    if (for_each_line(text, len, add_symbol, s) < 0)
        return -1;
    if (s->n)
        qsort(s->syms, s->n, sizeof *s->syms, by_addr);
    return 0;
}

void tk_symbols_free(struct tk_symbols *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->syms[i].name);
    free(s->syms);
    memset(s, 0, sizeof *s);
}

const char *tk_symbols_lookup(const struct tk_symbols *s, uint64_t addr)
{
    size_t lo = 0, hi = s->n; /* the first symbol above addr is at hi */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->syms[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || addr - s->syms[lo - 1].addr >= NEAREST_LIMIT)
        return NULL;
    return s->syms[lo - 1].name;
}

static int add_comm(void *arg, char *line)
{
    struct tk_comms *c = arg;
    char *end;
    if (line[0] == '\0')
        return 0;
    long pid = strtol(line, &end, 10);
    if (end == line || *end != ' ' || pid < 0 || pid > 0x7fffffff || !is_name(end + 1, true) ||
        strlen(end + 1) >= sizeof c->comms[0].comm) {
        c->bad_lines++;
        return 0;
    }
    if ((c->n & (c->n - 1)) == 0) { /* n a power of two (or 0): double */
        struct tk_comm *comms = realloc(c->comms, (c->n ? c->n * 2 : 16) * sizeof *comms);
        if (!comms)
            return -1;
        c->comms = comms;
    }
    struct tk_comm *comms = c->comms;
    comms[c->n].pid = (int)pid;
    comms[c->n].line = c->n;
    snprintf(comms[c->n].comm, sizeof comms[c->n].comm, "%s", end + 1);
    c->n++;
    return 0;
}

static int by_pid(const void *a, const void *b)
{
    const struct tk_comm *x = a, *y = b;
    return (x->pid > y->pid) - (x->pid < y->pid);
}

/* By pid, then by line: the last line of a pid ends its run. */
static int by_pid_then_line(const void *a, const void *b)
{
    const struct tk_comm *x = a, *y = b;
    if (x->pid != y->pid)
        return (x->pid > y->pid) - (x->pid < y->pid);
    return (x->line > y->line) - (x->line < y->line);
}

int tk_comms_parse(struct tk_comms *c, const char *text, size_t len)
{
    memset(c, 0, sizeof *c);
    if (for_each_line(text, len, add_comm, c) < 0)
        return -1;
    if (c->n)
        qsort(c->comms, c->n, sizeof *c->comms, by_pid_then_line);
    size_t kept = 0; /* of each pid's run, its last line */
    for (size_t i = 0; i < c->n; i++)
        if (i + 1 == c->n || c->comms[i + 1].pid != c->comms[i].pid)
            c->comms[kept++] = c->comms[i];
    c->n = kept;
    return 0;
}

void tk_comms_free(struct tk_comms *c)
{
    free(c->comms);
    memset(c, 0, sizeof *c);
}

const char *tk_comms_lookup(const struct tk_comms *c, int pid)
{
    struct tk_comm key = {.pid = pid};
    const struct tk_comm *hit = c->n ? bsearch(&key, c->comms, c->n, sizeof key, by_pid) : NULL;
    return hit ? hit->comm : NULL;
}
