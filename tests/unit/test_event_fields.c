/* test_event_fields.c - an event's fields as data: format lines as Linux prints them, and
 * reading integers (sign-extended as declared) and strings (char[N], __data_loc) from
 * records, never outside them. */
#include "unit.h"

#include "collect_writer.h"
#include "trace/events/event_fields.h"

static const struct trace_event_field fields[] = {
    { "pid_t", "pid", 8, 4, 0, true, TRACE_FIELD_INT },
    { "char", "comm", 12, 16, 16, false, TRACE_FIELD_CHARS },
    { "unsigned char", "byte", 28, 1, 0, false, TRACE_FIELD_INT },
    { "signed char", "sbyte", 29, 1, 0, true, TRACE_FIELD_INT },
    { "char", "name", 32, 4, 0, false, TRACE_FIELD_DATA_LOC },
    { "unsigned long", "args", 36, 8, 2, false, TRACE_FIELD_ARRAY },
};

TEST(format_lines_as_linux_prints_them)
{
    collect_reset();
    for (unsigned i = 0; i < sizeof fields / sizeof fields[0]; i++)
        trace_field_print_format(&collect_writer, &fields[i]);
    CHECK_EQ_STR(collected,
                 "\tfield:pid_t pid;\toffset:8;\tsize:4;\tsigned:1;\n"
                 "\tfield:char comm[16];\toffset:12;\tsize:16;\tsigned:0;\n"
                 "\tfield:unsigned char byte;\toffset:28;\tsize:1;\tsigned:0;\n"
                 "\tfield:signed char sbyte;\toffset:29;\tsize:1;\tsigned:1;\n"
                 "\tfield:__data_loc char[] name;\toffset:32;\tsize:4;\tsigned:0;\n"
                 "\tfield:unsigned long args[2];\toffset:36;\tsize:8;\tsigned:0;\n");
}

static uint8_t record[48];

static void make_record(void)
{
    memset(record, 0, sizeof record);
    int32_t pid = -7;
    memcpy(record + 8, &pid, 4);
    memcpy(record + 12, "busybox", 7);
    record[28] = 0xff;
    record[29] = 0xff;
    uint32_t loc = (4u << 16) | 44u; /* "edu\0" at 44: 4 bytes with its NUL */
    memcpy(record + 32, &loc, 4);
    memcpy(record + 44, "edu", 4);
}

TEST(integers_read_as_declared)
{
    make_record();
    int64_t v;
    CHECK(trace_field_read_int(trace_field_find(fields, 6, "pid"), record, 48, &v) && v == -7);
    CHECK(trace_field_read_int(&fields[2], record, 48, &v) && v == 255);
    CHECK(trace_field_read_int(&fields[3], record, 48, &v) && v == -1);
    CHECK(!trace_field_read_int(&fields[1], record, 48, &v)); /* a string is no integer */
    CHECK(!trace_field_read_int(&fields[0], record, 11, &v)); /* cut off by the record */
    CHECK(trace_field_find(fields, 6, "nosuch") == NULL);
    CHECK(trace_field_find(trace_common_fields, TRACE_COMMON_FIELDS, "common_pid")->offset == 4);
}

TEST(strings_stop_at_the_nul_and_never_leave_the_record)
{
    make_record();
    const char *s;
    uint32_t n;
    CHECK(trace_field_read_string(&fields[1], record, 48, &s, &n) && n == 7 && memcmp(s, "busybox", 7) == 0);
    CHECK(trace_field_read_string(&fields[4], record, 48, &s, &n) && n == 3 && memcmp(s, "edu", 3) == 0);
    CHECK(!trace_field_read_string(&fields[4], record, 47, &s, &n)); /* its 4 bytes go past 47 */
    uint32_t loc = (0xffffu << 16) | 0xfff0u;
    memcpy(record + 32, &loc, 4);
    CHECK(!trace_field_read_string(&fields[4], record, 48, &s, &n));
    CHECK(!trace_field_read_string(&fields[0], record, 48, &s, &n));
}
