/* test_capture_frame.c - the binary capture's frames as uapi/trace_capture.h defines them:
 * header fields and frame check, START's payload, a payload sent in two parts, a file's path and bytes, and a file that changes
 * between its two renderings (sent again; the stream stays in step) or always (-EAGAIN). */
#include "unit.h"

#include <stdlib.h>

#include "kernel/lib/errno.h"
#include "kernel/lib/frame_sum.h"
#include "trace/core/capture_frame.h"

static uint8_t *sent;
static size_t sent_len, sent_cap;

static void append(const void *data, size_t len)
{
    if (!len)
        return;
    if (sent_len + len > sent_cap) {
        sent_cap = (sent_len + len) * 2;
        sent = realloc(sent, sent_cap);
    }
    memcpy(sent + sent_len, data, len);
    sent_len += len;
}

static void to_memory(struct capture_sink *s, const void *data, size_t len, const void *more,
                      size_t more_len)
{
    (void)s;
    append(data, len);
    append(more, more_len);
}

static struct capture_sink sink = { .send = to_memory };

static void reset(void) { sent_len = 0; }

/* The frame at *at: its header, and whether its check matches; *at moves past it. False when
 * no whole frame starts there. */
static bool next_frame(size_t *at, struct capture_frame_header *h, const uint8_t **payload,
                       bool *check_ok)
{
    if (*at + CAPTURE_HEADER_SIZE > sent_len)
        return false;
    memcpy(h, sent + *at, sizeof *h);
    if (h->magic != CAPTURE_MAGIC || *at + CAPTURE_HEADER_SIZE + h->length > sent_len)
        return false;
    *payload = sent + *at + CAPTURE_HEADER_SIZE;
    *check_ok = frame_sum(*payload, h->length) == h->sum;
    *at += CAPTURE_HEADER_SIZE + h->length;
    return true;
}

TEST(header_is_16_little_endian_bytes_starting_TKC2)
{
    CHECK_EQ_INT(sizeof(struct capture_frame_header), CAPTURE_HEADER_SIZE);
    reset();
    capture_send_frame(&sink, CAPTURE_END, 0, 0, 0);
    CHECK_EQ_INT(sent_len, 16);
    CHECK(memcmp(sent, "TKC2\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", 16) == 0);
    reset();
    capture_send_frame(&sink, CAPTURE_RETRACT, 3, 0, 0);
    CHECK(memcmp(sent, "TKC2\x06\x00\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00", 16) == 0);
    reset();
    capture_send_frame(&sink, CAPTURE_FILE, 0, "abcdefgh", 8); /* 0x64636261 + 0x68676665 */
    CHECK(memcmp(sent, "TKC2\x02\x00\x00\x00\x08\x00\x00\x00\xc6\xc8\xca\xcc" "abcdefgh", 24) == 0);
}

TEST(start_says_cpus_page_size_and_long_size)
{
    reset();
    capture_send_start(&sink, 3);
    size_t at = 0;
    struct capture_frame_header h;
    const uint8_t *p;
    bool ok;
    CHECK(next_frame(&at, &h, &p, &ok));
    CHECK(ok);
    CHECK_EQ_INT(h.type, CAPTURE_START);
    CHECK_EQ_INT(h.length, sizeof(struct capture_start));
    struct capture_start st;
    memcpy(&st, p, sizeof st);
    CHECK_EQ_INT(st.version, CAPTURE_VERSION);
    CHECK_EQ_INT(st.nr_cpus, 3);
    CHECK_EQ_INT(st.page_size, 4096);
    CHECK_EQ_INT(st.long_size, sizeof(long));
    CHECK_EQ_INT(at, sent_len);
}

TEST(events_frame_carries_its_cpu_head_records_and_the_check_of_both)
{
    static uint8_t records[4056];
    for (size_t i = 0; i < sizeof records; i++)
        records[i] = (uint8_t)(i * 7);
    struct capture_events head = { 123456789, 42, 3 };
    reset();
    capture_send_events(&sink, 2, &head, records, sizeof records);
    size_t at = 0;
    struct capture_frame_header h;
    const uint8_t *p;
    bool ok;
    CHECK(next_frame(&at, &h, &p, &ok));
    CHECK(ok);
    CHECK_EQ_INT(h.type, CAPTURE_EVENTS);
    CHECK_EQ_INT(h.cpu, 2);
    CHECK_EQ_INT(h.length, sizeof head + sizeof records);
    CHECK(memcmp(p, &head, sizeof head) == 0);
    CHECK(memcmp(p + sizeof head, records, sizeof records) == 0);
    CHECK_EQ_INT(at, sent_len);
}

/* A file whose text is given by the number of times it has been rendered. */
struct changing_file {
    int renders;
    const char *texts[8];
};

static int render_changing(void *arg, struct fs_writer *out)
{
    struct changing_file *f = arg;
    const char *text = f->texts[f->renders < 7 ? f->renders : 7];
    f->renders++;
    /* in two pieces, as a file printed line by line arrives */
    size_t len = strlen(text), half = len / 2;
    out->emit(out, text, half);
    out->emit(out, text + half, len - half);
    return 0;
}

TEST(file_frame_is_path_nul_bytes_rendered_twice)
{
    struct changing_file f = { 0, { "line one\nline two\n", "line one\nline two\n" } };
    reset();
    CHECK_EQ_INT(capture_send_file(&sink, "events/header_page", render_changing, &f), 0);
    CHECK_EQ_INT(f.renders, 2);
    size_t at = 0;
    struct capture_frame_header h;
    const uint8_t *p;
    bool ok;
    CHECK(next_frame(&at, &h, &p, &ok));
    CHECK(ok);
    CHECK_EQ_INT(h.type, CAPTURE_FILE);
    CHECK_EQ_INT(h.length, sizeof "events/header_page" + 18);
    CHECK(memcmp(p, "events/header_page\0line one\nline two\n", h.length) == 0);
    CHECK_EQ_INT(at, sent_len);
}

/* Whatever the change (longer, shorter, other bytes), the stream stays in step and its
 * last frame of the path holds the file as it now is, with a good check. */
static void check_change(const char *first, const char *then)
{
    struct changing_file f = { 0, { first, then, then, then } };
    reset();
    CHECK_EQ_INT(capture_send_file(&sink, "saved_cmdlines", render_changing, &f), 0);
    CHECK_EQ_INT(f.renders, 4);
    size_t at = 0;
    struct capture_frame_header h;
    const uint8_t *p;
    bool ok;
    int frames = 0;
    bool last_ok = false;
    const uint8_t *last = 0;
    uint32_t last_len = 0;
    while (next_frame(&at, &h, &p, &ok)) {
        frames++;
        last_ok = ok;
        last = p;
        last_len = h.length;
    }
    CHECK_EQ_INT(at, sent_len);
    CHECK_EQ_INT(frames, 2);
    CHECK(last_ok);
    CHECK_EQ_INT(last_len, sizeof "saved_cmdlines" + strlen(then));
    CHECK(last && memcmp(last + sizeof "saved_cmdlines", then, strlen(then)) == 0);
}

TEST(file_that_changes_between_renderings_is_sent_again)
{
    check_change("1 init\n", "1 init\n2 sh\n");  /* grew */
    check_change("1 init\n2 sh\n", "1 init\n"); /* shrank */
    check_change("1 init\n", "1 tnit\n");       /* other bytes: the first frame fails its check */
}

TEST(file_that_always_changes_gives_EAGAIN_and_whole_frames)
{
    struct changing_file f = { 0, { "a", "bb", "ccc", "dddd", "eeeee", "ffffff", "g", "h" } };
    reset();
    CHECK_EQ_INT(capture_send_file(&sink, "x", render_changing, &f), -EAGAIN);
    CHECK_EQ_INT(f.renders, 2 * CAPTURE_FILE_TRIES);
    size_t at = 0;
    struct capture_frame_header h;
    const uint8_t *p;
    bool ok;
    int frames = 0;
    while (next_frame(&at, &h, &p, &ok))
        frames++;
    CHECK_EQ_INT(frames, CAPTURE_FILE_TRIES);
    CHECK_EQ_INT(at, sent_len);
}

static int render_error(void *arg, struct fs_writer *out)
{
    (void)arg;
    out->emit(out, "partial", 7);
    return -EIO;
}

TEST(file_that_cannot_be_read_sends_nothing)
{
    reset();
    CHECK_EQ_INT(capture_send_file(&sink, "broken", render_error, 0), -EIO);
    CHECK_EQ_INT(sent_len, 0);
}

static int render_huge(void *arg, struct fs_writer *out)
{
    (void)arg;
    static char chunk[1 << 16];
    for (int i = 0; i < (int)(CAPTURE_MAX_PAYLOAD / sizeof chunk) + 1; i++)
        out->emit(out, chunk, sizeof chunk);
    return 0;
}

TEST(file_over_the_largest_payload_is_EFBIG_and_sends_nothing)
{
    reset();
    CHECK_EQ_INT(capture_send_file(&sink, "huge", render_huge, 0), -EFBIG);
    CHECK_EQ_INT(sent_len, 0);
}
