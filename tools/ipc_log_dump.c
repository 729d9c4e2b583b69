/*
 * ipc_log_dump.c - finding IPC logs in a memory dump and printing them (ipc_log_dump.h).
 *
 * Nothing in a dump is trusted: every header field is checked before it is used, page
 * headers are copied out before they are read as structures (ELF segments need not be
 * aligned), and an event is decoded only when it is whole (ipc_log_event_check).
 */
#include "tools/ipc_log_dump.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ipc_logging/ipc_log_page.h"

#define PT_LOAD 1
#define MAX_PAGE_INDEX 65535 /* page numbers above this are taken for damage */

/* The n-byte little-endian number at p. */
static uint64_t get_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;)
        v = (v << 8) | p[i];
    return v;
}

/* --- the dump's memory ---------------------------------------------------------------------- */

/* Appends a region; -1 when memory runs out. */
static int add_region(struct dump_image *img, uint64_t phys, const uint8_t *bytes,
                      uint64_t size)
{
    struct dump_region *r = realloc(img->regions, (img->count + 1) * sizeof *r);
    if (!r)
        return -1;
    img->regions = r;
    r[img->count++] = (struct dump_region){ phys, bytes, size };
    return 0;
}

/*
 * Maps an ELF core's PT_LOAD segments (ELF32 or ELF64, little-endian). Returns 1 when the
 * headers hold up, 0 when they do not (img left empty), -1 when memory ran out. A segment
 * that the file holds only in part (a cut dump) is kept for the part there is.
 */
static int map_elf(const uint8_t *file, size_t size, struct dump_image *img, FILE *err)
{
    if (size < 0x34 || (file[4] != 1 && file[4] != 2) || file[5] != 1)
        return 0; /* shorter than any ELF header, or not 32/64-bit little-endian */
    bool is64 = file[4] == 2;
    size_t min_entry = is64 ? 56 : 32;
    if (is64 && size < 0x40)
        return 0;
    uint64_t phoff = is64 ? get_le(file + 0x20, 8) : get_le(file + 0x1c, 4);
    uint64_t entry = get_le(file + (is64 ? 0x36 : 0x2a), 2);
    uint64_t count = get_le(file + (is64 ? 0x38 : 0x2c), 2);
    if (entry < min_entry || phoff > size || count > (size - phoff) / entry)
        return 0;

    for (uint64_t i = 0; i < count; i++) {
        const uint8_t *ph = file + phoff + i * entry;
        if (get_le(ph, 4) != PT_LOAD)
            continue;
        uint64_t offset = is64 ? get_le(ph + 8, 8) : get_le(ph + 4, 4);
        uint64_t phys = is64 ? get_le(ph + 24, 8) : get_le(ph + 12, 4);
        uint64_t filesz = is64 ? get_le(ph + 32, 8) : get_le(ph + 16, 4);
        if (offset > size) {
            fprintf(err, "ipc_log_extract: ELF segment %llu lies beyond the end of the file\n",
                    (unsigned long long)i);
            continue;
        }
        if (filesz > size - offset) {
            fprintf(err, "ipc_log_extract: ELF segment %llu is cut short: %llu of %llu bytes\n",
                    (unsigned long long)i, (unsigned long long)(size - offset),
                    (unsigned long long)filesz);
            filesz = size - offset;
        }
        if (add_region(img, phys, file + offset, filesz) < 0)
            return -1;
    }
    return 1;
}

int dump_image_open(const uint8_t *file, size_t size, struct dump_image *img, FILE *err)
{
    img->regions = NULL;
    img->count = 0;
    img->elf = false;
    if (size >= 4 && memcmp(file, "\177ELF", 4) == 0) {
        int r = map_elf(file, size, img, err);
        img->elf = r > 0;
        if (r != 0)
            return r < 0 ? -1 : 0;
        fprintf(err, "ipc_log_extract: ELF headers do not hold up; reading raw memory instead\n");
    }
    return add_region(img, 0, file, size);
}

void dump_image_close(struct dump_image *img)
{
    free(img->regions);
    img->regions = NULL;
    img->count = 0;
}

const uint8_t *dump_image_at(const struct dump_image *img, uint64_t phys, size_t len)
{
    for (size_t i = 0; i < img->count; i++) {
        const struct dump_region *r = &img->regions[i];
        if (phys >= r->phys && phys - r->phys <= r->size && len <= r->size - (phys - r->phys))
            return r->bytes + (phys - r->phys);
    }
    return NULL;
}

/* --- finding the pages ---------------------------------------------------------------------- */

/* A page that holds up, with a copy of its header. */
struct found_page {
    uint64_t phys;
    uint64_t ctx_phys;
    uint32_t index;
    const uint8_t *data;
    struct ipc_log_page_header hdr;
};

/* One extraction: the dump, where to print, and the pages found so far. */
struct extraction {
    const struct dump_image *img;
    FILE *out, *err;
    struct extract_result *result;
    struct found_page *pages;
    size_t count, capacity;
};

/* Reports a problem on err and counts it. */
static void problem(struct extraction *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void problem(struct extraction *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ipc_log_extract: ", x->err);
    vfprintf(x->err, fmt, ap);
    fputc('\n', x->err);
    va_end(ap);
    x->result->problems++;
}

/* Why the context header at ctx (0x40 bytes) does not belong to the page, or NULL. */
static const char *context_mismatch(const uint8_t *ctx, const struct ipc_log_page_header *h)
{
    uint32_t version = (uint32_t)get_le(ctx + 8, 4);
    if (get_le(ctx, 4) != IPC_LOG_CONTEXT_MAGIC || get_le(ctx + 4, 4) != IPC_LOG_CONTEXT_NMAGIC)
        return "its context has no magic numbers";
    if (version != 1 && version != IPC_LOG_VERSION)
        return "its context has a layout version other than 1 or 2";
    if (get_le(ctx + 14, 2) != IPC_LOG_HEADER_SIZE)
        return "its context gives a page header size other than 0x40";
    if (get_le(ctx + 16, 8) != h->log_id)
        return "its context has another log id";
    return NULL;
}

/* Checks the page at phys (a 4 KiB copy in p) and keeps it; problems are reported. */
static int consider_page(struct extraction *x, uint64_t phys, const uint8_t *p)
{
    struct found_page f = { .phys = phys, .data = p + IPC_LOG_HEADER_SIZE };
    memcpy(&f.hdr, p, sizeof f.hdr);
    if (f.hdr.write_offset == 0xffff)
        f.hdr.write_offset = IPC_LOG_DATA_SIZE; /* Qualcomm's ipc_logging: also "full" */
    f.index = f.hdr.page_num & ~IPC_LOG_PAGE_FLAG;
    f.ctx_phys = phys + (uint64_t)f.hdr.ctx_offset;
    const uint8_t *ctx = dump_image_at(x->img, f.ctx_phys, IPC_LOG_HEADER_SIZE);
    const char *why = NULL;

    if (!(f.hdr.page_num & IPC_LOG_PAGE_FLAG))
        why = "a version 0 page (no flag bit in page_num)";
    else if (f.hdr.read_offset > IPC_LOG_DATA_SIZE || f.hdr.write_offset > IPC_LOG_DATA_SIZE)
        why = "read or write offset beyond the page's data";
    else if (f.index > MAX_PAGE_INDEX)
        why = "an implausible page number";
    else if (!ctx)
        why = "its context lies outside the dump";
    else
        why = context_mismatch(ctx, &f.hdr);
    if (why) {
        problem(x, "page at 0x%llx: %s; skipped", (unsigned long long)phys, why);
        return 0;
    }
    if (x->count == x->capacity) {
        size_t capacity = x->capacity ? 2 * x->capacity : 64;
        struct found_page *grown = realloc(x->pages, capacity * sizeof *grown);
        if (!grown)
            return -1;
        x->pages = grown;
        x->capacity = capacity;
    }
    x->pages[x->count++] = f;
    return 0;
}

/* Looks at every 4 KiB-aligned page of every region for the page magic numbers. */
static int scan_pages(struct extraction *x)
{
    for (size_t i = 0; i < x->img->count; i++) {
        const struct dump_region *r = &x->img->regions[i];
        uint64_t skip = (IPC_LOG_PAGE_SIZE - r->phys % IPC_LOG_PAGE_SIZE) % IPC_LOG_PAGE_SIZE;
        for (uint64_t at = skip; at <= r->size && r->size - at >= IPC_LOG_PAGE_SIZE;
             at += IPC_LOG_PAGE_SIZE) {
            const uint8_t *p = r->bytes + at;
            if (get_le(p, 4) == IPC_LOG_PAGE_MAGIC && get_le(p + 4, 4) == IPC_LOG_PAGE_NMAGIC &&
                consider_page(x, r->phys + at, p) < 0)
                return -1;
        }
    }
    return 0;
}

/* Orders pages by context, then page number, then address. */
static int by_context(const void *a, const void *b)
{
    const struct found_page *p = a, *q = b;
    if (p->ctx_phys != q->ctx_phys)
        return p->ctx_phys < q->ctx_phys ? -1 : 1;
    if (p->index != q->index)
        return p->index < q->index ? -1 : 1;
    return p->phys < q->phys ? -1 : p->phys > q->phys;
}

/* --- printing one context ------------------------------------------------------------------- */

/* A context's pages (found[0..count), sorted by page number) and its name. */
struct context {
    const struct found_page *found;
    size_t count;
    char name[IPC_LOG_NAME_SIZE + 1];
    struct ipc_log_context_header hdr;
};

/* Whether an event that looks whole starts at p: an event of any type opening with its
 * 8-byte timestamp, the shape of string events (and of the numbers-only events that older
 * kernels of ours logged, type 0x10). Decoding resumes there after damage. */
static bool looks_like_event_start(const uint8_t *p, size_t len)
{
    return ipc_log_event_check(p, len) > 0 && p[1] >= 10 && p[2] == TSV_TYPE_TIMESTAMP &&
           p[3] == 8;
}

/* The first offset from from on where an event seems to start (len if none). */
static size_t resync(const uint8_t *buf, size_t from, size_t len)
{
    while (from < len && !looks_like_event_start(buf + from, len - from))
        from++;
    return from;
}

/*
 * Prints the events of a run of stream bytes that no missing page interrupts. synced says
 * the run starts at an event (the oldest one); otherwise the first whole-looking event is
 * sought. cut_after says a missing page follows, which explains an event cut at the end.
 */
static void print_run(struct extraction *x, const struct context *c, const uint8_t *buf,
                      size_t len, bool synced, bool cut_after)
{
    char line[IPC_LOG_LINE_MAX];
    size_t at = synced ? 0 : resync(buf, 0, len);
    if (at > 0)
        problem(x, "context %s: %zu bytes after a missing page skipped up to the next event",
                c->name, at);
    while (at < len) {
        int n = ipc_log_event_check(buf + at, len - at);
        if (n > 0) {
            size_t line_len = ipc_log_format_line(buf + at, (size_t)n, line, sizeof line);
            fwrite(line, 1, line_len, x->out);
            x->result->events++;
            x->result->unreadable += !ipc_log_event_is_original_string(buf + at, (size_t)n);
            at += (size_t)n;
            continue;
        }
        if (buf[at] != TSV_TYPE_INVALID && (len - at < 2 || 2u + buf[at + 1] > len - at)) {
            problem(x, "context %s: the last %zu bytes are part of an event %s", c->name,
                    len - at, cut_after ? "continued on a missing page" : "never finished");
            return;
        }
        size_t next = resync(buf, at + 1, len);
        problem(x, "context %s: %zu bytes that are no event skipped", c->name, next - at);
        at = next;
    }
}

/* How many pages the context has: its page count (IPC_LOG_PAGE_COUNT_AT) when the dump
 * holds it and it is plausible, else one more than the highest page number found. */
static uint32_t context_pages(const struct extraction *x, const struct context *c)
{
    uint32_t found = c->found[c->count - 1].index + 1;
    const uint8_t *at = dump_image_at(x->img, c->found->ctx_phys + IPC_LOG_PAGE_COUNT_AT, 4);
    uint32_t said = at ? (uint32_t)get_le(at, 4) : 0;
    return said > found && said <= MAX_PAGE_INDEX + 1 ? said : found;
}

/*
 * Reports headers that contradict the order ipc_log_dump_spans took from them: more than
 * one page claiming the oldest event (a read_offset), or a page that started before one
 * the order puts ahead of it (the writer fills pages in order, stamping start_time as it
 * enters each). Either means damage, and that the events may come out of order.
 */
static void check_order(struct extraction *x, const struct context *c,
                        const struct found_page *const *pages, uint32_t n,
                        const struct ipc_log_span *spans, uint32_t count)
{
    uint32_t readers = 0, first = 0;
    for (uint32_t i = 0; i < n; i++)
        if (pages[i] && pages[i]->hdr.read_offset != 0 && readers++ == 0)
            first = i;
    if (readers > 1)
        problem(x, "context %s: %u pages claim the oldest event (page %u taken); the order "
                   "shown may be wrong", c->name, readers, first);
    /* When reading starts and ends on one page, that page was entered last. */
    uint32_t s = count > 1 && spans[0].page == spans[count - 1].page ? 1 : 0;
    const struct found_page *before = NULL;
    for (; s < count; s++) {
        const struct found_page *f = pages[spans[s].page];
        if (!f)
            continue;
        if (before && f->hdr.start_time < before->hdr.start_time) {
            problem(x, "context %s: page %u started before page %u, which comes ahead of it; "
                       "a header is damaged or a page is missing, and the order shown may be "
                       "wrong", c->name, f->index, before->index);
            return;
        }
        before = f;
    }
}

/* Prints one context: its header line, then its events in order. */
static int print_context(struct extraction *x, const struct context *c)
{
    uint32_t n = context_pages(x, c);
    const struct found_page **pages = calloc(n, sizeof *pages);
    const struct ipc_log_page_header **hdrs = calloc(n, sizeof *hdrs);
    struct ipc_log_span *spans = malloc((n + 1) * sizeof *spans);
    uint8_t *run = malloc((c->count + 1) * IPC_LOG_DATA_SIZE);
    if (!pages || !hdrs || !spans || !run) {
        free(pages), free(hdrs), free(spans), free(run);
        return -1;
    }

    uint32_t missing = 0;
    for (size_t i = 0; i < c->count; i++) {
        const struct found_page *f = &c->found[i];
        if (pages[f->index]) {
            problem(x, "context %s: page %u found twice (0x%llx kept, 0x%llx skipped)", c->name,
                    f->index, (unsigned long long)pages[f->index]->phys,
                    (unsigned long long)f->phys);
            continue;
        }
        pages[f->index] = f;
        hdrs[f->index] = &f->hdr;
    }
    for (uint32_t i = 0; i < n; i++)
        missing += !pages[i];
    if (missing)
        problem(x, "context %s: %u of its %u pages not found; their events are lost", c->name,
                missing, n);

    fprintf(x->out, "=== %s: %u pages, version %u, user version %u, log id 0x%llx ===\n", c->name,
            n, c->hdr.version, c->hdr.user_version, (unsigned long long)c->hdr.log_id);
    unsigned events_before = x->result->events, unreadable_before = x->result->unreadable;
    uint32_t count = ipc_log_dump_spans(hdrs, n, spans);
    check_order(x, c, pages, n, spans, count);
    size_t run_len = 0;
    bool synced = pages[spans[0].page] != NULL;
    for (uint32_t s = 0; s < count; s++) {
        const struct found_page *f = pages[spans[s].page];
        if (!f) {
            print_run(x, c, run, run_len, synced, true);
            run_len = 0;
            synced = false;
            continue;
        }
        memcpy(run + run_len, f->data + spans[s].start, spans[s].end - spans[s].start);
        run_len += spans[s].end - spans[s].start;
    }
    print_run(x, c, run, run_len, synced, false);
    x->result->contexts++;
    if (x->result->unreadable > unreadable_before)
        fprintf(x->err, "ipc_log_extract: context %s: %u of its %u events are not string events "
                        "as the original layout defines them (type 2: TIMESTAMP, QTIMER, "
                        "BYTE_ARRAY); Qualcomm's ipc_logging.py stops at the first of them\n",
                c->name, x->result->unreadable - unreadable_before,
                x->result->events - events_before);
    free(pages), free(hdrs), free(spans), free(run);
    return 0;
}

/* Orders contexts by name, then by address. */
static int by_name(const void *a, const void *b)
{
    const struct context *p = a, *q = b;
    int d = strcmp(p->name, q->name);
    if (d)
        return d;
    return p->found->ctx_phys < q->found->ctx_phys ? -1 : p->found->ctx_phys > q->found->ctx_phys;
}

/* Fills c from the group of pages starting at found: its header and a printable name. */
static void describe_context(struct extraction *x, const struct found_page *found, size_t count,
                             struct context *c)
{
    c->found = found;
    c->count = count;
    memcpy(&c->hdr, dump_image_at(x->img, found->ctx_phys, sizeof c->hdr), sizeof c->hdr);
    size_t i;
    for (i = 0; i < IPC_LOG_NAME_SIZE && c->hdr.name[i]; i++) {
        char ch = c->hdr.name[i];
        c->name[i] = ch >= 0x20 && ch < 0x7f ? ch : '?';
    }
    c->name[i] = '\0';
}

int ipc_log_extract(const struct dump_image *img, const char *only, FILE *out, FILE *err,
                    struct extract_result *result)
{
    struct extraction x = { img, out, err, result, NULL, 0, 0 };
    struct context *contexts = NULL;
    size_t ncontexts = 0;
    int status = -1;

    *result = (struct extract_result){ 0, 0, 0, 0 };
    if (scan_pages(&x) < 0)
        goto done;
    if (x.count == 0) {
        status = 0;
        goto done;
    }
    qsort(x.pages, x.count, sizeof *x.pages, by_context);
    contexts = malloc(x.count * sizeof *contexts);
    if (!contexts)
        goto done;
    for (size_t start = 0, end; start < x.count; start = end) {
        for (end = start + 1; end < x.count && x.pages[end].ctx_phys == x.pages[start].ctx_phys;)
            end++;
        describe_context(&x, &x.pages[start], end - start, &contexts[ncontexts]);
        if (!only || strcmp(contexts[ncontexts].name, only) == 0)
            ncontexts++;
    }
    qsort(contexts, ncontexts, sizeof *contexts, by_name);
    for (size_t i = 0; i < ncontexts; i++)
        if (print_context(&x, &contexts[i]) < 0)
            goto done;
    status = 0;
done:
    free(contexts);
    free(x.pages);
    return status;
}
