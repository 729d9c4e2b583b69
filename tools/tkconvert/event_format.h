/*
 * event_format.h - parses an event's format file (events/SYSTEM/NAME/format, as Linux's
 * tracefs writes it) and reads its fields out of a record:
 *
 *   name: NAME
 *   ID: N
 *   format:
 *   	field:TYPE NAME[N];	offset:O;	size:S;	signed:0|1;
 *   	...
 *   print fmt: "...", ARGS
 *
 * TYPE may be "__data_loc char[]" (a u32: the data's offset in the low 16 bits, its length
 * in the high 16) and NAME may carry an array length, "[N]", or "[]" (the rest of the
 * record). The text is hostile: a line that does not parse, a field named twice or more
 * than TK_FORMAT_MAX_FIELDS fields is an error naming its line number, and reads of a field are checked against the record's length. Portable:
 * tests/unit/test_tk_event_format.c.
 */
#ifndef TOOLS_TKCONVERT_EVENT_FORMAT_H
#define TOOLS_TKCONVERT_EVENT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TK_FORMAT_MAX_FIELDS 1024 /* Linux's events have tens */
#define TK_STRINGIFY_(x) #x
#define TK_STRINGIFY(x) TK_STRINGIFY_(x)

struct tk_field {
    char *type;       /* as written, without the array length: "unsigned long", "char" */
    char *name;       /* without the array length */
    uint32_t offset, size;
    bool is_signed;
    bool is_common;   /* common_type, common_flags, common_preempt_count, common_pid */
    bool is_data_loc; /* __data_loc: the value lies where a u32 says */
    bool is_array;    /* NAME[N] or NAME[] */
    uint32_t array_len; /* N of NAME[N]; 0 for NAME[] (to the end of the record) */
    bool is_string;   /* an array of char: a NUL-terminated string */
};

struct tk_format {
    char *system, *name;
    int id;           /* -1 when the file has no ID line */
    struct tk_field *fields;
    size_t nr_fields;
    char *print_fmt;  /* kept for reference; NULL when absent */
};

/* Parses text[0..len) into f (system copied in). Returns 0, or -1 with a message. */
int tk_format_parse(struct tk_format *f, const char *system, const char *text, size_t len,
                    char *err, size_t errlen);
void tk_format_free(struct tk_format *f);
const struct tk_field *tk_format_field(const struct tk_format *f, const char *name);

/* The bytes of element i of an array field (the field itself for i == 0 of a scalar):
 * an integer of size/array_len bytes, sign-extended when signed. False when it lies
 * outside the record. */
bool tk_field_int(const struct tk_field *f, const uint8_t *rec, uint32_t len, uint32_t i,
                  uint64_t *out);
/* Elements of an array field in this record (array_len, or what [] / __data_loc hold). */
uint32_t tk_field_count(const struct tk_field *f, const uint8_t *rec, uint32_t len);
/* Bytes of the element of an array field (the whole field for a scalar). */
uint32_t tk_field_elem_size(const struct tk_field *f);
/* A string field's text: *s and *n (up to the first NUL, inside the record). False when it
 * lies outside the record. */
bool tk_field_string(const struct tk_field *f, const uint8_t *rec, uint32_t len,
                     const char **s, size_t *n);

#endif
