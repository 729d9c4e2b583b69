/*
 * event_fields.c - reading and listing an event's fields (see event_fields.h).
 */
#include "trace/events/event_fields.h"

#include "kernel/lib/string.h"

const struct trace_event_field trace_common_fields[TRACE_COMMON_FIELDS] = {
    { "unsigned short", "common_type", 0, 2, 0, false, TRACE_FIELD_INT },
    { "unsigned char", "common_flags", 2, 1, 0, false, TRACE_FIELD_INT },
    { "unsigned char", "common_preempt_count", 3, 1, 0, false, TRACE_FIELD_INT },
    { "int", "common_pid", 4, 4, 0, true, TRACE_FIELD_INT },
};

void trace_field_print_format(struct fs_writer *out, const struct trace_event_field *f)
{
    if (f->kind == TRACE_FIELD_DATA_LOC)
        fs_printf(out, "\tfield:__data_loc %s[] %s;", f->type, f->name);
    else if (f->kind == TRACE_FIELD_CHARS || f->kind == TRACE_FIELD_ARRAY)
        fs_printf(out, "\tfield:%s %s[%u];", f->type, f->name, (unsigned)f->array_len);
    else
        fs_printf(out, "\tfield:%s %s;", f->type, f->name);
    fs_printf(out, "\toffset:%u;\tsize:%u;\tsigned:%d;\n", (unsigned)f->offset,
              (unsigned)f->size, f->is_signed ? 1 : 0);
}

const struct trace_event_field *trace_field_find(const struct trace_event_field *fields,
                                                 unsigned n, const char *name)
{
    for (unsigned i = 0; i < n; i++)
        if (strcmp(fields[i].name, name) == 0)
            return &fields[i];
    return 0;
}

/* True when bytes [offset, offset + size) lie inside a record of length bytes. */
static bool inside(uint32_t offset, uint32_t size, uint32_t length)
{
    return offset <= length && size <= length - offset;
}

bool trace_field_read_int(const struct trace_event_field *f, const void *record, uint32_t length,
                          int64_t *value)
{
    if (f->kind != TRACE_FIELD_INT || !inside(f->offset, f->size, length))
        return false;
    const uint8_t *p = (const uint8_t *)record + f->offset;
    uint64_t v = 0;
    switch (f->size) {
    case 1: { uint8_t x; memcpy(&x, p, 1); v = f->is_signed ? (uint64_t)(int64_t)(int8_t)x : x; break; }
    case 2: { uint16_t x; memcpy(&x, p, 2); v = f->is_signed ? (uint64_t)(int64_t)(int16_t)x : x; break; }
    case 4: { uint32_t x; memcpy(&x, p, 4); v = f->is_signed ? (uint64_t)(int64_t)(int32_t)x : x; break; }
    case 8: memcpy(&v, p, 8); break;
    default: return false;
    }
    *value = (int64_t)v;
    return true;
}

bool trace_field_read_string(const struct trace_event_field *f, const void *record,
                             uint32_t length, const char **text, uint32_t *len)
{
    const uint8_t *base = record;
    uint32_t at, max;
    if (f->kind == TRACE_FIELD_CHARS) {
        at = f->offset;
        max = f->size;
    } else if (f->kind == TRACE_FIELD_DATA_LOC) {
        uint32_t loc;
        if (f->size != 4 || !inside(f->offset, 4, length))
            return false;
        memcpy(&loc, base + f->offset, 4);
        at = loc & 0xffffu;
        max = loc >> 16;
    } else {
        return false;
    }
    if (!inside(at, max, length))
        return false;
    const char *s = (const char *)base + at;
    uint32_t n = 0;
    while (n < max && s[n])
        n++;
    *text = s;
    *len = n;
    return true;
}
