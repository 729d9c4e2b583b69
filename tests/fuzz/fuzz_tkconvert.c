/*
 * fuzz_tkconvert.c - the host converter's input (tools/tkconvert/) on arbitrary bytes: as a
 * capture (frames, CRCs, resync), and as a ring-buffer page.
 *
 * Invariants: no crash and no read outside the input (ASan: an exactly-sized copy); the
 * damage log covers only bytes of the input, in order, without overlapping; every kept
 * file has a path unpack_path either maps under the tracefs root / ROOT or refuses; every
 * decoded event lies inside its page's commit.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tkconvert/capture.h"
#include "tools/tkconvert/rb_page.h"
#include "tools/tkconvert/unpack.h"

/* Decodes one page and checks that every event lies inside its commit. */
static void decode_page(const uint8_t *page, uint32_t size)
{
    struct rb_page_reader r;
    struct rb_event ev;
    char err[160];
    if (rb_page_open(&r, page, size, err, sizeof err) != 0)
        return;
    if (r.end > size)
        abort();
    int got, n = 0;
    while ((got = rb_page_next(&r, &ev, err, sizeof err)) > 0) {
        if (ev.data < page + RB_PAGE_HEADER || ev.data + ev.length > page + r.end)
            abort();
        if (++n > (int)size / 4)
            abort(); /* each event takes at least 4 bytes */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct capture c;
    char err[160];
    if (capture_read(&c, data, size, err, sizeof err) != 0)
        abort();
    uint64_t covered = 0;
    for (size_t i = 0; i < c.nr_damage; i++) {
        if (c.damage[i].offset < covered || c.damage[i].skipped == 0 ||
            c.damage[i].offset + c.damage[i].skipped > size)
            abort();
        covered = c.damage[i].offset + c.damage[i].skipped;
    }
    char rel[UNPACK_PATH_MAX + 64];
    for (size_t i = 0; i < c.nr_files; i++) {
        if (unpack_path(c.files[i].path, rel, sizeof rel) == 0 &&
            (strstr(rel, "/../") || strncmp(rel, "../", 3) == 0 || rel[0] == '/' ||
             strstr(rel, "//")))
            abort();
    }
    for (unsigned cpu = 0; cpu < c.nr_cpus; cpu++)
        for (size_t p = 0; p < c.nr_pages[cpu]; p++)
            decode_page(c.pages[cpu] + p * CAPTURE_PAGE_BYTES, CAPTURE_PAGE_BYTES);
    capture_free(&c);

    /* The bytes as a page (shorter than a page: exactly as long, for ASan). */
    decode_page(data, (uint32_t)(size < CAPTURE_PAGE_BYTES ? size : CAPTURE_PAGE_BYTES));
    return 0;
}
