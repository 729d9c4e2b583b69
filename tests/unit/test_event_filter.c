/* test_event_filter.c - the filter language of events/.../filter: a table of valid filters
 * with records that pass and records that do not, invalid ones with Linux's message and the
 * caret's position, precedence, the bounds, and the error_log entry's layout. */
#include "unit.h"

#include <stdint.h>

#include "collect_writer.h"
#include "kernel/lib/errno.h"
#include "trace/events/event_filter.h"

/* A record like sys_exit/sys_enter plus strings: after the 8 common bytes. */
static const struct trace_event_field fields[] = {
    { "unsigned int", "fd", 8, 4, 0, false, TRACE_FIELD_INT },
    { "long", "ret", 12, 4, 0, true, TRACE_FIELD_INT },
    { "u64", "big", 16, 8, 0, false, TRACE_FIELD_INT },
    { "char", "comm", 24, 16, 16, false, TRACE_FIELD_CHARS },
    { "char", "name", 40, 4, 0, false, TRACE_FIELD_DATA_LOC },
    { "unsigned long", "args", 44, 8, 2, false, TRACE_FIELD_ARRAY },
};
#define NFIELDS (unsigned)(sizeof fields / sizeof fields[0])
#define RECORD_LEN 72

struct values { int pid; uint32_t fd; int32_t ret; uint64_t big; const char *comm, *name; };

static uint8_t record[RECORD_LEN];

static void make(const struct values *v)
{
    memset(record, 0, sizeof record);
    uint16_t type = 40;
    memcpy(record, &type, 2);
    memcpy(record + 4, &v->pid, 4);
    memcpy(record + 8, &v->fd, 4);
    memcpy(record + 12, &v->ret, 4);
    memcpy(record + 16, &v->big, 8);
    strncpy((char *)record + 24, v->comm, 16);
    size_t n = strlen(v->name) + 1;
    uint32_t loc = ((uint32_t)n << 16) | 52u;
    memcpy(record + 40, &loc, 4);
    memcpy(record + 52, v->name, n);
}

static const struct values A = { 7, 1, -2, 0x100000000ull, "bash", "glib" };
static const struct values B = { 9, 2, 40, 5, "busybox", "edu" };

/* The filter compiled and run against A and B: 1 per record that passes (bit 0 A, bit 1 B),
 * or -1 when it does not compile. */
static int run(const char *text)
{
    struct event_filter *f;
    struct event_filter_error err;
    if (event_filter_compile(text, strlen(text), fields, NFIELDS, &f, &err) != 0)
        return -1;
    int r = 0;
    make(&A);
    r |= event_filter_match(f, record, RECORD_LEN) ? 1 : 0;
    make(&B);
    r |= event_filter_match(f, record, RECORD_LEN) ? 2 : 0;
    event_filter_free(f);
    return r;
}

TEST(valid_filters_keep_exactly_their_records)
{
    static const struct { const char *text; int want; } table[] = {
        { "fd == 1", 1 },
        { "fd==2", 2 },
        { "fd != 1", 2 },
        { "fd < 2", 1 },
        { "fd <= 2", 3 },
        { "fd > 1", 2 },
        { "fd >= 1", 3 },
        { "fd & 2", 2 },
        { "fd & 0x3", 3 },
        { "fd == 01", 1 },
        { "ret < 0", 1 },
        { "ret == -2", 1 },
        { "ret > -3", 3 },
        { "ret >= 0x28", 2 },
        { "big > 0xffffffff", 1 },
        { "big == 4294967296", 1 },
        { "common_pid == 9", 2 },
        { "common_type == 40", 3 },
        { "comm == \"bash\"", 1 },
        { "comm == 'busybox'", 2 },
        { "comm == bash", 1 },
        { "comm != bash", 2 },
        { "comm ~ \"b*\"", 3 },
        { "comm ~ \"*box\"", 2 },
        { "comm ~ \"*s*\"", 3 },
        { "comm ~ \"ba?h\"", 1 },
        { "comm ~ \"[a-b]ash\"", 1 },
        { "comm ~ \"[!b]*\"", 0 },
        { "comm ~ \"bas\"", 0 },
        { "name ~ \"gl*\"", 1 },
        { "name == edu", 2 },
        { "name ~ \"e?u\"", 2 },
        { "fd == 1 && comm == bash", 1 },
        { "fd == 1 && comm == busybox", 0 },
        { "fd == 1 || comm == busybox", 3 },
        { "!(fd == 1)", 2 },
        { "!fd == 1", 2 },
        { "!!(fd == 1)", 1 },
        { "((fd == 1))", 1 },
        { "  fd == 2\n", 2 },
    };
    for (unsigned i = 0; i < sizeof table / sizeof table[0]; i++) {
        int got = run(table[i].text);
        if (got != table[i].want) {
            char msg[160];
            snprintf(msg, sizeof msg, "\"%s\": %d, expected %d", table[i].text, got, table[i].want);
            unit_fail(__FILE__, __LINE__, msg);
        }
    }
}

TEST(and_binds_tighter_than_or)
{
    /* Read as fd == 2 || (fd == 1 && ret == 0): A fails its AND, B passes the OR. */
    CHECK_EQ_INT(run("fd == 2 || fd == 1 && ret == 0"), 2);
    CHECK_EQ_INT(run("fd == 1 && ret == 0 || fd == 2"), 2);
    /* Parentheses override: (fd == 2 || fd == 1) && ret == 0 keeps none. */
    CHECK_EQ_INT(run("(fd == 2 || fd == 1) && ret == 0"), 0);
    CHECK_EQ_INT(run("!(fd == 2 || fd == 1) || ret < 0"), 1);
    CHECK_EQ_INT(run("fd == 9 || fd == 8 || fd == 2"), 2);
    CHECK_EQ_INT(run("fd >= 1 && fd <= 2 && comm ~ \"b*\" && !(ret == 40)"), 1);
}

/* The error's message and caret position for text. */
static void check_error(const char *text, const char *message, size_t pos)
{
    struct event_filter *f = NULL;
    struct event_filter_error err = { 0 };
    int r = event_filter_compile(text, strlen(text), fields, NFIELDS, &f, &err);
    char msg[300];
    if (r != -EINVAL || !err.message || strcmp(err.message, message) != 0 || err.pos != pos) {
        snprintf(msg, sizeof msg, "\"%s\": %d \"%s\" at %zu, expected \"%s\" at %zu", text, r,
                 err.message ? err.message : "", err.pos, message, pos);
        unit_fail(__FILE__, __LINE__, msg);
    }
}

TEST(invalid_filters_say_why_and_where)
{
    check_error("nosuch == 1", "Field not found", 0);
    check_error("fd == 1 && bogus == 2", "Field not found", 11);
    check_error("fd = 1", "Invalid operator", 3);
    check_error("fd ~ 1", "Illegal operation for field type", 3);
    check_error("comm < 3", "Illegal operation for field type", 5);
    check_error("comm & 3", "Illegal operation for field type", 5);
    check_error("args == 1", "Illegal operation for field type", 5);
    check_error("fd == \"1\"", "Expecting numeric field", 6);
    check_error("fd == one", "Invalid value (did you forget quotes)?", 6);
    check_error("fd == -1", "Illegal integer value", 6);
    check_error("fd == 12ab", "Illegal integer value", 6);
    check_error("fd == 09", "Illegal integer value", 6);
    check_error("big == 0x10000000000000000", "Illegal integer value", 7);
    check_error("comm == \"bash", "Missing matching quote", 8);
    check_error("(fd == 1", "Too many '('", 0);
    check_error("fd == 1)", "Too few '('", 7);
    check_error(")", "Too few '('", 0);
    check_error("fd == 1 fd == 2", "Meaningless filter expression", 8);
    check_error("fd == 1 &&", "Meaningless filter expression", 10);
    check_error("", "Meaningless filter expression", 0);
    check_error("fd ==", "Meaningless filter expression", 5);
    check_error("fd == 1 \x01", "Meaningless filter expression", 8);
}

TEST(bounds_are_errors_not_damage)
{
    static char text[EVENT_FILTER_MAX_TEXT * 2];
    /* Nesting one deeper than allowed fails at the '(' too many; the bound itself passes. */
    size_t n = 0;
    for (int i = 0; i < EVENT_FILTER_MAX_DEPTH; i++)
        text[n++] = '(';
    n += (size_t)sprintf(text + n, "fd == 1");
    for (int i = 0; i < EVENT_FILTER_MAX_DEPTH; i++)
        text[n++] = ')';
    text[n] = '\0';
    CHECK_EQ_INT(run(text), 1);
    memmove(text + 1, text, n + 1);
    text[0] = '(';
    strcat(text, ")");
    check_error(text, "Too many '('", EVENT_FILTER_MAX_DEPTH);
    /* As many predicates as allowed pass; one more is too many terms. */
    n = 0;
    for (int i = 0; i < EVENT_FILTER_MAX_PREDS; i++)
        n += (size_t)sprintf(text + n, "%sfd == %d", i ? " || " : "", i);
    CHECK_EQ_INT(run(text), 3);
    sprintf(text + n, " || fd == 99");
    check_error(text, "Too many terms in predicate expression", n + 4);
    /* Many NOTs on few predicates stay inside the program's bound. */
    n = 0;
    for (int p = 0; p < 20; p++) {
        n += (size_t)sprintf(text + n, "%s", p ? " && " : "");
        for (int i = 0; i < EVENT_FILTER_MAX_DEPTH; i++)
            text[n++] = '!';
        n += (size_t)sprintf(text + n, "fd != 7");
    }
    struct event_filter *f;
    struct event_filter_error err;
    CHECK_EQ_INT(event_filter_compile(text, n, fields, NFIELDS, &f, &err), -EINVAL);
    CHECK_EQ_STR(err.message, "Too many terms in predicate expression");
    /* Too long a text, too long a string. */
    memset(text, ' ', sizeof text);
    memcpy(text, "fd == 1", 7);
    memset(text + 100, 'x', EVENT_FILTER_MAX_TEXT);
    CHECK_EQ_INT(event_filter_compile(text, sizeof text, fields, NFIELDS, &f, &err), -EINVAL);
    CHECK_EQ_STR(err.message, "Operand too long");
    n = (size_t)sprintf(text, "comm == ");
    memset(text + n, 'a', EVENT_FILTER_MAX_STRING + 1);
    text[n + EVENT_FILTER_MAX_STRING + 1] = '\0';
    check_error(text, "Operand too long", 8);
    text[n + EVENT_FILTER_MAX_STRING] = '\0';
    CHECK_EQ_INT(run(text), 0);
}

TEST(a_short_record_fails_the_predicate_instead_of_reading_past_it)
{
    struct event_filter *f;
    struct event_filter_error err;
    CHECK_EQ_INT(event_filter_compile("fd == 1 || !(name == glib)", 26, fields, NFIELDS, &f, &err), 0);
    make(&A);
    CHECK(event_filter_match(f, record, RECORD_LEN));
    CHECK(event_filter_match(f, record, 10)); /* fd and name cut off: false || !false */
    uint32_t bad_loc = (200u << 16) | 60u;             /* string beyond the record */
    memcpy(record + 40, &bad_loc, 4);
    uint32_t two = 2;
    memcpy(record + 8, &two, 4);
    CHECK(event_filter_match(f, record, RECORD_LEN)); /* name unreadable: == is false */
    event_filter_free(f);
}

TEST(text_is_kept_as_written_without_the_blanks_around_it)
{
    struct event_filter *f;
    struct event_filter_error err;
    const char *t = "  comm ~ \"gl*\" && fd != 0\n";
    CHECK_EQ_INT(event_filter_compile(t, strlen(t), fields, NFIELDS, &f, &err), 0);
    CHECK_EQ_STR(event_filter_text(f), "comm ~ \"gl*\" && fd != 0");
    event_filter_free(f);
}

TEST(error_log_entry_has_the_caret_under_the_offending_byte)
{
    const char *t = " fd == 1 && bogus == 2\n";
    struct event_filter *f;
    struct event_filter_error err;
    CHECK_EQ_INT(event_filter_compile(t, strlen(t), fields, NFIELDS, &f, &err), -EINVAL);
    collect_reset();
    event_filter_print_error(&collect_writer, t, strlen(t), &err);
    CHECK_EQ_STR(collected, "event filter parse error: error: Field not found\n"
                            "  Command: fd == 1 && bogus == 2\n"
                            "                      ^\n");
    const char junk[] = "fd \x80= 1";
    CHECK_EQ_INT(event_filter_compile(junk, 7, fields, NFIELDS, &f, &err), -EINVAL);
    collect_reset();
    event_filter_print_error(&collect_writer, junk, 7, &err);
    CHECK_EQ_STR(collected, "event filter parse error: error: Invalid operator\n"
                            "  Command: fd .= 1\n"
                            "              ^\n");
}
