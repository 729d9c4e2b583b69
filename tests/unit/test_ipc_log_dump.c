/*
 * test_ipc_log_dump.c - the dump extractor (tools/ipc_log_dump.c) on a small dump made by
 * the real writer: a wrapped four-page log of string events, made by the encoder and by
 * IPC's ipc_log_numbers, read whole first, then with the damage a real dump can have (a
 * page gone, a header bit flipped, 0xffff: Qualcomm's ipc_logging's other "full" offset).
 * Whatever is damaged must be reported, and what is intact must still come out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "tools/ipc_log_dump.h"
#include "trace/ipc_logging/ipc_log_page.h"

#define LOG_PAGES 4
#define DUMP_PAGES (1 + LOG_PAGES) /* page 0 holds the context */
#define DUMP_SIZE (DUMP_PAGES * IPC_LOG_PAGE_SIZE)
#define EVENTS 400                 /* about three times what four pages hold */

static uint8_t dump[DUMP_SIZE] __attribute__((aligned(IPC_LOG_PAGE_SIZE)));
static uint64_t clock_ns;
static uint64_t fake_clock(void) { return clock_ns += 1000; }

/* The log in dump, with EVENTS events: every third one made with the encoder, the others
 * as kernel/ipc/ipc.c's message events (ipc_log_append_numbers: a text, then one to four
 * numbers, each the event's own number). */
static struct ipc_log *make_dump(void)
{
    memset(dump, 0, sizeof dump);
    clock_ns = 0;
    struct ipc_log *log = (struct ipc_log *)(dump + 0x100);
    static struct ipc_log_page *pages[LOG_PAGES]; /* the log keeps this array */
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
            int32_t numbers[] = { i, i, i, i }; /* 1 to 4 of them: sizes vary */
            struct ipc_log_numbers ev = { clock_ns, (uint64_t)i, what, sizeof what - 1, numbers,
                                          1 + (unsigned)i % 4 };
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

/* Numbers of the events in x's text, in the order printed: an encoder event's "line N", a
 * message event's last number. */
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

/* Every event the writer makes, message events included, is one Qualcomm's parser reads:
 * no note. One event of another type is counted, and named in a note that is no problem. */
TEST(events_the_original_parser_cannot_read_are_counted)
{
    struct ipc_log *log = make_dump();
    static struct extracted x;
    extract(&x);
    CHECK_EQ_INT(x.result.unreadable, 0);
    CHECK(!strstr(x.err, "not string events"));

    struct ipc_log_encoder e;
    ipc_log_encode_start(&e, 0x10);
    ipc_log_encode_timestamp(&e, clock_ns);
    ipc_log_encode_qtimer(&e, 1);
    ipc_log_encode_int32(&e, 7);
    CHECK(ipc_log_append_encoded(log, &e) >= 0);
    extract(&x);
    CHECK_EQ_INT(x.result.problems, 0);
    CHECK_EQ_INT(x.result.unreadable, 1);
    CHECK(strstr(x.err, "context ipc: 1 of its ") && strstr(x.err, " events are not string events"));
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

/* The number (as event_numbers gives it) of the first event that lies wholly after page
 * gone, read live before the damage: an event that starts or ends on the missing page is
 * lost, and the next one is where decoding must pick up again. */
static int first_whole_after(const struct ipc_log *log, uint32_t gone)
{
    uint8_t ev[IPC_LOG_EVENT_MAX];
    struct ipc_log_cursor c = ipc_log_oldest(log);
    bool lost = false;
    for (int i = (int)(log->written - log->dropped); i > 0; i--) {
        /* A position resting at a page's very end starts its event on the next page. */
        uint32_t start_page = c.offset == IPC_LOG_DATA_SIZE ? (c.page + 1) % LOG_PAGES : c.page;
        if (ipc_log_read_event(log, &c, ev) <= 0)
            break;
        bool touches = start_page == gone || c.page == gone;
        if (lost && !touches)
            return EVENTS - i; /* events are numbered 0 .. EVENTS-1, the newest last */
        lost |= touches;
    }
    return -1;
}

TEST(decoding_resumes_at_message_events_after_a_missing_page)
{
    struct ipc_log *log = make_dump();
    int r = read_page();
    /* A full page in the middle of the stream, after which the first whole event is an
     * message event (ipc_log_numbers), not one made by the encoder. */
    uint32_t gone = (uint32_t)(r + 1) % LOG_PAGES;
    int want = first_whole_after(log, gone);
    if (want % 3 == 0) {
        gone = (gone + 1) % LOG_PAGES;
        want = first_whole_after(log, gone);
    }
    CHECK(want > 0 && want % 3 != 0);
    page((int)gone)->magic = 0;
    static struct extracted x;
    extract(&x);
    static int numbers[EVENTS];
    int n = event_numbers(&x, numbers, EVENTS);
    /* The first event printed after the gap is the first whole one, whatever its type (two
     * in three are message events): none that survived is skipped. */
    int after_gap = -1;
    for (int i = 1; i < n && after_gap < 0; i++)
        if (numbers[i] != numbers[i - 1] + 1)
            after_gap = numbers[i];
    CHECK_EQ_INT(after_gap, want);
}
