/* test_tk_capture.c - the converter's capture reader (tools/tkconvert/capture.c): whole
 * frames are kept, damage is skipped to the next frame with its offset and size reported,
 * a truncated last frame is dropped, START begins afresh. */
#include "unit.h"

#include "tests/unit/tk_capture_build.h"
#include "tools/tkconvert/capture.h"
#include "trace/core/raw_page.h"

static uint8_t page[RAW_PAGE_SIZE];

/* A page of cpu's events: n markers "mN". */
static void make_page(unsigned n)
{
    struct raw_page p;
    raw_page_start(&p, page);
    for (unsigned i = 0; i < n; i++) {
        char payload[16] = {1, 0};
        payload[8] = (char)(0x30 + i % 10);
        raw_page_add(&p, 1000 + i, payload, sizeof payload);
    }
    raw_page_finish(&p, 0);
}

/* START, two files, a page of cpu 1, END. */
static struct capture_buf whole_capture(void)
{
    struct capture_buf b = {0};
    cb_start(&b, 2);
    cb_file(&b, "events/header_page", "field: u64 timestamp;\n");
    cb_file(&b, "/proc/kallsyms", "c0100000 T _start\n");
    make_page(3);
    cb_frame(&b, CAPTURE_PAGE, 1, page, RAW_PAGE_SIZE);
    cb_frame(&b, CAPTURE_END, 0, NULL, 0);
    return b;
}

static void read_ok(struct capture *c, struct capture_buf *b)
{
    char err[128];
    CHECK_EQ_INT(capture_read(c, b->bytes, b->len, 0, err, sizeof err), 0);
}

TEST(whole_capture_gives_files_and_pages)
{
    struct capture_buf b = whole_capture();
    struct capture c;
    read_ok(&c, &b);
    CHECK_EQ_INT(c.nr_damage, 0);
    CHECK(!c.truncated);
    CHECK(c.started && c.ended);
    CHECK_EQ_INT(c.nr_cpus, 2);
    CHECK_EQ_INT(c.frames[CAPTURE_FILE], 2);
    CHECK_EQ_INT(c.frames[CAPTURE_PAGE], 1);
    CHECK_EQ_INT(c.nr_pages[0], 0);
    CHECK_EQ_INT(c.nr_pages[1], 1);
    CHECK(memcmp(c.pages[1], page, RAW_PAGE_SIZE) == 0);
    const struct capture_file *f = capture_find(&c, "/proc/kallsyms");
    CHECK(f && f->size == 18 && memcmp(f->data, "c0100000 T _start\n", 18) == 0);
    capture_free(&c);
    free(b.bytes);
}

TEST(bad_crc_skips_to_the_next_frame_and_says_where)
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
    CHECK_EQ_STR(c.damage[0].reason, "frame CRC mismatch");
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
    make_page(1);
    cb_frame(&b, CAPTURE_PAGE, 3, page, RAW_PAGE_SIZE);
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
    make_page(1);
    size_t wrong_cpu = cb_frame(&b, CAPTURE_PAGE, 1, page, RAW_PAGE_SIZE);
    size_t short_page = cb_frame(&b, CAPTURE_PAGE, 0, page, 100);
    size_t no_path = cb_frame(&b, CAPTURE_FILE, 0, "abc", 3);
    size_t bad_type = cb_frame(&b, 9, 0, "", 0);
    cb_frame(&b, CAPTURE_PAGE, 0, page, RAW_PAGE_SIZE);
    struct capture c;
    read_ok(&c, &b);
    CHECK_EQ_INT(c.nr_damage, 4);
    CHECK_EQ_INT(c.damage[0].offset, wrong_cpu);
    CHECK_EQ_STR(c.damage[0].reason, "PAGE frame of a CPU out of range");
    CHECK_EQ_INT(c.damage[1].offset, short_page);
    CHECK_EQ_INT(c.damage[2].offset, no_path);
    CHECK_EQ_INT(c.damage[3].offset, bad_type);
    CHECK_EQ_STR(c.damage[3].reason, "unknown frame type 9");
    CHECK_EQ_INT(c.nr_pages[0], 1);
    capture_free(&c);
    free(b.bytes);
}

TEST(pages_without_start_count_their_cpus)
{
    struct capture_buf b = {0};
    make_page(2);
    cb_frame(&b, CAPTURE_PAGE, 3, page, RAW_PAGE_SIZE);
    struct capture c;
    read_ok(&c, &b);
    CHECK_EQ_INT(c.sessions, 0);
    CHECK_EQ_INT(c.nr_cpus, 4);
    CHECK_EQ_INT(c.nr_pages[3], 1);
    capture_free(&c);
    free(b.bytes);
}
