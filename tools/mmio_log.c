/*
 * mmio_log.c - a strict parser (and printer) of mmiotrace log lines; see mmio_log.h.
 *
 * The parser walks the line once with a cursor that knows where the record ends (the line
 * ending and trailing blanks are cut off first). Every field is one token that ends at the
 * next space or at the end of the record; each field reader checks its token's form and
 * size and says in the error message which field of which record was wrong. Nothing is
 * ever read at or after `end`, so the line need not be NUL-terminated.
 *
 * mmio_log_format() prints a record back with the printf formats of Linux's
 * kernel/trace/trace_mmiotrace.c, so that parse(format(parse(line))) == parse(line): the fuzz
 * target (tests/fuzz/fuzz_mmio_log.c) checks exactly that.
 */
#include "mmio_log.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define HEX64_DIGITS 16 /* a 64-bit number in hex */
#define DEC32_DIGITS 10 /* a 32-bit number in decimal */
#define DEC64_DIGITS 20 /* a 64-bit number in decimal */
#define SHOWN_TOKEN 24  /* an error message quotes at most this much of a bad field */

struct cursor {
    const char *p;          /* the next byte to read */
    const char *end;        /* one past the record's last byte */
    const char *record;     /* "R record", ... for messages; NULL before the keyword */
    struct mmio_record *out;
};

/* A token: the bytes of one field. */
struct token {
    const char *s;
    size_t len;
};

/*
 * Writes a printable copy of a token into dst (size n >= SHOWN_TOKEN + 4) for a message:
 * bytes that are not printable ASCII become '?', and a long token is cut with "...".
 */
static void show_token(char *dst, size_t n, struct token t)
{
    size_t shown = t.len > SHOWN_TOKEN ? SHOWN_TOKEN : t.len;
    size_t i;

    for (i = 0; i < shown && i + 1 < n; i++) {
        unsigned char c = (unsigned char)t.s[i];
        dst[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    dst[i] = '\0';
    if (shown < t.len && i + 4 <= n)
        memcpy(dst + i, "...", 4);
}

/* Records a failure: the message (prefixed with the record's name, if known) and the code. */
static int fail(struct cursor *c, int code, const char *fmt, ...)
{
    char *e = c->out->error;
    size_t used = 0;
    va_list ap;

    if (c->record != NULL) {
        snprintf(e, sizeof c->out->error, "%s: ", c->record);
        used = strlen(e);
    }
    va_start(ap, fmt);
    vsnprintf(e + used, sizeof c->out->error - used, fmt, ap);
    va_end(ap);
    return code;
}

/* Fails with code and "<what> <field> <token>", e.g. "bad width 3". */
static int fail_token(struct cursor *c, int code, const char *what, const char *field,
                      struct token t)
{
    char shown[SHOWN_TOKEN + 4];
    show_token(shown, sizeof shown, t);
    return fail(c, code, "%s %s %s", what, field, shown);
}

/* Reads the token that starts at c->p (possibly empty) up to the next space or the end. */
static struct token take_token(struct cursor *c)
{
    struct token t = { c->p, 0 };
    while (c->p < c->end && *c->p != ' ')
        c->p++;
    t.len = (size_t)(c->p - t.s);
    return t;
}

/*
 * Moves to the next field, which must follow exactly one space, and returns its token in *t.
 * Fails when the record ends first or when two blanks separate the fields.
 */
static int next_field(struct cursor *c, const char *field, struct token *t)
{
    if (c->p >= c->end)
        return fail(c, MMIO_ERR_MISSING, "missing %s", field);
    c->p++; /* the space that ended the previous token */
    if (c->p < c->end && *c->p == ' ')
        return fail(c, MMIO_ERR_FIELD, "two blanks before %s", field);
    *t = take_token(c);
    return 0;
}

/* Succeeds only if nothing follows the last field, `after`. */
static int end_of_record(struct cursor *c, const char *after)
{
    char shown[SHOWN_TOKEN + 4];
    struct token rest;
    if (c->p >= c->end)
        return 0;
    c->p++;
    rest.s = c->p;
    rest.len = (size_t)(c->end - c->p);
    show_token(shown, sizeof shown, rest);
    return fail(c, MMIO_ERR_TRAILING, "trailing characters after %s: %s", after, shown);
}

/* The value of a hex digit, or -1. */
static int hex_digit(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/*
 * Converts s[0..len-1], all hex digits, to *v. Returns 0, MMIO_ERR_FIELD for an empty text or
 * a non-digit, or MMIO_ERR_RANGE for more than max_digits digits.
 */
static int hex_value(const char *s, size_t len, size_t max_digits, uint64_t *v)
{
    uint64_t x = 0;
    if (len == 0)
        return MMIO_ERR_FIELD;
    for (size_t i = 0; i < len; i++) {
        int d = hex_digit(s[i]);
        if (d < 0)
            return MMIO_ERR_FIELD;
        x = x << 4 | (uint64_t)d;
    }
    if (len > max_digits)
        return MMIO_ERR_RANGE;
    *v = x;
    return 0;
}

/*
 * Converts s[0..len-1], all decimal digits, to *v, which must not exceed max. Returns 0,
 * MMIO_ERR_FIELD for an empty text or a non-digit, or MMIO_ERR_RANGE when too large.
 */
static int dec_value(const char *s, size_t len, uint64_t max, uint64_t *v)
{
    uint64_t x = 0;
    bool too_big = false;
    if (len == 0)
        return MMIO_ERR_FIELD;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return MMIO_ERR_FIELD;
        uint64_t d = (uint64_t)(s[i] - '0');
        if (x > (max - d) / 10)
            too_big = true;
        else
            x = x * 10 + d;
    }
    if (too_big)
        return MMIO_ERR_RANGE;
    *v = x;
    return 0;
}

/* Fails with the message that goes with a number's conversion error. */
static int fail_number(struct cursor *c, int code, const char *field, struct token t)
{
    char shown[SHOWN_TOKEN + 4];
    if (code != MMIO_ERR_RANGE)
        return fail_token(c, code, "bad", field, t);
    show_token(shown, sizeof shown, t);
    return fail(c, code, "%s out of range: %s", field, shown);
}

/* Reads a field printed as 0x%lx / 0x%llx: "0x" and 1 to 16 hex digits. */
static int field_hex0x(struct cursor *c, const char *field, uint64_t *v)
{
    struct token t;
    int rc = next_field(c, field, &t);
    if (rc != 0)
        return rc;
    if (t.len < 2 || t.s[0] != '0' || t.s[1] != 'x')
        return fail_token(c, MMIO_ERR_FIELD, "bad", field, t);
    rc = hex_value(t.s + 2, t.len - 2, HEX64_DIGITS, v);
    return rc == 0 ? 0 : fail_number(c, rc, field, t);
}

/* Reads a field printed as %x / %llx (no 0x): 1 to max_digits hex digits. */
static int field_hex(struct cursor *c, const char *field, size_t max_digits, uint64_t *v)
{
    struct token t;
    int rc = next_field(c, field, &t);
    if (rc != 0)
        return rc;
    rc = hex_value(t.s, t.len, max_digits, v);
    return rc == 0 ? 0 : fail_number(c, rc, field, t);
}

/* Reads a field printed as %02x%02x or %04x%04x: exactly `digits` hex digits. */
static int field_hex_exact(struct cursor *c, const char *field, size_t digits, uint64_t *v)
{
    struct token t;
    int rc = next_field(c, field, &t);
    if (rc != 0)
        return rc;
    if (t.len != digits || hex_value(t.s, t.len, digits, v) != 0)
        return fail_token(c, MMIO_ERR_FIELD, "bad", field, t);
    return 0;
}

/* Reads a field printed as %d / %u of a 32-bit number: 1 to 10 decimal digits. */
static int field_dec32(struct cursor *c, const char *field, uint32_t *v)
{
    struct token t;
    uint64_t x;
    int rc = next_field(c, field, &t);
    if (rc != 0)
        return rc;
    rc = t.len > DEC32_DIGITS ? MMIO_ERR_RANGE : dec_value(t.s, t.len, UINT32_MAX, &x);
    if (rc != 0)
        return fail_number(c, rc, field, t);
    *v = (uint32_t)x;
    return 0;
}

/* Reads a timestamp printed as %u.%06lu: seconds (32 bits), a dot, exactly six digits. */
static int field_time(struct cursor *c)
{
    struct token t;
    uint64_t secs, usecs;
    const char *dot;
    int rc = next_field(c, "timestamp", &t);
    if (rc != 0)
        return rc;
    dot = memchr(t.s, '.', t.len);
    if (dot == NULL || t.s + t.len - (dot + 1) != 6 ||
        dec_value(dot + 1, 6, 999999, &usecs) != 0)
        return fail_token(c, MMIO_ERR_FIELD, "bad", "timestamp", t);
    rc = (size_t)(dot - t.s) > DEC32_DIGITS ? MMIO_ERR_RANGE
                                            : dec_value(t.s, (size_t)(dot - t.s), UINT32_MAX, &secs);
    if (rc != 0)
        return fail_number(c, rc, "timestamp", t);
    c->out->secs = (uint32_t)secs;
    c->out->usecs = (uint32_t)usecs;
    return 0;
}

/* Reads an access width: 1, 2, 4 or 8 bytes. */
static int field_width(struct cursor *c)
{
    struct token t;
    uint64_t w = 0;
    int rc = next_field(c, "width", &t);
    if (rc != 0)
        return rc;
    if (t.len > 1 || dec_value(t.s, t.len, 9, &w) != 0 || (w != 1 && w != 2 && w != 4 && w != 8))
        return fail_token(c, MMIO_ERR_WIDTH, "bad", "width", t);
    c->out->width = (unsigned)w;
    return 0;
}

/* Takes the rest of the record, after one space, as free text (possibly empty). */
static void rest_as_text(struct cursor *c)
{
    if (c->p < c->end)
        c->p++;
    c->out->text = c->p;
    c->out->text_len = (size_t)(c->end - c->p);
    c->p = c->end;
}

/* R and W: width, timestamp, map id, physical address, value, PC, PID. */
static int parse_rw(struct cursor *c)
{
    struct mmio_record *r = c->out;
    int rc;
    if ((rc = field_width(c)) || (rc = field_time(c)) || (rc = field_dec32(c, "map id", &r->map_id)) ||
        (rc = field_hex0x(c, "phys", &r->phys)) || (rc = field_hex0x(c, "value", &r->value)) ||
        (rc = field_hex0x(c, "pc", &r->pc)) || (rc = field_dec32(c, "pid", &r->pid)))
        return rc;
    if (r->width < 8 && (r->value >> (8 * r->width)) != 0)
        return fail(c, MMIO_ERR_WIDTH, "value 0x%" PRIx64 " does not fit in width %u", r->value,
                    r->width);
    return end_of_record(c, "pid");
}

/* MAP: timestamp, map id, physical address, virtual address, length, PC, PID. */
static int parse_map(struct cursor *c)
{
    struct mmio_record *r = c->out;
    int rc;
    if ((rc = field_time(c)) || (rc = field_dec32(c, "map id", &r->map_id)) ||
        (rc = field_hex0x(c, "phys", &r->phys)) || (rc = field_hex0x(c, "virt", &r->virt)) ||
        (rc = field_hex0x(c, "length", &r->len)) || (rc = field_hex0x(c, "pc", &r->pc)) ||
        (rc = field_dec32(c, "pid", &r->pid)))
        return rc;
    return end_of_record(c, "pid");
}

/* UNMAP: timestamp, map id, PC, PID. */
static int parse_unmap(struct cursor *c)
{
    struct mmio_record *r = c->out;
    int rc;
    if ((rc = field_time(c)) || (rc = field_dec32(c, "map id", &r->map_id)) ||
        (rc = field_hex0x(c, "pc", &r->pc)) || (rc = field_dec32(c, "pid", &r->pid)))
        return rc;
    return end_of_record(c, "pid");
}

/* Reads the opcode bytes of an UNKNOWN record, printed as %02x,%02x,%02x. */
static int field_opcode(struct cursor *c)
{
    struct token t;
    uint64_t b;
    int rc = next_field(c, "opcode bytes", &t);
    if (rc != 0)
        return rc;
    if (t.len != 8 || t.s[2] != ',' || t.s[5] != ',')
        return fail_token(c, MMIO_ERR_FIELD, "bad", "opcode bytes", t);
    for (int i = 0; i < 3; i++) {
        if (hex_value(t.s + 3 * i, 2, 2, &b) != 0)
            return fail_token(c, MMIO_ERR_FIELD, "bad", "opcode bytes", t);
        c->out->opcode[i] = (uint8_t)b;
    }
    return 0;
}

/* UNKNOWN: timestamp, map id, physical address, opcode bytes, PC, PID. */
static int parse_unknown(struct cursor *c)
{
    struct mmio_record *r = c->out;
    int rc;
    if ((rc = field_time(c)) || (rc = field_dec32(c, "map id", &r->map_id)) ||
        (rc = field_hex0x(c, "phys", &r->phys)) || (rc = field_opcode(c)) ||
        (rc = field_hex0x(c, "pc", &r->pc)) || (rc = field_dec32(c, "pid", &r->pid)))
        return rc;
    return end_of_record(c, "pid");
}

/* IN and OUT (tracekern's extension): width, timestamp, port, value, PC, PID. */
static int parse_pio(struct cursor *c)
{
    struct mmio_record *r = c->out;
    int rc;
    if ((rc = field_width(c)) || (rc = field_time(c)) || (rc = field_hex0x(c, "port", &r->phys)) ||
        (rc = field_hex0x(c, "value", &r->value)) || (rc = field_hex0x(c, "pc", &r->pc)) ||
        (rc = field_dec32(c, "pid", &r->pid)))
        return rc;
    if (r->width == 8)
        return fail(c, MMIO_ERR_WIDTH, "a port access of 8 bytes");
    if (r->phys > 0xffff)
        return fail(c, MMIO_ERR_RANGE, "port 0x%" PRIx64 " beyond 0xffff", r->phys);
    if ((r->value >> (8 * r->width)) != 0)
        return fail(c, MMIO_ERR_WIDTH, "value 0x%" PRIx64 " does not fit in width %u", r->value,
                    r->width);
    return end_of_record(c, "pid");
}

/* IRQ (tracekern's extension): timestamp, line. */
static int parse_irq(struct cursor *c)
{
    int rc;
    if ((rc = field_time(c)) || (rc = field_dec32(c, "irq", &c->out->irq)))
        return rc;
    return end_of_record(c, "irq");
}

/* IRQ_SEEN (tracekern's extension): timestamp, line, count, PID. */
static int parse_irq_seen(struct cursor *c)
{
    struct mmio_record *r = c->out;
    int rc;
    if ((rc = field_time(c)) || (rc = field_dec32(c, "irq", &r->irq)) ||
        (rc = field_dec32(c, "count", &r->count)) || (rc = field_dec32(c, "pid", &r->pid)))
        return rc;
    return end_of_record(c, "pid");
}

/* DMA (tracekern's extension): timestamp, physical address, length, virtual address, PID. */
static int parse_dma(struct cursor *c)
{
    struct mmio_record *r = c->out;
    int rc;
    if ((rc = field_time(c)) || (rc = field_hex0x(c, "phys", &r->phys)) ||
        (rc = field_hex0x(c, "length", &r->len)) || (rc = field_hex0x(c, "virt", &r->virt)) ||
        (rc = field_dec32(c, "pid", &r->pid)))
        return rc;
    return end_of_record(c, "pid");
}

/*
 * True if text is exactly "Lost N events." (the tracer's loss record); N goes to *count.
 */
static bool is_loss_text(const char *text, size_t len, uint64_t *count)
{
    static const char head[] = "Lost ", tail[] = " events.";
    size_t digits;
    if (len < sizeof head - 1 + 1 + sizeof tail - 1 || memcmp(text, head, sizeof head - 1) != 0 ||
        memcmp(text + len - (sizeof tail - 1), tail, sizeof tail - 1) != 0)
        return false;
    digits = len - (sizeof head - 1) - (sizeof tail - 1);
    return digits <= DEC64_DIGITS && dec_value(text + sizeof head - 1, digits, UINT64_MAX, count) == 0;
}

/* MARK: timestamp and text; "MARK 0.000000 Lost N events." is the loss record. */
static int parse_mark(struct cursor *c)
{
    struct mmio_record *r = c->out;
    int rc = field_time(c);
    if (rc != 0)
        return rc;
    rest_as_text(c);
    if (r->secs == 0 && r->usecs == 0 && is_loss_text(r->text, r->text_len, &r->lost)) {
        r->text = NULL;
        r->text_len = 0;
        return MMIO_LOST;
    }
    return MMIO_MARK;
}

/* VERSION: the one version this parser knows. */
static int parse_version(struct cursor *c)
{
    struct token t;
    char shown[SHOWN_TOKEN + 4];
    int rc = next_field(c, "version", &t);
    if (rc != 0)
        return rc;
    if (t.len != strlen(MMIO_LOG_VERSION) || memcmp(t.s, MMIO_LOG_VERSION, t.len) != 0) {
        show_token(shown, sizeof shown, t);
        return fail(c, MMIO_ERR_VERSION, "unsupported version %s (expected " MMIO_LOG_VERSION ")",
                    shown);
    }
    return end_of_record(c, "version");
}

/*
 * PCIDEV: bus and devfn (%02x%02x), vendor and device (%04x%04x), irq (%x), then the start and
 * the size of 7 resources (%llx each), then the bound driver's name if there is one.
 */
static int parse_pcidev(struct cursor *c)
{
    struct mmio_pcidev *d = &c->out->pci;
    static const char *const starts[MMIO_PCI_RESOURCES] = {
        "start[0]", "start[1]", "start[2]", "start[3]", "start[4]", "start[5]", "start[6]" };
    static const char *const sizes[MMIO_PCI_RESOURCES] = {
        "size[0]", "size[1]", "size[2]", "size[3]", "size[4]", "size[5]", "size[6]" };
    uint64_t v;
    int rc;

    if ((rc = field_hex_exact(c, "bus/devfn", 4, &v)))
        return rc;
    d->bus = (uint8_t)(v >> 8);
    d->devfn = (uint8_t)v;
    if ((rc = field_hex_exact(c, "vendor/device", 8, &v)))
        return rc;
    d->vendor = (uint16_t)(v >> 16);
    d->device = (uint16_t)v;
    if ((rc = field_hex(c, "irq", 8, &v)))
        return rc;
    d->irq = (uint32_t)v;
    for (int i = 0; i < MMIO_PCI_RESOURCES; i++)
        if ((rc = field_hex(c, starts[i], HEX64_DIGITS, &d->start[i])))
            return rc;
    for (int i = 0; i < MMIO_PCI_RESOURCES; i++)
        if ((rc = field_hex(c, sizes[i], HEX64_DIGITS, &d->size[i])))
            return rc;
    if (c->p < c->end) {
        struct token t;
        if ((rc = next_field(c, "driver", &t)))
            return rc;
        c->out->text = t.s;
        c->out->text_len = t.len;
    }
    return end_of_record(c, "driver");
}

/* One keyword and the function that parses what follows it. */
struct keyword {
    const char *name;
    const char *record; /* for messages */
    int kind;           /* the line's kind when parse() returns 0 (MARK returns its own) */
    int (*parse)(struct cursor *c);
};

/* LSPCI: the rest of the line is the text. */
static int parse_text(struct cursor *c)
{
    rest_as_text(c);
    return 0;
}

static const struct keyword keywords[] = {
    { "R", "R record", MMIO_READ, parse_rw },
    { "W", "W record", MMIO_WRITE, parse_rw },
    { "MAP", "MAP record", MMIO_MAP, parse_map },
    { "UNMAP", "UNMAP record", MMIO_UNMAP, parse_unmap },
    { "MARK", "MARK record", MMIO_MARK, parse_mark },
    { "UNKNOWN", "UNKNOWN record", MMIO_UNKNOWN, parse_unknown },
    { "VERSION", "VERSION record", MMIO_VERSION, parse_version },
    { "PCIDEV", "PCIDEV record", MMIO_PCIDEV, parse_pcidev },
    { "LSPCI", "LSPCI record", MMIO_LSPCI, parse_text },
    { "IN", "IN record", MMIO_IN, parse_pio },
    { "OUT", "OUT record", MMIO_OUT, parse_pio },
    { "IRQ", "IRQ record", MMIO_IRQ, parse_irq },
    { "IRQ_SEEN", "IRQ_SEEN record", MMIO_IRQ_SEEN, parse_irq_seen },
    { "DMA", "DMA record", MMIO_DMA, parse_dma },
};

/* Blanks and line-ending bytes, which may trail a record. */
static bool is_trailing_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

/* Parses as described in mmio_log.h. */
int mmio_log_parse_line(const char *line, size_t len, struct mmio_record *out)
{
    struct cursor c = { line, line + len, NULL, out };
    struct token kw;

    memset(out, 0, sizeof *out);
    while (c.end > line && is_trailing_space(c.end[-1]))
        c.end--;
    for (const char *p = line; p < c.end; p++)
        if (*p == '\0' || *p == '\n')
            return fail(&c, MMIO_ERR_BYTE, "%s at column %zu", *p ? "newline" : "NUL byte",
                        (size_t)(p - line) + 1);
    if (c.end == line)
        return out->kind = MMIO_BLANK;

    kw = take_token(&c);
    if (kw.len == 0)
        return fail(&c, MMIO_ERR_KEYWORD, "line starts with a blank");
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++) {
        const struct keyword *k = &keywords[i];
        if (kw.len != strlen(k->name) || memcmp(kw.s, k->name, kw.len) != 0)
            continue;
        c.record = k->record;
        int rc = k->parse(&c);
        if (rc < 0) {
            struct mmio_record failed = { .kind = 0 };
            memcpy(failed.error, out->error, sizeof failed.error);
            *out = failed; /* no half-filled fields on failure */
            return rc;
        }
        return out->kind = rc > 0 ? rc : k->kind;
    }
    return fail_token(&c, MMIO_ERR_KEYWORD, "unknown", "record type", kw);
}

/* Text being printed into a caller's buffer of `size` bytes; `len` counts all of it. */
struct printer {
    char *buf;
    size_t size;
    size_t len;
};

/* Appends printf-formatted text; what does not fit is counted but not written. */
static void put(struct printer *pr, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(pr->len < pr->size ? pr->buf + pr->len : NULL,
                  pr->len < pr->size ? pr->size - pr->len : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        pr->len += (size_t)n;
}

/* Appends " text" if there is text. */
static void put_text(struct printer *pr, const struct mmio_record *r)
{
    if (r->text_len > 0)
        put(pr, " %.*s", (int)r->text_len, r->text);
}

/* Prints as described in mmio_log.h, in the formats of Linux's trace_mmiotrace.c. */
int mmio_log_format(const struct mmio_record *r, char *buf, size_t size)
{
    struct printer pr = { buf, size, 0 };
    const struct mmio_pcidev *d = &r->pci;

    if (size > 0)
        buf[0] = '\0';
    switch (r->kind) {
    case MMIO_BLANK:
        break;
    case MMIO_READ:
    case MMIO_WRITE:
        put(&pr, "%c %u %" PRIu32 ".%06" PRIu32 " %" PRIu32 " 0x%" PRIx64 " 0x%" PRIx64
            " 0x%" PRIx64 " %" PRIu32, r->kind == MMIO_READ ? 'R' : 'W', r->width, r->secs,
            r->usecs, r->map_id, r->phys, r->value, r->pc, r->pid);
        break;
    case MMIO_MAP:
        put(&pr, "MAP %" PRIu32 ".%06" PRIu32 " %" PRIu32 " 0x%" PRIx64 " 0x%" PRIx64
            " 0x%" PRIx64 " 0x%" PRIx64 " %" PRIu32, r->secs, r->usecs, r->map_id, r->phys,
            r->virt, r->len, r->pc, r->pid);
        break;
    case MMIO_UNMAP:
        put(&pr, "UNMAP %" PRIu32 ".%06" PRIu32 " %" PRIu32 " 0x%" PRIx64 " %" PRIu32, r->secs,
            r->usecs, r->map_id, r->pc, r->pid);
        break;
    case MMIO_UNKNOWN:
        put(&pr, "UNKNOWN %" PRIu32 ".%06" PRIu32 " %" PRIu32 " 0x%" PRIx64
            " %02x,%02x,%02x 0x%" PRIx64 " %" PRIu32, r->secs, r->usecs, r->map_id, r->phys,
            r->opcode[0], r->opcode[1], r->opcode[2], r->pc, r->pid);
        break;
    case MMIO_MARK:
        put(&pr, "MARK %" PRIu32 ".%06" PRIu32, r->secs, r->usecs);
        put_text(&pr, r);
        break;
    case MMIO_LOST:
        put(&pr, "MARK 0.000000 Lost %" PRIu64 " events.", r->lost);
        break;
    case MMIO_VERSION:
        put(&pr, "VERSION " MMIO_LOG_VERSION);
        break;
    case MMIO_PCIDEV:
        put(&pr, "PCIDEV %02x%02x %04x%04x %" PRIx32, d->bus, d->devfn, d->vendor, d->device,
            d->irq);
        for (int i = 0; i < MMIO_PCI_RESOURCES; i++)
            put(&pr, " %" PRIx64, d->start[i]);
        for (int i = 0; i < MMIO_PCI_RESOURCES; i++)
            put(&pr, " %" PRIx64, d->size[i]);
        if (r->text_len > 0)
            put_text(&pr, r);
        else
            put(&pr, " "); /* Linux prints a blank where no driver is bound */
        break;
    case MMIO_LSPCI:
        put(&pr, "LSPCI");
        put_text(&pr, r);
        break;
    case MMIO_IN:
    case MMIO_OUT:
        put(&pr, "%s %u %" PRIu32 ".%06" PRIu32 " 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64
            " %" PRIu32, r->kind == MMIO_IN ? "IN" : "OUT", r->width, r->secs, r->usecs,
            r->phys, r->value, r->pc, r->pid);
        break;
    case MMIO_IRQ:
        put(&pr, "IRQ %" PRIu32 ".%06" PRIu32 " %" PRIu32, r->secs, r->usecs, r->irq);
        break;
    case MMIO_IRQ_SEEN:
        put(&pr, "IRQ_SEEN %" PRIu32 ".%06" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32, r->secs,
            r->usecs, r->irq, r->count, r->pid);
        break;
    case MMIO_DMA:
        put(&pr, "DMA %" PRIu32 ".%06" PRIu32 " 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64
            " %" PRIu32, r->secs, r->usecs, r->phys, r->len, r->virt, r->pid);
        break;
    default:
        return -1;
    }
    return (int)pr.len;
}

/* Compares as described in mmio_log.h; texts by their bytes, not their addresses. */
bool mmio_record_equal(const struct mmio_record *a, const struct mmio_record *b)
{
    const struct mmio_pcidev *p = &a->pci, *q = &b->pci;

    if (a->kind != b->kind || a->secs != b->secs || a->usecs != b->usecs ||
        a->map_id != b->map_id || a->width != b->width || a->phys != b->phys ||
        a->value != b->value || a->virt != b->virt || a->len != b->len || a->pc != b->pc ||
        a->pid != b->pid || a->irq != b->irq || a->count != b->count || memcmp(a->opcode, b->opcode, sizeof a->opcode) != 0 ||
        a->lost != b->lost || a->text_len != b->text_len ||
        (a->text_len > 0 && memcmp(a->text, b->text, a->text_len) != 0))
        return false;
    if (p->bus != q->bus || p->devfn != q->devfn || p->vendor != q->vendor ||
        p->device != q->device || p->irq != q->irq)
        return false;
    for (int i = 0; i < MMIO_PCI_RESOURCES; i++)
        if (p->start[i] != q->start[i] || p->size[i] != q->size[i])
            return false;
    return true;
}

/* Bit 0 of a resource's printed start is PCI's "I/O space" bit (PCI_BASE_ADDRESS_SPACE_IO). */
bool mmio_pci_resource_is_io(uint64_t start)
{
    return (start & 1) != 0;
}

/* The address without the flag bits Linux ORs in: 2 bits for I/O space, 4 for memory. */
uint64_t mmio_pci_resource_address(uint64_t start)
{
    return mmio_pci_resource_is_io(start) ? start & ~(uint64_t)0x3 : start & ~(uint64_t)0xf;
}

/* The BAR (0-5) of the given space (I/O or memory) that holds addr; its offset in *offset. */
static int bar_holding(const struct mmio_pcidev *d, bool io, uint64_t phys, uint64_t *offset)
{
    for (int bar = 0; bar < MMIO_PCI_RESOURCES - 1; bar++) {
        uint64_t base = mmio_pci_resource_address(d->start[bar]);
        if (d->size[bar] == 0 || mmio_pci_resource_is_io(d->start[bar]) != io)
            continue;
        if (phys >= base && phys - base < d->size[bar]) {
            *offset = phys - base;
            return bar;
        }
    }
    return -1;
}

/* Finds phys in the device's memory BARs, as described in mmio_log.h. */
int mmio_pcidev_bar_of(const struct mmio_pcidev *d, uint64_t phys, uint64_t *offset)
{
    return bar_holding(d, false, phys, offset);
}

/* Finds port in the device's I/O BARs, as described in mmio_log.h. */
int mmio_pcidev_io_bar_of(const struct mmio_pcidev *d, uint64_t port, uint64_t *offset)
{
    return bar_holding(d, true, port, offset);
}
