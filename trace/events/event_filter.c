/*
 * event_filter.c - parsing event filters into postfix programs and running them
 * (event_filter.h).
 *
 * The parser is recursive descent over the grammar in the header, its recursion bounded by
 * EVENT_FILTER_MAX_DEPTH. It emits a postfix program: a predicate pushes its truth, AND
 * and OR pop two and push one, NOT flips the top. The stack never holds more values than
 * there are predicates, so at most EVENT_FILTER_MAX_PREDS (64): one bit each of a uint64_t.
 */
#include "trace/events/event_filter.h"

#include "kernel/lib/errno.h"
#include "kernel/mm/heap.h"
#include "kernel/lib/string.h"
#include "trace/core/error_log.h"

/* Linux's messages (trace_events_filter.c, its ERRORS table). */
static const char MSG_INVALID_OP[] = "Invalid operator";
static const char MSG_TOO_MANY_OPEN[] = "Too many '('";
static const char MSG_TOO_MANY_CLOSE[] = "Too few '('";
static const char MSG_MISSING_QUOTE[] = "Missing matching quote";
static const char MSG_OPERAND_TOO_LONG[] = "Operand too long";
static const char MSG_EXPECT_STRING[] = "Expecting string field";
static const char MSG_EXPECT_DIGIT[] = "Expecting numeric field";
static const char MSG_ILLEGAL_FIELD_OP[] = "Illegal operation for field type";
static const char MSG_FIELD_NOT_FOUND[] = "Field not found";
static const char MSG_ILLEGAL_INTVAL[] = "Illegal integer value";
static const char MSG_TOO_MANY_PREDS[] = "Too many terms in predicate expression";
static const char MSG_INVALID_FILTER[] = "Meaningless filter expression";
static const char MSG_INVALID_VALUE[] = "Invalid value (did you forget quotes)?";

enum filter_opcode { OP_PRED, OP_AND, OP_OR, OP_NOT };
enum filter_cmp { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_BAND, CMP_GLOB };

struct filter_op {
    uint8_t opcode;
    uint8_t cmp;
    uint16_t string_len;
    uint32_t string_at; /* offset of the value in the filter's string pool */
    const struct trace_event_field *field;
    int64_t value;
};

/* Predicates, the binary ops between them and the NOTs: "!!!!a" makes many ops of one
 * predicate, so the program has a bound of its own (reported as too many terms). */
#define MAX_OPS 256

struct event_filter {
    uint32_t nr_ops;
    struct filter_op *ops;
    char *text;   /* NUL-terminated copy of the filter */
    char *pool;   /* string values, each NUL-free, back to back */
};

struct parser {
    const char *s;
    size_t len, pos;
    const struct trace_event_field *fields;
    unsigned nr_fields;
    struct event_filter *out;
    uint32_t pool_used, preds;
    unsigned depth;
    struct event_filter_error *err;
};

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool field_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' || c == '.';
}

/* Records the first error (later ones are consequences) and returns -EINVAL. */
static int fail(struct parser *p, const char *message, size_t pos)
{
    p->err->message = message;
    p->err->pos = pos;
    return -EINVAL;
}

static void skip_blanks(struct parser *p)
{
    while (p->pos < p->len && blank(p->s[p->pos]))
        p->pos++;
}

static bool at(struct parser *p, const char *tok)
{
    size_t n = strlen(tok);
    return p->len - p->pos >= n && memcmp(p->s + p->pos, tok, n) == 0;
}

static int emit(struct parser *p, struct filter_op op)
{
    if (p->out->nr_ops >= MAX_OPS)
        return fail(p, MSG_TOO_MANY_PREDS, p->pos);
    p->out->ops[p->out->nr_ops++] = op;
    return 0;
}

static bool is_string_field(const struct trace_event_field *f)
{
    return f->kind == TRACE_FIELD_CHARS || f->kind == TRACE_FIELD_DATA_LOC;
}

/* The operator at p->pos: its cmp and length, or false. */
static bool read_operator(struct parser *p, uint8_t *cmp)
{
    static const struct { const char *tok; uint8_t cmp; } ops[] = {
        { "==", CMP_EQ }, { "!=", CMP_NE }, { "<=", CMP_LE }, { ">=", CMP_GE },
        { "<", CMP_LT },  { ">", CMP_GT },  { "&", CMP_BAND }, { "~", CMP_GLOB },
    };
    for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (at(p, ops[i].tok) && !(ops[i].cmp == CMP_BAND && at(p, "&&"))) {
            *cmp = ops[i].cmp;
            p->pos += strlen(ops[i].tok);
            return true;
        }
    return false;
}

/* A number as kstrtoull/kstrtoll with base 0 take it: [-]digits, 0x hex, 0 octal, and
 * nothing after. Negative only when is_signed. */
static bool parse_number(const char *s, size_t n, bool is_signed, int64_t *out)
{
    bool neg = false;
    if (n && s[0] == '-') {
        if (!is_signed)
            return false;
        neg = true;
        s++;
        n--;
    }
    unsigned base = 10;
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
        n -= 2;
    } else if (n >= 2 && s[0] == '0') {
        base = 8;
    }
    if (n == 0)
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        unsigned d;
        if (is_digit(c))
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return false;
        if (d >= base || v > (UINT64_MAX - d) / base)
            return false;
        v = v * base + d;
    }
    if (neg) {
        if (v > (uint64_t)INT64_MAX + 1)
            return false;
        *out = (int64_t)(0 - v);
    } else {
        if (is_signed && v > (uint64_t)INT64_MAX)
            return false;
        *out = (int64_t)v;
    }
    return true;
}

/* Where an unquoted value ends: at a blank, a parenthesis, or && / ||. */
static size_t word_end(struct parser *p)
{
    size_t i = p->pos;
    while (i < p->len && !blank(p->s[i]) && p->s[i] != '(' && p->s[i] != ')' &&
           !(i + 1 < p->len && ((p->s[i] == '&' && p->s[i + 1] == '&') ||
                                (p->s[i] == '|' && p->s[i + 1] == '|'))))
        i++;
    return i;
}

/* FIELD OP VALUE. */
static int parse_pred(struct parser *p)
{
    size_t field_at = p->pos;
    while (p->pos < p->len && field_char(p->s[p->pos]))
        p->pos++;
    size_t name_len = p->pos - field_at;
    if (name_len == 0)
        return fail(p, MSG_INVALID_FILTER, field_at);
    char name[FS_NAME_MAX];
    const struct trace_event_field *f = 0;
    if (name_len < sizeof name) {
        memcpy(name, p->s + field_at, name_len);
        name[name_len] = '\0';
        f = trace_field_find(trace_common_fields, TRACE_COMMON_FIELDS, name);
        if (!f && p->fields)
            f = trace_field_find(p->fields, p->nr_fields, name);
    }
    if (!f)
        return fail(p, MSG_FIELD_NOT_FOUND, field_at);
    skip_blanks(p);
    size_t op_at = p->pos;
    struct filter_op op = { .opcode = OP_PRED, .field = f };
    if (!read_operator(p, &op.cmp))
        return fail(p, MSG_INVALID_OP, op_at);
    bool string = is_string_field(f);
    if (f->kind == TRACE_FIELD_ARRAY ||
        (string && op.cmp != CMP_EQ && op.cmp != CMP_NE && op.cmp != CMP_GLOB) ||
        (!string && op.cmp == CMP_GLOB))
        return fail(p, MSG_ILLEGAL_FIELD_OP, op_at);
    skip_blanks(p);
    size_t value_at = p->pos;
    if (p->pos == p->len)
        return fail(p, MSG_INVALID_FILTER, value_at);
    char quote = p->s[p->pos];
    const char *value;
    size_t value_len;
    if (quote == '"' || quote == '\'') {
        if (!string)
            return fail(p, MSG_EXPECT_DIGIT, value_at);
        size_t close = p->pos + 1;
        while (close < p->len && p->s[close] != quote)
            close++;
        if (close == p->len)
            return fail(p, MSG_MISSING_QUOTE, value_at);
        value = p->s + p->pos + 1;
        value_len = close - p->pos - 1;
        p->pos = close + 1;
    } else {
        size_t end = word_end(p);
        value = p->s + p->pos;
        value_len = end - p->pos;
        if (value_len == 0)
            return fail(p, string ? MSG_EXPECT_STRING : MSG_INVALID_VALUE, value_at);
        p->pos = end;
        if (!string) {
            if (!is_digit(value[0]) && value[0] != '-')
                return fail(p, MSG_INVALID_VALUE, value_at);
            if (!parse_number(value, value_len, f->is_signed, &op.value))
                return fail(p, MSG_ILLEGAL_INTVAL, value_at);
        }
    }
    if (string) {
        if (value_len > EVENT_FILTER_MAX_STRING)
            return fail(p, MSG_OPERAND_TOO_LONG, value_at);
        if (memchr(value, '\0', value_len))
            return fail(p, MSG_INVALID_VALUE, value_at);
        op.string_at = p->pool_used;
        op.string_len = (uint16_t)value_len;
        memcpy(p->out->pool + p->pool_used, value, value_len);
        p->pool_used += (uint32_t)value_len;
    }
    if (++p->preds > EVENT_FILTER_MAX_PREDS)
        return fail(p, MSG_TOO_MANY_PREDS, field_at);
    return emit(p, op);
}

static int parse_or(struct parser *p);

static int parse_unary(struct parser *p)
{
    skip_blanks(p);
    size_t start = p->pos;
    if (p->pos == p->len)
        return fail(p, MSG_INVALID_FILTER, start);
    char c = p->s[p->pos];
    if (c == '!' || c == '(') {
        if (p->depth >= EVENT_FILTER_MAX_DEPTH)
            return fail(p, MSG_TOO_MANY_OPEN, start);
        p->depth++;
        p->pos++;
        int err;
        if (c == '!') {
            err = parse_unary(p);
            if (!err)
                err = emit(p, (struct filter_op){ .opcode = OP_NOT });
        } else {
            err = parse_or(p);
            skip_blanks(p);
            if (!err && (p->pos == p->len || p->s[p->pos] != ')'))
                err = fail(p, MSG_TOO_MANY_OPEN, start);
            p->pos++;
        }
        p->depth--;
        return err;
    }
    if (c == ')')
        return fail(p, MSG_TOO_MANY_CLOSE, start);
    return parse_pred(p);
}

static int parse_and(struct parser *p)
{
    int err = parse_unary(p);
    for (skip_blanks(p); !err && at(p, "&&"); skip_blanks(p)) {
        p->pos += 2;
        err = parse_unary(p);
        if (!err)
            err = emit(p, (struct filter_op){ .opcode = OP_AND });
    }
    return err;
}

static int parse_or(struct parser *p)
{
    int err = parse_and(p);
    for (skip_blanks(p); !err && at(p, "||"); skip_blanks(p)) {
        p->pos += 2;
        err = parse_and(p);
        if (!err)
            err = emit(p, (struct filter_op){ .opcode = OP_OR });
    }
    return err;
}

/* text[*start..*end) without the blanks around it. */
static void strip(const char *text, size_t len, size_t *start, size_t *end)
{
    size_t s = 0, e = len;
    while (s < e && blank(text[s]))
        s++;
    while (e > s && blank(text[e - 1]))
        e--;
    *start = s;
    *end = e;
}

int event_filter_compile(const char *text, size_t len, const struct trace_event_field *fields,
                         unsigned nr_fields, struct event_filter **out,
                         struct event_filter_error *err)
{
    size_t s, e;
    strip(text, len, &s, &e);
    text += s;
    len = e - s;
    if (len > EVENT_FILTER_MAX_TEXT) {
        err->message = MSG_OPERAND_TOO_LONG;
        err->pos = 0;
        return -EINVAL;
    }
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)text[i] < ' ' && !blank(text[i])) {
            err->message = MSG_INVALID_FILTER;
            err->pos = i;
            return -EINVAL;
        }
    /* Parsed into a scratch block with room for MAX_OPS ops and a pool as long as the
     * text, then copied into one block of the exact size. */
    struct event_filter scratch = { 0 };
    char *work = kmalloc(MAX_OPS * sizeof(struct filter_op) + len + 1);
    if (!work)
        return -ENOMEM;
    scratch.ops = (struct filter_op *)work;
    scratch.pool = work + MAX_OPS * sizeof(struct filter_op);
    struct parser p = { .s = text, .len = len, .fields = fields, .nr_fields = nr_fields,
                        .out = &scratch, .err = err };
    int r = parse_or(&p);
    skip_blanks(&p);
    if (!r && p.pos < p.len)
        r = fail(&p, p.s[p.pos] == ')' ? MSG_TOO_MANY_CLOSE : MSG_INVALID_FILTER, p.pos);
    struct event_filter *f = 0;
    if (!r) {
        size_t ops_size = scratch.nr_ops * sizeof(struct filter_op);
        f = kmalloc(sizeof *f + ops_size + len + 1 + p.pool_used);
        if (!f) {
            r = -ENOMEM;
        } else {
            f->nr_ops = scratch.nr_ops;
            f->ops = (struct filter_op *)(f + 1);
            f->text = (char *)f->ops + ops_size;
            f->pool = f->text + len + 1;
            memcpy(f->ops, scratch.ops, ops_size);
            memcpy(f->text, text, len);
            f->text[len] = '\0';
            memcpy(f->pool, scratch.pool, p.pool_used);
            *out = f;
        }
    }
    kfree(work);
    return r;
}

/* Linux's glob_match: * any run, ? any byte, [set] with ranges and ! or ^ to negate,
 * \x the byte x. Iterative, going back only to the last '*': linear in practice. */
static bool glob_match(const char *pat, size_t plen, const char *str, size_t slen)
{
    size_t p = 0, s = 0, star_p = (size_t)-1, star_s = 0;
    while (s < slen) {
        if (p < plen && pat[p] == '*') {
            star_p = ++p;
            star_s = s;
            continue;
        }
        if (p < plen) {
            char c = str[s];
            size_t next = p + 1;
            bool ok;
            if (pat[p] == '?') {
                ok = true;
            } else if (pat[p] == '[') {
                size_t i = p + 1;
                bool neg = i < plen && (pat[i] == '!' || pat[i] == '^');
                if (neg)
                    i++;
                bool hit = false, closed = false;
                for (bool first = true; i < plen; first = false) {
                    if (pat[i] == ']' && !first) {
                        closed = true;
                        break;
                    }
                    char lo = pat[i], hi = lo;
                    if (i + 2 < plen && pat[i + 1] == '-' && pat[i + 2] != ']') {
                        hi = pat[i + 2];
                        i += 3;
                    } else {
                        i++;
                    }
                    if ((unsigned char)c >= (unsigned char)lo && (unsigned char)c <= (unsigned char)hi)
                        hit = true;
                }
                if (closed) {
                    ok = hit != neg;
                    next = i + 1;
                } else {
                    ok = c == '['; /* no closing ']': a literal '[' */
                }
            } else if (pat[p] == '\\' && p + 1 < plen) {
                ok = c == pat[p + 1];
                next = p + 2;
            } else {
                ok = c == pat[p];
            }
            if (ok) {
                p = next;
                s++;
                continue;
            }
        }
        if (star_p == (size_t)-1)
            return false;
        p = star_p;
        s = ++star_s;
    }
    while (p < plen && pat[p] == '*')
        p++;
    return p == plen;
}

/* One predicate against the record; false when the field is not inside it. */
static bool eval_pred(const struct event_filter *f, const struct filter_op *op,
                      const void *record, uint32_t length)
{
    if (is_string_field(op->field)) {
        const char *text;
        uint32_t n;
        if (!trace_field_read_string(op->field, record, length, &text, &n))
            return false;
        const char *want = f->pool + op->string_at;
        bool hit = op->cmp == CMP_GLOB ? glob_match(want, op->string_len, text, n)
                                       : n == op->string_len && memcmp(text, want, n) == 0;
        return op->cmp == CMP_NE ? !hit : hit;
    }
    int64_t v;
    if (!trace_field_read_int(op->field, record, length, &v))
        return false;
    bool is_signed = op->field->is_signed;
    uint64_t u = (uint64_t)v, w = (uint64_t)op->value;
    switch (op->cmp) {
    case CMP_EQ: return v == op->value;
    case CMP_NE: return v != op->value;
    case CMP_LT: return is_signed ? v < op->value : u < w;
    case CMP_LE: return is_signed ? v <= op->value : u <= w;
    case CMP_GT: return is_signed ? v > op->value : u > w;
    case CMP_GE: return is_signed ? v >= op->value : u >= w;
    case CMP_BAND: return (u & w) != 0;
    default: return false;
    }
}

/* Runs the postfix program; the compiler guarantees every AND/OR has two values under
 * it, NOT one, and that the stack never holds more than EVENT_FILTER_MAX_PREDS. */
bool event_filter_match(const struct event_filter *f, const void *record, uint32_t length)
{
    uint64_t stack = 0; /* bit i: the value at depth i */
    unsigned depth = 0;
    for (uint32_t i = 0; i < f->nr_ops; i++) {
        const struct filter_op *op = &f->ops[i];
        if (op->opcode == OP_PRED) {
            stack = (stack & ~(1ull << depth)) |
                    ((uint64_t)eval_pred(f, op, record, length) << depth);
            depth++;
        } else if (op->opcode == OP_NOT) {
            stack ^= 1ull << (depth - 1);
        } else {
            bool b = (stack >> (depth - 1)) & 1, a = (stack >> (depth - 2)) & 1;
            bool r = op->opcode == OP_AND ? (a && b) : (a || b);
            depth--;
            stack = (stack & ~(1ull << (depth - 1))) | ((uint64_t)r << (depth - 1));
        }
    }
    return stack & 1;
}

const char *event_filter_text(const struct event_filter *f)
{
    return f->text;
}

void event_filter_free(struct event_filter *f)
{
    kfree(f);
}

void event_filter_print_error(struct fs_writer *out, const char *text, size_t len,
                              const struct event_filter_error *err)
{
    size_t s, e;
    strip(text, len, &s, &e);
    if (e - s > EVENT_FILTER_MAX_TEXT)
        e = s + EVENT_FILTER_MAX_TEXT;
    fs_printf(out, "event filter parse error: error: %s\n", err->message);
    trace_error_log_print_command(out, text + s, e - s, err->pos);
}
