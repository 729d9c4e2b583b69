/*
 * trace_meta.h - the capture's files that name things: /proc/kallsyms ("c0101234 T name",
 * addresses to function names) and saved_cmdlines ("PID COMM", pids to program names).
 * The text is hostile: lines that do not parse are counted and skipped. Portable:
 * tests/unit/test_tk_trace_meta.c.
 */
#ifndef TOOLS_TKCONVERT_TRACE_META_H
#define TOOLS_TKCONVERT_TRACE_META_H

#include <stddef.h>
#include <stdint.h>

struct tk_symbol {
    uint64_t addr;
    char *name;
};

struct tk_symbols {
    struct tk_symbol *syms; /* sorted by address */
    size_t n;
    size_t bad_lines;
};

struct tk_comm {
    int pid;
    char comm[32];
    size_t line; /* its line's number among the good ones */
};

struct tk_comms {
    struct tk_comm *comms; /* sorted by pid; a later line for a pid replaces an earlier one */
    size_t n;
    size_t bad_lines;
};

/* Parse text[0..len). Return 0, or -1 when memory ran out. */
int tk_symbols_parse(struct tk_symbols *s, const char *text, size_t len);
int tk_comms_parse(struct tk_comms *c, const char *text, size_t len);
void tk_symbols_free(struct tk_symbols *s);
void tk_comms_free(struct tk_comms *c);
/* The function holding addr (the nearest symbol at or below it, at most 1 MiB below), or
 * NULL. */
const char *tk_symbols_lookup(const struct tk_symbols *s, uint64_t addr);
/* The comm of pid, or NULL. */
const char *tk_comms_lookup(const struct tk_comms *c, int pid);

#endif
