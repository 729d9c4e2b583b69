/*
 * complete.h - Tab completion of the word before the cursor, as bash completes it.
 *
 * The first word of a command (at the start of the line or after ';') completes to command
 * names; any later word completes to a path in the file tree (kernel/fs/fs_tree.h), relative to
 * the shell's current directory like every path the shell takes (absolute from the root),
 * with directories ending in '/'. A unique match
 * is completed whole, followed by a blank (or by nothing after a directory's '/'); several
 * are completed as far as they agree, and listed in columns when asked (bash: the second
 * Tab). A word holding quotes, a backslash or '$' is not completed.
 * Portable: tests/unit/test_complete.c.
 */
#ifndef KERNEL_SHELL_COMPLETE_H
#define KERNEL_SHELL_COMPLETE_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/fs/fs_tree.h"

/* Calls visit(arg, name) for every command name, in any order. */
typedef void (*complete_visit)(void *arg, const char *name, bool is_dir);
typedef void (*complete_commands)(complete_visit visit, void *arg);

#define COMPLETE_LIST_MAX 200 /* more matches than this are counted, not listed */
#define COMPLETE_WIDTH 80     /* the listing's columns fit this terminal width */

struct completion {
    int matches;                    /* names that start with the word */
    char insert[FS_NAME_MAX + 2];   /* text to insert at the cursor (may be empty) */
};

/*
 * Completes the word of line that ends at cursor, with command names from commands (first
 * word) or the tree's paths (later words; relative ones from cwd, none when it is NULL). Fills out; when list is not NULL and there are
 * several matches, also writes them to list, sorted, in columns, each row ending "\n" (at
 * most COMPLETE_LIST_MAX; beyond that one line saying how many there are).
 */
void complete_word(const char *line, size_t cursor, complete_commands commands,
                   struct fs_node *cwd, struct completion *out, struct fs_writer *list);

#endif
