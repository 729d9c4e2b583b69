/*
 * ftrace_filter.h - the function tracer's filter files: set_ftrace_filter (trace only these
 * functions; empty = all), set_ftrace_notrace (never these) and set_graph_function
 * (function_graph traces only inside these), with Linux's syntax and semantics.
 *
 * A function set is a bitmap over the traceable functions: index i is func_addrs[i], one of
 * the recorded call sites (sorted by address, as available_filter_functions lists them); its
 * name is the symbol containing that address. The caller owns all storage.
 *
 * What a write accepts (Linux's kernel/trace/ftrace.c, filter_parse_regex()):
 *  - words separated by white space (space, \t, \n, \v, \f, \r; a NUL byte also separates);
 *  - `!word` removes the functions the word matches instead of adding them;
 *  - a word starting with a digit is an index: the Nth function of available_filter_functions,
 *    counting from 1 (as kstrtoul(s, 0): decimal, 0x hex or 0 octal, the whole word);
 *  - any other word is a glob over the function's name. Linux sorts globs into MATCH_FULL
 *    (`foo`), MATCH_FRONT_ONLY (`foo*`), MATCH_END_ONLY (`*foo`), MATCH_MIDDLE_ONLY (`*foo*`)
 *    and MATCH_GLOB (a `*` anywhere else, or any `?`, `[`, `\`: lib/glob.c's glob_match()).
 *    All of these mean exactly what glob_match() means on the whole word, so one matcher
 *    serves: `*` any run, `?` one character, `[a-z]`/`[!a-z]` a class (a malformed class is
 *    a literal `[`), `\x` a literal x. `*` alone (and `**`) matches every function;
 *    `a*b` is supported (MATCH_GLOB).
 *  - Errors (-EINVAL, and the set is left unchanged): a word matching no function (also with
 *    `!`, also an index out of range), `!` alone, an index that is not a whole number, a word
 *    containing `:` (Linux's `func:command` and `:mod:` forms; we have no commands or modules).
 * Truncating writes (`>`, append == false) start from the empty set, appending ones (`>>`) from
 * the current set, so `echo > set_ftrace_filter` empties it.
 *
 * Difference from Linux: Linux handles one word per write() call and applies the words before
 * a failing one; here a write is all or nothing (as tracefs requires of every file).
 * Portable: tests/unit/test_ftrace_filter.c, tests/fuzz/fuzz_ftrace_filter.c.
 */
#ifndef TRACE_FTRACE_FTRACE_FILTER_H
#define TRACE_FTRACE_FTRACE_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/lib/symbols.h"
#include "kernel/fs/fs_tree.h"

/* Words of bitmap storage for n functions (for bits and for a write's scratch). */
#define FTRACE_FUNC_SET_WORDS(n) (((n) + 31u) / 32u)

struct ftrace_func_set {
    uint32_t *bits;   /* FTRACE_FUNC_SET_WORDS(nfuncs) words, the caller's */
    uint32_t nfuncs;  /* functions the set ranges over */
    uint32_t count;   /* members */
};

/* Makes an empty set over nfuncs functions in bits. */
void ftrace_func_set_init(struct ftrace_func_set *set, uint32_t *bits, uint32_t nfuncs);

/* Empties the set. */
void ftrace_func_set_clear(struct ftrace_func_set *set);

/* True when function index is in the set (false for an index out of range). */
bool ftrace_func_set_has(const struct ftrace_func_set *set, uint32_t index);

/* Whether the function tracer traces function index under set_ftrace_filter (filter; empty =
 * all) and set_ftrace_notrace (notrace, which wins). Either may be NULL (no such file). */
bool ftrace_filter_allows(const struct ftrace_func_set *filter,
                          const struct ftrace_func_set *notrace, uint32_t index);

/*
 * Applies a write to a filter file (syntax above): text/len is what echo delivers, append is
 * true for `>>`. scratch is FTRACE_FUNC_SET_WORDS(set->nfuncs) words the write may use (the
 * new set is built there and copied to set->bits only on success). func_addrs has
 * set->nfuncs addresses; names come from symbols (an address outside every symbol has the
 * empty name, so only `*`-like globs and indexes select it).
 * Returns 0, or -EINVAL with the set unchanged.
 */
int ftrace_filter_write(struct ftrace_func_set *set, uint32_t *scratch, const char *text,
                        size_t len, bool append, const uint32_t *func_addrs,
                        const struct symbol_table *symbols);

/*
 * What reading the file shows: the members' names, one a line, in index (address) order; an
 * address without a symbol prints as 0x and its hex. An empty set prints empty_text instead
 * (Linux: "#### all functions enabled ####\n" for set_ftrace_filter and set_graph_function,
 * "#### no functions disabled ####\n" for set_ftrace_notrace; NULL prints nothing).
 * Stops early when out->interrupted says so.
 */
void ftrace_filter_print(const struct ftrace_func_set *set, struct fs_writer *out,
                         const uint32_t *func_addrs, const struct symbol_table *symbols,
                         const char *empty_text);

/* Linux's glob_match() on a pattern of plen bytes against the NUL-terminated name. */
bool ftrace_glob_match(const char *pattern, size_t plen, const char *name);

#endif
