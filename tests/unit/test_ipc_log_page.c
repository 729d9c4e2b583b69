/*
 * test_ipc_log_page.c - the IPC logging format (trace/ipc_logging/ipc_log_page.c): headers byte for
 * byte, the TSV encoding, writing round the pages (straddling, dropping the oldest,
 * refusing oversize events), reading back live and from dumped pages, and the line format.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "trace/ipc_logging/ipc_log_page.h"

static uint64_t fake_ns;
static uint64_t fake_clock(void) { return fake_ns; }

/* A log over count zeroed, page-aligned pages. */
struct test_log {
    struct ipc_log log;
    struct ipc_log_page *pages[8];
};

static struct test_log *new_log(uint32_t count, const char *name)
{
    struct test_log *t = calloc(1, sizeof *t);
    for (uint32_t i = 0; i < count; i++) {
        t->pages[i] = aligned_alloc(IPC_LOG_PAGE_SIZE, IPC_LOG_PAGE_SIZE);
        memset(t->pages[i], 0, IPC_LOG_PAGE_SIZE);
    }
    ipc_log_init(&t->log, t->pages, count, name, 7, fake_clock);
    return t;
}

static void free_log(struct test_log *t)
{
    for (uint32_t i = 0; i < t->log.page_count; i++)
        free(t->pages[i]);
    free(t);
}

static uint32_t le32(const void *p)
{
    const uint8_t *b = p;
    return b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint64_t le64(const void *p)
{
    return le32(p) | (uint64_t)le32((const uint8_t *)p + 4) << 32;
}

/* Writes a string event "text" with timestamp ns and qtimer ns * 2; returns append's result. */
static int log_text(struct ipc_log *log, uint64_t ns, const char *text)
{
    struct ipc_log_encoder e;
    ipc_log_encode_start(&e, TSV_TYPE_STRING);
    ipc_log_encode_timestamp(&e, ns);
    ipc_log_encode_qtimer(&e, ns * 2);
    ipc_log_encode_bytes(&e, text, strlen(text));
    return ipc_log_append_encoded(log, &e);
}

/* The text of a string event written by log_text, as a C string (static buffer). */
static const char *event_text(const uint8_t *ev)
{
    static char text[256];
    size_t len = ev[23];
    memcpy(text, ev + 24, len);
    text[len] = '\0';
    return text;
}

/* Reads every event from c on; copies their texts (static) and returns how many. */
static int read_texts(const struct ipc_log *log, struct ipc_log_cursor c, char texts[][64], int max)
{
    uint8_t ev[IPC_LOG_EVENT_MAX];
    int n = 0, len;
    while ((len = ipc_log_read_event(log, &c, ev)) > 0) {
        if (n < max)
            snprintf(texts[n], 64, "%.63s", event_text(ev));
        n++;
    }
    CHECK_EQ_INT(len, 0);
    return n;
}

TEST(context_header_bytes)
{
    struct test_log *t = new_log(2, "diag");
    const uint8_t *h = (const uint8_t *)&t->log.hdr;
    CHECK_EQ_INT(le32(h + 0x00), 0x25874452);
    CHECK_EQ_INT(le32(h + 0x04), 0xDA78BBAD);
    CHECK_EQ_INT(le32(h + 0x08), 2);
    CHECK_EQ_INT(h[0x0c] | h[0x0d] << 8, 7);       /* user_version */
    CHECK_EQ_INT(h[0x0e] | h[0x0f] << 8, 0x40);    /* header_size: where page data starts */
    CHECK(le64(h + 0x10) == (uint64_t)(uintptr_t)&t->log);
    CHECK(memcmp(h + 0x18, "diag\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 20) == 0);
    for (int i = 0x2c; i < 0x40; i++)
        CHECK_EQ_INT(h[i], 0);
    free_log(t);
}

TEST(page_header_bytes)
{
    struct test_log *t = new_log(3, "smd");
    for (uint32_t i = 0; i < 3; i++) {
        const uint8_t *p = (const uint8_t *)t->pages[i];
        CHECK_EQ_INT(le32(p + 0x00), 0x52784425);
        CHECK_EQ_INT(le32(p + 0x04), 0xAD87BBDA);
        CHECK_EQ_INT(le32(p + 0x08), 0x80000000u | i); /* the flag bit, then the index */
        CHECK_EQ_INT(p[0x0c] | p[0x0d] << 8, 0);       /* read_offset */
        CHECK_EQ_INT(p[0x0e] | p[0x0f] << 8, 0);       /* write_offset */
        CHECK(le64(p + 0x10) == (uint64_t)(uintptr_t)&t->log);
        CHECK(le64(p + 0x18) == 0 && le64(p + 0x20) == 0); /* start and end times */
        CHECK((uintptr_t)p + (uintptr_t)le64(p + 0x28) == (uintptr_t)&t->log); /* ctx_offset */
    }
    CHECK_EQ_INT(offsetof(struct ipc_log_page, data), 0x40);
    free_log(t);
}

TEST(forget_clears_magic_numbers)
{
    struct test_log *t = new_log(2, "gone");
    ipc_log_forget(&t->log);
    CHECK_EQ_INT(t->log.hdr.magic | t->log.hdr.nmagic, 0);
    CHECK_EQ_INT(t->pages[0]->hdr.magic | t->pages[1]->hdr.nmagic, 0);
    free_log(t);
}

TEST(string_event_encoding)
{
    struct ipc_log_encoder e;
    ipc_log_encode_start(&e, TSV_TYPE_STRING);
    CHECK_EQ_INT(ipc_log_encode_timestamp(&e, 0x0102030405060708ull), 0);
    CHECK_EQ_INT(ipc_log_encode_qtimer(&e, 0x12bec5ff43ull), 0);
    CHECK_EQ_INT(ipc_log_encode_bytes(&e, "hi", 2), 0);
    CHECK_EQ_INT(ipc_log_encode_end(&e), 26);
    static const uint8_t want[26] = {
        2, 24,                                        /* TSV_TYPE_STRING, 24 bytes of items */
        1, 8, 8, 7, 6, 5, 4, 3, 2, 1,                 /* TIMESTAMP, little-endian ns */
        5, 8, 0x43, 0xff, 0xc5, 0xbe, 0x12, 0, 0, 0,  /* QTIMER */
        4, 2, 'h', 'i',                               /* BYTE_ARRAY, no NUL */
    };
    CHECK(memcmp(e.buf, want, sizeof want) == 0);
    CHECK_EQ_INT(ipc_log_event_check(e.buf, 26), 26);
}

TEST(pointer_and_int32_encoding)
{
    struct ipc_log_encoder e;
    ipc_log_encode_start(&e, TSV_TYPE_SKB);
    CHECK_EQ_INT(ipc_log_encode_int32(&e, -2), 0);
    CHECK_EQ_INT(ipc_log_encode_pointer(&e, (uintptr_t)0xc0ffee), 0);
    int len = ipc_log_encode_end(&e);
    CHECK_EQ_INT(len, 2 + 6 + 2 + (int)sizeof(uintptr_t));
    CHECK(e.buf[2] == 3 && e.buf[3] == 4 && le32(e.buf + 4) == 0xfffffffeu);
    CHECK(e.buf[8] == 2 && e.buf[9] == sizeof(uintptr_t) && le32(e.buf + 10) == 0xc0ffee);
}

TEST(oversize_item_is_refused_whole)
{
    struct ipc_log_encoder e;
    char big[300];
    memset(big, 'x', sizeof big);
    ipc_log_encode_start(&e, TSV_TYPE_STRING);
    ipc_log_encode_timestamp(&e, 1);
    uint32_t before = e.offset;
    CHECK_EQ_INT(ipc_log_encode_bytes(&e, big, 242), -EMSGSIZE);
    CHECK_EQ_INT(e.offset, before); /* nothing of it stays */
    CHECK_EQ_INT(ipc_log_encode_int32(&e, 5), 0);
    CHECK_EQ_INT(ipc_log_encode_end(&e), -EMSGSIZE); /* the event as a whole is refused */
}

TEST(largest_event_fits_exactly)
{
    struct ipc_log_encoder e;
    char big[IPC_LOG_MAX_MSG_SIZE];
    memset(big, 'y', sizeof big);
    ipc_log_encode_start(&e, 9);
    CHECK_EQ_INT(ipc_log_encode_bytes(&e, big, IPC_LOG_MAX_MSG_SIZE - 4), 0);
    CHECK_EQ_INT(ipc_log_encode_end(&e), IPC_LOG_MAX_MSG_SIZE);
    ipc_log_encode_start(&e, 9);
    CHECK_EQ_INT(ipc_log_encode_bytes(&e, big, IPC_LOG_MAX_MSG_SIZE - 3), -EMSGSIZE);
}

TEST(bytes_formatted_in_place)
{
    struct ipc_log_encoder e;
    size_t room;
    ipc_log_encode_start(&e, TSV_TYPE_STRING);
    ipc_log_encode_timestamp(&e, 1);
    ipc_log_encode_qtimer(&e, 2);
    char *p = ipc_log_encode_bytes_start(&e, &room);
    CHECK_EQ_INT(room, IPC_LOG_MAX_MSG_SIZE - 24);
    int n = snprintf(p, room + 1, "value %d", 42);
    CHECK_EQ_INT(ipc_log_encode_bytes_done(&e, (size_t)n), 0);
    CHECK_EQ_INT(ipc_log_encode_end(&e), 24 + 8);
    CHECK(e.buf[22] == 4 && e.buf[23] == 8 && memcmp(e.buf + 24, "value 42", 8) == 0);

    ipc_log_encode_start(&e, TSV_TYPE_STRING);
    p = ipc_log_encode_bytes_start(&e, &room);
    memset(p, 'z', room + 1); /* text and its NUL: the spare byte takes the NUL */
    CHECK_EQ_INT(ipc_log_encode_bytes_done(&e, room), 0);
    CHECK_EQ_INT(ipc_log_encode_end(&e), IPC_LOG_MAX_MSG_SIZE);
    ipc_log_encode_start(&e, TSV_TYPE_STRING);
    ipc_log_encode_bytes_start(&e, &room);
    CHECK_EQ_INT(ipc_log_encode_bytes_done(&e, room + 1), -EMSGSIZE);
}

TEST(oversize_event_counted_and_not_written)
{
    struct test_log *t = new_log(1, "big");
    struct ipc_log_encoder e;
    char big[300];
    memset(big, 'x', sizeof big);
    ipc_log_encode_start(&e, TSV_TYPE_STRING);
    ipc_log_encode_bytes(&e, big, sizeof big);
    CHECK_EQ_INT(ipc_log_append_encoded(&t->log, &e), -EMSGSIZE);
    uint8_t raw[300] = { 2, 255 };
    CHECK_EQ_INT(ipc_log_append(&t->log, raw, 257), -EMSGSIZE);
    CHECK_EQ_INT(ipc_log_append(&t->log, raw, 20), -EINVAL); /* size byte disagrees */
    CHECK_EQ_INT(t->log.oversize, 2);
    CHECK_EQ_INT(t->log.written, 0);
    CHECK_EQ_INT(t->pages[0]->hdr.write_offset, 0);
    free_log(t);
}

TEST(write_and_read_back)
{
    struct test_log *t = new_log(2, "rw");
    char texts[4][64];
    CHECK_EQ_INT(log_text(&t->log, 10, "first"), 0);
    CHECK_EQ_INT(log_text(&t->log, 20, "second"), 0);
    CHECK_EQ_INT(t->pages[0]->hdr.write_offset, 24 + 5 + 24 + 6); /* offsets in the data */
    CHECK_EQ_INT(t->pages[0]->hdr.read_offset, 0);
    CHECK_EQ_INT(read_texts(&t->log, ipc_log_oldest(&t->log), texts, 4), 2);
    CHECK_EQ_STR(texts[0], "first");
    CHECK_EQ_STR(texts[1], "second");
    CHECK_EQ_INT(ipc_log_pending(&t->log, ipc_log_oldest(&t->log)), 59);
    free_log(t);
}

TEST(event_straddles_page_boundary)
{
    struct test_log *t = new_log(2, "straddle");
    char text[101];
    memset(text, 'a', 100);
    text[100] = '\0';
    int i = 0;
    fake_ns = 5000;
    while (t->pages[0]->hdr.write_offset + 124u <= IPC_LOG_DATA_SIZE) /* 124-byte events */
        log_text(&t->log, (uint64_t)++i, text);
    uint16_t before = t->pages[0]->hdr.write_offset;
    fake_ns = 7777;
    text[0] = 'S';
    log_text(&t->log, (uint64_t)++i, text); /* starts on page 0, ends on page 1 */
    CHECK_EQ_INT(t->pages[0]->hdr.write_offset, IPC_LOG_DATA_SIZE);
    CHECK_EQ_INT(t->pages[0]->hdr.end_time, 7777);
    CHECK_EQ_INT(t->pages[1]->hdr.start_time, 7777);
    CHECK_EQ_INT(t->pages[1]->hdr.write_offset, 124 - (IPC_LOG_DATA_SIZE - before));
    CHECK_EQ_INT(t->log.write_page, 1);

    struct ipc_log_cursor c = ipc_log_oldest(&t->log);
    uint8_t ev[IPC_LOG_EVENT_MAX];
    int n = 0, len;
    while ((len = ipc_log_read_event(&t->log, &c, ev)) > 0)
        if (++n == i)
            CHECK(len == 124 && ev[24] == 'S' && le64(ev + 4) == (uint64_t)i);
    CHECK_EQ_INT(n, i);
    free_log(t);
}

/* The message event of ipc_log_append_numbers, built as ipc_log_string builds a line:
 * the encoder, with the text formatted by the host's printf ("%s %d %d ..."). */
static int log_numbers_encoded(struct ipc_log *log, const struct ipc_log_numbers *ev)
{
    struct ipc_log_encoder e;
    size_t room;
    ipc_log_encode_start(&e, TSV_TYPE_STRING);
    ipc_log_encode_timestamp(&e, ev->ns);
    ipc_log_encode_qtimer(&e, ev->ticks);
    char *text = ipc_log_encode_bytes_start(&e, &room);
    char line[1024];
    int n = snprintf(line, sizeof line, "%.*s", (int)ev->what_len, ev->what);
    for (unsigned i = 0; i < ev->count; i++)
        n += snprintf(line + n, sizeof line - (size_t)n, " %d", ev->numbers[i]);
    memcpy(text, line, (size_t)n <= room ? (size_t)n : room);
    ipc_log_encode_bytes_done(&e, (size_t)n);
    return ipc_log_append_encoded(log, &e);
}

/* Whether two logs hold the same bytes: every page, headers included (their ctx_offset
 * and log_id differ, since the logs live at different addresses, and are skipped). */
static bool same_pages(const struct test_log *a, const struct test_log *b)
{
    for (uint32_t i = 0; i < a->log.page_count; i++) {
        const struct ipc_log_page_header *ha = &a->pages[i]->hdr, *hb = &b->pages[i]->hdr;
        if (ha->page_num != hb->page_num || ha->read_offset != hb->read_offset ||
            ha->write_offset != hb->write_offset || ha->start_time != hb->start_time ||
            ha->end_time != hb->end_time ||
            memcmp(a->pages[i]->data, b->pages[i]->data, IPC_LOG_DATA_SIZE) != 0)
            return false;
    }
    return a->log.write_page == b->log.write_page && a->log.read_page == b->log.read_page &&
           a->log.written == b->log.written && a->log.dropped == b->log.dropped;
}

/* Written in place, a message event is byte for byte the string event that printf and the
 * encoder make of the same text and numbers (negative, zero and extreme ones included),
 * wherever it falls: inside a page, straddling two, or after dropping the oldest; and it is
 * a string event exactly as Qualcomm's ipc_logging.c defines it. */
TEST(numbers_event_same_bytes_as_encoder)
{
    static const char text[] = "[ipc_reply] call: ep caller server label len, reply: label len =";
    struct test_log *fast = new_log(2, "fast"), *slow = new_log(2, "slow");
    int32_t numbers[10] = { 2, 4, -3, 1, 16, 0, 16, 0x7fffffff, -1, INT32_MIN };
    /* each side of every power of ten: where a number gains a digit */
    static const int32_t edges[] = { 9, 10, 99, 100, 999, 1000, 9999, 10000, 99999, 100000,
                                     999999, 1000000, 9999999, 10000000, 99999999, 100000000,
                                     999999999, 1000000000 };
    const int edge_count = (int)(sizeof edges / sizeof edges[0]);
    bool same = true;
    for (int i = 0; i < 600 && same; i++) {
        struct ipc_log_numbers ev = { (uint64_t)i * 1000, (uint64_t)i * 3, text,
                                      (size_t)(i * 7) % sizeof text, numbers,
                                      (unsigned)i % 11 };
        fake_ns = (uint64_t)i;
        numbers[0] = i;
        numbers[1] = edges[i % edge_count];
        numbers[2] = -edges[(i / 3) % edge_count];
        int r_fast = ipc_log_append_numbers(&fast->log, &ev);
        int r_slow = log_numbers_encoded(&slow->log, &ev);
        same = r_fast == r_slow && same_pages(fast, slow);
    }
    CHECK(same);
    CHECK(fast->log.dropped > 0); /* it wrapped */
    struct ipc_log_cursor c = ipc_log_oldest(&fast->log);
    uint8_t ev[IPC_LOG_EVENT_MAX];
    int len, events = 0, original = 0;
    while ((len = ipc_log_read_event(&fast->log, &c, ev)) > 0) {
        events++;
        original += ipc_log_event_is_original_string(ev, (size_t)len);
    }
    CHECK(events > 0);
    CHECK_EQ_INT(original, events);
    free_log(fast);
    free_log(slow);
}

TEST(numbers_event_oversize_refused_whole)
{
    struct test_log *t = new_log(1, "big");
    char text[256];
    memset(text, 'x', sizeof text);
    int32_t numbers[8] = { 0 };
    struct ipc_log_numbers fits = { 1, 2, text, 255 - 24 - 2, numbers, 1 }; /* " 0" */
    struct ipc_log_numbers over = { 1, 2, text, 255 - 24 - 1, numbers, 1 };
    CHECK_EQ_INT(ipc_log_append_numbers(&t->log, &fits), 0);
    CHECK_EQ_INT(ipc_log_append_numbers(&t->log, &over), -EMSGSIZE);
    CHECK_EQ_INT(t->log.oversize, 1);
    CHECK_EQ_INT(t->log.written, 1);
    CHECK_EQ_INT(t->pages[0]->hdr.write_offset, 255);
    free_log(t);
}

/* The text of the newest event of log (its BYTE_ARRAY), NUL-terminated in text. */
static void newest_text(const struct ipc_log *log, char *text)
{
    struct ipc_log_cursor c = ipc_log_oldest(log);
    uint8_t ev[IPC_LOG_EVENT_MAX];
    int len, last = 0;
    uint8_t newest[IPC_LOG_EVENT_MAX];
    while ((len = ipc_log_read_event(log, &c, ev)) > 0) {
        memcpy(newest, ev, (size_t)len);
        last = len;
    }
    text[0] = '\0';
    if (last >= 24) {
        memcpy(text, newest + 24, newest[23]);
        text[newest[23]] = '\0';
    }
}

/* Each number where the decimal writer changes its way (one digit, two, the table's last,
 * the first above it, negative ones, both ends of int32) gives printf's " %d", alone, after
 * and before small ones, and as the last number of an event (where the small ones' four-byte
 * store writes past the text). Compared with the text and with the encoder's whole log. */
TEST(numbers_event_edge_numbers_same_as_printf)
{
    static const int32_t edges[] = { 0, 1, 9, 10, 11, 42, 98, 99, 100, 101, 999, 1000,
                                     -1, -9, -10, -99, -100, -101, 2147483647, 2147483646,
                                     INT32_MIN, INT32_MIN + 1, 123456789, -123456789 };
    const int count = (int)(sizeof edges / sizeof edges[0]);
    struct test_log *fast = new_log(2, "fast"), *slow = new_log(2, "slow");
    bool same = true, text_ok = true;
    for (int i = 0; i < count && same && text_ok; i++) {
        for (int shape = 0; shape < 4 && same && text_ok; shape++) {
            /* alone; then 7 after a small one; before one; between two */
            int32_t numbers[3] = { edges[i], 5, 77 };
            if (shape == 1) {
                numbers[0] = 7;
                numbers[1] = edges[i];
            } else if (shape == 3) {
                numbers[0] = 3;
                numbers[1] = edges[i];
                numbers[2] = 10;
            }
            unsigned n = shape == 0 ? 1 : shape == 1 ? 2 : 3;
            struct ipc_log_numbers ev = { (uint64_t)i, (uint64_t)i * 5, "ev =", 4, numbers, n };
            int r_fast = ipc_log_append_numbers(&fast->log, &ev);
            int r_slow = log_numbers_encoded(&slow->log, &ev);
            same = r_fast == r_slow && r_fast >= 0 && same_pages(fast, slow);
            char want[64], got[IPC_LOG_EVENT_MAX + 1];
            int w = snprintf(want, sizeof want, "ev =");
            for (unsigned k = 0; k < n; k++)
                w += snprintf(want + w, sizeof want - (size_t)w, " %d", numbers[k]);
            newest_text(&fast->log, got);
            text_ok = strcmp(got, want) == 0;
            if (!text_ok)
                printf("# got \"%s\", want \"%s\"\n", got, want);
        }
    }
    CHECK(same);
    CHECK(text_ok);
    free_log(fast);
    free_log(slow);
}

/* Around the room a string event has for text (231 bytes): many numbers (more than the
 * writer takes without checking the room as it goes), long ones and short ones, with texts
 * that leave them exactly the room, one byte less and one more. Same result, same pages and
 * same oversize count as the encoder. */
TEST(numbers_event_room_edges_same_as_encoder)
{
    char what[256];
    memset(what, 'w', sizeof what);
    static int32_t numbers[120];
    struct test_log *fast = new_log(2, "fast"), *slow = new_log(2, "slow");
    bool same = true;
    int refused = 0;
    static const int32_t fills[] = { 0, 99, 100, -5, INT32_MIN, 2147483647 };
    for (unsigned count = 0; count <= 116 && same; count++) {
        for (unsigned f = 0; f < sizeof fills / sizeof fills[0] && same; f++) {
            for (unsigned i = 0; i < count; i++)
                numbers[i] = i % 3 == 2 ? (int32_t)i : fills[f];
            char text[2048];
            int numbers_len = 0;
            for (unsigned i = 0; i < count; i++)
                numbers_len += snprintf(text, sizeof text, " %d", numbers[i]);
            for (int slack = -1; slack <= 1 && same; slack++) {
                /* what_len such that the text is the room + slack bytes long */
                long what_len = 231 - numbers_len + slack;
                if (what_len < 0 || what_len > 240)
                    continue;
                struct ipc_log_numbers ev = { count, f, what, (size_t)what_len, numbers, count };
                int r_fast = ipc_log_append_numbers(&fast->log, &ev);
                int r_slow = log_numbers_encoded(&slow->log, &ev);
                refused += r_fast == -EMSGSIZE;
                same = r_fast == r_slow && (r_fast == -EMSGSIZE) == (slack > 0) &&
                       fast->log.oversize == slow->log.oversize && same_pages(fast, slow);
            }
        }
    }
    CHECK(same);
    CHECK(refused > 100);
    free_log(fast);
    free_log(slow);
}

/* Dropping the oldest, against a model of the stream: after every append of events of
 * varied sizes (some straddling, some ending at a page's end), the events read from the
 * oldest are exactly the newest that fit, the count of dropped ones agrees, and the `log`
 * reader, left at the oldest, moved along with it. */
TEST(drops_agree_with_a_model_of_the_stream)
{
    struct test_log *t = new_log(3, "model");
    enum { MAX_EVENTS = 4096 };
    static uint32_t sizes[MAX_EVENTS];
    uint32_t first = 0, next = 0, bytes = 0;
    const uint32_t capacity = 3 * IPC_LOG_DATA_SIZE;
    uint64_t dropped = 0;
    bool ok = true;
    uint32_t seed = 12345;
    for (uint32_t i = 0; i < 3000 && ok; i++) {
        seed = seed * 1103515245u + 12345u;
        uint32_t len = 26 + (seed >> 16) % 230; /* a string event of 26 to 255 bytes */
        if (i % 97 == 0)
            len = 255;
        char text[256];
        memset(text, 'a' + (char)(i % 26), sizeof text);
        text[len - 24] = '\0';
        int r = log_text(&t->log, i, text);
        uint32_t drops = 0;
        while (capacity - bytes <= len) { /* one byte always stays free */
            bytes -= sizes[first++ % MAX_EVENTS];
            drops++;
        }
        sizes[next++ % MAX_EVENTS] = len;
        bytes += len;
        dropped += drops;
        ok = r == (int)drops && t->log.dropped == dropped;
        struct ipc_log_cursor c = ipc_log_oldest(&t->log);
        ok = ok && t->log.reader.page == c.page && t->log.reader.offset == c.offset;
        uint8_t ev[IPC_LOG_EVENT_MAX];
        int n;
        uint32_t k = first;
        while (ok && (n = ipc_log_read_event(&t->log, &c, ev)) > 0)
            ok = k < next && (uint32_t)n == sizes[k++ % MAX_EVENTS];
        ok = ok && k == next;
    }
    CHECK(ok);
    CHECK(dropped > 1000);
    free_log(t);
}

TEST(event_ending_at_page_end_then_next_page)
{
    struct test_log *t = new_log(2, "edge");
    uint8_t ev[200] = { 9 };
    for (int i = 0; i < 21; i++) { /* 20 * 200 + 32 bytes: page 0 exactly, in raw events */
        uint32_t len = i < 20 ? 200 : IPC_LOG_DATA_SIZE - 20 * 200;
        ev[1] = (uint8_t)(len - 2);
        CHECK_EQ_INT(ipc_log_append(&t->log, ev, len), 0);
    }
    CHECK_EQ_INT(t->pages[0]->hdr.write_offset, IPC_LOG_DATA_SIZE);
    CHECK_EQ_INT(t->log.write_page, 0); /* rests at the very end, as in Qualcomm's ipc_logging.c */
    CHECK_EQ_INT(log_text(&t->log, 1, "next"), 0);
    CHECK_EQ_INT(t->log.write_page, 1);
    CHECK_EQ_INT(t->pages[1]->hdr.write_offset, 28);
    char texts[64][64];
    int n = read_texts(&t->log, ipc_log_oldest(&t->log), texts, 64);
    CHECK_EQ_STR(texts[n - 1], "next");
    free_log(t);
}

TEST(wrap_drops_oldest_keeps_newest)
{
    struct test_log *t = new_log(2, "wrap");
    char text[32];
    int total = 500;
    for (int i = 0; i < total; i++) {
        snprintf(text, sizeof text, "line %03d", i);
        CHECK(log_text(&t->log, (uint64_t)i, text) >= 0);
    }
    CHECK(t->log.dropped > 0);
    CHECK_EQ_INT(t->log.written, total);

    /* Only the read page has a read_offset. */
    uint32_t r = t->log.read_page;
    CHECK(t->pages[r]->hdr.read_offset != 0);
    CHECK_EQ_INT(t->pages[1 - r]->hdr.read_offset, 0);

    static char texts[600][64];
    int n = read_texts(&t->log, ipc_log_oldest(&t->log), texts, 600);
    CHECK_EQ_INT(n + (int)t->log.dropped, total);
    for (int k = 0; k < n; k++) {
        snprintf(text, sizeof text, "line %03d", total - n + k);
        CHECK_EQ_STR(texts[k], text); /* consecutive, ending with the newest */
    }
    CHECK(ipc_log_pending(&t->log, ipc_log_oldest(&t->log)) > 2 * IPC_LOG_DATA_SIZE - 33);
    free_log(t);
}

TEST(reader_is_pushed_by_drops_only_when_at_oldest)
{
    struct test_log *t = new_log(1, "reader");
    char text[32];
    t->log.reader = ipc_log_oldest(&t->log);
    for (int i = 0; i < 200; i++) {
        snprintf(text, sizeof text, "r %d", i);
        log_text(&t->log, 1, text);
    }
    CHECK(t->log.dropped > 0);
    struct ipc_log_cursor oldest = ipc_log_oldest(&t->log);
    CHECK(t->log.reader.page == oldest.page && t->log.reader.offset == oldest.offset);

    /* A reader that has read everything stays at the write position. */
    uint8_t ev[IPC_LOG_EVENT_MAX];
    while (ipc_log_read_event(&t->log, &t->log.reader, ev) > 0)
        ;
    log_text(&t->log, 1, "after");
    CHECK_EQ_INT(ipc_log_read_event(&t->log, &t->log.reader, ev), 29);
    CHECK_EQ_STR(event_text(ev), "after");
    CHECK_EQ_INT(ipc_log_read_event(&t->log, &t->log.reader, ev), 0);
    free_log(t);
}

/* Rebuilds the log from copies of its page headers, as the dump tool does, and reads the
 * events from the spans; returns how many, comparing each with the live reading. */
static int compare_dump_with_live(struct test_log *t)
{
    const struct ipc_log_page_header *hdrs[8];
    struct ipc_log_span spans[9];
    static uint8_t stream[9 * IPC_LOG_DATA_SIZE];
    size_t len = 0;
    for (uint32_t i = 0; i < t->log.page_count; i++)
        hdrs[i] = &t->pages[i]->hdr;
    uint32_t count = ipc_log_dump_spans(hdrs, t->log.page_count, spans);
    CHECK(count <= t->log.page_count + 1);
    for (uint32_t s = 0; s < count; s++) {
        CHECK(spans[s].start <= spans[s].end && spans[s].end <= IPC_LOG_DATA_SIZE);
        memcpy(stream + len, t->pages[spans[s].page]->data + spans[s].start,
               spans[s].end - spans[s].start);
        len += spans[s].end - spans[s].start;
    }
    CHECK_EQ_INT(len, ipc_log_pending(&t->log, ipc_log_oldest(&t->log)));

    struct ipc_log_cursor c = ipc_log_oldest(&t->log);
    uint8_t ev[IPC_LOG_EVENT_MAX];
    size_t at = 0;
    int n = 0, evlen;
    while ((evlen = ipc_log_read_event(&t->log, &c, ev)) > 0) {
        CHECK_EQ_INT(ipc_log_event_check(stream + at, len - at), evlen);
        CHECK(memcmp(stream + at, ev, (size_t)evlen) == 0);
        at += (size_t)evlen;
        n++;
    }
    CHECK_EQ_INT(at, len);
    return n;
}

TEST(dump_order_matches_live_reading)
{
    srand(7);
    for (int round = 0; round < 300; round++) {
        uint32_t pages = 1 + (uint32_t)round % 4;
        struct test_log *t = new_log(pages, "dump");
        int events = rand() % 400;
        int max_text = 1 + rand() % 220;
        char text[256];
        for (int i = 0; i < events; i++) {
            int len = rand() % max_text;
            memset(text, 'a' + i % 26, (size_t)len);
            text[len] = '\0';
            fake_ns = (uint64_t)i;
            log_text(&t->log, (uint64_t)i, text);
        }
        int n = compare_dump_with_live(t);
        CHECK(n + (int)t->log.dropped == events);
        free_log(t);
    }
}

TEST(dump_spans_with_missing_page)
{
    struct test_log *t = new_log(3, "hole");
    for (int i = 0; i < 300; i++)
        log_text(&t->log, 1, "some words to fill the pages");
    const struct ipc_log_page_header *hdrs[3] = { &t->pages[0]->hdr, NULL, &t->pages[2]->hdr };
    struct ipc_log_span spans[4];
    uint32_t count = ipc_log_dump_spans(hdrs, 3, spans);
    CHECK(count >= 3);
    bool hole = false;
    for (uint32_t s = 0; s < count; s++)
        hole |= spans[s].page == 1;
    CHECK(hole); /* the missing page's place is kept, so the tool knows data is lost there */
    free_log(t);
}

TEST(format_line_as_the_seed)
{
    struct ipc_log_encoder e;
    const char *text = "[diag_state_open_smd] MODEM_DATA setting diag state to 1";
    char line[IPC_LOG_LINE_MAX];
    ipc_log_encode_start(&e, TSV_TYPE_STRING);
    ipc_log_encode_timestamp(&e, 4191362072425ull);
    ipc_log_encode_qtimer(&e, 0x12bec5ff43ull);
    ipc_log_encode_bytes(&e, text, strlen(text));
    int len = ipc_log_encode_end(&e);
    size_t n = ipc_log_format_line(e.buf, (size_t)len, line, sizeof line);
    CHECK_EQ_STR(line, "[  4191.362072425/      0x12bec5ff43] [diag_state_open_smd] "
                       "MODEM_DATA setting diag state to 1\n");
    CHECK_EQ_INT(n, strlen(line));
}

TEST(format_line_other_items_and_controls)
{
    struct ipc_log_encoder e;
    char line[IPC_LOG_LINE_MAX];
    ipc_log_encode_start(&e, TSV_TYPE_SKB);
    ipc_log_encode_timestamp(&e, 1000000001ull);
    ipc_log_encode_int32(&e, -17);
    ipc_log_encode_pointer(&e, (uintptr_t)0xbeef);
    ipc_log_encode_bytes(&e, "a\tb\x01z\n", 6);
    int len = ipc_log_encode_end(&e);
    ipc_log_format_line(e.buf, (size_t)len, line, sizeof line);
    CHECK_EQ_STR(line, "[     1.000000001] -17 0xbeef a\tb.z\n"); /* no QTIMER: no slash */

    uint8_t bad[] = { 2, 4, 7, 2, 0, 0 };
    ipc_log_format_line(bad, sizeof bad, line, sizeof line);
    CHECK_EQ_STR(line, "<malformed event>\n");

    ipc_log_encode_start(&e, TSV_TYPE_STRING);
    ipc_log_encode_timestamp(&e, 0);
    ipc_log_encode_qtimer(&e, 0);
    ipc_log_encode_bytes(&e, "x", 1);
    len = ipc_log_encode_end(&e);
    ipc_log_format_line(e.buf, (size_t)len, line, 12); /* cut, still terminated */
    CHECK_EQ_STR(line, "[     0.000");
    ipc_log_format_line(e.buf, (size_t)len, line, sizeof line);
    CHECK_EQ_STR(line, "[     0.000000000/               0x0] x\n");
}

TEST(event_check_rejects_bad_items)
{
    uint8_t ok[] = { 2, 10, 1, 8, 0, 0, 0, 0, 0, 0, 0, 0 };
    CHECK_EQ_INT(ipc_log_event_check(ok, sizeof ok), 12);
    CHECK_EQ_INT(ipc_log_event_check(ok, 11), -EINVAL);  /* cut short */
    uint8_t bad_size[] = { 2, 6, 1, 4, 0, 0, 0, 0 };      /* a 4-byte timestamp */
    CHECK_EQ_INT(ipc_log_event_check(bad_size, sizeof bad_size), -EINVAL);
    uint8_t over[] = { 2, 3, 4, 5, 0 };                   /* item longer than the event */
    CHECK_EQ_INT(ipc_log_event_check(over, sizeof over), -EINVAL);
    uint8_t odd[] = { 2, 1, 4 };                          /* half an item header */
    CHECK_EQ_INT(ipc_log_event_check(odd, sizeof odd), -EINVAL);
    uint8_t zero[] = { 0, 0 };                            /* type 0: no event */
    CHECK_EQ_INT(ipc_log_event_check(zero, sizeof zero), -EINVAL);
    uint8_t empty[] = { 2, 0 };
    CHECK_EQ_INT(ipc_log_event_check(empty, sizeof empty), 2);
}
