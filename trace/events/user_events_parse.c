/*
 * user_events_parse.c - user_events commands, payload checks and record text.
 *
 * The grammar and its errors are Linux's (kernel/trace/trace_events_user.c): a command is
 * split at its first space into the name and the fields, fields at ';', a field at single
 * spaces after its leading blanks. Where Linux accepts something that cannot work here or
 * says nothing useful, we refuse it with EINVAL: an empty, over-long or path-like event
 * name, an empty field name, control characters, text after "]" in char[N], records over
 * UE_RECORD_MAX bytes.
 */
#include "trace/events/user_events_parse.h"

#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/lib/parse.h"
#include "kernel/mm/heap.h"
#include "kernel/lib/string.h"

/* The fixed-size types, with the conversion Linux's print fmt uses for each. */
static const struct {
    const char *name;
    uint8_t size;
    const char *conv;
} int_types[] = {
    { "s64", 8, "%lld" },   { "u64", 8, "%llu" },
    { "s32", 4, "%d" },     { "u32", 4, "%u" },
    { "int", 4, "%d" },     { "unsigned int", 4, "%u" },
    { "s16", 2, "%d" },     { "u16", 2, "%u" },
    { "short", 2, "%d" },   { "unsigned short", 2, "%u" },
    { "s8", 1, "%d" },      { "u8", 1, "%u" },
    { "char", 1, "%d" },    { "unsigned char", 1, "%u" },
};
#define INT_TYPES (sizeof int_types / sizeof int_types[0])

/* Type words that contain a space, so that the type runs to the next space after them. */
static const char *const spaced_prefixes[] = {
    "unsigned ", "struct ", "__data_loc unsigned ", "__data_loc ",
    "__rel_loc unsigned ", "__rel_loc ",
};
#define SPACED_PREFIXES (sizeof spaced_prefixes / sizeof spaced_prefixes[0])


/* True when s contains a control character: they have no place in names or types. */
static bool has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return true;
    return false;
}

/* Linux's str_has_prefix(), as a truth value. */
static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Index of the first c in s[from..end), or end. */
static size_t find_byte(const char *s, size_t from, size_t end, char c)
{
    const char *p = memchr(s + from, c, end - from);
    return p ? (size_t)(p - s) : end;
}

/* A name usable as a directory of the events tree: 1..UE_NAME_MAX-1 bytes, no '/', no
 * control character, not "." or "..". (A ':' never gets here: it starts the flags.) */
static bool valid_event_name(const char *name)
{
    size_t len = strlen(name);
    if (len == 0 || len >= UE_NAME_MAX || strchr(name, '/') || has_control(name))
        return false;
    return strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

/* Parses s[0..n) exactly as an unsigned number no larger than max, as Linux's kstrtouint
 * does: an optional '+', then digits in base (0: C notation, 0x.. hex, 0.. octal). */
static int parse_number(const char *s, size_t n, unsigned base, uint32_t max, uint32_t *out)
{
    size_t i = 0;
    if (i < n && s[i] == '+')
        i++;
    if (base == 0) {
        base = 10;
        if (i < n && s[i] == '0') {
            base = 8;
            if (i + 2 < n && (s[i + 1] | 0x20) == 'x' && parse_digit(s[i + 2], 16) >= 0) {
                base = 16;
                i += 2;
            }
        }
    }
    if (i == n)
        return -EINVAL;
    uint32_t v = 0;
    for (; i < n; i++) {
        int d = parse_digit(s[i], base);
        if (d < 0 || (uint32_t)d > max || v > (max - (uint32_t)d) / base)
            return -EINVAL;
        v = v * base + (uint32_t)d;
    }
    *out = v;
    return 0;
}

/* N of "char[N]" where open points at '['. Linux reads at most 7 bytes after the bracket;
 * we also want the ']' to end the type. */
static int array_length(const char *open, uint16_t *len)
{
    const char *digits = open + 1;
    size_t rest = strlen(digits);
    uint32_t n;
    if (rest < 2 || rest > 7 || digits[rest - 1] != ']')
        return -EINVAL;
    if (parse_number(digits, rest - 1, 0, UE_ARRAY_MAX, &n) != 0 || n == 0)
        return -EINVAL;
    *len = (uint16_t)n;
    return 0;
}

/* Fills kind, size and is_string of a field from its type (all but struct). */
static int type_layout(const char *type, struct ue_field *f)
{
    for (size_t i = 0; i < INT_TYPES; i++) {
        if (strcmp(type, int_types[i].name) == 0) {
            f->kind = UE_FIELD_INT;
            f->size = int_types[i].size;
            return 0;
        }
    }
    if (starts_with(type, "char[") || starts_with(type, "unsigned char[")) {
        f->kind = UE_FIELD_CHAR_ARRAY;
        f->is_string = true;
        return array_length(strchr(type, '['), &f->size);
    }
    if (starts_with(type, "__data_loc ") || starts_with(type, "__rel_loc ")) {
        f->kind = type[2] == 'd' ? UE_FIELD_DATA_LOC : UE_FIELD_REL_LOC;
        f->size = 4;
        f->is_string = strstr(type, "char") != NULL;
        return 0;
    }
    return -EINVAL; /* long, unsigned long, and anything else unknown */
}

/* Length of the spaced type word field starts with (0 if none); sets *is_struct. */
static size_t spaced_prefix(const char *field, bool *is_struct)
{
    for (size_t i = 0; i < SPACED_PREFIXES; i++) {
        if (starts_with(field, spaced_prefixes[i])) {
            *is_struct = i == 1;
            return strlen(spaced_prefixes[i]);
        }
    }
    return 0;
}

/*
 * Parses one field ("type name" or "struct T name SIZE") in place, appending it to d at
 * *offset and advancing *offset. An empty field (blanks only) adds nothing.
 */
static int parse_field(struct ue_desc *d, char *field, uint32_t *offset)
{
    while (is_space(*field))
        field++;
    if (*field == '\0')
        return 0;
    bool is_struct = false;
    size_t skip = spaced_prefix(field, &is_struct);
    if (skip && field[skip] == ' ')
        return -EINVAL; /* "unsigned  int", "__data_loc  x": the type word is empty */
    char *space = strchr(field + skip, ' ');
    if (!space)
        return -EINVAL; /* no name */
    *space = '\0';
    char *name = space + 1;
    char *size_text = strchr(name, ' ');
    if (size_text) {
        *size_text++ = '\0';
        if (!is_struct || strchr(size_text, ' '))
            return -EINVAL; /* only a struct takes a size, and nothing follows it */
    }
    if (*name == '\0' || has_control(field) || has_control(name))
        return -EINVAL;

    struct ue_field *f = &d->fields[d->nfields];
    *f = (struct ue_field){ .type = field, .name = name, .is_signed = field[0] != 'u' };
    if (is_struct) {
        uint32_t size;
        if (!size_text || parse_number(size_text, strlen(size_text), 10, UE_RECORD_MAX, &size))
            return -EINVAL;
        f->kind = UE_FIELD_STRUCT;
        f->size = (uint16_t)size;
    } else if (type_layout(field, f) != 0) {
        return -EINVAL;
    }
    if (f->size == 0 || *offset + f->size > UE_RECORD_MAX)
        return -EINVAL;
    f->offset = (uint16_t)*offset;
    *offset += f->size;
    if (f->kind == UE_FIELD_DATA_LOC || f->kind == UE_FIELD_REL_LOC)
        d->nlocs++;
    d->nfields++;
    return 0;
}

/* Parses the NUL-terminated command text (modified in place; d points into it). */
static int parse_command(struct ue_desc *d, char *text)
{
    char *args = strchr(text, ' ');
    if (args)
        *args++ = '\0';
    char *flags = strchr(text, ':');
    if (flags) /* NAME:FLAG,FLAG...: accepted and ignored, as Linux 6.1 does (its one flag, */
        *flags = '\0'; /* BPF_ITER, is for BPF; unknown ones for forward compatibility) */
    if (!valid_event_name(text))
        return -EINVAL;
    memcpy(d->name, text, strlen(text) + 1);
    uint32_t offset = UE_HEADER_SIZE;
    while (args) {
        char *semi = strchr(args, ';');
        if (semi)
            *semi++ = '\0';
        int err = parse_field(d, args, &offset);
        if (err)
            return err;
        args = semi;
    }
    d->min_size = offset - UE_HEADER_SIZE;
    return 0;
}

int ue_parse(const char *cmd, size_t len, struct ue_desc **out)
{
    if (len >= UE_COMMAND_MAX || find_byte(cmd, 0, len, '\0') != len)
        return -EINVAL;
    size_t max_fields = 1;
    for (size_t i = 0; i < len; i++)
        max_fields += cmd[i] == ';';
    /* One block: the description, its fields, then the text they point into. */
    struct ue_desc *d = kzalloc(sizeof *d + max_fields * sizeof(struct ue_field) + len + 1);
    if (!d)
        return -ENOMEM;
    d->fields = (struct ue_field *)(d + 1);
    char *text = (char *)(d->fields + max_fields);
    memcpy(text, cmd, len);
    text[len] = '\0';
    int err = parse_command(d, text);
    if (err) {
        kfree(d);
        return err;
    }
    *out = d;
    return 0;
}

void ue_desc_free(struct ue_desc *d) { kfree(d); }

bool ue_same_fields(const struct ue_desc *a, const struct ue_desc *b)
{
    if (a->nfields != b->nfields)
        return false;
    for (uint32_t i = 0; i < a->nfields; i++) {
        const struct ue_field *x = &a->fields[i], *y = &b->fields[i];
        if (strcmp(x->type, y->type) != 0 || strcmp(x->name, y->name) != 0 || x->size != y->size)
            return false;
    }
    return true;
}

/* A little-endian u32 at any alignment (records and payloads need not be aligned). */
static uint32_t read_u32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Where a __data_loc/__rel_loc field's data starts, as a record offset (may be anywhere). */
static uint32_t loc_start(const struct ue_field *f, uint32_t loc)
{
    uint32_t base = f->kind == UE_FIELD_REL_LOC ? f->offset + 4u : 0u;
    return base + (loc & 0xffff);
}

int ue_validate(const struct ue_desc *d, const void *payload, uint32_t len)
{
    if (len < d->min_size)
        return -EINVAL;
    const uint8_t *p = payload;
    uint32_t record_len = len + UE_HEADER_SIZE;
    for (uint32_t i = 0; d->nlocs && i < d->nfields; i++) {
        const struct ue_field *f = &d->fields[i];
        if (f->kind != UE_FIELD_DATA_LOC && f->kind != UE_FIELD_REL_LOC)
            continue;
        uint32_t loc = read_u32(p + f->offset - UE_HEADER_SIZE);
        uint32_t start = loc_start(f, loc), size = loc >> 16;
        if (size == 0 && !f->is_string)
            continue; /* an empty array points nowhere (Linux accepts DYN_LOC(0, 0)) */
        if (start < UE_HEADER_SIZE || start + size > record_len)
            return -EFAULT; /* the data must lie in the payload */
        if (f->is_string && (size == 0 || p[start + size - 1 - UE_HEADER_SIZE] != '\0'))
            return -EFAULT; /* a string ends with its NUL */
    }
    return 0;
}

/* Emits bytes as text, NUL ending it early, other unprintable bytes shown as '.'. */
static void print_text(struct fs_writer *out, const uint8_t *p, uint32_t n)
{
    char chunk[64];
    uint32_t used = 0;
    for (uint32_t i = 0; i < n && p[i]; i++) {
        chunk[used++] = p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '.';
        if (used == sizeof chunk) {
            out->emit(out, chunk, used);
            used = 0;
        }
    }
    if (used)
        out->emit(out, chunk, used);
}

/* Emits bytes as "0a,ff,..", as Linux prints dynamic arrays. */
static void print_bytes(struct fs_writer *out, const uint8_t *p, uint32_t n)
{
    static const char hex[] = "0123456789abcdef";
    char chunk[63];
    uint32_t used = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            chunk[used++] = ',';
        chunk[used++] = hex[p[i] >> 4];
        chunk[used++] = hex[p[i] & 15];
        if (used + 3 > sizeof chunk) {
            out->emit(out, chunk, used);
            used = 0;
        }
    }
    if (used)
        out->emit(out, chunk, used);
}

/* A little-endian integer field, signed or not as its type says. */
static void print_int(struct fs_writer *out, const struct ue_field *f, const uint8_t *p)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < f->size; i++)
        v |= (uint64_t)p[i] << (8 * i);
    if (!f->is_signed) {
        fs_printf(out, "%llu", (unsigned long long)v);
        return;
    }
    unsigned shift = 64 - 8 * f->size;
    fs_printf(out, "%lld", (long long)(int64_t)(v << shift) >> shift);
}

/* One field's value from a record of len bytes. */
static void print_value(struct fs_writer *out, const struct ue_field *f, const uint8_t *rec,
                        uint32_t len)
{
    if (f->offset + f->size > len) {
        fs_puts(out, "<OVERFLOW>");
        return;
    }
    const uint8_t *p = rec + f->offset;
    switch (f->kind) {
    case UE_FIELD_INT:
        print_int(out, f, p);
        return;
    case UE_FIELD_CHAR_ARRAY:
        print_text(out, p, f->size);
        return;
    case UE_FIELD_STRUCT:
        print_bytes(out, p, f->size);
        return;
    default: {
        uint32_t loc = read_u32(p), start = loc_start(f, loc), size = loc >> 16;
        if (size == 0)
            return; /* an empty array, wherever its offset points (ue_validate allows it) */
        if (start + size > len)
            fs_puts(out, "<OVERFLOW>");
        else if (f->is_string)
            print_text(out, rec + start, size);
        else
            print_bytes(out, rec + start, size);
        return;
    }
    }
}

/* Names go out through fs_puts: this runs in the timer interrupt too (the COM2 stream), where
 * the heap fs_printf falls back on for long text is best left alone. */
void ue_print_record(struct fs_writer *out, const struct ue_desc *d, const void *record,
                     uint32_t len)
{
    fs_puts(out, d->name);
    fs_puts(out, ": ");
    for (uint32_t i = 0; i < d->nfields; i++) {
        if (i)
            fs_puts(out, " ");
        fs_puts(out, d->fields[i].name);
        fs_puts(out, "=");
        print_value(out, &d->fields[i], record, len);
    }
}

/* The conversion Linux's print fmt gives a field of this type. */
static const char *print_conversion(const char *type)
{
    for (size_t i = 0; i < INT_TYPES; i++)
        if (strcmp(type, int_types[i].name) == 0)
            return int_types[i].conv;
    return strstr(type, "char[") ? "%s" : "%llu";
}

/* One "\tfield:" line: arrays show their brackets after the name, as in C. */
static void print_field_line(struct fs_writer *out, const struct ue_field *f)
{
    const char *bracket = f->kind == UE_FIELD_DATA_LOC ? NULL : strchr(f->type, '[');
    int type_len = bracket ? (int)(bracket - f->type) : 0;
    if (!bracket)
        fs_printf(out, "\tfield:%s %s;", f->type, f->name);
    else if (f->kind == UE_FIELD_CHAR_ARRAY)
        fs_printf(out, "\tfield:%.*s %s[%u];", type_len, f->type, f->name, f->size);
    else
        fs_printf(out, "\tfield:%.*s %s%s;", type_len, f->type, f->name, bracket);
    fs_printf(out, "\toffset:%u;\tsize:%u;\tsigned:%d;\n", f->offset, f->size, f->is_signed);
}

void ue_print_format(struct fs_writer *out, const struct ue_desc *d)
{
    for (uint32_t i = 0; i < d->nfields; i++)
        print_field_line(out, &d->fields[i]);
    ue_print_format_tail(out, d);
}

bool ue_describe_fields(const struct ue_desc *d, struct trace_event_field *out)
{
    for (uint32_t i = 0; i < d->nfields; i++) {
        const struct ue_field *f = &d->fields[i];
        struct trace_event_field *t = &out[i];
        *t = (struct trace_event_field){ f->type, f->name, f->offset, f->size, 0, f->is_signed,
                                         TRACE_FIELD_INT };
        if (f->kind == UE_FIELD_INT && !strchr(f->type, '[') &&
            (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8))
            continue;
        if (f->kind == UE_FIELD_CHAR_ARRAY && strncmp(f->type, "char[", 5) == 0) {
            t->type = "char";
        } else if (f->kind == UE_FIELD_CHAR_ARRAY && strncmp(f->type, "unsigned char[", 14) == 0) {
            t->type = "unsigned char";
        } else if (f->kind == UE_FIELD_DATA_LOC && f->size == 4 &&
                   strcmp(f->type, "__data_loc char[]") == 0) {
            t->type = "char";
            t->kind = TRACE_FIELD_DATA_LOC;
            continue;
        } else {
            return false;
        }
        t->kind = TRACE_FIELD_CHARS;
        t->array_len = f->size;
    }
    return true;
}

void ue_print_format_tail(struct fs_writer *out, const struct ue_desc *d)
{
    fs_puts(out, "\nprint fmt: \"");
    for (uint32_t i = 0; i < d->nfields; i++)
        fs_printf(out, "%s%s=%s", i ? " " : "", d->fields[i].name,
                  print_conversion(d->fields[i].type));
    fs_puts(out, "\"");
    for (uint32_t i = 0; i < d->nfields; i++) {
        const struct ue_field *f = &d->fields[i];
        if (f->kind == UE_FIELD_DATA_LOC && f->is_string)
            fs_printf(out, ", __get_str(%s)", f->name);
        else if (f->kind == UE_FIELD_REL_LOC && f->is_string)
            fs_printf(out, ", __get_rel_str(%s)", f->name);
        else
            fs_printf(out, ", REC->%s", f->name);
    }
    fs_puts(out, "\n");
}

void ue_print_command(struct fs_writer *out, const struct ue_desc *d)
{
    fs_printf(out, "u:%s", d->name);
    for (uint32_t i = 0; i < d->nfields; i++) {
        const struct ue_field *f = &d->fields[i];
        fs_printf(out, "%s%s %s", i ? "; " : " ", f->type, f->name);
        if (f->kind == UE_FIELD_STRUCT)
            fs_printf(out, " %u", f->size);
    }
    fs_puts(out, "\n");
}

/* Index of the first blank in line[from..end), or end. */
static size_t token_end(const char *line, size_t from, size_t end)
{
    while (from < end && !is_space(line[from]))
        from++;
    return from;
}

/* Index of the first non-blank in line[from..end), or end. */
static size_t skip_blanks(const char *line, size_t from, size_t end)
{
    while (from < end && is_space(line[from]))
        from++;
    return from;
}

/* Fills a DELETE from the line's first word at [s, t) ("-:NAME", "!u:GRP/NAME") and the
 * fields after it up to end. Linux's dyn_event_release grammar. */
static int parse_delete(const char *line, size_t s, size_t end, struct ue_dyn_cmd *cmd)
{
    size_t t = token_end(line, s, end), name;
    if (line[s] == '-') {
        if (t - s < 2 || line[s + 1] != ':')
            return -EINVAL;
        name = s + 2;
    } else {
        size_t colon = find_byte(line, s, t, ':');
        if (colon == t)
            return -EINVAL;
        name = colon + 1;
    }
    size_t slash = find_byte(line, name, t, '/');
    if (slash < t) {
        cmd->other_system = slash - name != 11 || strncmp(line + name, "user_events", 11) != 0;
        name = slash + 1;
    } else if (name == t) {
        return -EINVAL; /* "-:" names nothing */
    }
    cmd->op = UE_DYN_DELETE;
    cmd->text = line + name;
    cmd->text_len = t - name;
    size_t a = skip_blanks(line, t, end);
    cmd->args = line + a;
    cmd->args_len = end - a;
    return 0;
}

int ue_dyn_parse(const char *line, size_t len, struct ue_dyn_cmd *cmd)
{
    *cmd = (struct ue_dyn_cmd){ .op = UE_DYN_NOTHING, .text = line, .args = line };
    if (find_byte(line, 0, len, '\0') != len)
        return -EINVAL;
    size_t end = find_byte(line, 0, len, '#');
    while (end > 0 && is_space(line[end - 1]))
        end--;
    size_t s = skip_blanks(line, 0, end);
    if (s == end)
        return 0;
    if (line[s] == '-' || line[s] == '!')
        return parse_delete(line, s, end, cmd);
    if (end - s < 2 || line[s] != 'u' || line[s + 1] != ':')
        return -EINVAL;
    size_t c = skip_blanks(line, s + 2, end);
    cmd->op = UE_DYN_CREATE;
    cmd->text = line + c;
    cmd->text_len = end - c;
    return 0;
}

/* Whether field text [s, e) is "struct TYPE NAME", three words and no size: how Linux
 * names a struct field in a delete (its field strings leave the size out). */
static bool is_sizeless_struct(const char *text, size_t s, size_t e)
{
    unsigned words = 0;
    size_t i = s, first = s;
    while (i < e) {
        i = skip_blanks(text, i, e);
        if (i == e)
            break;
        if (words == 0)
            first = i;
        words++;
        while (i < e && !is_space(text[i]))
            i++;
    }
    return words == 3 && e - first > 7 && strncmp(text + first, "struct ", 7) == 0;
}

bool ue_dyn_matches(const struct ue_dyn_cmd *cmd, const struct ue_desc *d)
{
    if (cmd->op != UE_DYN_DELETE || cmd->other_system)
        return false;
    if (cmd->text_len != strlen(d->name) || strncmp(cmd->text, d->name, cmd->text_len) != 0)
        return false;
    if (cmd->args_len == 0)
        return true;
    /* Compare field lists by meaning: "u32 a;u32 b" names the same fields as "u32 a; u32 b".
     * A struct field named without its size ("struct custom a", as Linux's delete compares
     * it) takes the size of the event's field in that place. Room for the name, a space,
     * the fields and up to 6 digits and a space for each of them. */
    size_t cap = cmd->text_len + 1 + cmd->args_len + 8u * (d->nfields + 1) + 1;
    char *text = kmalloc(cap);
    if (!text)
        return false;
    size_t n = 0;
    memcpy(text, cmd->text, cmd->text_len);
    n = cmd->text_len;
    text[n++] = ' ';
    unsigned index = 0;
    for (size_t s = 0; s <= cmd->args_len; index++) {
        size_t e = find_byte(cmd->args, s, cmd->args_len, ';');
        memcpy(text + n, cmd->args + s, e - s);
        n += e - s;
        if (index < d->nfields && d->fields[index].kind == UE_FIELD_STRUCT &&
            is_sizeless_struct(cmd->args, s, e))
            n += (size_t)ksnprintf(text + n, cap - n, " %u", (unsigned)d->fields[index].size);
        if (e == cmd->args_len)
            break;
        text[n++] = ';';
        s = e + 1;
    }
    struct ue_desc *given;
    bool same = false;
    if (ue_parse(text, n, &given) == 0) {
        same = ue_same_fields(given, d);
        ue_desc_free(given);
    }
    kfree(text);
    return same;
}

/* --- lifetime ----------------------------------------------------------------------------- */

enum ue_lifetime ue_lifetime_of(enum ue_origin origin, uint32_t flags)
{
    switch (origin) {
    case UE_FROM_STATUS_REG:
        return UE_TILL_DELETED; /* that structure has no flags */
    case UE_FROM_USER_REG:
        return flags & 1u ? UE_PERSISTENT : UE_TILL_LAST_REF; /* USER_EVENT_REG_PERSIST */
    case UE_FROM_DYNAMIC:
    default:
        return UE_PERSISTENT;
    }
}

bool ue_goes_unused(enum ue_lifetime lifetime) { return lifetime == UE_TILL_LAST_REF; }

bool ue_delete_needs_root(enum ue_lifetime lifetime) { return lifetime == UE_PERSISTENT; }
