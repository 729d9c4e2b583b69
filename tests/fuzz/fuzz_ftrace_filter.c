/* fuzz_ftrace_filter.c - arbitrary writes to a filter file against a fixed symbol table:
 * never read outside the text, count always equals the bits set (and none past nfuncs), a
 * failed write changes nothing, a truncating write does not depend on what was there before,
 * and printing shows one line a member. Also checks the glob matcher against strcmp/strstr
 * on patterns with no special characters. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/errno.h"
#include "trace/ftrace/ftrace_filter.h"

static const struct symbol_entry entries[] = {
    { 0x1000, 0 },  { 0x1100, 8 },  { 0x1200, 16 }, { 0x1300, 25 }, { 0x1400, 42 },
    { 0x1500, 51 }, { 0x1600, 61 }, { 0x1700, 70 }, { 0x1800, 80 },
};
static const char names[] = "do_fork\0do_exit\0schedule\0schedule_timeout\0sys_read\0"
                            "sys_write\0vfs_read\0vfs_write\0end";
static const struct symbol_table table = { 9, entries, names };

#define NFUNCS 37u /* two bitmap words, the second partly used */
#define WORDS FTRACE_FUNC_SET_WORDS(NFUNCS)

static uint32_t funcs[NFUNCS];

static unsigned lines;
static void count_lines(struct fs_writer *w, const char *text, size_t len)
{
    (void)w;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
}

static void check_consistent(const struct ftrace_func_set *set)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < NFUNCS; i++)
        n += ftrace_func_set_has(set, i);
    if (n != set->count)
        abort();
    if (set->bits[WORDS - 1] >> (NFUNCS % 32)) /* no bit past the last function */
        abort();
    struct fs_writer w = { .emit = count_lines };
    lines = 0;
    ftrace_filter_print(set, &w, funcs, &table, NULL);
    if (lines != set->count)
        abort();
}

/* Literal patterns (no * ? [ \ NUL) must match as strcmp, and wrapped in '*' as strstr. */
static void check_literal_glob(const uint8_t *data, size_t size)
{
    char pat[35], lit[33];
    size_t n = size < 32 ? size : 32;
    for (size_t i = 0; i < n; i++) {
        char c = (char)data[i];
        if (c == '*' || c == '?' || c == '[' || c == '\\' || c == '\0')
            return;
        pat[i + 1] = c;
        lit[i] = c;
    }
    lit[n] = '\0';
    pat[0] = '*';
    pat[n + 1] = '*';
    pat[n + 2] = '\0';
    for (uint32_t e = 0; e + 1 < table.count; e++) {
        const char *name = names + entries[e].name_offset;
        bool full = strlen(name) == n && memcmp(name, lit, n) == 0;
        if (ftrace_glob_match(pat + 1, n, name) != full)
            abort();
        if (ftrace_glob_match(pat, n + 2, name) != (strstr(name, lit) != NULL))
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (uint32_t i = 0; i < NFUNCS; i++)
        funcs[i] = 0x1000 + i * 0x40; /* the last few lie past the table: unnamed */

    uint32_t bits[WORDS], scratch[WORDS], before[WORDS];
    struct ftrace_func_set set;
    ftrace_func_set_init(&set, bits, NFUNCS);

    /* First byte (the seeds use a digit): bits 0-1 pick the starting set, bit 2 appends. */
    uint8_t mode = size ? data[0] : 0;
    const char *text = (const char *)data + (size ? 1 : 0);
    size_t len = size ? size - 1 : 0;
    static const char *const starts[] = { "", "*", "sched* 37", "!* do_fork vfs_*" };
    const char *start = starts[mode & 3];
    if (ftrace_filter_write(&set, scratch, start, strlen(start), false, funcs, &table) != 0)
        abort();
    check_consistent(&set);

    memcpy(before, bits, sizeof bits);
    uint32_t count_before = set.count;
    bool append = mode & 4;
    int err = ftrace_filter_write(&set, scratch, text, len, append, funcs, &table);
    check_consistent(&set);
    if (err != 0) {
        if (err != -EINVAL || set.count != count_before || memcmp(bits, before, sizeof bits) != 0)
            abort();
    } else if (!append) {
        /* The same truncating write from another start gives the same set. */
        uint32_t bits2[WORDS];
        struct ftrace_func_set again;
        ftrace_func_set_init(&again, bits2, NFUNCS);
        if (ftrace_filter_write(&again, scratch, "*", 1, false, funcs, &table) != 0 ||
            ftrace_filter_write(&again, scratch, text, len, false, funcs, &table) != 0 ||
            again.count != set.count || memcmp(bits2, bits, sizeof bits) != 0)
            abort();
    }

    check_literal_glob(data, size);
    /* The matcher on raw bytes against every name: it must only stay in bounds. */
    for (uint32_t e = 0; e + 1 < table.count; e++)
        (void)ftrace_glob_match((const char *)data, size, names + entries[e].name_offset);
    return 0;
}
