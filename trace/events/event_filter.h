/*
 * event_filter.h - the filter language of events/SYSTEM/NAME/filter (Linux's
 * trace_events_filter.c grammar), compiled at write time into a small program that is then
 * evaluated against each record before it is committed.
 *
 *   filter    := or
 *   or        := and { "||" and }
 *   and       := unary { "&&" unary }
 *   unary     := "!" unary | "(" or ")" | FIELD OP VALUE
 *
 * Integer fields take ==, !=, <, <=, >, >= and & (true when any bit is shared) against a
 * number in decimal, hex (0x) or octal (0), negative only for signed fields. String fields
 * (char[N], __data_loc char[]) take ==, != and ~ (a glob: *, ?, [set], [!set], [a-z], \x)
 * against a quoted ("..." or '...') or unquoted word. FIELD is an event field or one of the
 * common_* fields. && binds tighter than ||, as in C.
 *
 * Bounds (a write that exceeds them fails with a message, as any other error):
 * EVENT_FILTER_MAX_TEXT bytes of text, EVENT_FILTER_MAX_DEPTH nested "(" or "!",
 * EVENT_FILTER_MAX_PREDS predicates, EVENT_FILTER_MAX_STRING bytes in a string value.
 *
 * A compiled filter refers to the fields it was compiled against: it must not outlive them
 * (an event's fields live as long as the event). Evaluating reads the record only through
 * trace_field_read_int/_string, so never outside it.
 *
 * Portable: tests/unit/test_event_filter.c, tests/fuzz/fuzz_event_filter.c.
 */
#ifndef TRACE_EVENTS_EVENT_FILTER_H
#define TRACE_EVENTS_EVENT_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/fs/fs_tree.h"
#include "trace/events/event_fields.h"

#define EVENT_FILTER_MAX_TEXT 4096
#define EVENT_FILTER_MAX_DEPTH 32
#define EVENT_FILTER_MAX_PREDS 64
#define EVENT_FILTER_MAX_STRING 255

struct event_filter;

/* Why a filter was refused: Linux's message and the byte of the text it points at. */
struct event_filter_error {
    const char *message;
    size_t pos;
};

/* Compiles text[0..len) (white space around it ignored) against the common fields and
 * fields[0..nr_fields). Returns 0 and *out (free with event_filter_free), -EINVAL with *err
 * filled in, or -ENOMEM. */
int event_filter_compile(const char *text, size_t len, const struct trace_event_field *fields,
                         unsigned nr_fields, struct event_filter **out,
                         struct event_filter_error *err);

/* True when the record of length bytes passes the filter. A field the record is too short
 * to hold makes its predicate false. */
bool event_filter_match(const struct event_filter *filter, const void *record, uint32_t length);

/* The filter's text as written, without the white space around it (what `filter` shows). */
const char *event_filter_text(const struct event_filter *filter);

void event_filter_free(struct event_filter *filter);

/* The body of an error_log entry for a refused filter, after the "[timestamp] " Linux's
 * tracing_log_err puts first: "event filter parse error: error: MESSAGE\n  Command: TEXT\n"
 * and a line with a caret under the offending byte. Bytes of the text that are not
 * printable show as '.', so the entry stays three lines. */
void event_filter_print_error(struct fs_writer *out, const char *text, size_t len,
                              const struct event_filter_error *err);

#endif
