/*
 * ipc_log_page.c - IPC logging's memory format: encoding events, writing them into a
 * context's circular list of pages, reading them back in order (live, or from the pages of
 * a memory dump), and printing one as a line. The layout is in ipc_log_page.h; the hot part
 * of writing (a message event, dropping the oldest) is inline, in ipc_log_write.h.
 */
#include "trace/ipc_logging/ipc_log_page.h"
#include "trace/ipc_logging/ipc_log_write.h"

#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"

_Static_assert(sizeof(struct ipc_log_page_header) == IPC_LOG_HEADER_SIZE, "page header");
_Static_assert(sizeof(struct ipc_log_page) == IPC_LOG_PAGE_SIZE, "page");
_Static_assert(sizeof(struct ipc_log_context_header) == IPC_LOG_HEADER_SIZE, "context header");
_Static_assert(offsetof(struct ipc_log_page_header, read_offset) == 0x0c, "read_offset");
_Static_assert(offsetof(struct ipc_log_page_header, log_id) == 0x10, "page log_id");
_Static_assert(offsetof(struct ipc_log_page_header, ctx_offset) == 0x28, "ctx_offset");
_Static_assert(offsetof(struct ipc_log_context_header, header_size) == 0x0e, "header_size");
_Static_assert(offsetof(struct ipc_log_context_header, name) == 0x18, "name");
_Static_assert(IPC_LOG_MAX_MSG_SIZE < IPC_LOG_DATA_SIZE, "an event spans two pages at most");

/* The n-byte little-endian number at p. */
static uint64_t get_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;)
        v = (v << 8) | p[i];
    return v;
}

/* --- encoding ---------------------------------------------------------------------------- */

void ipc_log_encode_start(struct ipc_log_encoder *e, uint8_t type)
{
    e->buf[0] = type;
    e->buf[1] = 0;
    e->offset = TSV_HEADER_SIZE;
    e->overflow = false;
}

/* Appends an item header and room for len bytes; returns where they go, or NULL (and marks
 * the event oversize) when the item does not fit. */
static uint8_t *put_item(struct ipc_log_encoder *e, uint8_t type, size_t len)
{
    if (len > IPC_LOG_MAX_MSG_SIZE || e->offset + TSV_HEADER_SIZE + len > IPC_LOG_MAX_MSG_SIZE) {
        e->overflow = true;
        return NULL;
    }
    uint8_t *p = e->buf + e->offset;
    p[0] = type;
    p[1] = (uint8_t)len;
    e->offset += TSV_HEADER_SIZE + (uint32_t)len;
    return p + TSV_HEADER_SIZE;
}

/* Appends a number item of n bytes. */
static int put_number(struct ipc_log_encoder *e, uint8_t type, uint64_t v, unsigned n)
{
    uint8_t *p = put_item(e, type, n);
    if (!p)
        return -EMSGSIZE;
    put_le(p, v, n);
    return 0;
}

int ipc_log_encode_timestamp(struct ipc_log_encoder *e, uint64_t ns)
{
    return put_number(e, TSV_TYPE_TIMESTAMP, ns, 8);
}

int ipc_log_encode_qtimer(struct ipc_log_encoder *e, uint64_t ticks)
{
    return put_number(e, TSV_TYPE_QTIMER, ticks, 8);
}

int ipc_log_encode_pointer(struct ipc_log_encoder *e, uintptr_t pointer)
{
    return put_number(e, TSV_TYPE_POINTER, pointer, sizeof pointer);
}

int ipc_log_encode_int32(struct ipc_log_encoder *e, int32_t value)
{
    return put_number(e, TSV_TYPE_INT32, (uint32_t)value, 4);
}

int ipc_log_encode_bytes(struct ipc_log_encoder *e, const void *data, size_t len)
{
    uint8_t *p = put_item(e, TSV_TYPE_BYTE_ARRAY, len);
    if (!p)
        return -EMSGSIZE;
    copy_bytes(p, data, len);
    return 0;
}

char *ipc_log_encode_bytes_start(struct ipc_log_encoder *e, size_t *room)
{
    uint32_t start = e->offset + TSV_HEADER_SIZE;
    if (start > IPC_LOG_MAX_MSG_SIZE) {
        *room = 0;
        return (char *)e->buf + IPC_LOG_MAX_MSG_SIZE; /* the spare byte, for a NUL */
    }
    *room = IPC_LOG_MAX_MSG_SIZE - start;
    return (char *)e->buf + start;
}

int ipc_log_encode_bytes_done(struct ipc_log_encoder *e, size_t len)
{
    /* The bytes are in place already: put_item only adds the header before them. */
    return put_item(e, TSV_TYPE_BYTE_ARRAY, len) ? 0 : -EMSGSIZE;
}

int ipc_log_encode_end(struct ipc_log_encoder *e)
{
    if (e->overflow)
        return -EMSGSIZE;
    e->buf[1] = (uint8_t)(e->offset - TSV_HEADER_SIZE);
    return (int)e->offset;
}

/* --- a context's pages ------------------------------------------------------------------- */

void ipc_log_init(struct ipc_log *log, struct ipc_log_page **pages, uint32_t count,
                  const char *name, uint16_t user_version, uint64_t (*clock)(void))
{
    uint64_t log_id = (uint64_t)(uintptr_t)log;
    size_t name_len = strlen(name);

    log->pages = pages;
    log->page_count = count;
    log->read_page = 0;
    log->write_page = 0;
    log->write_avail = count * IPC_LOG_DATA_SIZE;
    log->reader = (struct ipc_log_cursor){ 0, 0 };
    log->clock = clock;
    log->written = log->dropped = log->oversize = 0;

    memset(&log->hdr, 0, sizeof log->hdr);
    log->hdr.version = IPC_LOG_VERSION;
    log->hdr.user_version = user_version;
    log->hdr.header_size = IPC_LOG_HEADER_SIZE;
    log->hdr.log_id = log_id;
    memcpy(log->hdr.name, name, name_len < IPC_LOG_NAME_SIZE ? name_len : IPC_LOG_NAME_SIZE - 1);

    for (uint32_t i = 0; i < count; i++) {
        struct ipc_log_page_header *h = &pages[i]->hdr;
        memset(h, 0, sizeof *h);
        h->page_num = IPC_LOG_PAGE_FLAG | i;
        h->log_id = log_id;
        h->ctx_offset = (int64_t)(log_id - (uint64_t)(uintptr_t)h);
        __atomic_signal_fence(__ATOMIC_SEQ_CST); /* the magic numbers come last */
        h->magic = IPC_LOG_PAGE_MAGIC;
        h->nmagic = IPC_LOG_PAGE_NMAGIC;
    }
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    log->hdr.magic = IPC_LOG_CONTEXT_MAGIC;
    log->hdr.nmagic = IPC_LOG_CONTEXT_NMAGIC;
}

void ipc_log_forget(struct ipc_log *log)
{
    log->hdr.magic = log->hdr.nmagic = 0;
    for (uint32_t i = 0; i < log->page_count; i++)
        log->pages[i]->hdr.magic = log->pages[i]->hdr.nmagic = 0;
}

/* The page after page in list order, the last one followed by the first. */
static uint32_t next_page(const struct ipc_log *log, uint32_t page)
{
    return page + 1 == log->page_count ? 0 : page + 1;
}

/*
 * Copies n bytes (n < IPC_LOG_DATA_SIZE) at *c into out (unless NULL) and moves *c past
 * them. As in Qualcomm's ipc_logging.c, a position may rest at the very end of a page; the
 * next step from there starts on the next page.
 */
static void step(const struct ipc_log *log, struct ipc_log_cursor *c, uint8_t *out, uint32_t n)
{
    uint32_t here = IPC_LOG_DATA_SIZE - c->offset;
    if (here >= n) {
        if (out)
            memcpy(out, log->pages[c->page]->data + c->offset, n);
        c->offset += n;
        return;
    }
    if (out)
        memcpy(out, log->pages[c->page]->data + c->offset, here);
    c->page = next_page(log, c->page);
    if (out)
        memcpy(out + here, log->pages[c->page]->data, n - here);
    c->offset = n - here;
}

/* Drops the oldest event: the read position moves past it, and the page it leaves gets
 * read_offset 0 (the rule of Qualcomm's ipc_logging.c, which dump tools rely on: only the
 * read page has a read_offset). The `log` reader moves along if it was there. Out of line:
 * make_room (ipc_log_write.h) calls it only for an event that runs onto the next page, and
 * inlined it would take the registers make_room's common case needs. */
__attribute__((noinline)) void ipc_log_drop_oldest(struct ipc_log *log)
{
    struct ipc_log_cursor r = ipc_log_oldest(log);
    bool push_reader = log->reader.page == r.page && log->reader.offset == r.offset;
    uint8_t hdr[TSV_HEADER_SIZE];

    if (r.offset + TSV_HEADER_SIZE <= IPC_LOG_DATA_SIZE) { /* the header is on this page */
        hdr[1] = log->pages[r.page]->data[r.offset + 1];
        r.offset += TSV_HEADER_SIZE;
    } else {
        step(log, &r, hdr, TSV_HEADER_SIZE);
    }
    step(log, &r, NULL, hdr[1]);
    log->pages[log->read_page]->hdr.read_offset = 0;
    log->read_page = r.page;
    log->pages[r.page]->hdr.read_offset = (uint16_t)r.offset;
    log->write_avail += TSV_HEADER_SIZE + hdr[1];
    if (push_reader)
        log->reader = r;
}

int ipc_log_append(struct ipc_log *log, const uint8_t *ev, uint32_t len)
{
    if (len > IPC_LOG_MAX_MSG_SIZE) {
        log->oversize++;
        return -EMSGSIZE;
    }
    if (len < TSV_HEADER_SIZE || ev[0] == TSV_TYPE_INVALID || ev[1] != len - TSV_HEADER_SIZE)
        return -EINVAL;

    int dropped = make_room(log, len);
    struct ipc_log_page *page = log->pages[log->write_page];
    uint32_t here = IPC_LOG_DATA_SIZE - page->hdr.write_offset;
    if (here >= len) {
        copy_bytes(page->data + page->hdr.write_offset, ev, len);
        page->hdr.write_offset += (uint16_t)len;
    } else {
        /* The event straddles: its start fills this page, the rest opens the next one. */
        uint64_t now = log->clock();
        copy_bytes(page->data + page->hdr.write_offset, ev, here);
        page->hdr.write_offset = IPC_LOG_DATA_SIZE;
        page->hdr.end_time = now;
        log->write_page = next_page(log, log->write_page);
        page = log->pages[log->write_page];
        page->hdr.start_time = now;
        copy_bytes(page->data, ev + here, len - here);
        page->hdr.write_offset = (uint16_t)(len - here);
    }
    return count_append(log, len, dropped);
}

int ipc_log_append_encoded(struct ipc_log *log, struct ipc_log_encoder *e)
{
    int len = ipc_log_encode_end(e);
    if (len < 0) {
        log->oversize++;
        return len;
    }
    return ipc_log_append(log, e->buf, (uint32_t)len);
}

/* The characters v takes in decimal, its '-' included: a few compares for the small
 * numbers the IPC layer logs, where counting by division would cost one per digit. */
static unsigned decimal_length(int32_t v)
{
    uint32_t u = v < 0 ? 0u - (uint32_t)v : (uint32_t)v; /* INT32_MIN too */
    unsigned len = 1 + (v < 0);
    for (uint32_t bound = 10; u >= bound; bound *= 10) {
        len++;
        if (bound == 1000000000u) /* 10^10 does not fit: u has 10 digits */
            break;
    }
    return len;
}

/* "00" to "99": two digits per division, and none at all for a number under 100. */
static const char two_digits[] =
    "0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243"
    "4445464748495051525354555657585960616263646566676869707172737475767778798081828384858687"
    "888990919293949596979899";

/*
 * Writes v in decimal at p, len characters (decimal_length(v)), from its last digit back:
 * the numbers of ipc_log_numbers' events go through here instead of a printf, with no
 * format string to interpret and no digits reversed afterwards.
 */
static void put_decimal(char *p, int32_t v, unsigned len)
{
    uint32_t u = (uint32_t)v;
    if (v < 0) {
        *p = '-';
        u = 0u - u;
    }
    char *q = p + len;
    while (u >= 100) {
        uint32_t pair = u % 100;
        u /= 100;
        q -= 2;
        q[0] = two_digits[2 * pair];
        q[1] = two_digits[2 * pair + 1];
    }
    if (u >= 10) {
        q[-2] = two_digits[2 * u];
        q[-1] = two_digits[2 * u + 1];
    } else {
        q[-1] = (char)('0' + u);
    }
}

/* --- message events: the rare cases (ipc_log_write.h has the common one) ------------------ */

/* ipc_log_blank_decimal's entry for n: a blank, n's one or two digits, their count + 1. */
#define BLANK_DECIMAL(n)                                                                 \
    { ' ', (char)((n) < 10 ? '0' + (n) : '0' + (n) / 10),                                \
      (char)((n) < 10 ? 0 : '0' + (n) % 10), (char)((n) < 10 ? 2 : 3) }
#define BLANK_DECIMAL_TENS(t)                                                            \
    BLANK_DECIMAL(10 * (t)), BLANK_DECIMAL(10 * (t) + 1), BLANK_DECIMAL(10 * (t) + 2),   \
        BLANK_DECIMAL(10 * (t) + 3), BLANK_DECIMAL(10 * (t) + 4),                        \
        BLANK_DECIMAL(10 * (t) + 5), BLANK_DECIMAL(10 * (t) + 6),                        \
        BLANK_DECIMAL(10 * (t) + 7), BLANK_DECIMAL(10 * (t) + 8), BLANK_DECIMAL(10 * (t) + 9)
const char ipc_log_blank_decimal[BLANK_DECIMAL_BELOW][4] = {
    BLANK_DECIMAL_TENS(0), BLANK_DECIMAL_TENS(1), BLANK_DECIMAL_TENS(2), BLANK_DECIMAL_TENS(3),
    BLANK_DECIMAL_TENS(4), BLANK_DECIMAL_TENS(5), BLANK_DECIMAL_TENS(6), BLANK_DECIMAL_TENS(7),
    BLANK_DECIMAL_TENS(8), BLANK_DECIMAL_TENS(9),
};

/* Out of line: inlined, it would take the registers put_numbers_text's loop keeps for the
 * small numbers. */
__attribute__((noinline)) char *ipc_log_put_blank_decimal(char *out, int32_t v)
{
    unsigned len = decimal_length(v);
    *out = ' ';
    put_decimal(out + 1, v, len);
    return out + 1 + len;
}

/* Only a long text or many numbers come here. */
__attribute__((noinline)) char *ipc_log_put_numbers_text_bounded(char *out, const int32_t *n,
                                                                 const int32_t *end,
                                                                 size_t room)
{
    const char *limit = out + room;
    for (; n != end && out <= limit; n++)
        out = put_numbers_text(out, n, n + 1);
    return out <= limit ? out : NULL;
}

/* One event in about forty (a page holds some forty of IPC's). */
__attribute__((noinline)) int ipc_log_append_numbers_straddling(struct ipc_log *log,
    uint32_t len, uint64_t ns, uint64_t ticks, const char *what, size_t what_len,
    const char *numbers_text, size_t numbers_len)
{
    uint8_t event[IPC_LOG_MAX_MSG_SIZE];
    put_numbers_event(event, len, ns, ticks, what, what_len, numbers_text, numbers_len);
    ipc_log_append(log, event, len); /* it fits: len was checked */
    return 0;
}

int ipc_log_append_numbers(struct ipc_log *log, const struct ipc_log_numbers *ev)
{
    char text[STRING_EVENT_ROOM + NUMBER_TEXT_MAX];
    int text_len = ipc_log_numbers_text(text, ev->what_len, ev->numbers, ev->count);
    uint64_t dropped = log->dropped;
    int r = ipc_log_write_numbers(log, ev->ns, ev->ticks, ev->what, ev->what_len, text,
                                  text_len);
    return r < 0 ? r : (int)(log->dropped - dropped);
}

struct ipc_log_cursor ipc_log_oldest(const struct ipc_log *log)
{
    return (struct ipc_log_cursor){ log->read_page,
                                    log->pages[log->read_page]->hdr.read_offset };
}

/* c at the write page but past write_offset means the stream runs all the way round (the
 * writer is behind the reader on the same page). */
uint64_t ipc_log_pending(const struct ipc_log *log, struct ipc_log_cursor c)
{
    uint32_t w = log->write_page;
    uint32_t wo = log->pages[w]->hdr.write_offset;
    if (c.page == w && c.offset <= wo)
        return wo - c.offset;
    uint64_t pages = (w + log->page_count - c.page) % log->page_count;
    if (pages == 0)
        pages = log->page_count;
    return pages * IPC_LOG_DATA_SIZE + wo - c.offset;
}

int ipc_log_read_event(const struct ipc_log *log, struct ipc_log_cursor *c, uint8_t *buf)
{
    uint64_t avail = ipc_log_pending(log, *c);
    if (avail == 0)
        return 0;
    if (avail < TSV_HEADER_SIZE)
        return -EINVAL;
    struct ipc_log_cursor t = *c;
    step(log, &t, buf, TSV_HEADER_SIZE);
    uint32_t len = TSV_HEADER_SIZE + buf[1];
    if (len > avail)
        return -EINVAL;
    step(log, &t, buf + TSV_HEADER_SIZE, buf[1]);
    *c = t;
    return (int)len;
}

/* --- rebuilding from a dump -------------------------------------------------------------- */

/* A header's offset, bounded by the data size (a dump may hold anything). */
static uint16_t bounded(uint16_t offset)
{
    return offset < IPC_LOG_DATA_SIZE ? offset : IPC_LOG_DATA_SIZE;
}

/*
 * Where the stream starts and ends, from the headers alone. Before the first drop no page
 * has a read_offset: the stream runs from page 0 to the last page written. After it, the
 * read page is the one page with a read_offset; since the writer drops only what it needs,
 * less than one event of room separates it from the write position, so the write page is
 * the read page itself (when its write_offset is below the read_offset) or the one before.
 */
uint32_t ipc_log_dump_spans(const struct ipc_log_page_header *const *pages, uint32_t n,
                            struct ipc_log_span *spans)
{
    uint32_t r = 0, w = 0;
    uint16_t ro = 0, wo = 0;
    bool wrapped = false;

    if (n == 0)
        return 0;
    for (uint32_t i = 0; i < n && !wrapped; i++) {
        if (pages[i] && pages[i]->read_offset != 0) {
            r = i;
            ro = bounded(pages[i]->read_offset);
            wrapped = true;
        }
    }
    if (wrapped) {
        w = pages[r]->write_offset < ro ? r : (r + n - 1) % n;
    } else {
        for (uint32_t i = 0; i < n; i++)
            if (pages[i] && pages[i]->write_offset != 0)
                w = i;
    }
    wo = pages[w] ? bounded(pages[w]->write_offset) : IPC_LOG_DATA_SIZE;

    uint32_t count = 0;
    if (r == w && ro <= wo) {
        spans[count++] = (struct ipc_log_span){ r, ro, wo };
        return count;
    }
    spans[count++] = (struct ipc_log_span){ r, ro, IPC_LOG_DATA_SIZE };
    for (uint32_t p = (r + 1) % n; p != w; p = (p + 1) % n)
        spans[count++] = (struct ipc_log_span){ p, 0, IPC_LOG_DATA_SIZE };
    spans[count++] = (struct ipc_log_span){ w, 0, wo };
    return count;
}

/* --- decoding and printing --------------------------------------------------------------- */

/* Whether an item of this type may have this size. */
static bool item_size_ok(uint8_t type, uint8_t size)
{
    switch (type) {
    case TSV_TYPE_TIMESTAMP:
    case TSV_TYPE_QTIMER:
        return size == 8;
    case TSV_TYPE_INT32:
        return size == 4;
    case TSV_TYPE_POINTER:
        return size == 4 || size == 8;
    case TSV_TYPE_BYTE_ARRAY:
        return true;
    default:
        return false;
    }
}

int ipc_log_event_check(const uint8_t *ev, size_t len)
{
    if (len < TSV_HEADER_SIZE || ev[0] == TSV_TYPE_INVALID)
        return -EINVAL;
    size_t total = TSV_HEADER_SIZE + (size_t)ev[1];
    if (total > len)
        return -EINVAL;
    for (size_t p = TSV_HEADER_SIZE; p < total; p += TSV_HEADER_SIZE + (size_t)ev[p + 1]) {
        if (total - p < TSV_HEADER_SIZE || ev[p + 1] > total - p - TSV_HEADER_SIZE ||
            !item_size_ok(ev[p], ev[p + 1]))
            return -EINVAL;
    }
    return (int)total;
}

bool ipc_log_event_is_original_string(const uint8_t *ev, size_t len)
{
    int total = ipc_log_event_check(ev, len);
    return total >= STRING_EVENT_OVERHEAD && ev[0] == TSV_TYPE_STRING &&
           ev[2] == TSV_TYPE_TIMESTAMP && ev[3] == 8 && ev[12] == TSV_TYPE_QTIMER &&
           ev[13] == 8 && ev[22] == TSV_TYPE_BYTE_ARRAY &&
           STRING_EVENT_OVERHEAD + (size_t)ev[23] == (size_t)total;
}

/* A line being built: text is always NUL-terminated within size. */
struct line {
    char *text;
    size_t size, len;
};

/* Appends n bytes of s, as many as fit. */
static void put_chars(struct line *l, const char *s, size_t n)
{
    size_t room = l->size - 1 - l->len;
    if (n > room)
        n = room;
    for (size_t i = 0; i < n; i++)
        l->text[l->len++] = s[i];
    l->text[l->len] = '\0';
}

/* Appends c if it fits. */
static void put_char(struct line *l, char c)
{
    put_chars(l, &c, 1);
}

/* v in decimal, right-aligned in width (at most 20), padded with pad. */
static void put_dec(struct line *l, uint64_t v, int width, char pad)
{
    char buf[20];
    int n = (int)sizeof buf;
    do {
        buf[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n > (int)sizeof buf - width)
        buf[--n] = pad;
    put_chars(l, buf + n, sizeof buf - (size_t)n);
}

/* v as 0x and hex digits, right-aligned in width (at most 18: Qualcomm's ipc_logging.c prints
 * %#18llx). */
static void put_hex(struct line *l, uint64_t v, int width)
{
    char buf[18];
    int n = (int)sizeof buf;
    do {
        buf[--n] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    buf[--n] = 'x';
    buf[--n] = '0';
    while (n > (int)sizeof buf - width)
        buf[--n] = ' ';
    put_chars(l, buf + n, sizeof buf - (size_t)n);
}

/* An item other than the line's timestamps, as text. */
static void put_item_text(struct line *l, uint8_t type, const uint8_t *v, uint8_t size)
{
    switch (type) {
    case TSV_TYPE_INT32: {
        int32_t n = (int32_t)(uint32_t)get_le(v, 4);
        if (n < 0)
            put_char(l, '-');
        put_dec(l, n < 0 ? 0u - (uint64_t)(int64_t)n : (uint64_t)n, 0, ' ');
        break;
    }
    case TSV_TYPE_POINTER:
        put_hex(l, get_le(v, size), 0);
        break;
    case TSV_TYPE_BYTE_ARRAY: {
        size_t n = size > 0 && v[size - 1] == '\n' ? size - 1u : size;
        size_t start = l->len;
        put_chars(l, (const char *)v, n);
        for (size_t i = start; i < l->len; i++) {
            unsigned char c = (unsigned char)l->text[i];
            if ((c < 0x20 && c != '\t') || c == 0x7f)
                l->text[i] = '.';
        }
        break;
    }
    default: /* a timestamp beyond the first */
        put_dec(l, get_le(v, size), 0, ' ');
        break;
    }
}

size_t ipc_log_format_line(const uint8_t *ev, size_t len, char *out, size_t size)
{
    struct line l = { out, size, 0 };
    int total = ipc_log_event_check(ev, len);
    size_t ts_at = 0, qt_at = 0;

    if (size == 0)
        return 0;
    out[0] = '\0';
    if (total < 0) {
        static const char malformed[] = "<malformed event>\n";
        put_chars(&l, malformed, sizeof malformed - 1);
        return l.len;
    }
    for (size_t p = TSV_HEADER_SIZE; p < (size_t)total; p += TSV_HEADER_SIZE + ev[p + 1]) {
        if (ev[p] == TSV_TYPE_TIMESTAMP && !ts_at)
            ts_at = p;
        else if (ev[p] == TSV_TYPE_QTIMER && !qt_at)
            qt_at = p;
    }

    uint64_t ns = ts_at ? get_le(ev + ts_at + TSV_HEADER_SIZE, 8) : 0;
    put_char(&l, '[');
    put_dec(&l, ns / 1000000000u, 6, ' ');
    put_char(&l, '.');
    put_dec(&l, ns % 1000000000u, 9, '0');
    if (qt_at) {
        put_char(&l, '/');
        put_hex(&l, get_le(ev + qt_at + TSV_HEADER_SIZE, 8), 18);
    }
    put_char(&l, ']');

    for (size_t p = TSV_HEADER_SIZE; p < (size_t)total; p += TSV_HEADER_SIZE + ev[p + 1]) {
        if (p == ts_at || p == qt_at)
            continue;
        put_char(&l, ' ');
        put_item_text(&l, ev[p], ev + p + TSV_HEADER_SIZE, ev[p + 1]);
    }
    put_char(&l, '\n');
    return l.len;
}
