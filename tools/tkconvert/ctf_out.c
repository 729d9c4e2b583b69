/*
 * ctf_out.c - the CTF 1.8 writer (see ctf_out.h).
 */
#include "tools/tkconvert/ctf_out.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


#define CTF_MAGIC 0xc1fc1fc1u
#define PACKET_HEADER_BYTES (4 + 4 + 8 + 8 + 8 + 8 + 8 + 4)

/* A growing byte buffer: one packet. */
struct bytes {
    uint8_t *data;
    size_t len, cap;
    bool no_memory;
};

static void put(struct bytes *b, const void *src, size_t n)
{
    if (b->no_memory)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 8192;
        while (cap < b->len + n)
            cap *= 2;
        uint8_t *data = realloc(b->data, cap);
        if (!data) {
            b->no_memory = true;
            return;
        }
        b->data = data;
        b->cap = cap;
    }
    memcpy(b->data + b->len, src, n);
    b->len += n;
}

static void put_u32(struct bytes *b, uint32_t v) { put(b, &v, 4); }
static void put_u64(struct bytes *b, uint64_t v) { put(b, &v, 8); }

/* Whether the field's integers read best in hex: pointers and kernel addresses. */
static bool hex_field(const struct tk_field *f)
{
    static const char *const names[] = {"ip", "parent_ip", "func", "pc", "eip", "caller",
                                        "phys", "virt", "cr3", "eflags"};
    if (strchr(f->type, '*'))
        return true;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(f->name, names[i]) == 0)
            return true;
    return false;
}

/* How a field is laid out in the stream. */
enum ctf_kind { CTF_INT, CTF_STRING, CTF_ARRAY, CTF_SEQUENCE, CTF_BYTES };

static enum ctf_kind kind_of(const struct tk_field *f)
{
    if (f->is_string)
        return CTF_STRING;
    if (f->is_data_loc || (f->is_array && f->array_len == 0))
        return CTF_SEQUENCE;
    if (f->is_array) {
        uint32_t e = f->size / f->array_len;
        return e == 1 || e == 2 || e == 4 || e == 8 ? CTF_ARRAY : CTF_BYTES;
    }
    return CTF_INT;
}

static void put_int_type(FILE *m, uint32_t bytes, bool is_signed, bool hex)
{
    fprintf(m, "integer { size = %u; align = 8; signed = %s; base = %d; }", bytes * 8,
            is_signed ? "true" : "false", hex ? 16 : 10);
}

/* Writes a name from the capture into the TSDL text as a safe string: letters, digits and
 * "_.-" are kept, anything else (quotes, backslashes, blanks) becomes "_". */
static void put_safe_name(FILE *m, const char *name)
{
    for (; *name; name++) {
        char ch = *name;
        bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' || ch == '-';
        fputc(keep ? ch : '_', m);
    }
}

/* Whether name could clash with a field of fmt in a CTF reader, which may drop one leading
 * "_" of a name or not: equal with or without one "_" in front of either. */
static bool name_taken(const struct tk_format *fmt, const char *name)
{
    for (size_t i = 0; i < fmt->nr_fields; i++) {
        const char *field = fmt->fields[i].name;
        if (strcmp(field, name) == 0 || (field[0] == '_' && strcmp(field + 1, name) == 0) ||
            (name[0] == '_' && strcmp(field, name + 1) == 0))
            return true;
    }
    return false;
}

/* The name (without CTF's leading "_") of the length field of sequence f: NAME_length, with
 * "_" in front while it could clash with a field's name. */
static void length_name(const struct tk_format *fmt, const struct tk_field *f, char *out, size_t size)
{
    int under = 0;
    do
        snprintf(out, size, "%.*s%s_length", under, "________________", f->name);
    while (name_taken(fmt, out) && (under += 2) < 16);
}

static void put_event_class(FILE *m, const struct tk_format *fmt)
{
    char len_name[160];
    fputs("\nevent {\n\tname = \"", m);
    put_safe_name(m, fmt->system);
    fputc(':', m);
    put_safe_name(m, fmt->name);
    fprintf(m, "\";\n\tid = %d;\n\tstream_id = 0;\n\tfields := struct {\n", fmt->id);
    for (size_t i = 0; i < fmt->nr_fields; i++) {
        const struct tk_field *f = &fmt->fields[i];
        if (strcmp(f->name, "common_type") == 0)
            continue;
        fputs("\t\t", m);
        switch (kind_of(f)) {
        case CTF_INT:
            put_int_type(m, f->size, f->is_signed, hex_field(f));
            fprintf(m, " _%s;\n", f->name);
            break;
        case CTF_STRING:
            fprintf(m, "string _%s;\n", f->name);
            break;
        case CTF_ARRAY:
            put_int_type(m, f->size / f->array_len, f->is_signed, hex_field(f));
            fprintf(m, " _%s[%u];\n", f->name, f->array_len);
            break;
        case CTF_BYTES:
            put_int_type(m, 1, false, true);
            fprintf(m, " _%s[%u];\n", f->name, f->size);
            break;
        case CTF_SEQUENCE:
            length_name(fmt, f, len_name, sizeof len_name);
            fprintf(m, "integer { size = 32; align = 8; signed = false; } _%s;\n\t\t", len_name);
            put_int_type(m, 1, f->is_signed, true);
            fprintf(m, " _%s[_%s];\n", f->name, len_name);
            break;
        }
    }
    fputs("\t};\n};\n", m);
}

static int write_metadata(const struct tk_trace *t, const char *dir, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/metadata", dir);
    FILE *m = fopen(path, "w");
    if (!m) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    fputs("/* CTF 1.8 */\n"
          "/* tracekern's trace, converted by tkconvert from a binary capture. */\n\n"
          "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
          "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
          "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n\n"
          "trace {\n\tmajor = 1;\n\tminor = 8;\n\tbyte_order = le;\n"
          "\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint32_t stream_id;\n\t};\n};\n\n"
          "env {\n\tdomain = \"kernel\";\n\tsysname = \"tracekern\";\n"
          "\ttracer_name = \"tracekern\";\n\ttrace_clock = \"local\";\n};\n\n"
          "clock {\n\tname = \"local\";\n\tdescription = \"tracekern's trace clock: the CPU's cycle counter in ns since boot\";\n"
          "\tfreq = 1000000000;\n\tprecision = 1;\n\toffset_s = 0;\n\toffset = 0;\n\tabsolute = false;\n};\n\n"
          "typealias integer { size = 64; align = 8; signed = false; map = clock.local.value; } := clock_ns_t;\n\n"
          "stream {\n\tid = 0;\n"
          "\tpacket.context := struct {\n\t\tclock_ns_t timestamp_begin;\n\t\tclock_ns_t timestamp_end;\n"
          "\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n\t\tuint64_t events_discarded;\n"
          "\t\tuint32_t cpu_id;\n\t};\n"
          "\tevent.header := struct {\n\t\tuint32_t id;\n\t\tclock_ns_t timestamp;\n\t};\n};\n",
          m);
    for (size_t i = 0; i < t->nr_formats; i++)
        put_event_class(m, &t->formats[i]);
    if (fclose(m) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Appends one record's fields as the metadata lays them out. False when a fixed field lies
 * outside the record (the record is then left out). */
static bool put_fields(struct bytes *b, const struct tk_format *fmt, const uint8_t *rec, uint32_t len)
{
    for (size_t i = 0; i < fmt->nr_fields; i++) {
        const struct tk_field *f = &fmt->fields[i];
        if (strcmp(f->name, "common_type") == 0)
            continue;
        enum ctf_kind kind = kind_of(f);
        if (kind != CTF_SEQUENCE && kind != CTF_STRING && (f->offset > len || f->size > len - f->offset))
            return false;
        switch (kind) {
        case CTF_INT:
        case CTF_ARRAY:
        case CTF_BYTES:
            put(b, rec + f->offset, f->size);
            break;
        case CTF_STRING: {
            const char *s = "";
            size_t n = 0;
            if (!tk_field_string(f, rec, len, &s, &n) && !f->is_data_loc && f->array_len)
                return false;
            put(b, s, n);
            put(b, "", 1);
            break;
        }
        case CTF_SEQUENCE: {
            uint32_t count = tk_field_count(f, rec, len);
            const char *s = "";
            size_t n = 0;
            if (count)
                tk_field_string(f, rec, len, &s, &n); /* the span: bytes, NULs included */
            put_u32(b, count);
            if (count) {
                uint32_t start = (uint32_t)((const uint8_t *)s - rec);
                put(b, rec + start, count);
            }
            break;
        }
        }
    }
    return true;
}

/* One page's records as a packet, appended to file: rec[0..n), in their order on the CPU,
 * all of page number page (page NULL: no page, an empty packet at *clock carrying only a
 * change of events_discarded, for a lost mark after the CPU's last page). *clock is the
 * stream's last time: CTF readers refuse a stream whose time goes back, so a (damaged)
 * page's earlier times are raised to it. */
static bool write_packet(FILE *file, unsigned cpu, const struct tk_page *page,
                         const struct tk_record *const *rec, size_t n, uint64_t *discarded,
                         uint64_t *clock, size_t *left_out, struct bytes *b)
{
    uint64_t stamp = page ? page->stamp : 0;
    uint64_t first = stamp > *clock ? stamp : *clock, last = first;
    bool any = false;
    uint8_t header[PACKET_HEADER_BYTES] = {0};
    b->len = 0;
    put(b, header, sizeof header);
    for (size_t i = 0; i < n; i++) {
        const struct tk_record *r = rec[i];
        if (r->kind == TK_RECORD_LOST) {
            *discarded += r->lost ? r->lost : 1; /* 1: lost, how many unknown */
            continue;
        }
        size_t mark = b->len;
        uint64_t ts = r->ts > *clock ? r->ts : *clock;
        put_u32(b, (uint32_t)r->format->id);
        put_u64(b, ts);
        if (!put_fields(b, r->format, r->data, r->length)) {
            b->len = mark;
            ++*left_out;
            continue;
        }
        if (!any)
            first = ts;
        any = true;
        last = *clock = ts;
    }
    if (b->no_memory)
        return false;
    *clock = last;
    uint8_t *h = b->data;
    uint32_t magic = CTF_MAGIC, stream_id = 0, cpu_id = cpu;
    uint64_t bits = (uint64_t)b->len * 8;
    memcpy(h, &magic, 4);
    memcpy(h + 4, &stream_id, 4);
    memcpy(h + 8, &first, 8);
    memcpy(h + 16, &last, 8);
    memcpy(h + 24, &bits, 8);
    memcpy(h + 32, &bits, 8);
    memcpy(h + 40, discarded, 8);
    memcpy(h + 48, &cpu_id, 4);
    return fwrite(b->data, 1, b->len, file) == b->len;
}

/* cpu's records in their order on the CPU (by seq), into order[0..t->nr_cpu_records[cpu]). */
static void cpu_records(const struct tk_trace *t, unsigned cpu, const struct tk_record **order)
{
    for (size_t i = 0; i < t->nr_records; i++)
        if (t->records[i].cpu == cpu && t->records[i].seq < t->nr_cpu_records[cpu])
            order[t->records[i].seq] = &t->records[i];
}

/* Writes cpu's stream: a packet per whole page, one more for lost marks after the last. */
static bool write_stream(FILE *f, const struct tk_trace *t, unsigned cpu,
                         const struct tk_record **order, size_t *left_out, struct bytes *b)
{
    size_t n = t->nr_cpu_records[cpu], next = 0, pages = t->cpu[cpu].pages;
    uint64_t discarded = 0, clock = 0;
    cpu_records(t, cpu, order);
    for (size_t p = 0; p <= pages; p++) {
        size_t from = next;
        while (next < n && order[next]->page == p)
            next++;
        bool ok = true;
        if (p < pages && t->pages[cpu][p].whole)
            ok = write_packet(f, cpu, &t->pages[cpu][p], order + from, next - from, &discarded,
                              &clock, left_out, b);
        else if (p == pages && next > from)
            ok = write_packet(f, cpu, NULL, order + from, next - from, &discarded, &clock,
                              left_out, b);
        if (!ok)
            return false;
    }
    return true;
}

int tk_ctf_write(const struct tk_trace *t, const char *dir, FILE *warn, char *err, size_t errlen)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot make directory %s: %s", dir, strerror(errno));
        return -1;
    }
    if (write_metadata(t, dir, err, errlen) != 0)
        return -1;
    struct bytes b = {0};
    size_t left_out = 0, most = 0;
    for (unsigned cpu = 0; cpu < t->nr_cpus; cpu++)
        most = t->nr_cpu_records[cpu] > most ? t->nr_cpu_records[cpu] : most;
    const struct tk_record **order = malloc((most ? most : 1) * sizeof *order);
    if (!order) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (unsigned cpu = 0; cpu < t->nr_cpus; cpu++) {
        if (t->cpu[cpu].pages == 0 && t->nr_cpu_records[cpu] == 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/stream_cpu%u", dir, cpu);
        FILE *f = fopen(path, "wb");
        if (!f) {
            snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
            free(b.data);
            free(order);
            return -1;
        }
        bool ok = write_stream(f, t, cpu, order, &left_out, &b);
        if (fclose(f) != 0 || !ok) {
            snprintf(err, errlen, "cannot write %s: %s", path,
                     b.no_memory ? "out of memory" : strerror(errno));
            free(b.data);
            free(order);
            return -1;
        }
    }
    free(b.data);
    free(order);
    if (left_out)
        fprintf(warn, "tkconvert: ctf: %zu records shorter than their format, left out\n", left_out);
    return 0;
}
