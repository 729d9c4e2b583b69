/*
 * user_events_parse.h - the text side of user_events: what a command such as
 * "test u32 count;char[16] who" means, which payloads an event accepts, and how its
 * records, its `format` file and its dynamic_events line read.
 *
 * A command is `name[:FLAG1[,FLAG2...]] [Field1[;Field2...]]`, a field `type name` or
 * `struct T name SIZE`. Types are Linux's: s8 u8 s16 u16 s32 u32 s64 u64, char short int
 * (and `unsigned` of each), char[N] and unsigned char[N] (N at most 1024, in C notation:
 * 20, 0x14, 024), `__data_loc T` and `__rel_loc T` (a 32-bit (size << 16 | offset) word
 * locating variable-length data), `struct T name SIZE`. `long` is refused: its size differs
 * between programs. Flags after the name are accepted and ignored, as Linux 6.1 does.
 * The lifetime rule of each ABI's events is here too (ue_lifetime_of), to be tested.
 *
 * Fields sit one after another in the record, the first at offset 8 (after struct
 * trace_entry), as Linux lays them out; a write must carry at least the payload the fields
 * describe. Portable: tests/unit/test_user_events_parse.c, tests/fuzz/fuzz_user_events.c.
 */
#ifndef TRACE_EVENTS_USER_EVENTS_PARSE_H
#define TRACE_EVENTS_USER_EVENTS_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/fs/fs_tree.h"
#include "trace/events/event_fields.h"

#define UE_NAME_MAX 64      /* event name, NUL included: a directory under events/user_events */
#define UE_HEADER_SIZE 8    /* struct trace_entry: the first field's offset */
#define UE_ARRAY_MAX 1024   /* char[N]: largest N (Linux's MAX_FIELD_ARRAY_SIZE) */
#define UE_RECORD_MAX 0xffff /* largest record (header included) fields may describe */
#define UE_COMMAND_MAX 4096 /* longest command text: a dynamic_events line */

enum ue_field_kind {
    UE_FIELD_INT,        /* s8 .. u64, char, short, int and their unsigned forms */
    UE_FIELD_CHAR_ARRAY, /* char[N], unsigned char[N]: N bytes in place, a string */
    UE_FIELD_DATA_LOC,   /* __data_loc T: data at a record offset */
    UE_FIELD_REL_LOC,    /* __rel_loc T: data at an offset from the end of this field */
    UE_FIELD_STRUCT,     /* struct T name SIZE: SIZE opaque bytes */
};

struct ue_field {
    const char *type;    /* as written: "u32", "unsigned int", "char[20]", "__data_loc char[]" */
    const char *name;
    uint16_t offset;     /* in the record (UE_HEADER_SIZE for the first field) */
    uint16_t size;
    uint8_t kind;        /* enum ue_field_kind */
    bool is_signed;      /* Linux's rule for the format file: the type does not start with 'u' */
    bool is_string;      /* char arrays, and __data_loc/__rel_loc of a type naming char */
};

struct ue_desc {
    char name[UE_NAME_MAX];
    uint32_t nfields;
    uint32_t nlocs;      /* __data_loc and __rel_loc fields: what ue_validate checks */
    uint32_t min_size;   /* payload bytes (header excluded) a write must carry */
    struct ue_field *fields;
};

/* Parses a command of len bytes (no NUL needed). Returns 0 with *out set (free it with
 * ue_desc_free), -EINVAL for anything malformed (or len >= UE_COMMAND_MAX), or -ENOMEM. */
int ue_parse(const char *cmd, size_t len, struct ue_desc **out);
void ue_desc_free(struct ue_desc *d);

/* True when both describe the same fields (types, names, sizes, in order). Registering a
 * name again with other fields is refused (Linux's EADDRINUSE); with the same ones it
 * returns the existing event. */
bool ue_same_fields(const struct ue_desc *a, const struct ue_desc *b);

/* Checks a payload (what follows the write index) of len bytes: 0, -EINVAL when shorter
 * than min_size, -EFAULT when a __data_loc/__rel_loc points outside the payload or a string
 * it locates does not end with NUL (Linux's user_event_validate). */
int ue_validate(const struct ue_desc *d, const void *payload, uint32_t len);

/* A record's line after the context columns: "test: count=5 who=bob" (each field as the
 * event's print fmt shows it; byte blobs as hex bytes "0a,ff"). record is len bytes,
 * header included; fields reaching past it print "<OVERFLOW>". No newline. */
void ue_print_record(struct fs_writer *out, const struct ue_desc *d, const void *record,
                     uint32_t len);

/* The event's part of its `format` file: one "\tfield:..." line per field, a blank line and
 * "print fmt: ...", as Linux's user_events shows them. */
void ue_print_format(struct fs_writer *out, const struct ue_desc *d);

/* issue 18, event filters: the event's fields as event_fields.h describes them, into
 * out[0..d->nfields), so that filters can read them and the core prints their format lines
 * exactly as ue_print_format would. False when a field has no such description (a
 * __rel_loc, a struct, an array of integers, a __data_loc of anything but char[]): the
 * event then keeps printing its own lines, and filters see only the common fields. The
 * types point into d or at constants: out lives no longer than d. */
bool ue_describe_fields(const struct ue_desc *d, struct trace_event_field *out);

/* ue_print_format without the field lines: the blank line and "print fmt: ...", for an
 * event whose fields ue_describe_fields described (the core prints their lines). */
void ue_print_format_tail(struct fs_writer *out, const struct ue_desc *d);

/* The event's dynamic_events line: "u:test u32 count; char[16] who\n". */
void ue_print_command(struct fs_writer *out, const struct ue_desc *d);

/* One line written to dynamic_events. */
enum ue_dyn_op {
    UE_DYN_NOTHING, /* blank or comment */
    UE_DYN_CREATE,  /* u:COMMAND */
    UE_DYN_DELETE,  /* -:[user_events/]NAME [fields]  or  !u:NAME [fields] */
};

struct ue_dyn_cmd {
    enum ue_dyn_op op;
    const char *text;   /* CREATE: the command after "u:"; DELETE: the event name */
    size_t text_len;
    const char *args;   /* DELETE: fields the event must have ("": any) */
    size_t args_len;
    bool other_system;  /* DELETE named a system other than user_events: matches nothing */
};

/* Splits a line (without its newline; a '#' starts a comment). 0, or -EINVAL for a line
 * that is neither a u: command nor a delete. */
int ue_dyn_parse(const char *line, size_t len, struct ue_dyn_cmd *cmd);

/* True when a DELETE command names this event (and its fields, when it gives some). */
bool ue_dyn_matches(const struct ue_dyn_cmd *cmd, const struct ue_desc *d);

/* --- lifetime ----------------------------------------------------------------------------- */

/* How an event came to be: the registration (or dynamic_events line) that created it. */
enum ue_origin {
    UE_FROM_STATUS_REG,   /* DIAG_IOCSREG with the pre-6.4 struct user_reg_status (Linux 6.1) */
    UE_FROM_USER_REG,     /* DIAG_IOCSREG with Linux 6.4's struct user_reg */
    UE_FROM_DYNAMIC,      /* a "u:" line written to dynamic_events */
};

/* How long an event that nothing references (no registering file, enable bit or ftrace
 * enablement) stays. Both ABIs live side by side, so each event keeps its creator's rule. */
enum ue_lifetime {
    UE_TILL_LAST_REF, /* deleted when its last reference goes (Linux 6.6+, no flag) */
    UE_TILL_DELETED,  /* stays until deleted, by anyone who may open user_events_data (6.1) */
    UE_PERSISTENT,    /* stays until deleted, and only root may delete it (6.6's PERSIST) */
};

/* The lifetime an event created this way gets: the pre-6.4 structure's events stay until
 * deleted, as 6.1 kept every event; struct user_reg's go with their last reference unless
 * flags has USER_EVENT_REG_PERSIST (bit 0); dynamic_events' persist, as 6.6 makes them. */
enum ue_lifetime ue_lifetime_of(enum ue_origin origin, uint32_t flags);

/* Whether an event is deleted as soon as nothing references it. */
bool ue_goes_unused(enum ue_lifetime lifetime);

/* Whether deleting it (DIAG_IOCSDEL) needs root: Linux 6.6 asks CAP_PERFMON for a
 * persistent event; 6.1 asked nothing. */
bool ue_delete_needs_root(enum ue_lifetime lifetime);

#endif
