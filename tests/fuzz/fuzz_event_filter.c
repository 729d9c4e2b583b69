/* fuzz_event_filter.c - arbitrary writes to an event's filter file: compiling never reads
 * outside the text; a refusal is -EINVAL with a caret inside the text and a three-line
 * error_log entry; an accepted filter's text compiles again to the same verdicts, and
 * running it on records of every length up to a full one never reads outside them (each
 * record is its own exact-size allocation, so ASan sees any overrun). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/errno.h"
#include "trace/events/event_filter.h"

static const struct trace_event_field fields[] = {
    { "unsigned int", "fd", 8, 4, 0, false, TRACE_FIELD_INT },
    { "long", "ret", 12, 4, 0, true, TRACE_FIELD_INT },
    { "u64", "big", 16, 8, 0, false, TRACE_FIELD_INT },
    { "char", "comm", 24, 16, 16, false, TRACE_FIELD_CHARS },
    { "char", "name", 40, 4, 0, false, TRACE_FIELD_DATA_LOC },
    { "unsigned long", "args", 44, 8, 2, false, TRACE_FIELD_ARRAY },
};
#define NFIELDS (unsigned)(sizeof fields / sizeof fields[0])
#define FULL 64

static unsigned newlines;
static void count(struct fs_writer *w, const char *text, size_t len)
{
    (void)w;
    for (size_t i = 0; i < len; i++)
        newlines += text[i] == '\n';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct event_filter *f = NULL, *again = NULL;
    struct event_filter_error err = { 0 };
    int r = event_filter_compile((const char *)data, size, fields, NFIELDS, &f, &err);
    if (r != 0) {
        if (r != -EINVAL || !err.message || err.pos > size)
            abort();
        struct fs_writer w = { .emit = count };
        newlines = 0;
        event_filter_print_error(&w, (const char *)data, size, &err);
        if (newlines != 3)
            abort();
        return 0;
    }
    const char *text = event_filter_text(f);
    if (event_filter_compile(text, strlen(text), fields, NFIELDS, &again, &err) != 0)
        abort();
    /* Records built from the input's bytes: a full one and every shorter cut. */
    uint8_t full[FULL];
    for (size_t i = 0; i < FULL; i++)
        full[i] = size ? data[(i * 7) % size] : 0;
    uint32_t loc = (uint32_t)(size ? data[0] % 40 : 4) << 16 | (uint32_t)(size > 1 ? data[1] % 70 : 50);
    memcpy(full + 40, &loc, 4);
    for (uint32_t len = 0; len <= FULL; len++) {
        uint8_t *rec = malloc(len ? len : 1);
        memcpy(rec, full, len);
        if (event_filter_match(f, rec, len) != event_filter_match(again, rec, len))
            abort();
        free(rec);
    }
    event_filter_free(f);
    event_filter_free(again);
    return 0;
}
