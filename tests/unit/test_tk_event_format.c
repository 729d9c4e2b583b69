/* test_tk_event_format.c - the converter's format-file parser (tools/tkconvert/
 * event_format.c) on the guest's own format files, and its refusals; fields read out of
 * records only inside them. */
#include "unit.h"

#include <stdint.h>

#include "tools/tkconvert/event_format.h"

#define COMMON                                                                               \
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                  \
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                  \
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"          \
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* As the guest serves events/ftrace/mmiotrace_rw/format (trace/events/builtin_formats.c). */
static const char mmiotrace_rw[] =
    "name: mmiotrace_rw\nID: 2\nformat:\n" COMMON
    "\tfield:unsigned char op;\toffset:8;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char width;\toffset:9;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char opcode[3];\toffset:10;\tsize:3;\tsigned:0;\n"
    "\tfield:unsigned int map_id;\toffset:16;\tsize:4;\tsigned:0;\n"
    "\tfield:unsigned long value;\toffset:20;\tsize:4;\tsigned:0;\n"
    "\tfield:unsigned long pc;\toffset:24;\tsize:4;\tsigned:0;\n"
    "\tfield:unsigned long long phys;\toffset:28;\tsize:8;\tsigned:0;\n\n"
    "print fmt: \"%llx %lx %lx %d %x %x\", REC->phys, REC->value, REC->pc, REC->map_id, REC->op, REC->width\n";

static int parse(struct tk_format *f, const char *text, char *err)
{
    return tk_format_parse(f, "ftrace", text, strlen(text), err, 160);
}

TEST(parses_a_guest_format_file)
{
    struct tk_format f;
    char err[160];
    CHECK_EQ_INT(parse(&f, mmiotrace_rw, err), 0);
    CHECK_EQ_STR(f.name, "mmiotrace_rw");
    CHECK_EQ_STR(f.system, "ftrace");
    CHECK_EQ_INT(f.id, 2);
    CHECK_EQ_INT(f.nr_fields, 11);
    CHECK(f.fields[0].is_common && !f.fields[4].is_common);
    const struct tk_field *op = tk_format_field(&f, "opcode");
    CHECK(op && op->is_array && op->array_len == 3 && !op->is_string && op->size == 3);
    CHECK_EQ_STR(op->type, "unsigned char");
    const struct tk_field *pid = tk_format_field(&f, "common_pid");
    CHECK(pid && pid->is_signed && pid->offset == 4);
    CHECK(strncmp(f.print_fmt, "\"%llx %lx", 9) == 0);
    tk_format_free(&f);
}

TEST(strings_data_loc_and_values)
{
    static const char text[] =
        "name: e\nID: 40\nformat:\n" COMMON
        "\tfield:char comm[8];\toffset:8;\tsize:8;\tsigned:1;\n"
        "\tfield:__data_loc char[] msg;\toffset:16;\tsize:4;\tsigned:1;\n"
        "\tfield:const char * buf;\toffset:20;\tsize:4;\tsigned:0;\n"
        "\tfield:long ret;\toffset:24;\tsize:4;\tsigned:1;\n"
        "\tfield:char rest[];\toffset:28;\tsize:0;\tsigned:1;\n";
    struct tk_format f;
    char err[160];
    CHECK_EQ_INT(parse(&f, text, err), 0);
    uint8_t rec[40] = {0};
    memcpy(rec + 8, "sh\0", 3);
    uint32_t loc = 32 | 5u << 16, ptr = 0x8000;
    int32_t ret = -22;
    memcpy(rec + 16, &loc, 4);
    memcpy(rec + 20, &ptr, 4);
    memcpy(rec + 24, &ret, 4);
    memcpy(rec + 28, "ab\0\0", 4);
    memcpy(rec + 32, "hello", 5);
    const char *s;
    size_t n;
    uint64_t v;
    const struct tk_field *comm = tk_format_field(&f, "comm"), *msg = tk_format_field(&f, "msg");
    CHECK(comm->is_string && msg->is_string && msg->is_data_loc);
    CHECK(tk_field_string(comm, rec, sizeof rec, &s, &n) && n == 2 && memcmp(s, "sh", 2) == 0);
    CHECK(tk_field_string(msg, rec, sizeof rec, &s, &n) && n == 5 && memcmp(s, "hello", 5) == 0);
    CHECK(tk_field_string(tk_format_field(&f, "rest"), rec, sizeof rec, &s, &n) && n == 2);
    CHECK(tk_field_int(tk_format_field(&f, "ret"), rec, sizeof rec, 0, &v) && (int64_t)v == -22);
    CHECK(tk_field_int(tk_format_field(&f, "buf"), rec, sizeof rec, 0, &v) && v == 0x8000);
    CHECK_EQ_STR(tk_format_field(&f, "buf")->type, "const char *");
    /* Outside the record: refused, not read. */
    CHECK(!tk_field_int(tk_format_field(&f, "ret"), rec, 26, 0, &v));
    loc = 36 | 10u << 16;
    memcpy(rec + 16, &loc, 4);
    CHECK(!tk_field_string(msg, rec, sizeof rec, &s, &n));
    tk_format_free(&f);
}

TEST(refuses_what_does_not_parse_naming_the_line)
{
    struct tk_format f;
    char err[160];
    CHECK_EQ_INT(parse(&f, "name: x\nID: 1\nformat:\n\tfield:int;\toffset:8;\tsize:4;\n", err), -1);
    CHECK_EQ_STR(err, "line 4: a field line that does not parse");
    CHECK_EQ_INT(parse(&f, "name: x\nID: 99999\n", err), -1);
    CHECK_EQ_STR(err, "line 2: an ID that is not a number from 0 to 65535");
    CHECK_EQ_INT(parse(&f, "name: x\n\tfield:int a;\toffset:8;\tsize:3;\tsigned:1;\n", err), -1);
    CHECK_EQ_INT(parse(&f, "name: x\n\tfield:int a[3];\toffset:8;\tsize:4;\tsigned:1;\n", err), -1);
    /* A fixed array of size 0: elements of 0 bytes, which would divide by zero. */
    CHECK_EQ_INT(parse(&f, "name: x\n\tfield:int a[4];\toffset:8;\tsize:0;\tsigned:1;\n", err), -1);
    CHECK_EQ_STR(err, "line 2: a field line that does not parse");
    CHECK_EQ_INT(parse(&f, "ID: 3\n", err), -1);
    CHECK_EQ_STR(err, "line 2: no name line");
    CHECK_EQ_INT(parse(&f, "name: x\nbogus\n", err), -1);
    CHECK_EQ_INT(tk_format_parse(&f, "s", "name: x\0y", 9, err, sizeof err), -1);
    CHECK_EQ_STR(err, "line 0: a NUL byte in the text");
}
