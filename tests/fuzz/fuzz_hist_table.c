/* fuzz_hist_table.c - arbitrary hist specs (what follows "hist:" in a trigger): compiling
 * never reads outside the text; a refusal is -EINVAL with a message and a position inside
 * it; an accepted table stays within its bytes while records of every length up to a full
 * one (each its own exact-size allocation, so ASan sees an overrun) are counted, and prints
 * with the Totals block last. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/errno.h"
#include "trace/events/hist_table.h"

static const struct trace_event_field fields[] = {
    { "long", "id", 8, 4, 0, true, TRACE_FIELD_INT },
    { "u64", "big", 12, 8, 0, false, TRACE_FIELD_INT },
    { "char", "comm", 20, 16, 16, false, TRACE_FIELD_CHARS },
    { "char", "name", 36, 4, 0, false, TRACE_FIELD_DATA_LOC },
    { "unsigned long", "args", 40, 8, 2, false, TRACE_FIELD_ARRAY },
};
#define NFIELDS (unsigned)(sizeof fields / sizeof fields[0])
#define FULL 48

static char last[64];
static void keep_tail(struct fs_writer *w, const char *text, size_t len)
{
    (void)w;
    if (len >= sizeof last) {
        text += len - (sizeof last - 1);
        len = sizeof last - 1;
    }
    size_t have = strlen(last);
    if (have + len >= sizeof last) {
        memmove(last, last + (have + len - (sizeof last - 1)), sizeof last - 1 - len);
        have = sizeof last - 1 - len;
    }
    memcpy(last + have, text, len);
    last[have + len] = '\0';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct hist_table *t = NULL;
    struct hist_error err = { 0 };
    int r = hist_create((const char *)data, size, fields, NFIELDS, 1u << 20, &t, &err);
    if (r != 0) {
        if ((r != -EINVAL && r != -ENOMEM) || (r == -EINVAL && (!err.message || err.pos > size)))
            abort();
        return 0;
    }
    for (uint32_t len = 0; len <= FULL; len++) {
        uint8_t *rec = malloc(len ? len : 1);
        for (uint32_t i = 0; i < len; i++)
            rec[i] = size ? data[(i * 7 + len) % size] : (uint8_t)i;
        hist_add(t, rec, len, "fuzz");
        free(rec);
    }
    struct fs_writer w = { .emit = keep_tail };
    last[0] = '\0';
    hist_print_spec(&w, t);
    last[0] = '\0';
    if (hist_print_entries(&w, t, NULL) != 0 || !strstr(last, "Dropped: "))
        abort();
    hist_free(t);
    return 0;
}
