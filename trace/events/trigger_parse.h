/*
 * trigger_parse.h - one line written to events/SYSTEM/NAME/trigger, taken apart as Linux's
 * trace_events_trigger.c reads it:
 *
 *   [!]COMMAND[:COUNT] [if FILTER]                    traceon, traceoff, snapshot, stacktrace
 *   [!]enable_event:SYSTEM:EVENT[:COUNT] [if FILTER]  also disable_event
 *   [!]hist:SPEC [if FILTER]                          SPEC: hist_table.h
 *
 * The command ends at the first ':', blank or tab. COUNT is a number (decimal, 0x hex or 0
 * octal, as kstrtoul base 0) of times the trigger may still fire; without it the trigger is
 * unlimited. What follows the parameters after a blank must be "if" and a filter, which the
 * caller compiles against the event's fields (event_filter.h). A leading '!' removes the
 * trigger of that command instead (its count and filter are then ignored, as on Linux).
 *
 * Bounds: TRIGGER_MAX_TEXT bytes (Linux refuses a write of a page or more).
 *
 * Portable: tests/unit/test_trigger_parse.c, tests/fuzz/fuzz_trigger_parse.c.
 */
#ifndef TRACE_EVENTS_TRIGGER_PARSE_H
#define TRACE_EVENTS_TRIGGER_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TRIGGER_MAX_TEXT 4095
#define TRIGGER_UNLIMITED (-1)
#define TRIGGER_MAX_COUNT 0xfffffffeu /* an unsigned long on i386 Linux, less its -1 */

/* The commands, in the order `trigger` lists them when an event has none. */
enum trigger_kind {
    TRIGGER_TRACEON,
    TRIGGER_TRACEOFF,
    TRIGGER_SNAPSHOT,
    TRIGGER_STACKTRACE,
    TRIGGER_ENABLE_EVENT,
    TRIGGER_DISABLE_EVENT,
    TRIGGER_HIST,
    TRIGGER_KINDS
};

/* The command's name as written ("traceon", "enable_event", ...). */
const char *trigger_kind_name(enum trigger_kind kind);

/* Linux's trigger_type: commands of one type exclude each other on an event (traceon and
 * traceoff share one, as do enable_event and disable_event on one target). */
unsigned trigger_kind_type(enum trigger_kind kind);

/* True for Linux's post triggers (EVENT_CMD_FL_POST_TRIGGER): they run after the event
 * that fired them is in the buffer, so it is there before tracing stops or the stack. */
bool trigger_kind_is_post(enum trigger_kind kind);

/* True for the commands that look at the record (post triggers, hist): an event with one
 * builds its records in a scratch record first (event_commit.c). */
bool trigger_kind_needs_record(enum trigger_kind kind);

/* A parsed line. Pointers are into the text given to trigger_parse. */
struct trigger_spec {
    enum trigger_kind kind;
    bool remove;
    int64_t count;                 /* TRIGGER_UNLIMITED, or 0..TRIGGER_MAX_COUNT */
    const char *system, *event;    /* enable_event/disable_event's target */
    size_t system_len, event_len;
    const char *param;             /* hist's SPEC (after "hist:"), or NULL */
    size_t param_len;
    const char *filter;            /* the text after "if ", or NULL */
    size_t filter_len;
};

/* Why a line was refused: Linux-style message and the byte of the text it points at. */
struct trigger_error {
    const char *message;
    size_t pos;
};

/* Parses text[0..len) (blanks around it ignored). Returns 0 and *out, or -EINVAL with *err. */
int trigger_parse(const char *text, size_t len, struct trigger_spec *out,
                  struct trigger_error *err);

#endif
