/* test_user_events_parse.c - user_events commands: every type, every refusal with its
 * errno, record offsets and sizes, payload checks, and the three texts (record line,
 * format file, dynamic_events line). */
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>

#include "collect_writer.h"
#include "kernel/lib/errno.h"
#include "trace/events/user_events_parse.h"

/* Parses a C string; returns the errno (0) and the description through *out (or NULL). */
static int parse(const char *cmd, struct ue_desc **out)
{
    *out = NULL;
    return ue_parse(cmd, strlen(cmd), out);
}

/* The errno of parsing cmd, freeing any description. */
static int parse_err(const char *cmd)
{
    struct ue_desc *d;
    int err = parse(cmd, &d);
    if (d)
        ue_desc_free(d);
    return err;
}

/* The single field of "e FIELD": its size (or -errno); *f gets the field, its type and name
 * pointing at copies that live until the next call. */
static int one_field(const char *field, struct ue_field *f)
{
    static char type[64], name[64];
    char cmd[128];
    snprintf(cmd, sizeof cmd, "e %s", field);
    struct ue_desc *d;
    int err = parse(cmd, &d);
    if (err)
        return err;
    int size = -1;
    if (d->nfields == 1) {
        *f = d->fields[0];
        snprintf(type, sizeof type, "%s", f->type);
        snprintf(name, sizeof name, "%s", f->name);
        f->type = type;
        f->name = name;
        size = f->size;
    }
    ue_desc_free(d);
    return size;
}

TEST(name_only)
{
    struct ue_desc *d;
    CHECK_EQ_INT(parse("test", &d), 0);
    CHECK_EQ_STR(d->name, "test");
    CHECK_EQ_INT(d->nfields, 0);
    CHECK_EQ_INT(d->min_size, 0);
    ue_desc_free(d);
    CHECK_EQ_INT(parse("test ", &d), 0); /* empty field list */
    CHECK_EQ_INT(d->nfields, 0);
    ue_desc_free(d);
}

TEST(every_integer_type)
{
    static const struct {
        const char *type;
        int size;
        bool is_signed;
    } cases[] = {
        { "s64", 8, true },   { "u64", 8, false },  { "s32", 4, true },
        { "u32", 4, false },  { "int", 4, true },   { "unsigned int", 4, false },
        { "s16", 2, true },   { "u16", 2, false },  { "short", 2, true },
        { "unsigned short", 2, false }, { "s8", 1, true }, { "u8", 1, false },
        { "char", 1, true },  { "unsigned char", 1, false },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char field[64];
        snprintf(field, sizeof field, "%s x", cases[i].type);
        struct ue_field f;
        CHECK_EQ_INT(one_field(field, &f), cases[i].size);
        CHECK_EQ_INT(f.kind, UE_FIELD_INT);
        CHECK_EQ_INT(f.is_signed, cases[i].is_signed);
        CHECK_EQ_STR(f.type, cases[i].type);
        CHECK_EQ_STR(f.name, "x");
        CHECK_EQ_INT(f.offset, 8);
        CHECK(!f.is_string);
    }
}

TEST(char_arrays)
{
    struct ue_field f;
    CHECK_EQ_INT(one_field("char[20] msg", &f), 20);
    CHECK_EQ_INT(f.kind, UE_FIELD_CHAR_ARRAY);
    CHECK(f.is_string && f.is_signed);
    CHECK_EQ_INT(one_field("unsigned char[20] msg", &f), 20);
    CHECK(!f.is_signed);
    CHECK_EQ_INT(one_field("char[0x14] msg", &f), 20); /* C notation, as kstrtouint base 0 */
    CHECK_EQ_INT(one_field("char[0X14] msg", &f), 20);
    CHECK_EQ_INT(one_field("char[024] msg", &f), 20);
    CHECK_EQ_INT(one_field("char[+20] msg", &f), 20);
    CHECK_EQ_INT(one_field("char[1] msg", &f), 1);
    CHECK_EQ_INT(one_field("char[1024] msg", &f), 1024);
    CHECK_EQ_INT(one_field("char[1025] msg", &f), -EINVAL);
    CHECK_EQ_INT(one_field("char[9999] msg", &f), -EINVAL);
    CHECK_EQ_INT(one_field("char[0] msg", &f), -EINVAL);
    CHECK_EQ_INT(one_field("char[] msg", &f), -EINVAL);
    CHECK_EQ_INT(one_field("char[aa] msg", &f), -EINVAL);
    CHECK_EQ_INT(one_field("char[0x] msg", &f), -EINVAL);
    CHECK_EQ_INT(one_field("char[08] msg", &f), -EINVAL);   /* octal */
    CHECK_EQ_INT(one_field("char[-1] msg", &f), -EINVAL);
    CHECK_EQ_INT(one_field("char[20 msg", &f), -EINVAL);
    CHECK_EQ_INT(one_field("char[20]x msg", &f), -EINVAL);
    CHECK_EQ_INT(one_field("char[20]] msg", &f), -EINVAL);
    /* Linux reads at most 7 characters after the bracket. */
    CHECK_EQ_INT(one_field("char[0x00014] msg", &f), -EINVAL);
    CHECK_EQ_INT(one_field("char[0x0014] msg", &f), 20);
    CHECK_EQ_INT(one_field("char[0x0000000000001] msg", &f), -EINVAL);
    CHECK_EQ_INT(one_field("u8[4] msg", &f), -EINVAL);
}

TEST(dynamic_locations)
{
    struct ue_field f;
    CHECK_EQ_INT(one_field("__data_loc char[] name", &f), 4);
    CHECK_EQ_INT(f.kind, UE_FIELD_DATA_LOC);
    CHECK_EQ_STR(f.type, "__data_loc char[]");
    CHECK(f.is_string && f.is_signed);
    CHECK_EQ_INT(one_field("__data_loc unsigned char[] name", &f), 4);
    CHECK_EQ_STR(f.type, "__data_loc unsigned char[]");
    CHECK(f.is_string);
    CHECK_EQ_INT(one_field("__rel_loc char[] name", &f), 4);
    CHECK_EQ_INT(f.kind, UE_FIELD_REL_LOC);
    CHECK_EQ_INT(one_field("__rel_loc unsigned char[] name", &f), 4);
    CHECK_EQ_INT(one_field("__data_loc u8[] bytes", &f), 4);
    CHECK(!f.is_string);
    CHECK_EQ_INT(one_field("__data_loc  name", &f), -EINVAL); /* no type after __data_loc */
    CHECK_EQ_INT(one_field("__data_loc name", &f), -EINVAL);  /* no field name */
    CHECK_EQ_INT(one_field("__rel_loc char[]", &f), -EINVAL);
    CHECK_EQ_INT(one_field("__data_loc char[] name 4", &f), -EINVAL);
}

TEST(structs)
{
    struct ue_field f;
    CHECK_EQ_INT(one_field("struct mytype myname 20", &f), 20);
    CHECK_EQ_INT(f.kind, UE_FIELD_STRUCT);
    CHECK_EQ_STR(f.type, "struct mytype");
    CHECK_EQ_STR(f.name, "myname");
    CHECK(f.is_signed && !f.is_string); /* Linux: the type does not start with 'u' */
    CHECK_EQ_INT(one_field("struct mytype myname +20", &f), 20);
    CHECK_EQ_INT(one_field("struct mytype myname", &f), -EINVAL);    /* size missing */
    CHECK_EQ_INT(one_field("struct mytype myname 0", &f), -EINVAL);
    CHECK_EQ_INT(one_field("struct mytype myname 0x14", &f), -EINVAL); /* decimal only */
    CHECK_EQ_INT(one_field("struct mytype myname -1", &f), -EINVAL);
    CHECK_EQ_INT(one_field("struct mytype myname 20 5", &f), -EINVAL);
    CHECK_EQ_INT(one_field("struct mytype myname 20 ", &f), -EINVAL);
    CHECK_EQ_INT(one_field("struct mytype myname 65528", &f), -EINVAL); /* record too big */
    CHECK_EQ_INT(one_field("struct mytype myname 65527", &f), 65527);
    CHECK_EQ_INT(one_field("struct mytype myname 99999999999", &f), -EINVAL);
    CHECK_EQ_INT(one_field("struct  myname 20", &f), -EINVAL);
    CHECK_EQ_INT(one_field("char x 20", &f), -EINVAL); /* only a struct takes a size */
}

TEST(refused_types_and_shapes)
{
    struct ue_field f;
    CHECK_EQ_INT(one_field("long x", &f), -EINVAL);
    CHECK_EQ_INT(one_field("unsigned long x", &f), -EINVAL);
    CHECK_EQ_INT(one_field("U32 x", &f), -EINVAL);
    CHECK_EQ_INT(one_field("u128 x", &f), -EINVAL);
    CHECK_EQ_INT(one_field("unsigned x", &f), -EINVAL);
    CHECK_EQ_INT(one_field("unsigned  int x", &f), -EINVAL);
    CHECK_EQ_INT(one_field("u32", &f), -EINVAL);      /* no name */
    CHECK_EQ_INT(one_field("u32 ", &f), -EINVAL);     /* empty name */
    CHECK_EQ_INT(one_field("u32  x", &f), -EINVAL);   /* two spaces: an empty name, then x */
    CHECK_EQ_INT(one_field("u32 x y", &f), -EINVAL);
    CHECK_EQ_INT(one_field("u32\tx", &f), -EINVAL);
    CHECK_EQ_INT(one_field("u32 x\t", &f), -EINVAL);
    CHECK_EQ_INT(one_field("u32 x\x7f", &f), -EINVAL);
}

TEST(offsets_sizes_and_min_size)
{
    struct ue_desc *d;
    CHECK_EQ_INT(parse("ev u8 a; u64 b;char[3] c;  __rel_loc char[] d;struct s e 5", &d), 0);
    CHECK_EQ_INT(d->nfields, 5);
    static const int offsets[] = { 8, 9, 17, 20, 24 }, sizes[] = { 1, 8, 3, 4, 5 };
    for (int i = 0; i < 5; i++) {
        CHECK_EQ_INT(d->fields[i].offset, offsets[i]);
        CHECK_EQ_INT(d->fields[i].size, sizes[i]);
    }
    CHECK_EQ_INT(d->min_size, 21);
    CHECK_EQ_INT(d->nlocs, 1);
    ue_desc_free(d);
    /* Blank fields, dangling and doubled ';' and leading blanks are nothing. */
    CHECK_EQ_INT(parse("ev ;;\t u32 a;\n;", &d), 0);
    CHECK_EQ_INT(d->nfields, 1);
    CHECK_EQ_INT(d->min_size, 4);
    ue_desc_free(d);
}

TEST(event_names_and_flags)
{
    CHECK_EQ_INT(parse_err(""), -EINVAL);
    CHECK_EQ_INT(parse_err(" u32 a"), -EINVAL); /* the name is what precedes the first space */
    CHECK_EQ_INT(parse_err("a/b"), -EINVAL);
    CHECK_EQ_INT(parse_err("."), -EINVAL);
    CHECK_EQ_INT(parse_err(".."), -EINVAL);
    CHECK_EQ_INT(parse_err("a\tb"), -EINVAL);
    /* Flags are accepted and ignored, as Linux 6.1 (its dyn_test: "flags"). */
    CHECK_EQ_INT(parse_err("test:BPF_ITER u32 a"), 0);
    CHECK_EQ_INT(parse_err("test:BPF_ITER,FLAG_FUTURE u32 a"), 0);
    CHECK_EQ_INT(parse_err("test: u32 a"), 0);
    CHECK_EQ_INT(parse_err("test:"), 0);
    CHECK_EQ_INT(parse_err(":BPF_ITER u32 a"), -EINVAL); /* no name */
    CHECK_EQ_INT(parse_err("a/b:BPF_ITER"), -EINVAL);
    CHECK_EQ_INT(parse_err("__test_event"), 0);
    CHECK_EQ_INT(parse_err("a.b-c;d"), 0);
    char name[80];
    memset(name, 'n', sizeof name);
    name[UE_NAME_MAX - 1] = '\0';
    CHECK_EQ_INT(parse_err(name), 0);
    name[UE_NAME_MAX - 1] = 'n';
    name[UE_NAME_MAX] = '\0';
    CHECK_EQ_INT(parse_err(name), -EINVAL);
    struct ue_desc *d;
    CHECK_EQ_INT(ue_parse("te\0st", 5, &d), -EINVAL);
}

TEST(command_length_limit)
{
    static char cmd[UE_COMMAND_MAX + 1];
    memset(cmd, ';', sizeof cmd - 1);
    memcpy(cmd, "e ", 2);
    struct ue_desc *d;
    CHECK_EQ_INT(ue_parse(cmd, UE_COMMAND_MAX - 1, &d), 0);
    CHECK_EQ_INT(d->nfields, 0);
    ue_desc_free(d);
    CHECK_EQ_INT(ue_parse(cmd, UE_COMMAND_MAX, &d), -EINVAL);
}

TEST(same_fields)
{
    struct ue_desc *a, *b, *c, *e;
    CHECK_EQ_INT(parse("t u32 a; u32 b", &a), 0);
    CHECK_EQ_INT(parse("t u32 a;u32 b;", &b), 0);
    CHECK(ue_same_fields(a, b));
    ue_desc_free(b);
    CHECK_EQ_INT(parse("t u32 b; u32 a", &b), 0);
    CHECK(!ue_same_fields(a, b));
    ue_desc_free(b);
    CHECK_EQ_INT(parse("t u64 a; u64 b", &b), 0);
    CHECK(!ue_same_fields(a, b));
    ue_desc_free(b);
    CHECK_EQ_INT(parse("t u32 a", &b), 0);
    CHECK(!ue_same_fields(a, b));
    CHECK_EQ_INT(parse("t struct s a 20", &c), 0);
    CHECK_EQ_INT(parse("t struct s a 21", &e), 0);
    CHECK(!ue_same_fields(c, e));
    CHECK(ue_same_fields(c, c));
    ue_desc_free(e);
    CHECK_EQ_INT(parse("t", &e), 0);
    CHECK(!ue_same_fields(b, e));
    ue_desc_free(a);
    ue_desc_free(b);
    ue_desc_free(c);
    ue_desc_free(e);
}

/* A payload with a u32 then a __data_loc or __rel_loc string field. */
struct loc_payload {
    uint32_t count;
    uint32_t loc;
    char data[8];
};

static uint32_t loc_word(uint32_t size, uint32_t offset) { return size << 16 | offset; }

TEST(validate_sizes)
{
    struct ue_desc *d;
    CHECK_EQ_INT(parse("t u32 count; u8 x", &d), 0);
    uint8_t payload[8] = { 0 };
    CHECK_EQ_INT(ue_validate(d, payload, 5), 0);
    CHECK_EQ_INT(ue_validate(d, payload, 8), 0); /* longer is fine */
    CHECK_EQ_INT(ue_validate(d, payload, 4), -EINVAL);
    CHECK_EQ_INT(ue_validate(d, payload, 0), -EINVAL);
    ue_desc_free(d);
}

TEST(validate_data_loc)
{
    struct ue_desc *d;
    CHECK_EQ_INT(parse("t u32 count; __data_loc char[] s", &d), 0);
    struct loc_payload p = { 5, 0, "hi" };
    uint32_t start = 8 + 8; /* record offset of p.data */
    p.loc = loc_word(3, start);
    CHECK_EQ_INT(ue_validate(d, &p, sizeof p), 0);
    CHECK_EQ_INT(ue_validate(d, &p, 8 + 3), 0); /* the data ends exactly at the end */
    CHECK_EQ_INT(ue_validate(d, &p, 8 + 2), -EFAULT);
    p.loc = loc_word(2, start); /* "hi" without its NUL */
    CHECK_EQ_INT(ue_validate(d, &p, sizeof p), -EFAULT);
    p.loc = loc_word(0, start); /* an empty string still needs its NUL */
    CHECK_EQ_INT(ue_validate(d, &p, sizeof p), -EFAULT);
    p.loc = loc_word(1, 7); /* starts inside the header */
    CHECK_EQ_INT(ue_validate(d, &p, sizeof p), -EFAULT);
    p.loc = loc_word(0xffff, 0xffff);
    CHECK_EQ_INT(ue_validate(d, &p, sizeof p), -EFAULT);
    p.loc = loc_word(1, start + 2); /* just the NUL */
    CHECK_EQ_INT(ue_validate(d, &p, sizeof p), 0);
    CHECK_EQ_INT(ue_validate(d, &p, 7), -EINVAL); /* too short for the fields */
    ue_desc_free(d);

    /* An empty array that is not a string is no error, wherever its offset points. */
    CHECK_EQ_INT(parse("t u32 count; __data_loc u8[] b", &d), 0);
    p.loc = loc_word(0, 0);
    CHECK_EQ_INT(ue_validate(d, &p, sizeof p), 0);
    p.loc = loc_word(1, 0); /* one byte, inside the header */
    CHECK_EQ_INT(ue_validate(d, &p, sizeof p), -EFAULT);
    ue_desc_free(d);
}

TEST(validate_rel_loc_and_bytes)
{
    struct ue_desc *d;
    CHECK_EQ_INT(parse("t u32 count; __rel_loc char[] s", &d), 0);
    struct loc_payload p = { 5, 0, "hi" };
    p.loc = loc_word(3, 0); /* relative to the end of the loc word: p.data */
    CHECK_EQ_INT(ue_validate(d, &p, sizeof p), 0);
    p.loc = loc_word(3, 6);
    CHECK_EQ_INT(ue_validate(d, &p, sizeof p), -EFAULT);
    p.loc = loc_word(2, 6); /* the last two bytes, the last a NUL */
    CHECK_EQ_INT(ue_validate(d, &p, sizeof p), 0);
    ue_desc_free(d);
    /* Non-string dynamic arrays: bounds only, any bytes, empty allowed. */
    CHECK_EQ_INT(parse("t u32 count; __data_loc u8[] b", &d), 0);
    memset(p.data, 0xff, sizeof p.data);
    p.loc = loc_word(8, 16);
    CHECK_EQ_INT(ue_validate(d, &p, sizeof p), 0);
    p.loc = loc_word(0, 24);
    CHECK_EQ_INT(ue_validate(d, &p, sizeof p), 0);
    p.loc = loc_word(9, 16);
    CHECK_EQ_INT(ue_validate(d, &p, sizeof p), -EFAULT);
    ue_desc_free(d);
}

/* Builds a record (8-byte header then payload) and returns its printed line. */
static const char *record_line(const struct ue_desc *d, const void *payload, uint32_t len)
{
    static uint8_t record[256];
    memset(record, 0xee, UE_HEADER_SIZE);
    memcpy(record + UE_HEADER_SIZE, payload, len);
    collect_reset();
    ue_print_record(&collect_writer, d, record, UE_HEADER_SIZE + len);
    return collected;
}

TEST(print_u32_as_the_issue_asks)
{
    struct ue_desc *d;
    CHECK_EQ_INT(parse("test u32 count", &d), 0);
    uint32_t count = 5;
    CHECK_EQ_STR(record_line(d, &count, 4), "test: count=5");
    ue_desc_free(d);
    CHECK_EQ_INT(parse("test", &d), 0);
    CHECK_EQ_STR(record_line(d, "", 0), "test: ");
    ue_desc_free(d);
}

TEST(print_integers)
{
    struct ue_desc *d;
    CHECK_EQ_INT(parse("n s8 a;u8 b;s16 c;u16 d;int e;unsigned int f;s64 g;u64 h;char i;"
                       "unsigned char j",
                       &d),
                 0);
    uint8_t p[32] = { 0 };
    p[0] = 0xff;                         /* s8 -1 */
    p[1] = 0xff;                         /* u8 255 */
    p[2] = 0x00, p[3] = 0x80;            /* s16 -32768 */
    p[4] = 0xff, p[5] = 0xff;            /* u16 65535 */
    memset(p + 6, 0xff, 4);              /* int -1 */
    memset(p + 10, 0xff, 4);             /* unsigned int 4294967295 */
    memset(p + 14, 0, 8);
    p[21] = 0x80;                        /* s64 min */
    memset(p + 22, 0xff, 8);             /* u64 max */
    p[30] = 'A';                         /* char 65 */
    p[31] = 0xc8;                        /* unsigned char 200 */
    CHECK_EQ_STR(record_line(d, p, 32),
                 "n: a=-1 b=255 c=-32768 d=65535 e=-1 f=4294967295 g=-9223372036854775808 "
                 "h=18446744073709551615 i=65 j=200");
    ue_desc_free(d);
}

TEST(print_strings_and_bytes)
{
    struct ue_desc *d;
    CHECK_EQ_INT(parse("s char[6] a; __data_loc char[] b; __rel_loc char[] c; "
                       "__data_loc u8[] d; struct x e 3",
                       &d),
                 0);
    /* payload offsets: a 0..5, b 6, c 10, d 14, e 18..20, data from 21 */
    uint8_t p[40] = { 0 };
    memcpy(p, "hi\x01zz", 6);                   /* stops at NUL? none: 6 bytes, \x01 shown '.' */
    uint32_t b = loc_word(4, 8 + 21), c = loc_word(3, 25 - 14), dd = loc_word(2, 8 + 28);
    memcpy(p + 6, &b, 4);
    memcpy(p + 10, &c, 4);
    memcpy(p + 14, &dd, 4);
    memcpy(p + 18, "\x01\xab\xff", 3);
    memcpy(p + 21, "bob", 4);
    memcpy(p + 25, "al", 3);
    memcpy(p + 28, "\x0f\x10", 2);
    CHECK_EQ_STR(record_line(d, p, 30), "s: a=hi.zz b=bob c=al d=0f,10 e=01,ab,ff");
    memcpy(p, "ab\0cd", 6); /* a char array ends at its first NUL */
    b = loc_word(100, 8);   /* out of the record */
    memcpy(p + 6, &b, 4);
    CHECK_EQ_STR(record_line(d, p, 30), "s: a=ab b=<OVERFLOW> c=al d=0f,10 e=01,ab,ff");
    /* A record shorter than the fields: the missing ones overflow. */
    CHECK_EQ_STR(record_line(d, p, 12), "s: a=ab b=<OVERFLOW> c=<OVERFLOW> d=<OVERFLOW> "
                                         "e=<OVERFLOW>");
    ue_desc_free(d);
}

TEST(print_long_text_and_bytes_in_chunks)
{
    struct ue_desc *d;
    CHECK_EQ_INT(parse("l char[100] t; struct s b 40", &d), 0);
    uint8_t p[140];
    memset(p, 'x', 100);
    memset(p + 100, 0x5a, 40);
    const char *line = record_line(d, p, 140);
    CHECK_EQ_INT(strlen(line), strlen("l: t= b=") + 100 + 40 * 3 - 1);
    CHECK(strstr(line, "t=xxxxxxxxxx") && strstr(line, "b=5a,5a,") && line[strlen(line) - 1] == 'a');
    ue_desc_free(d);
}

TEST(format_file)
{
    struct ue_desc *d;
    CHECK_EQ_INT(parse("test u32 count; char[0x14] msg; __data_loc char[] s; "
                       "__rel_loc char[] r; unsigned int u; struct my_s st 16; __data_loc u8[] b",
                       &d),
                 0);
    collect_reset();
    ue_print_format(&collect_writer, d);
    CHECK_EQ_STR(collected,
                 "\tfield:u32 count;\toffset:8;\tsize:4;\tsigned:0;\n"
                 "\tfield:char msg[20];\toffset:12;\tsize:20;\tsigned:1;\n"
                 "\tfield:__data_loc char[] s;\toffset:32;\tsize:4;\tsigned:1;\n"
                 "\tfield:__rel_loc char r[];\toffset:36;\tsize:4;\tsigned:1;\n"
                 "\tfield:unsigned int u;\toffset:40;\tsize:4;\tsigned:0;\n"
                 "\tfield:struct my_s st;\toffset:44;\tsize:16;\tsigned:1;\n"
                 "\tfield:__data_loc u8[] b;\toffset:60;\tsize:4;\tsigned:1;\n"
                 "\n"
                 "print fmt: \"count=%u msg=%s s=%s r=%s u=%u st=%llu b=%llu\", REC->count, "
                 "REC->msg, __get_str(s), __get_rel_str(r), REC->u, REC->st, REC->b\n");
    ue_desc_free(d);
}

TEST(format_file_of_every_integer)
{
    struct ue_desc *d;
    CHECK_EQ_INT(parse("i s64 a;u64 b;s32 c;int d;s16 e;u16 f;short g;unsigned short h;s8 i;"
                       "u8 j;char k;unsigned char l",
                       &d),
                 0);
    collect_reset();
    ue_print_format(&collect_writer, d);
    CHECK(strstr(collected, "print fmt: \"a=%lld b=%llu c=%d d=%d e=%d f=%u g=%d h=%u i=%d "
                            "j=%u k=%d l=%u\", REC->a,") != NULL);
    ue_desc_free(d);
    CHECK_EQ_INT(parse("empty", &d), 0);
    collect_reset();
    ue_print_format(&collect_writer, d);
    CHECK_EQ_STR(collected, "\nprint fmt: \"\"\n");
    ue_desc_free(d);
}

TEST(command_line)
{
    struct ue_desc *d;
    CHECK_EQ_INT(parse("test u32 count", &d), 0);
    collect_reset();
    ue_print_command(&collect_writer, d);
    CHECK_EQ_STR(collected, "u:test u32 count\n");
    ue_desc_free(d);
    CHECK_EQ_INT(parse("t u32 a;struct s b 20;;  char[0x14] c", &d), 0);
    collect_reset();
    ue_print_command(&collect_writer, d);
    CHECK_EQ_STR(collected, "u:t u32 a; struct s b 20; char[0x14] c\n");
    ue_desc_free(d);
    CHECK_EQ_INT(parse("bare", &d), 0);
    collect_reset();
    ue_print_command(&collect_writer, d);
    CHECK_EQ_STR(collected, "u:bare\n");
    ue_desc_free(d);
}

static int dyn(const char *line, struct ue_dyn_cmd *cmd)
{
    return ue_dyn_parse(line, strlen(line), cmd);
}

static bool text_is(const char *p, size_t n, const char *want)
{
    return n == strlen(want) && strncmp(p, want, n) == 0;
}

TEST(dynamic_events_lines)
{
    struct ue_dyn_cmd c;
    CHECK_EQ_INT(dyn("", &c), 0);
    CHECK_EQ_INT(c.op, UE_DYN_NOTHING);
    CHECK_EQ_INT(dyn("  # just a comment", &c), 0);
    CHECK_EQ_INT(c.op, UE_DYN_NOTHING);
    CHECK_EQ_INT(dyn("u:test u32 count", &c), 0);
    CHECK_EQ_INT(c.op, UE_DYN_CREATE);
    CHECK(text_is(c.text, c.text_len, "test u32 count"));
    CHECK_EQ_INT(dyn("  u:  test u32 count  # why", &c), 0);
    CHECK(text_is(c.text, c.text_len, "test u32 count"));
    CHECK_EQ_INT(dyn("-:test", &c), 0);
    CHECK_EQ_INT(c.op, UE_DYN_DELETE);
    CHECK(text_is(c.text, c.text_len, "test") && c.args_len == 0 && !c.other_system);
    CHECK_EQ_INT(dyn("-:user_events/test u32 count", &c), 0);
    CHECK(text_is(c.text, c.text_len, "test") && !c.other_system);
    CHECK(text_is(c.args, c.args_len, "u32 count"));
    CHECK_EQ_INT(dyn("-:kprobes/test", &c), 0);
    CHECK(c.other_system);
    CHECK_EQ_INT(dyn("!u:test", &c), 0);
    CHECK_EQ_INT(c.op, UE_DYN_DELETE);
    CHECK(text_is(c.text, c.text_len, "test"));
    CHECK_EQ_INT(dyn("-:user_events/", &c), 0); /* names no event: matches nothing */
    CHECK_EQ_INT(c.text_len, 0);
    CHECK_EQ_INT(dyn("-:", &c), -EINVAL);
    CHECK_EQ_INT(dyn("-test", &c), -EINVAL);
    CHECK_EQ_INT(dyn("!test", &c), -EINVAL);
    CHECK_EQ_INT(dyn("p:kprobe do_fork", &c), -EINVAL);
    CHECK_EQ_INT(dyn("u", &c), -EINVAL);
    CHECK_EQ_INT(ue_dyn_parse("u:a\0b", 5, &c), -EINVAL);
}

/* Every case of Linux 6.1's tools/testing/selftests/user_events/dyn_test.c, through the
 * same paths a dynamic_events write takes: "u:" lines parse (or not), "!u:" lines match the
 * event (or not). */
TEST(linux_6_1_dyn_test_cases)
{
    static const char *const parse_ok[] = {
        "__test_event u64 a", "__test_event u32 a", "__test_event u16 a", "__test_event u8 a",
        "__test_event char a", "__test_event unsigned char a", "__test_event int a",
        "__test_event unsigned int a", "__test_event short a", "__test_event unsigned short a",
        "__test_event char[20] a", "__test_event unsigned char[20] a",
        "__test_event char[0x14] a", "__test_event unsigned char[0x14] a",
        "__test_event __data_loc char[] a", "__test_event __data_loc unsigned char[] a",
        "__test_event __rel_loc char[] a", "__test_event __rel_loc unsigned char[] a",
        "__test_event struct custom a 20", "__test_event:BPF_ITER u32 a",
        "__test_event:BPF_ITER,FLAG_FUTURE u32 a", "__test_event u32 a; u32 b",
    };
    static const char *const parse_bad[] = {
        "__test_event char[aa] a", "__test_event char[9999] a",
        "__test_event char[0x0000000000001] a", "__test_event struct custom a",
        "__test_event char a 20",
    };
    for (unsigned i = 0; i < sizeof parse_ok / sizeof parse_ok[0]; i++)
        if (parse_err(parse_ok[i]) != 0)
            CHECK_EQ_STR(parse_ok[i], "(parses)");
    for (unsigned i = 0; i < sizeof parse_bad / sizeof parse_bad[0]; i++)
        if (parse_err(parse_bad[i]) == 0)
            CHECK_EQ_STR(parse_bad[i], "(refused)");

    struct ue_desc *custom, *two;
    struct ue_dyn_cmd c;
    CHECK_EQ_INT(parse("__test_event struct custom a 20", &custom), 0);
    CHECK_EQ_INT(dyn("!u:__test_event struct custom b", &c), 0);
    CHECK(!ue_dyn_matches(&c, custom));
    CHECK_EQ_INT(dyn("!u:__test_event struct custom a", &c), 0);
    CHECK(ue_dyn_matches(&c, custom));
    CHECK_EQ_INT(parse("__test_event u32 a; u32 b", &two), 0);
    static const char *const no_match[] = {
        "!u:__test_event u32 a", "!u:__test_event u32 b", "!u:__test_event u32 a; u32 ",
        "!u:__test_event u32 a; u32 a",
    };
    for (unsigned i = 0; i < sizeof no_match / sizeof no_match[0]; i++) {
        int err = dyn(no_match[i], &c);
        if (err == 0 && ue_dyn_matches(&c, two))
            CHECK_EQ_STR(no_match[i], "(matches nothing)");
    }
    CHECK_EQ_INT(dyn("!u:__test_event u32 a; u32 b", &c), 0);
    CHECK(ue_dyn_matches(&c, two));
    CHECK_EQ_INT(dyn("!u:__test_event u32 a; u32 b;", &c), 0);
    CHECK(ue_dyn_matches(&c, two));
    ue_desc_free(custom);
    ue_desc_free(two);
}

/* Linux 6.1's ftrace_test "print_fmt": the print fmt line of each command, exactly. */
TEST(linux_6_1_ftrace_test_print_fmt)
{
    static const char *const cases[][2] = {
        { "__rel_loc char[] data", "print fmt: \"data=%s\", __get_rel_str(data)" },
        { "__data_loc char[] data", "print fmt: \"data=%s\", __get_str(data)" },
        { "s64 data", "print fmt: \"data=%lld\", REC->data" },
        { "u64 data", "print fmt: \"data=%llu\", REC->data" },
        { "s32 data", "print fmt: \"data=%d\", REC->data" },
        { "u32 data", "print fmt: \"data=%u\", REC->data" },
        { "int data", "print fmt: \"data=%d\", REC->data" },
        { "unsigned int data", "print fmt: \"data=%u\", REC->data" },
        { "s16 data", "print fmt: \"data=%d\", REC->data" },
        { "u16 data", "print fmt: \"data=%u\", REC->data" },
        { "short data", "print fmt: \"data=%d\", REC->data" },
        { "unsigned short data", "print fmt: \"data=%u\", REC->data" },
        { "s8 data", "print fmt: \"data=%d\", REC->data" },
        { "u8 data", "print fmt: \"data=%u\", REC->data" },
        { "char data", "print fmt: \"data=%d\", REC->data" },
        { "unsigned char data", "print fmt: \"data=%u\", REC->data" },
        { "char[4] data", "print fmt: \"data=%s\", REC->data" },
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cmd[64];
        snprintf(cmd, sizeof cmd, "__test_event %s", cases[i][0]);
        struct ue_desc *d;
        CHECK_EQ_INT(parse(cmd, &d), 0);
        collect_reset();
        ue_print_format(&collect_writer, d);
        const char *fmt = strstr(collected, "\n\nprint fmt: ");
        if (!fmt)
            fmt = strstr(collected, "print fmt: ");
        else
            fmt += 2;
        char line[128] = "";
        if (fmt)
            snprintf(line, sizeof line, "%.*s", (int)strcspn(fmt, "\n"), fmt);
        CHECK_EQ_STR(line, cases[i][1]);
        ue_desc_free(d);
    }
}

TEST(dynamic_events_delete_matching)
{
    struct ue_desc *d;
    CHECK_EQ_INT(parse("test u32 a; u32 b", &d), 0);
    struct ue_dyn_cmd c;
    CHECK_EQ_INT(dyn("-:test", &c), 0);
    CHECK(ue_dyn_matches(&c, d));
    CHECK_EQ_INT(dyn("-:tes", &c), 0);
    CHECK(!ue_dyn_matches(&c, d));
    CHECK_EQ_INT(dyn("-:test u32 a;u32 b", &c), 0);
    CHECK(ue_dyn_matches(&c, d));
    CHECK_EQ_INT(dyn("!u:test u32 a; u32 b;", &c), 0);
    CHECK(ue_dyn_matches(&c, d));
    CHECK_EQ_INT(dyn("-:test u32 a", &c), 0);
    CHECK(!ue_dyn_matches(&c, d));
    CHECK_EQ_INT(dyn("-:test long a", &c), 0);
    CHECK(!ue_dyn_matches(&c, d));
    CHECK_EQ_INT(dyn("-:other/test", &c), 0);
    CHECK(!ue_dyn_matches(&c, d));
    CHECK_EQ_INT(dyn("u:test", &c), 0);
    CHECK(!ue_dyn_matches(&c, d)); /* a create is not a delete */
    ue_desc_free(d);
}

/* Each ABI keeps its own lifetime rule: Linux 6.1's pre-6.4 structure kept every event
 * until it was deleted (its ftrace_test reads an event's format after closing the fd that
 * registered it), 6.4's struct user_reg goes with its last reference unless
 * USER_EVENT_REG_PERSIST (6.6), and only root deletes a persistent one. */
TEST(lifetime_depends_on_how_the_event_was_created)
{
    CHECK_EQ_INT(ue_lifetime_of(UE_FROM_STATUS_REG, 0), UE_TILL_DELETED);
    CHECK_EQ_INT(ue_lifetime_of(UE_FROM_USER_REG, 0), UE_TILL_LAST_REF);
    CHECK_EQ_INT(ue_lifetime_of(UE_FROM_USER_REG, 1), UE_PERSISTENT);
    CHECK_EQ_INT(ue_lifetime_of(UE_FROM_DYNAMIC, 0), UE_PERSISTENT);

    CHECK(ue_goes_unused(UE_TILL_LAST_REF));
    CHECK(!ue_goes_unused(UE_TILL_DELETED));
    CHECK(!ue_goes_unused(UE_PERSISTENT));

    CHECK(!ue_delete_needs_root(UE_TILL_LAST_REF));
    CHECK(!ue_delete_needs_root(UE_TILL_DELETED)); /* 6.1 asked nothing */
    CHECK(ue_delete_needs_root(UE_PERSISTENT));
}

/* issue 18, event filters: described fields print the format ue_print_format prints, and
 * kinds the core cannot describe keep the event's own printer. */
static void check_described(const char *cmd, bool describable)
{
    struct ue_desc *d;
    CHECK_EQ_INT(ue_parse(cmd, strlen(cmd), &d), 0);
    struct trace_event_field fields[8];
    bool ok = ue_describe_fields(d, fields);
    CHECK(ok == describable);
    if (ok) {
        static char own[8192];
        collect_reset();
        ue_print_format(&collect_writer, d);
        strcpy(own, collected);
        collect_reset();
        for (uint32_t i = 0; i < d->nfields; i++)
            trace_field_print_format(&collect_writer, &fields[i]);
        ue_print_format_tail(&collect_writer, d);
        CHECK_EQ_STR(collected, own);
    }
    ue_desc_free(d);
}

TEST(described_fields_print_the_same_format)
{
    check_described("a u32 n;char[16] name;__data_loc char[] msg;s64 big;unsigned char[3] b", true);
    check_described("b int x;u8 y;short z", true);
    check_described("c __rel_loc char[] r", false);
    check_described("d struct s x 8", false);
}
