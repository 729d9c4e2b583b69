/*
 * event_format.c - the format-file parser and field reader (see event_format.h).
 */
#include "tools/tkconvert/event_format.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tk_format_free(struct tk_format *f)
{
    for (size_t i = 0; i < f->nr_fields; i++) {
        free(f->fields[i].type);
        free(f->fields[i].name);
    }
    free(f->fields);
    free(f->system);
    free(f->name);
    free(f->print_fmt);
    memset(f, 0, sizeof *f);
}

static char *dup_range(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static const char *skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Parses "KEY:DIGITS;" at *p (after blanks); advances *p. */
static bool parse_attr(const char **p, const char *key, unsigned long *value)
{
    const char *s = skip_space(*p);
    size_t k = strlen(key);
    if (strncmp(s, key, k) != 0 || !isdigit((unsigned char)s[k]))
        return false;
    char *end;
    unsigned long v = strtoul(s + k, &end, 10);
    if (*end != ';' || v > 0xffffffffu)
        return false;
    *value = v;
    *p = end + 1;
    return true;
}

/* Whether the type, without const and __data_loc and [], is char. */
static bool type_is_char(const char *type)
{
    char words[128];
    snprintf(words, sizeof words, "%s", type);
    char *save, *w;
    int chars = 0, others = 0;
    for (w = strtok_r(words, " []", &save); w; w = strtok_r(NULL, " []", &save)) {
        if (strcmp(w, "const") == 0 || strcmp(w, "__data_loc") == 0)
            continue;
        if (strcmp(w, "char") == 0)
            chars++;
        else
            others++;
    }
    return chars == 1 && others == 0;
}

/* Parses the declaration "TYPE NAME[N]" into fd. */
static bool parse_decl(const char *decl, size_t n, struct tk_field *fd)
{
    while (n && (decl[n - 1] == ' ' || decl[n - 1] == '\t'))
        n--;
    size_t name_end = n, name_start;
    if (n && decl[n - 1] == ']') { /* the array length */
        const char *open = NULL;
        for (size_t i = n; i-- > 0;)
            if (decl[i] == '[') {
                open = decl + i;
                break;
            }
        if (!open)
            return false;
        name_end = (size_t)(open - decl);
        fd->is_array = true;
        if (open + 1 < decl + n - 1) {
            char *end;
            unsigned long len = strtoul(open + 1, &end, 10);
            if (end != decl + n - 1 || len == 0 || len > 0xffff)
                return false;
            fd->array_len = (uint32_t)len;
        }
    }
    name_start = name_end;
    while (name_start && (isalnum((unsigned char)decl[name_start - 1]) || decl[name_start - 1] == '_'))
        name_start--;
    if (name_start == name_end || name_start == 0)
        return false;
    size_t type_end = name_start;
    while (type_end && (decl[type_end - 1] == ' ' || decl[type_end - 1] == '\t'))
        type_end--;
    const char *type = skip_space(decl);
    if (type >= decl + type_end)
        return false;
    fd->type = dup_range(type, (size_t)(decl + type_end - type));
    fd->name = dup_range(decl + name_start, name_end - name_start);
    if (!fd->type || !fd->name)
        return false;
    fd->is_data_loc = strncmp(fd->type, "__data_loc", 10) == 0;
    fd->is_string = (fd->is_array || fd->is_data_loc) && type_is_char(fd->type);
    fd->is_common = strncmp(fd->name, "common_", 7) == 0;
    return true;
}

/* Parses one "field:" line (after "field:"). */
static bool parse_field(const char *s, struct tk_field *fd)
{
    const char *semi = strchr(s, ';');
    unsigned long offset, size, sign;
    memset(fd, 0, sizeof *fd);
    if (!semi || !parse_decl(s, (size_t)(semi - s), fd))
        return false;
    const char *p = semi + 1;
    if (!parse_attr(&p, "offset:", &offset) || !parse_attr(&p, "size:", &size))
        return false;
    if (parse_attr(&p, "signed:", &sign)) /* old kernels had no signed: */
        fd->is_signed = sign != 0;
    fd->offset = (uint32_t)offset;
    fd->size = (uint32_t)size;
    if (fd->offset > 0xffff || fd->size > 0xffff)
        return false;
    if (fd->is_data_loc && fd->size != 4)
        return false;
    if (!fd->is_data_loc && !fd->is_array && fd->size != 1 && fd->size != 2 && fd->size != 4 &&
        fd->size != 8)
        return false;
    /* A fixed array holds array_len elements of a nonzero, whole size. */
    if (fd->is_array && fd->array_len && (fd->size == 0 || fd->size % fd->array_len != 0))
        return false;
    return true;
}

int tk_format_parse(struct tk_format *f, const char *system, const char *text, size_t len,
                    char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    f->id = -1;
    char *copy = dup_range(text, len);
    f->system = strdup(system);
    if (!copy || !f->system) {
        free(copy);
        snprintf(err, errlen, "out of memory");
        tk_format_free(f);
        return -1;
    }
    int line_no = 0;
    const char *why = memchr(text, '\0', len) ? "a NUL byte in the text" : NULL;
    for (char *line = copy, *next; line && !why; line = next) {
        line_no++;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        const char *s = skip_space(line);
        if (*s == '\0' || strcmp(s, "format:") == 0)
            continue;
        if (strncmp(s, "name:", 5) == 0) {
            if (f->name)
                why = "a second name line";
            else if (!(f->name = strdup(skip_space(s + 5))) || !f->name[0])
                why = "an empty name";
        } else if (strncmp(s, "ID:", 3) == 0) {
            char *end;
            long id = strtol(skip_space(s + 3), &end, 10);
            if (end == skip_space(s + 3) || *end || id < 0 || id > 0xffff)
                why = "an ID that is not a number from 0 to 65535";
            else
                f->id = (int)id;
        } else if (strncmp(s, "field:", 6) == 0 && f->nr_fields == TK_FORMAT_MAX_FIELDS) {
            why = "more fields than an event has (" TK_STRINGIFY(TK_FORMAT_MAX_FIELDS) ")";
        } else if (strncmp(s, "field:", 6) == 0) {
            struct tk_field *fields = realloc(f->fields, (f->nr_fields + 1) * sizeof *fields);
            if (!fields) {
                why = "out of memory";
                break;
            }
            f->fields = fields;
            if (!parse_field(s + 6, &fields[f->nr_fields])) {
                free(fields[f->nr_fields].type);
                free(fields[f->nr_fields].name);
                why = "a field line that does not parse";
            } else if (tk_format_field(f, fields[f->nr_fields].name)) {
                free(fields[f->nr_fields].type);
                free(fields[f->nr_fields].name);
                why = "a field name given twice";
            } else {
                f->nr_fields++;
            }
        } else if (strncmp(s, "print fmt:", 10) == 0) {
            free(f->print_fmt);
            f->print_fmt = strdup(skip_space(s + 10));
        } else {
            why = "a line that is none of name:, ID:, format:, field:, print fmt:";
        }
    }
    free(copy);
    if (!why && !f->name)
        why = "no name line";
    if (why) {
        snprintf(err, errlen, "line %d: %s", line_no, why);
        tk_format_free(f);
        return -1;
    }
    return 0;
}

const struct tk_field *tk_format_field(const struct tk_format *f, const char *name)
{
    for (size_t i = 0; i < f->nr_fields; i++)
        if (strcmp(f->fields[i].name, name) == 0)
            return &f->fields[i];
    return NULL;
}

uint32_t tk_field_elem_size(const struct tk_field *f)
{
    if (f->is_data_loc || (f->is_array && f->array_len == 0))
        return 1; /* elements of dynamic arrays: bytes (char[] and u8[] are what exist) */
    return f->is_array ? f->size / f->array_len : f->size;
}

/* Where the field's data lies in the record: *start, *bytes. False outside the record. */
static bool field_span(const struct tk_field *f, const uint8_t *rec, uint32_t len, uint32_t *start,
                       uint32_t *bytes)
{
    if (f->offset > len || f->size > len - f->offset)
        return false;
    if (f->is_data_loc) {
        uint32_t loc;
        memcpy(&loc, rec + f->offset, 4);
        *start = loc & 0xffff;
        *bytes = loc >> 16;
    } else if (f->is_array && f->array_len == 0) {
        *start = f->offset;
        *bytes = len - f->offset;
    } else {
        *start = f->offset;
        *bytes = f->size;
    }
    return *start <= len && *bytes <= len - *start;
}

uint32_t tk_field_count(const struct tk_field *f, const uint8_t *rec, uint32_t len)
{
    uint32_t start, bytes, size = tk_field_elem_size(f);
    if (size == 0 || !field_span(f, rec, len, &start, &bytes))
        return 0; /* size 0: a field the parser refuses; never divided by */
    return bytes / size;
}

bool tk_field_int(const struct tk_field *f, const uint8_t *rec, uint32_t len, uint32_t i,
                  uint64_t *out)
{
    uint32_t start, bytes, size = tk_field_elem_size(f);
    if (!field_span(f, rec, len, &start, &bytes) || size == 0 || i >= bytes / size ||
        (size != 1 && size != 2 && size != 4 && size != 8))
        return false;
    uint64_t v = 0;
    memcpy(&v, rec + start + i * size, size); /* little-endian host and guest */
    if (f->is_signed && size < 8 && (v >> (size * 8 - 1)) & 1)
        v |= ~0ull << (size * 8);
    *out = v;
    return true;
}

bool tk_field_string(const struct tk_field *f, const uint8_t *rec, uint32_t len, const char **s,
                     size_t *n)
{
    uint32_t start, bytes;
    if (!field_span(f, rec, len, &start, &bytes))
        return false;
    const uint8_t *nul = memchr(rec + start, 0, bytes);
    *s = (const char *)rec + start;
    *n = nul ? (size_t)(nul - (rec + start)) : bytes;
    return true;
}
