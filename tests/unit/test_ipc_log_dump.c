/*
 * test_ipc_log_dump.c - the dump extractor (tools/ipc_log_dump.c) on a small dump made by
 * the real writer: a wrapped four-page log of string events and IPC's id-based events, read
 * whole first, then with the damage a real dump can have (a page gone, a header bit
 * flipped, the original's 0xffff "full" offset). Whatever is damaged must be reported, and
 * what is intact must still come out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "tools/ipc_log_dump.h"
#include "trace/ipc_log_page.h"

#define LOG_PAGES 4
#define DUMP_PAGES (1 + LOG_PAGES) /* page 0 holds the context */
#define DUMP_SIZE (DUMP_PAGES * IPC_LOG_PAGE_SIZE)
#define EVENTS 400                 /* about three times what four pages hold */

static uint8_t dump[DUMP_SIZE] __attribute__((aligned(IPC_LOG_PAGE_SIZE)));
static uint64_t clock_ns;
static uint64_t fake_clock(void) { return clock_ns += 1000; }

/* The log in dump, with EVENTS events: every third one a string event, the others shaped
 * as kernel/ipc.c's message events (type 0x10, a text, then INT32 numbers). */
static struct ipc_log *make_dump(void)
{
    memset(dump, 0, sizeof dump);
    clock_ns = 0;
    struct ipc_log *log = (struct ipc_log *)(dump + 0x100);
    struct ipc_log_page *pages[LOG_PAGES];
    for (uint32_t i = 0; i < LOG_PAGES; i++)
        pages[i] = (struct ipc_log_page *)(dump + (i + 1) * IPC_LOG_PAGE_SIZE);
    ipc_log_init(log, pages, LOG_PAGES, "ipc", 0, fake_clock);
    static const char what[] = "[ipc_reply] call: ep caller label =";
    for (int i = 0; i < EVENTS; i++) {
        if (i % 3 == 0) {
            struct ipc_log_encoder e;
            size_t room;
            ipc_log_encode_start(&e, TSV_TYPE_STRING);
            ipc_log_encode_timestamp(&e, clock_ns);
            ipc_log_encode_qtimer(&e, (uint64_t)i);
            char *p = ipc_log_encode_bytes_start(&e, &room);
            ipc_log_encode_bytes_done(&e, (size_t)snprintf(p, room + 1, "[demo] line %d", i));
            CHECK(ipc_log_append_encoded(log, &e) >= 0);
        } else {
            int32_t numbers[] = { 2, 4, i };
            struct ipc_log_numbers ev = { 0x10, clock_ns, (uint64_t)i, what, sizeof what - 1,
                                          numbers, 3 };
            CHECK(ipc_log_append_numbers(log, &ev) >= 0);
        }
    }
    CHECK(log->dropped > 0); /* it wrapped */
    return log;
}

/* What the extractor makes of the dump: its events in out (header line dropped), its
 * reports in err, and the counts. */
struct extracted {
    char out[64 << 10];
    char err[4096];
    struct extract_result result;
};

static void extract(struct extracted *x)
{
    FILE *out = fmemopen(x->out, sizeof x->out, "w"), *err = fmemopen(x->err, sizeof x->err, "w");
    struct dump_image img;
    CHECK(out && err);
    CHECK_EQ_INT(dump_image_open(dump, sizeof dump, &img, err), 0);
    CHECK_EQ_INT(ipc_log_extract(&img, NULL, out, err, &x->result), 0);
    dump_image_close(&img);
    fclose(out);
    fclose(err);
}

/* The header of log page i. */
static struct ipc_log_page_header *page(int i)
{
    return (struct ipc_log_page_header *)(dump + (i + 1) * IPC_LOG_PAGE_SIZE);
}

/* The log page holding the oldest event. */
static int read_page(void)
{
    for (int i = 0; i < LOG_PAGES; i++)
        if (page(i)->read_offset)
            return i;
    return -1;
}

/* Numbers of the events in x's text, in the order printed: a string event's "line N", an
 * id-based event's last number. */
static int event_numbers(const struct extracted *x, int *numbers, int max)
{
    int n = 0;
    const char *p = strchr(x->out, '\n'); /* past the context's header line */
    while (p && p[1] && n < max) {
        char line[IPC_LOG_LINE_MAX];
        const char *start = p + 1;
        p = strchr(start, '\n');
        size_t len = p ? (size_t)(p - start) : strlen(start);
        snprintf(line, sizeof line, "%.*s", (int)len, start);
        const char *at = strstr(line, "line ");
        numbers[n++] = at ? atoi(at + 5) : atoi(strrchr(line, ' ') + 1);
    }
    return n;
}

TEST(whole_dump_gives_every_event_in_order)
{
    struct ipc_log *log = make_dump();
    static struct extracted x;
    extract(&x);
    CHECK_EQ_INT(x.result.problems, 0);
    CHECK_EQ_INT(x.result.events, log->written - log->dropped);
    static int numbers[EVENTS];
    int n = event_numbers(&x, numbers, EVENTS);
    CHECK_EQ_INT(n, x.result.events);
    CHECK_EQ_INT(numbers[n - 1], EVENTS - 1);
    for (int i = 1; i < n; i++)
        CHECK_EQ_INT(numbers[i], numbers[i - 1] + 1);
}

TEST(original_full_offset_0xffff_reads_as_full)
{
    make_dump();
    int r = read_page();
    CHECK(r >= 0);
    int full = (r + 2) % LOG_PAGES; /* neither the read nor the write page: full */
    CHECK_EQ_INT(page(full)->write_offset, IPC_LOG_DATA_SIZE);
    static struct extracted whole, marked;
    extract(&whole);
    page(full)->write_offset = 0xffff;
    extract(&marked);
    CHECK_EQ_INT(marked.result.problems, 0);
    CHECK_EQ_STR(marked.out, whole.out);
}

TEST(missing_read_page_is_reported_as_an_order_problem)
{
    make_dump();
    int r = read_page();
    page(r)->magic = 0; /* the page is gone from the dump */
    static struct extracted x;
    extract(&x);
    CHECK(strstr(x.err, "1 of its 4 pages not found"));
    CHECK(strstr(x.err, "the order shown may be wrong"));
}

TEST(second_read_offset_is_reported)
{
    make_dump();
    int r = read_page();
    page((r + 2) % LOG_PAGES)->read_offset = 10;
    static struct extracted x;
    extract(&x);
    CHECK(strstr(x.err, "2 pages claim the oldest event"));
}

TEST(missing_last_page_is_counted_from_the_context)
{
    make_dump();
    page(LOG_PAGES - 1)->magic = 0;
    static struct extracted x;
    extract(&x);
    CHECK(strstr(x.err, "1 of its 4 pages not found"));
    CHECK(strstr(x.out, "=== ipc: 4 pages"));
}

TEST(decoding_resumes_at_id_based_events_after_a_missing_page)
{
    make_dump();
    int r = read_page();
    int gone = (r + 1) % LOG_PAGES; /* a full page in the middle of the stream */
    page(gone)->magic = 0;
    static struct extracted x;
    extract(&x);
    static int numbers[EVENTS];
    int n = event_numbers(&x, numbers, EVENTS);
    /* After the gap, the first event printed is the first whole one: at most one is cut,
     * whatever its type (two in three are id-based). */
    int gap = 0;
    for (int i = 1; i < n; i++)
        if (numbers[i] != numbers[i - 1] + 1)
            gap = numbers[i] - numbers[i - 1] - 1;
    CHECK(gap > 0);
    int page_events = IPC_LOG_DATA_SIZE / 60; /* events are 50 to 80 bytes */
    CHECK(gap <= page_events + 2);
    CHECK(strstr(x.err, "skipped up to the next event"));
}
