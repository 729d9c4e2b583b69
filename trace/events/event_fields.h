/*
 * event_fields.h - an event's fields as data: what its `format` file lists and what
 * filters, triggers, hist and kprobes read from its records (Linux's struct ftrace_event_field).
 *
 * An event describes its own fields (after the common ones) in call->fields, an array of
 * call->nr_fields, set before trace_event_register and unchanged while it is registered.
 * Events that still print their format by hand (print_format) leave it NULL: they cannot be
 * filtered until they describe their fields.
 *
 * The common fields (common_type, common_flags, common_preempt_count, common_pid: the layout
 * of struct trace_entry) are trace_common_fields[]; every event has them.
 *
 * Portable: tests/unit/test_event_fields.c.
 */
#ifndef TRACE_EVENTS_EVENT_FIELDS_H
#define TRACE_EVENTS_EVENT_FIELDS_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/fs/fs_tree.h"

enum trace_field_kind {
    TRACE_FIELD_INT,      /* an integer of 1, 2, 4 or 8 bytes */
    TRACE_FIELD_CHARS,    /* char NAME[N]: a string of at most N bytes, NUL-terminated if shorter */
    TRACE_FIELD_DATA_LOC, /* __data_loc char[] NAME: a u32, (length << 16) | offset in the
                             record, locating a string (Linux's __string) */
    TRACE_FIELD_ARRAY,    /* TYPE NAME[N] of integers: listed in format, not compared */
};

struct trace_event_field {
    const char *type;   /* the C type before the name, as format shows it: "pid_t",
                           "unsigned long", "char" (for CHARS and DATA_LOC) */
    const char *name;
    uint16_t offset;    /* from the record's start (the common fields are at 0..7) */
    uint16_t size;      /* bytes in the record: the whole array for CHARS/ARRAY, 4 for DATA_LOC */
    uint16_t array_len; /* N for CHARS and ARRAY; 0 otherwise */
    bool is_signed;
    enum trace_field_kind kind;
};

#define TRACE_COMMON_FIELDS 4
extern const struct trace_event_field trace_common_fields[TRACE_COMMON_FIELDS];

/* One line of a format file for f: "\tfield:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;\n",
 * with "[N]" after the name of an array and "__data_loc TYPE[] NAME" for DATA_LOC, as
 * Linux's f_show prints them. */
void trace_field_print_format(struct fs_writer *out, const struct trace_event_field *f);

/* The field called name among fields[0..n), or NULL. */
const struct trace_event_field *trace_field_find(const struct trace_event_field *fields,
                                                 unsigned n, const char *name);

/* The value of an INT field of a record of length bytes, sign-extended when is_signed.
 * False when the field lies outside the record or is not an INT. */
bool trace_field_read_int(const struct trace_event_field *f, const void *record, uint32_t length,
                          int64_t *value);

/* The string of a CHARS or DATA_LOC field: *text and *len (without a NUL, stopping at the
 * first NUL). False when it lies outside the record or the field is not a string. */
bool trace_field_read_string(const struct trace_event_field *f, const void *record,
                             uint32_t length, const char **text, uint32_t *len);

#endif
