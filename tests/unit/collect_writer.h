/* collect_writer.h - an fs_writer that gathers what it is sent into a string, for tests of
 * code that prints through one. */
#ifndef TESTS_UNIT_COLLECT_WRITER_H
#define TESTS_UNIT_COLLECT_WRITER_H

#include <string.h>

#include "kernel/fs/fs_tree.h"

static char collected[8192];
static size_t collected_len;

static void collect(struct fs_writer *w, const char *text, size_t len)
{
    (void)w;
    if (collected_len + len >= sizeof collected)
        len = sizeof collected - 1 - collected_len;
    memcpy(collected + collected_len, text, len);
    collected_len += len;
    collected[collected_len] = '\0';
}

static struct fs_writer collect_writer = { .emit = collect };

/* Empties the collected text. */
static void collect_reset(void)
{
    collected_len = 0;
    collected[0] = '\0';
}

#endif
