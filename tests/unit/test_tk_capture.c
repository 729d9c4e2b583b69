/* test_tk_capture.c - the converter's capture reader (tools/tkconvert/capture.c): whole
 * frames are kept, EVENTS frames become the pages the guest's trace_pipe_raw would give,
 * damage is skipped to the next frame with its offset and size reported (a bad record to
 * the end of its frame), a truncated last frame is dropped, START begins afresh, a format 1
 * capture is refused. */
#include "unit.h"

#include "tests/unit/tk_capture_build.h"
#include "tools/tkconvert/capture.h"
#include "trace/core/raw_page.h"

static uint8_t page[RAW_PAGE_SIZE];

/* An EVENTS frame of cpu: n 16-byte events whose byte 8 is '0' + i % 10, 1 cycle apart
 * from cycle 1000; with cb_clock_ns's clock they are at 1000 ns on. In page, the Linux page
 * the guest's trace_pipe_raw gives for them (raw_page.c, by hand). */
static size_t events_frame(struct capture_buf *b, unsigned cpu, unsigned n, uint64_t lost_before)
{
    static struct ring_records rr;
    struct raw_page p;
    rr.len = 0;
    raw_page_start(&p, page);
    for (unsigned i = 0; i < n; i++) {
        char payload[16] = {1, 0};
        payload[8] = (char)(0x30 + i % 10);
        rr_event(&rr, i ? 1 : 0, payload, sizeof payload);
        raw_page_add(&p, 1000 + i, payload, sizeof payload);
    }
    raw_page_finish(&p, lost_before);
    return cb_events(b, cpu, 1000, 0, lost_before, rr.bytes, rr.len);
}

/* START, CLOCK, two files, 3 events of cpu 1, END. */
static struct capture_buf whole_capture(void)
{
    struct capture_buf b = {0};
    cb_start(&b, 2);
    cb_clock_ns(&b);
    cb_file(&b, "events/header_page", "field: u64 timestamp;\n");
    cb_file(&b, "/proc/kallsyms", "c0100000 T _start\n");
    events_frame(&b, 1, 3, 0);
    cb_frame(&b, CAPTURE_END, 0, NULL, 0);
    return b;
}

static void read_ok(struct capture *c, struct capture_buf *b)
{
    char err[128];
    CHECK_EQ_INT(capture_read(c, b->bytes, b->len, 0, err, sizeof err), 0);
}

TEST(whole_capture_gives_files_and_the_guests_pages)
{
    struct capture_buf b = whole_capture();
    struct capture c;
    read_ok(&c, &b);
    CHECK_EQ_INT(c.nr_damage, 0);
    CHECK(!c.truncated);
    CHECK(c.started && c.ended);
    CHECK_EQ_INT(c.nr_cpus, 2);
    CHECK_EQ_INT(c.frames[CAPTURE_START], 1);
    CHECK_EQ_INT(c.frames[CAPTURE_CLOCK], 1);
    CHECK_EQ_INT(c.frames[CAPTURE_FILE], 2);
    CHECK_EQ_INT(c.frames[CAPTURE_EVENTS], 1);
    CHECK_EQ_INT(c.nr_pages[0], 0);
    CHECK_EQ_INT(c.nr_pages[1], 1);
    CHECK(memcmp(c.pages[1], page, RAW_PAGE_SIZE) == 0);
    const struct capture_file *f = capture_find(&c, "/proc/kallsyms");
    CHECK(f && f->size == 18 && memcmp(f->data, "c0100000 T _start\n", 18) == 0);
    capture_free(&c);
    free(b.bytes);
}

TEST(bad_check_skips_to_the_next_frame_and_says_where)
{
    struct capture_buf b = {0};
    cb_start(&b, 1);
    size_t bad = cb_file(&b, "saved_cmdlines", "1 init\n");
    size_t next = cb_file(&b, "trace_clock", "[local]\n");
    b.bytes[bad + CAPTURE_HEADER_SIZE + 3] ^= 0x40; /* inside the payload */
    struct capture c;
    read_ok(&c, &b);
    CHECK_EQ_INT(c.nr_damage, 1);
    CHECK_EQ_INT(c.damage[0].offset, bad);
    CHECK_EQ_INT(c.damage[0].skipped, next - bad);
    CHECK_EQ_STR(c.damage[0].reason, "frame check mismatch");
    CHECK(capture_find(&c, "saved_cmdlines") == NULL);
    CHECK(capture_find(&c, "trace_clock") != NULL);
    CHECK(!c.truncated);
    capture_free(&c);
    free(b.bytes);
}

TEST(garbage_between_frames_is_skipped_with_its_size)
{
    struct capture_buf b = {0};
    cb_start(&b, 1);
    size_t junk_at = b.len;
    cb_raw(&b, "line noise TK", 13);
    cb_file(&b, "trace_clock", "[local]\n");
    struct capture c;
    read_ok(&c, &b);
    CHECK_EQ_INT(c.nr_damage, 1);
    CHECK_EQ_INT(c.damage[0].offset, junk_at);
    CHECK_EQ_INT(c.damage[0].skipped, 13);
    CHECK(capture_find(&c, "trace_clock") != NULL);
    capture_free(&c);
    free(b.bytes);
}

TEST(truncated_last_frame_is_reported_and_dropped)
{
    struct capture_buf b = whole_capture();
    size_t cut = cb_file(&b, "saved_cmdlines", "1 init\n2 sh\n");
    b.len -= 5;
    struct capture c;
    read_ok(&c, &b);
    CHECK(c.truncated);
    CHECK_EQ_INT(c.nr_damage, 1);
    CHECK_EQ_INT(c.damage[0].offset, cut);
    CHECK_EQ_INT(c.damage[0].skipped, b.len - cut);
    CHECK(capture_find(&c, "saved_cmdlines") == NULL);
    CHECK_EQ_INT(c.nr_pages[1], 1); /* everything before it is kept */
    capture_free(&c);
    /* Cut inside the header, even inside the magic. */
    for (size_t keep = 1; keep < CAPTURE_HEADER_SIZE; keep++) {
        b.len = cut + keep;
        read_ok(&c, &b);
        CHECK(c.truncated);
        CHECK_EQ_INT(c.nr_damage, 1);
        capture_free(&c);
    }
    free(b.bytes);
}

TEST(damaged_length_is_not_mistaken_for_truncation)
{
    struct capture_buf b = {0};
    cb_start(&b, 1);
    size_t bad = cb_file(&b, "a", "x");
    cb_file(&b, "b", "y");
    b.bytes[bad + 10] = 0x7f; /* length: far past the end */
    struct capture c;
    read_ok(&c, &b);
    CHECK(!c.truncated);
    CHECK_EQ_INT(c.nr_damage, 1);
    CHECK(capture_find(&c, "b") != NULL);
    capture_free(&c);
    free(b.bytes);
}

TEST(start_begins_afresh_and_later_files_replace)
{
    struct capture_buf b = whole_capture();
    cb_start(&b, 1);
    cb_file(&b, "saved_cmdlines", "1 init\n");
    cb_file(&b, "saved_cmdlines", "1 init\n7 sh\n");
    struct capture c;
    read_ok(&c, &b);
    CHECK_EQ_INT(c.sessions, 2);
    CHECK_EQ_INT(c.nr_cpus, 1);
    CHECK_EQ_INT(c.nr_files, 1);
    CHECK(capture_find(&c, "/proc/kallsyms") == NULL);
    const struct capture_file *f = capture_find(&c, "saved_cmdlines");
    CHECK(f && f->size == 12);
    CHECK_EQ_INT(c.nr_pages[1], 0);
    CHECK(!c.ended);
    capture_free(&c);
    free(b.bytes);
}

/* --session: the first of three sessions is kept whole, with the later ones only counted
 * (a later session's page of a CPU the first does not have is not damage). */
TEST(an_earlier_session_is_kept_when_asked)
{
    struct capture_buf b = whole_capture();
    cb_start(&b, 4);
    cb_clock_ns(&b);
    events_frame(&b, 3, 1, 0);
    cb_start(&b, 1);
    struct capture c;
    char err[128];
    CHECK_EQ_INT(capture_read(&c, b.bytes, b.len, 1, err, sizeof err), 0);
    CHECK_EQ_INT(c.sessions, 3);
    CHECK_EQ_INT(c.session, 1);
    CHECK_EQ_INT(c.nr_damage, 0);
    CHECK_EQ_INT(c.nr_cpus, 2);
    CHECK_EQ_INT(c.nr_pages[1], 1);
    CHECK(capture_find(&c, "/proc/kallsyms") != NULL);
    CHECK(c.ended);
    capture_free(&c);
    CHECK_EQ_INT(capture_read(&c, b.bytes, b.len, 2, err, sizeof err), 0);
    CHECK_EQ_INT(c.session, 2);
    CHECK_EQ_INT(c.nr_pages[3], 1);
    CHECK(capture_find(&c, "/proc/kallsyms") == NULL);
    capture_free(&c);
    CHECK_EQ_INT(capture_read(&c, b.bytes, b.len, 0, err, sizeof err), 0);
    CHECK_EQ_INT(c.session, 3);
    capture_free(&c);
    free(b.bytes);
}

TEST(frames_that_break_the_contract_are_damage)
{
    struct capture_buf b = {0};
    cb_start(&b, 1);
    cb_clock_ns(&b);
    size_t wrong_cpu = events_frame(&b, 1, 1, 0);
    size_t short_events = cb_frame(&b, CAPTURE_EVENTS, 0, page, 20);
    size_t no_path = cb_frame(&b, CAPTURE_FILE, 0, "abc", 3);
    size_t bad_type = cb_frame(&b, 9, 0, "", 0);
    size_t bad_clock = cb_clock(&b, 0, 1, 40, NULL, 0);
    events_frame(&b, 0, 1, 0);
    struct capture c;
    read_ok(&c, &b);
    CHECK_EQ_INT(c.nr_damage, 5);
    CHECK_EQ_INT(c.damage[0].offset, wrong_cpu);
    CHECK_EQ_STR(c.damage[0].reason, "EVENTS frame of a CPU out of range");
    CHECK_EQ_INT(c.damage[1].offset, short_events);
    CHECK_EQ_STR(c.damage[1].reason, "EVENTS frame shorter than its header or longer than a page");
    CHECK_EQ_INT(c.damage[2].offset, no_path);
    CHECK_EQ_INT(c.damage[3].offset, bad_type);
    CHECK_EQ_STR(c.damage[3].reason, "unknown frame type 9");
    CHECK_EQ_INT(c.damage[4].offset, bad_clock);
    CHECK_EQ_STR(c.damage[4].reason, "CLOCK frame with a shift of 40, over 32");
    CHECK_EQ_INT(c.nr_pages[0], 1); /* the first CLOCK still times it */
    capture_free(&c);
    free(b.bytes);
}

TEST(events_without_start_count_their_cpus)
{
    struct capture_buf b = {0};
    cb_clock_ns(&b);
    events_frame(&b, 3, 2, 0);
    struct capture c;
    read_ok(&c, &b);
    CHECK_EQ_INT(c.sessions, 0);
    CHECK_EQ_INT(c.nr_cpus, 4);
    CHECK_EQ_INT(c.nr_pages[3], 1);
    CHECK(memcmp(c.pages[3], page, RAW_PAGE_SIZE) == 0);
    capture_free(&c);
    free(b.bytes);
}

TEST(a_format_1_capture_is_refused_with_one_clear_line)
{
    static const char *const inputs[] = {
        "TKCF\x01\x00\x00\x00\x10\x00\x00\x00",
        "# tracer: nop\nsh-7 [000] hello\nTKCF\x02\x00", /* text of COM2 before it */
    };
    for (int i = 0; i < 2; i++) {
        struct capture c;
        char err[128];
        CHECK_EQ_INT(capture_read(&c, (const uint8_t *)inputs[i], strlen(inputs[i]) + 1, 0, err,
                                  sizeof err), -1);
        CHECK(c.format1);
        CHECK_EQ_STR(err, "a format 1 capture (magic TKCF): record it again with this tree's "
                          "kernel");
        capture_free(&c);
    }
    /* "TKCF" inside a format 2 capture (a marker's text) is only text. */
    struct capture_buf b = whole_capture();
    cb_file(&b, "saved_cmdlines", "1 TKCF\n");
    struct capture c;
    read_ok(&c, &b);
    CHECK(!c.format1);
    CHECK_EQ_INT(c.nr_damage, 0);
    capture_free(&c);
    free(b.bytes);
}

TEST(events_before_any_clock_are_damage_of_their_cpu)
{
    struct capture_buf b = {0};
    cb_start(&b, 2);
    size_t early = events_frame(&b, 1, 2, 0);
    size_t after = cb_clock_ns(&b);
    events_frame(&b, 1, 1, 0);
    struct capture c;
    read_ok(&c, &b);
    CHECK_EQ_INT(c.nr_damage, 1);
    CHECK_EQ_INT(c.damage[0].offset, early);
    CHECK_EQ_INT(c.damage[0].skipped, after - early);
    CHECK_EQ_STR(c.damage[0].reason,
                 "EVENTS frame before any CLOCK frame: its times cannot be converted");
    CHECK_EQ_INT(c.nr_pages[1], 1);
    CHECK(capture_gap_before(&c, 1, 0));
    CHECK(!capture_gap_before(&c, 1, 1));
    CHECK(!capture_gap_before(&c, 0, 0));
    capture_free(&c);
    free(b.bytes);
}

/* A bad record loses its frame from there on: the events before it are kept, on a page
 * finished before the gap; the next frame starts a page after it. */
TEST(a_bad_record_is_damage_to_the_end_of_its_frame)
{
    struct capture_buf b = {0};
    cb_start(&b, 2);
    cb_clock_ns(&b);
    static struct ring_records rr;
    uint8_t p[12] = {1};
    rr.len = 0;
    rr_event(&rr, 0, p, 12);
    rr_word(&rr, 0);
    rr_word(&rr, 0x7ffffff0u); /* a long event far past the frame */
    rr_word(&rr, 0);
    size_t bad = cb_events(&b, 0, 5000, 0, 0, rr.bytes, rr.len);
    size_t next = events_frame(&b, 0, 1, 0);
    struct capture c;
    read_ok(&c, &b);
    CHECK_EQ_INT(c.nr_damage, 1);
    size_t at = bad + CAPTURE_HEADER_SIZE + sizeof(struct capture_events) + 16;
    CHECK_EQ_INT(c.damage[0].offset, at);
    CHECK_EQ_INT(c.damage[0].skipped, next - at);
    CHECK_EQ_STR(c.damage[0].reason, "EVENTS frame of cpu0: record at byte 16: a length of "
                                     "2147483632 bytes past the frame's end");
    CHECK_EQ_INT(c.frames[CAPTURE_EVENTS], 2);
    CHECK_EQ_INT(c.nr_pages[0], 2);
    CHECK(capture_gap_before(&c, 0, 1));
    CHECK(!capture_gap_before(&c, 1, 0));
    CHECK(memcmp(c.pages[0] + RAW_PAGE_SIZE, page, RAW_PAGE_SIZE) == 0);
    capture_free(&c);
    free(b.bytes);
}

/* An EVENTS frame whose check failed but whose header is whole marks its CPU alone, between
 * the page its events would have continued and the next; damage whose CPU is unknown marks
 * every CPU. */
TEST(damaged_events_frames_mark_their_cpu_between_pages)
{
    struct capture_buf b = {0};
    cb_start(&b, 2);
    cb_clock_ns(&b);
    events_frame(&b, 0, 2, 0);
    events_frame(&b, 1, 2, 0);
    size_t damaged = events_frame(&b, 0, 2, 0);
    b.bytes[damaged + CAPTURE_HEADER_SIZE + 30] ^= 1;
    events_frame(&b, 0, 1, 0);
    cb_raw(&b, "noise", 5);
    events_frame(&b, 1, 1, 0);
    cb_frame(&b, CAPTURE_END, 0, NULL, 0);
    struct capture c;
    read_ok(&c, &b);
    CHECK_EQ_INT(c.nr_damage, 2);
    CHECK_EQ_STR(c.damage[0].reason, "frame check mismatch");
    CHECK_EQ_STR(c.damage[1].reason, "no frame magic");
    CHECK_EQ_INT(c.nr_pages[0], 2); /* 2 events, the gap, 1 event, the noise's gap */
    CHECK(capture_gap_before(&c, 0, 1));
    CHECK(capture_gap_before(&c, 0, 2));
    CHECK_EQ_INT(c.nr_gaps[0], 2);
    CHECK_EQ_INT(c.nr_pages[1], 2); /* 2 events, the noise's gap, 1 event */
    CHECK_EQ_INT(c.nr_gaps[1], 1);
    CHECK(capture_gap_before(&c, 1, 1));
    CHECK(memcmp(c.pages[1] + RAW_PAGE_SIZE, page, RAW_PAGE_SIZE) == 0);
    capture_free(&c);
    free(b.bytes);
}

/* Frames of a CPU continue each other: without damage, events of several frames share a
 * page; the end of the input (no END) finishes it. */
TEST(frames_continue_each_other_on_one_page)
{
    struct capture_buf b = {0};
    cb_start(&b, 1);
    cb_clock_ns(&b);
    events_frame(&b, 0, 2, 3);
    events_frame(&b, 0, 2, 0);
    struct capture c;
    read_ok(&c, &b);
    CHECK(!c.ended);
    CHECK_EQ_INT(c.nr_pages[0], 1);
    uint32_t commit;
    memcpy(&commit, c.pages[0] + 8, 4);
    CHECK_EQ_INT(commit & 0xfffff, 4 * 20); /* four events; the missed count after them */
    CHECK(commit & RAW_MISSED_STORED);
    capture_free(&c);
    free(b.bytes);
}

/* A RETRACT withdraws the EVENTS frame of its CPU right before it (the guest sent a ring
 * page a writer recycled meanwhile): that frame's events are not on any page and are no
 * damage. A RETRACT after anything else withdraws nothing. */
TEST(retract_withdraws_the_events_frame_before_it_only)
{
    struct capture_buf b = {0};
    cb_start(&b, 2);
    cb_clock_ns(&b);
    events_frame(&b, 1, 3, 0);
    events_frame(&b, 1, 5, 0);                    /* torn: withdrawn */
    cb_frame(&b, CAPTURE_RETRACT, 1, NULL, 0);
    events_frame(&b, 0, 2, 0);
    cb_frame(&b, CAPTURE_RETRACT, 1, NULL, 0);    /* after cpu 0's frame: withdraws nothing */
    cb_frame(&b, CAPTURE_END, 0, NULL, 0);
    struct capture c;
    read_ok(&c, &b);
    CHECK_EQ_INT(c.nr_damage, 0);
    CHECK_EQ_INT(c.frames[CAPTURE_EVENTS], 3);
    CHECK_EQ_INT(c.frames[CAPTURE_RETRACT], 2);
    CHECK_EQ_INT(c.nr_pages[1], 1);
    CHECK_EQ_INT(c.nr_pages[0], 1);
    uint32_t commit;
    memcpy(&commit, c.pages[1] + 8, 4);
    CHECK_EQ_INT(commit, 3 * (4 + 16)); /* the three events of the first frame only */
    memcpy(&commit, c.pages[0] + 8, 4);
    CHECK_EQ_INT(commit, 2 * (4 + 16));
    capture_free(&c);
    free(b.bytes);
}
