/*
 * capture.c - the binary capture's frame reader (see capture.h and uapi/trace_capture.h).
 */
#define _GNU_SOURCE /* memmem */
#include "tools/tkconvert/capture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/frame_sum.h"

static uint32_t get32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

static const uint8_t magic_bytes[4] = {'T', 'K', 'C', '2'};

/* Drops the session's files, pages and page builders (a START frame, or the end). */
static void reset_session(struct capture *c)
{
    for (size_t i = 0; i < c->nr_files; i++) {
        free(c->files[i].path);
        free(c->files[i].data);
    }
    free(c->files);
    c->files = NULL;
    c->nr_files = c->files_cap = 0;
    free(c->file_index);
    c->file_index = NULL;
    c->index_size = 0;
    for (unsigned cpu = 0; cpu < CAPTURE_MAX_CPUS; cpu++) {
        free(c->pages[cpu]);
        c->pages[cpu] = NULL;
        c->nr_pages[cpu] = c->pages_cap[cpu] = 0;
        free(c->gaps[cpu]);
        c->gaps[cpu] = NULL;
        c->nr_gaps[cpu] = c->gaps_cap[cpu] = 0;
        free(c->builders[cpu]);
        c->builders[cpu] = NULL;
    }
    c->have_clock = false;
    c->nr_cpus = 0;
    c->started = false;
    c->ended = false;
    memset(&c->start, 0, sizeof c->start);
    memset(c->frames, 0, sizeof c->frames);
}

void capture_free(struct capture *c)
{
    reset_session(c);
    free(c->damage);
    c->damage = NULL;
    c->nr_damage = c->damage_cap = 0;
}

/* Makes room for one more of n items in *array (of *cap, each size bytes), doubling. */
static bool grow(void *array, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return true;
    size_t bigger = *cap ? *cap * 2 : 16;
    void *p = realloc(*(void **)array, bigger * size);
    if (!p)
        return false;
    *(void **)array = p;
    *cap = bigger;
    return true;
}

/* Logs a damaged stretch. False only when memory ran out. */
static bool log_damage(struct capture *c, uint64_t offset, uint64_t skipped, const char *reason)
{
    if (!grow(&c->damage, &c->damage_cap, c->nr_damage, sizeof *c->damage))
        return false;
    struct capture_damage *d = &c->damage[c->nr_damage++];
    d->offset = offset;
    d->skipped = skipped;
    snprintf(d->reason, sizeof d->reason, "%s", reason);
    return true;
}

/* Finishes cpu's open page, if it has a builder (capture.h, builders). False only when
 * memory ran out. */
static bool finish_cpu(struct capture *c, unsigned cpu)
{
    return !c->builders[cpu] || page_builder_finish(c->builders[cpu], &c->clock);
}

/* Notes that a damaged stretch may have held events of cpu (-1: of every CPU), after the
 * pages kept so far, the CPU's open page finished first (capture.h, gaps). False only when
 * memory ran out. */
static bool mark_gap(struct capture *c, int cpu, unsigned wanted)
{
    if (c->ended || (wanted && c->sessions > wanted))
        return true; /* after the session's END, or after the session kept */
    for (unsigned k = 0; k < c->nr_cpus; k++) {
        if (cpu >= 0 && k != (unsigned)cpu)
            continue;
        if (!finish_cpu(c, k))
            return false;
        size_t n = c->nr_gaps[k];
        if (n && c->gaps[k][n - 1] == c->nr_pages[k])
            continue; /* this place is marked already */
        if (!grow(&c->gaps[k], &c->gaps_cap[k], n, sizeof *c->gaps[k]))
            return false;
        c->gaps[k][n] = c->nr_pages[k];
        c->nr_gaps[k] = n + 1;
    }
    return true;
}

bool capture_gap_before(const struct capture *c, unsigned cpu, size_t page)
{
    size_t lo = 0, hi = cpu < CAPTURE_MAX_CPUS ? c->nr_gaps[cpu] : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->gaps[cpu][mid] == page)
            return true;
        if (c->gaps[cpu][mid] < page)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* FNV-1a of a path. */
static size_t path_hash(const char *path)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *path; path++)
        h = (h ^ (uint8_t)*path) * 0x100000001b3ull;
    return (size_t)h;
}

/* The index slot of path: its file's, or the empty one where it would go. */
static size_t *index_slot(const struct capture *c, const char *path)
{
    size_t mask = c->index_size - 1;
    for (size_t i = path_hash(path) & mask;; i = (i + 1) & mask) {
        size_t *slot = &c->file_index[i];
        if (*slot == 0 || strcmp(c->files[*slot - 1].path, path) == 0)
            return slot;
    }
}

/* Rebuilds the index at twice the size when it is half full. */
static bool index_grow(struct capture *c)
{
    if ((c->nr_files + 1) * 2 <= c->index_size)
        return true;
    size_t size = c->index_size ? c->index_size * 2 : 64;
    size_t *index = calloc(size, sizeof *index);
    if (!index)
        return false;
    free(c->file_index);
    c->file_index = index;
    c->index_size = size;
    for (size_t i = 0; i < c->nr_files; i++)
        *index_slot(c, c->files[i].path) = i + 1;
    return true;
}

const struct capture_file *capture_find(const struct capture *c, const char *path)
{
    if (c->file_index) {
        size_t slot = *index_slot(c, path);
        return slot ? &c->files[slot - 1] : NULL;
    }
    for (size_t i = 0; i < c->nr_files; i++) /* a capture built by hand, without an index */
        if (strcmp(c->files[i].path, path) == 0)
            return &c->files[i];
    return NULL;
}

/* The offset of the next magic at or after from, or len. */
static size_t next_magic(const uint8_t *buf, size_t len, size_t from)
{
    while (from + 4 <= len) {
        const uint8_t *hit = memchr(buf + from, 'T', len - from - 3);
        if (!hit)
            break;
        if (memcmp(hit, magic_bytes, 4) == 0)
            return (size_t)(hit - buf);
        from = (size_t)(hit - buf) + 1;
    }
    return len;
}

/* Whether an EVENTS frame's length is one the guest sends: its struct, then at most a page
 * of records. */
/* Whether a whole CAPTURE_RETRACT of cpu starts at pos: it withdraws the EVENTS frame just
 * before it (uapi/trace_capture.h). One that follows no whole EVENTS frame withdraws
 * nothing (that frame was damage already) and is only counted (use_frame). */
static bool retracted(const uint8_t *buf, size_t len, size_t pos, unsigned cpu)
{
    return len - pos >= CAPTURE_HEADER_SIZE && get32(buf + pos) == CAPTURE_MAGIC &&
           get16(buf + pos + 4) == CAPTURE_RETRACT && get16(buf + pos + 6) == cpu &&
           get32(buf + pos + 8) == 0 && get32(buf + pos + 12) == 0;
}

static bool events_length_ok(uint32_t length)
{
    return length >= sizeof(struct capture_events) &&
           length - sizeof(struct capture_events) <= CAPTURE_PAGE_BYTES;
}

/* Why a whole frame (its check passed) cannot be used, or NULL when it can; the CLOCK
 * frame's reasons are written into reason. */
static const char *check_frame(const struct capture *c, unsigned type, unsigned cpu,
                               const uint8_t *payload, uint32_t length, char *reason,
                               size_t reason_len)
{
    switch (type) {
    case CAPTURE_START:
        if (length < sizeof(struct capture_start))
            return "START frame too short";
        if (get32(payload) != CAPTURE_VERSION)
            return "START frame of an unknown version";
        if (get32(payload + 4) == 0 || get32(payload + 4) > CAPTURE_MAX_CPUS)
            return "START frame with a CPU count out of range";
        if (get32(payload + 8) != CAPTURE_PAGE_BYTES)
            return "START frame with a page size other than 4096";
        return NULL;
    case CAPTURE_FILE: {
        const uint8_t *nul = memchr(payload, 0, length);
        if (!nul || nul == payload)
            return "FILE frame without a path";
        return NULL;
    }
    case CAPTURE_CLOCK: {
        struct tk_clock k;
        return tk_clock_parse(&k, payload, length, reason, reason_len) == 0 ? NULL : reason;
    }
    case CAPTURE_EVENTS:
        if (!events_length_ok(length))
            return "EVENTS frame shorter than its header or longer than a page";
        if (cpu >= (c->started ? c->nr_cpus : CAPTURE_MAX_CPUS))
            return "EVENTS frame of a CPU out of range";
        return NULL;
    case CAPTURE_RETRACT:
        return length == 0 ? NULL : "RETRACT frame with a payload";
    case CAPTURE_END:
        return NULL;
    }
    return "unknown frame type";
}

/* Keeps a FILE frame, replacing an earlier one of the same path. */
static bool add_file(struct capture *c, const uint8_t *payload, uint32_t length)
{
    const char *path = (const char *)payload; /* check_frame found its NUL */
    size_t path_len = strlen(path);
    size_t size = length - path_len - 1;
    uint8_t *data = malloc(size ? size : 1);
    if (!data || !index_grow(c)) {
        free(data);
        return false;
    }
    memcpy(data, payload + path_len + 1, size);
    size_t *slot = index_slot(c, path);
    if (*slot) {
        struct capture_file *f = &c->files[*slot - 1];
        free(f->data);
        f->data = data;
        f->size = size;
        return true;
    }
    char *copy = strdup(path);
    if (!copy || !grow(&c->files, &c->files_cap, c->nr_files, sizeof *c->files)) {
        free(copy);
        free(data);
        return false;
    }
    c->files[c->nr_files++] = (struct capture_file){copy, data, size};
    *slot = c->nr_files;
    return true;
}

/* A page builder's emit: appends a finished page to cpu's pages. */
static bool add_page(void *ctx, unsigned cpu, const uint8_t *page)
{
    struct capture *c = ctx;
    size_t n = c->nr_pages[cpu];
    if (!grow(&c->pages[cpu], &c->pages_cap[cpu], n, CAPTURE_PAGE_BYTES))
        return false;
    memcpy(c->pages[cpu] + n * CAPTURE_PAGE_BYTES, page, CAPTURE_PAGE_BYTES);
    c->nr_pages[cpu] = n + 1;
    return true;
}

/* Finishes every CPU's open page (END, the end of the input). False when memory ran out. */
static bool finish_all(struct capture *c)
{
    for (unsigned cpu = 0; cpu < CAPTURE_MAX_CPUS; cpu++)
        if (!finish_cpu(c, cpu))
            return false;
    return true;
}

/* How an EVENTS frame was used. */
enum events_use { EVENTS_USED, EVENTS_DAMAGED, EVENTS_NO_MEMORY };

/* Turns a checked EVENTS frame of cpu into pages. EVENTS_DAMAGED when it could not be
 * used whole: *bad_offset (in the payload) and reason say where and why. */
static enum events_use add_events(struct capture *c, unsigned cpu, const uint8_t *payload,
                                  uint32_t length, uint32_t *bad_offset, char *reason,
                                  size_t reason_len)
{
    if (!c->started && cpu + 1 > c->nr_cpus)
        c->nr_cpus = cpu + 1;
    if (!c->have_clock) {
        *bad_offset = 0;
        snprintf(reason, reason_len, "EVENTS frame before any CLOCK frame: its times cannot "
                                     "be converted");
        return EVENTS_DAMAGED;
    }
    if (!c->builders[cpu]) {
        c->builders[cpu] = malloc(sizeof *c->builders[cpu]);
        if (!c->builders[cpu])
            return EVENTS_NO_MEMORY;
        page_builder_init(c->builders[cpu], cpu, add_page, c);
    }
    char err[96];
    int rc = page_builder_frame(c->builders[cpu], &c->clock, payload, length, bad_offset, err,
                                sizeof err);
    if (rc == PAGE_BUILDER_NO_MEMORY)
        return EVENTS_NO_MEMORY;
    if (rc == PAGE_BUILDER_BAD) {
        snprintf(reason, reason_len, "EVENTS frame of cpu%u: %.80s", cpu, err);
        return EVENTS_DAMAGED;
    }
    return EVENTS_USED;
}

/* True for a whole frame that comes after the session wanted has been read (0 wants the
 * last, which nothing comes after): it is only counted, if it starts a session. */
static bool after_wanted(struct capture *c, unsigned type, unsigned wanted)
{
    if (!wanted || c->session != wanted)
        return false;
    if (type == CAPTURE_START)
        c->sessions++;
    return c->sessions != wanted;
}

/* Uses a whole, checked frame (an EVENTS frame is add_events', not this). False only when
 * memory ran out. */
static bool use_frame(struct capture *c, unsigned type, const uint8_t *payload, uint32_t length)
{
    switch (type) {
    case CAPTURE_START:
        reset_session(c);
        c->started = true;
        c->session = ++c->sessions;
        c->start.version = get32(payload);
        c->start.nr_cpus = get32(payload + 4);
        c->start.page_size = get32(payload + 8);
        c->start.long_size = get32(payload + 12);
        c->nr_cpus = c->start.nr_cpus;
        break;
    case CAPTURE_CLOCK: {
        char unused[8];
        tk_clock_parse(&c->clock, payload, length, unused, sizeof unused); /* checked */
        c->have_clock = true;
        break;
    }
    case CAPTURE_FILE:
        if (!add_file(c, payload, length))
            return false;
        break;
    case CAPTURE_END:
        if (!finish_all(c))
            return false;
        c->ended = true;
        break;
    }
    return true;
}

/* Whether buf is a format 1 capture: it holds "TKCF" and nowhere "TKC2" (COM2's text
 * before a capture does not hide it). */
static bool is_format1(const uint8_t *buf, size_t len)
{
    return memmem(buf, len, "TKCF", 4) && !memmem(buf, len, magic_bytes, 4);
}

int capture_read(struct capture *c, const uint8_t *buf, size_t len, unsigned session, char *err,
                 size_t errlen)
{
    size_t pos = 0;
    memset(c, 0, sizeof *c);
    if (is_format1(buf, len)) {
        c->format1 = true;
        snprintf(err, errlen, "a format 1 capture (magic TKCF): record it again with this "
                              "tree's kernel");
        return -1;
    }
    while (pos < len) {
        char reason[112];
        const char *why = NULL;
        int gap_cpu = -1; /* the CPU whose events the damage may have held; -1: any */
        size_t left = len - pos;
        if (left < 4 && memcmp(buf + pos, magic_bytes, left) == 0) {
            c->truncated = true;
            why = "frame header cut off by the end of the capture";
        } else if (left < 4 || get32(buf + pos) != CAPTURE_MAGIC) {
            why = "no frame magic";
        } else if (left < CAPTURE_HEADER_SIZE) {
            c->truncated = true;
            why = "frame header cut off by the end of the capture";
        } else {
            unsigned type = get16(buf + pos + 4), cpu = get16(buf + pos + 6);
            uint32_t length = get32(buf + pos + 8);
            const uint8_t *payload = buf + pos + CAPTURE_HEADER_SIZE;
            size_t end = pos + CAPTURE_HEADER_SIZE + length;
            if (type < CAPTURE_START || type >= CAPTURE_TYPES) {
                snprintf(reason, sizeof reason, "unknown frame type %u", type);
                why = reason;
            } else if (length > CAPTURE_MAX_PAYLOAD) {
                snprintf(reason, sizeof reason, "frame length %u over the limit", length);
                why = reason;
            } else if (length > left - CAPTURE_HEADER_SIZE) {
                /* Cut off by the end, unless a later frame shows the length is damaged. */
                if (next_magic(buf, len, pos + 1) == len)
                    c->truncated = true;
                snprintf(reason, sizeof reason, "frame of %u bytes cut off by the end of the capture", length);
                why = reason;
            } else if (frame_sum(payload, length) != get32(buf + pos + 12)) {
                why = "frame check mismatch";
                if (type == CAPTURE_EVENTS && events_length_ok(length) && cpu < c->nr_cpus)
                    gap_cpu = (int)cpu; /* the header is whole: its CPU is believed */
            } else if (after_wanted(c, type, session)) {
                pos = end;
                continue;
            } else if ((why = check_frame(c, type, cpu, payload, length, reason,
                                          sizeof reason)) == NULL) {
                if (type != CAPTURE_EVENTS) {
                    if (!use_frame(c, type, payload, length))
                        goto no_memory;
                    c->frames[type]++; /* after START's reset */
                    pos = end;
                    continue;
                }
                c->frames[type]++;
                if (retracted(buf, len, end, cpu)) { /* torn in the guest: its events are */
                    c->frames[CAPTURE_RETRACT]++;    /* the next frame's lost_before */
                    pos = end + CAPTURE_HEADER_SIZE;
                    continue;
                }
                uint32_t bad;
                enum events_use use = add_events(c, cpu, payload, length, &bad, reason,
                                                 sizeof reason);
                if (use == EVENTS_NO_MEMORY)
                    goto no_memory;
                if (use == EVENTS_DAMAGED) { /* the frame from the bad record on is lost */
                    size_t at = bad ? pos + CAPTURE_HEADER_SIZE + bad : pos;
                    if (!log_damage(c, at, end - at, reason) || !mark_gap(c, (int)cpu, session))
                        goto no_memory;
                }
                pos = end;
                continue;
            }
        }
        size_t next = next_magic(buf, len, pos + 1);
        if (!log_damage(c, pos, next - pos, why) || !mark_gap(c, gap_cpu, session))
            goto no_memory;
        pos = next;
    }
    if (!finish_all(c))
        goto no_memory;
    return 0;
no_memory:
    snprintf(err, errlen, "out of memory reading the capture");
    return -1;
}
