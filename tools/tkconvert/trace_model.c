/*
 * trace_model.c - decodes a capture into formats and merged records (see trace_model.h).
 */
#include "tools/tkconvert/trace_model.h"

#include <stdlib.h>
#include <string.h>

#include "tools/tkconvert/rb_page.h"

/* "events/SYSTEM/NAME/format": SYSTEM in system (NUL-terminated). False for other paths. */
static bool format_path(const char *path, char *system, size_t size)
{
    if (strncmp(path, "events/", 7) != 0)
        return false;
    const char *sys = path + 7, *slash = strchr(sys, '/');
    if (!slash || slash == sys || (size_t)(slash - sys) >= size)
        return false;
    const char *name = slash + 1, *slash2 = strchr(name, '/');
    if (!slash2 || slash2 == name || strcmp(slash2, "/format") != 0)
        return false;
    memcpy(system, sys, (size_t)(slash - sys));
    system[slash - sys] = '\0';
    return true;
}

/* A parsed format and where its file came in the capture (the first of an id wins). */
struct loaded_format {
    struct tk_format fmt;
    size_t file;
    const char *path;
};

static int by_id_then_file(const void *a, const void *b)
{
    const struct loaded_format *x = a, *y = b;
    if (x->fmt.id != y->fmt.id)
        return x->fmt.id < y->fmt.id ? -1 : 1;
    return (x->file > y->file) - (x->file < y->file);
}

/* Parses every events/SYSTEM/NAME/format file into t->formats, sorted by id. A file that
 * does not parse, or repeats an id, is reported and left out. */
static int load_formats(struct tk_trace *t, const struct capture *c, FILE *warn)
{
    char system[128], err[160];
    struct loaded_format *loaded = NULL;
    size_t n = 0;
    for (size_t i = 0; i < c->nr_files; i++) {
        const struct capture_file *f = &c->files[i];
        if (!format_path(f->path, system, sizeof system))
            continue;
        struct tk_format fmt;
        if (tk_format_parse(&fmt, system, (const char *)f->data, f->size, err, sizeof err) != 0) {
            fprintf(warn, "tkconvert: %.200s: %s; its events are left out\n", f->path, err);
            continue;
        }
        if (fmt.id < 0) {
            fprintf(warn, "tkconvert: %.200s: no ID line; its events are left out\n", f->path);
            tk_format_free(&fmt);
            continue;
        }
        if ((n & (n - 1)) == 0) { /* n a power of two (or 0): double */
            struct loaded_format *bigger = realloc(loaded, (n ? n * 2 : 16) * sizeof *bigger);
            if (!bigger) {
                tk_format_free(&fmt);
                goto no_memory;
            }
            loaded = bigger;
        }
        loaded[n++] = (struct loaded_format){fmt, i, f->path};
    }
    if (n)
        qsort(loaded, n, sizeof *loaded, by_id_then_file);
    t->formats = malloc((n ? n : 1) * sizeof *t->formats);
    if (!t->formats)
        goto no_memory;
    for (size_t i = 0; i < n; i++) {
        if (t->nr_formats && t->formats[t->nr_formats - 1].id == loaded[i].fmt.id) {
            fprintf(warn, "tkconvert: %.200s: an ID another format has; its events are left out\n",
                    loaded[i].path);
            tk_format_free(&loaded[i].fmt);
            continue;
        }
        t->formats[t->nr_formats++] = loaded[i].fmt;
    }
    free(loaded);
    return 0;
no_memory:
    for (size_t i = 0; i < n; i++)
        tk_format_free(&loaded[i].fmt);
    free(loaded);
    return -1;
}

static bool add_record(struct tk_trace *t, size_t *cap, const struct tk_record *r)
{
    if (t->nr_records == *cap) {
        size_t bigger = *cap ? *cap * 2 : 1024;
        struct tk_record *records = realloc(t->records, bigger * sizeof *records);
        if (!records)
            return false;
        t->records = records;
        *cap = bigger;
    }
    t->records[t->nr_records++] = *r;
    return true;
}

/* Decodes every page of cpu into records. False when memory ran out. */
static bool load_cpu(struct tk_trace *t, const struct capture *c, unsigned cpu, size_t *cap, FILE *warn)
{
    struct tk_cpu_stats *st = &t->cpu[cpu];
    uint32_t seq = 0;
    uint64_t last_ts = 0;
    bool gap = false; /* damaged frames since the last whole page (capture.h, gaps) */
    st->pages = c->nr_pages[cpu];
    t->pages[cpu] = calloc(st->pages ? st->pages : 1, sizeof *t->pages[cpu]);
    if (!t->pages[cpu])
        return false;
    for (size_t p = 0; p < c->nr_pages[cpu]; p++) {
        struct rb_page_reader rd;
        struct rb_event ev;
        char err[160];
        int got;
        gap |= capture_gap_before(c, cpu, p);
        if (rb_page_open(&rd, c->pages[cpu] + p * CAPTURE_PAGE_BYTES, CAPTURE_PAGE_BYTES, err,
                         sizeof err) != 0) {
            fprintf(warn, "tkconvert: cpu%u page %zu: %s; the page is left out\n", cpu, p, err);
            st->bad_pages++;
            continue;
        }
        t->pages[cpu][p] = (struct tk_page){.stamp = rd.stamp, .whole = true};
        if (gap) { /* events lost in the damage, before this page */
            struct tk_record lost = {.ts = rd.stamp, .cpu = cpu, .seq = seq++, .page = (uint32_t)p,
                                     .kind = TK_RECORD_LOST, .pid = -1, .lost = 0};
            st->damage_gaps++;
            gap = false;
            if (!add_record(t, cap, &lost))
                return false;
        }
        last_ts = rd.stamp;
        if (rd.missed) {
            struct tk_record lost = {.ts = rd.stamp, .cpu = cpu, .seq = seq++, .page = (uint32_t)p,
                                     .kind = TK_RECORD_LOST, .pid = -1,
                                     .lost = rd.missed_stored ? rd.missed_count : 0};
            if (rd.missed_stored)
                st->lost += rd.missed_count;
            else
                st->lost_unknown++;
            if (!add_record(t, cap, &lost))
                return false;
        }
        while ((got = rb_page_next(&rd, &ev, err, sizeof err)) > 0) {
            uint16_t type;
            int32_t pid;
            if (ev.length < TK_ENTRY_SIZE) {
                st->unknown_records++;
                continue;
            }
            memcpy(&type, ev.data, 2);
            memcpy(&pid, ev.data + 4, 4);
            const struct tk_format *fmt = tk_trace_by_id(t, type);
            if (!fmt) {
                st->unknown_records++;
                continue;
            }
            struct tk_record r = {.ts = ev.ts, .cpu = cpu, .seq = seq++, .page = (uint32_t)p,
                                  .kind = TK_RECORD_EVENT,
                                  .format = fmt, .data = ev.data, .length = ev.length,
                                  .pid = pid, .flags = ev.data[2], .preempt = ev.data[3]};
            if (!add_record(t, cap, &r))
                return false;
            st->events++;
            last_ts = ev.ts;
        }
        if (got < 0) {
            fprintf(warn, "tkconvert: cpu%u page %zu: %s; the rest of the page is left out\n",
                    cpu, p, err);
            st->bad_pages++;
        }
    }
    if (gap || capture_gap_before(c, cpu, c->nr_pages[cpu])) { /* after the last whole page */
        struct tk_record lost = {.ts = last_ts, .cpu = cpu, .seq = seq++,
                                 .page = (uint32_t)c->nr_pages[cpu], .kind = TK_RECORD_LOST,
                                 .pid = -1, .lost = 0};
        st->damage_gaps++;
        if (!add_record(t, cap, &lost))
            return false;
    }
    t->nr_cpu_records[cpu] = seq;
    if (st->unknown_records)
        fprintf(warn, "tkconvert: cpu%u: %zu records of a type no format file describes, left out\n",
                cpu, st->unknown_records);
    return true;
}

static int by_time(const void *a, const void *b)
{
    const struct tk_record *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    if (x->cpu != y->cpu)
        return x->cpu < y->cpu ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static const char *file_text(const struct capture *c, const char *path, size_t *size)
{
    const struct capture_file *f = capture_find(c, path);
    *size = f ? f->size : 0;
    return f ? (const char *)f->data : "";
}

int tk_trace_load(struct tk_trace *t, const struct capture *c, FILE *warn, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    size_t size, cap = 0;
    const char *text;
    t->nr_cpus = c->nr_cpus;
    if (load_formats(t, c, warn) != 0)
        goto no_memory;
    text = file_text(c, "/proc/kallsyms", &size);
    if (tk_symbols_parse(&t->symbols, text, size) != 0)
        goto no_memory;
    text = file_text(c, "saved_cmdlines", &size);
    if (tk_comms_parse(&t->comms, text, size) != 0)
        goto no_memory;
    for (unsigned cpu = 0; cpu < c->nr_cpus; cpu++)
        if (!load_cpu(t, c, cpu, &cap, warn))
            goto no_memory;
    if (t->nr_records)
        qsort(t->records, t->nr_records, sizeof *t->records, by_time);
    return 0;
no_memory:
    snprintf(err, errlen, "out of memory decoding the capture");
    tk_trace_free(t);
    return -1;
}

void tk_trace_free(struct tk_trace *t)
{
    for (size_t i = 0; i < t->nr_formats; i++)
        tk_format_free(&t->formats[i]);
    free(t->formats);
    tk_symbols_free(&t->symbols);
    tk_comms_free(&t->comms);
    free(t->records);
    for (unsigned cpu = 0; cpu < CAPTURE_MAX_CPUS; cpu++)
        free(t->pages[cpu]);
    memset(t, 0, sizeof *t);
}

const struct tk_format *tk_trace_by_id(const struct tk_trace *t, unsigned id)
{
    size_t lo = 0, hi = t->nr_formats;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((unsigned)t->formats[mid].id == id)
            return &t->formats[mid];
        if ((unsigned)t->formats[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const struct tk_format *tk_trace_format(const struct tk_trace *t, const char *system, const char *name)
{
    for (size_t i = 0; i < t->nr_formats; i++)
        if (strcmp(t->formats[i].system, system) == 0 && strcmp(t->formats[i].name, name) == 0)
            return &t->formats[i];
    return NULL;
}
