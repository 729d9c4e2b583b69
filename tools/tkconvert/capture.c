/*
 * capture.c - the binary capture's frame reader (see capture.h and uapi/trace_capture.h).
 */
#include "tools/tkconvert/capture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/crc32.h"

static uint32_t get32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* Drops the session's files and pages (a START frame, or the end). */
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
    }
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

/* Notes that a damaged stretch may have held pages of cpu (-1: of every CPU), after the
 * pages kept so far (capture.h, gaps). False only when memory ran out. */
static bool mark_gap(struct capture *c, int cpu, unsigned wanted)
{
    if (c->ended || (wanted && c->sessions > wanted))
        return true; /* after the session's END, or after the session kept */
    for (unsigned k = 0; k < c->nr_cpus; k++) {
        if (cpu >= 0 && k != (unsigned)cpu)
            continue;
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
    static const uint8_t magic[4] = {'T', 'K', 'C', 'F'};
    while (from + 4 <= len) {
        const uint8_t *hit = memchr(buf + from, 'T', len - from - 3);
        if (!hit)
            break;
        if (memcmp(hit, magic, 4) == 0)
            return (size_t)(hit - buf);
        from = (size_t)(hit - buf) + 1;
    }
    return len;
}

/* Why a whole frame (crc checked) cannot be used, or NULL when it can. */
static const char *check_frame(const struct capture *c, unsigned type, unsigned cpu,
                               const uint8_t *payload, uint32_t length)
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
    case CAPTURE_PAGE:
        if (length != CAPTURE_PAGE_BYTES)
            return "PAGE frame not of 4096 bytes";
        if (cpu >= (c->started ? c->nr_cpus : CAPTURE_MAX_CPUS))
            return "PAGE frame of a CPU out of range";
        return NULL;
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

static bool add_page(struct capture *c, unsigned cpu, const uint8_t *payload)
{
    size_t n = c->nr_pages[cpu];
    if (!grow(&c->pages[cpu], &c->pages_cap[cpu], n, CAPTURE_PAGE_BYTES))
        return false;
    memcpy(c->pages[cpu] + n * CAPTURE_PAGE_BYTES, payload, CAPTURE_PAGE_BYTES);
    c->nr_pages[cpu] = n + 1;
    if (!c->started && cpu + 1 > c->nr_cpus)
        c->nr_cpus = cpu + 1;
    return true;
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

/* Uses a whole, checked frame. False only when memory ran out. */
static bool use_frame(struct capture *c, unsigned type, unsigned cpu, const uint8_t *payload,
                      uint32_t length)
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
    case CAPTURE_FILE:
        if (!add_file(c, payload, length))
            return false;
        break;
    case CAPTURE_PAGE:
        if (!add_page(c, cpu, payload))
            return false;
        break;
    case CAPTURE_END:
        c->ended = true;
        break;
    }
    c->frames[type]++;
    return true;
}

int capture_read(struct capture *c, const uint8_t *buf, size_t len, unsigned session, char *err,
                 size_t errlen)
{
    size_t pos = 0;
    memset(c, 0, sizeof *c);
    while (pos < len) {
        char reason[112];
        const char *why = NULL;
        int gap_cpu = -1; /* the CPU whose pages the damage may have held; -1: any */
        size_t left = len - pos;
        if (left < 4 && memcmp(buf + pos, "TKCF", left) == 0) {
            c->truncated = true;
            why = "frame header cut off by the end of the capture";
        } else if (left < 4 || get32(buf + pos) != CAPTURE_MAGIC) {
            why = "no frame magic";
        } else if (left < CAPTURE_HEADER_SIZE) {
            c->truncated = true;
            why = "frame header cut off by the end of the capture";
        } else {
            unsigned type = get16(buf + pos + 4), cpu = get16(buf + pos + 6);
            uint32_t length = get32(buf + pos + 8), crc = get32(buf + pos + 12);
            const uint8_t *payload = buf + pos + CAPTURE_HEADER_SIZE;
            if (type < CAPTURE_START || type > CAPTURE_END) {
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
            } else if (crc32_update(0, payload, length) != crc) {
                why = "frame CRC mismatch";
                if (type == CAPTURE_PAGE && length == CAPTURE_PAGE_BYTES && cpu < c->nr_cpus)
                    gap_cpu = (int)cpu; /* the header is whole: its CPU is believed */
            } else if (after_wanted(c, type, session)) {
                pos += CAPTURE_HEADER_SIZE + length;
                continue;
            } else if ((why = check_frame(c, type, cpu, payload, length)) == NULL) {
                if (!use_frame(c, type, cpu, payload, length))
                    goto no_memory;
                pos += CAPTURE_HEADER_SIZE + length;
                continue;
            }
        }
        size_t next = next_magic(buf, len, pos + 1);
        if (!log_damage(c, pos, next - pos, why) || !mark_gap(c, gap_cpu, session))
            goto no_memory;
        pos = next;
    }
    return 0;
no_memory:
    snprintf(err, errlen, "out of memory reading the capture");
    return -1;
}
