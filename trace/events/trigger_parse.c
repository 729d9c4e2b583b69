/*
 * trigger_parse.c - taking apart a line written to an event's trigger file
 * (trigger_parse.h), the way Linux's event_trigger_parse and event_enable_trigger_parse
 * split it: command, parameter, filter.
 */
#include "trace/events/trigger_parse.h"

#include "kernel/lib/errno.h"
#include "kernel/lib/parse.h"
#include "kernel/lib/string.h"

static const char *const kind_names[TRIGGER_KINDS] = {
    [TRIGGER_TRACEON] = "traceon",           [TRIGGER_TRACEOFF] = "traceoff",
    [TRIGGER_SNAPSHOT] = "snapshot",         [TRIGGER_STACKTRACE] = "stacktrace",
    [TRIGGER_ENABLE_EVENT] = "enable_event", [TRIGGER_DISABLE_EVENT] = "disable_event",
    [TRIGGER_HIST] = "hist",
};

const char *trigger_kind_name(enum trigger_kind kind) { return kind_names[kind]; }

unsigned trigger_kind_type(enum trigger_kind kind)
{
    switch (kind) {
    case TRIGGER_TRACEON:
    case TRIGGER_TRACEOFF:
        return 1; /* Linux's ETT_TRACE_ONOFF */
    case TRIGGER_SNAPSHOT:
        return 2;
    case TRIGGER_STACKTRACE:
        return 4;
    case TRIGGER_HIST:
        return 16; /* one hist per event here (Linux allows several different ones) */
    default:
        return 8; /* ETT_EVENT_ENABLE: one per target */
    }
}

bool trigger_kind_is_post(enum trigger_kind kind)
{
    return kind == TRIGGER_TRACEOFF || kind == TRIGGER_STACKTRACE;
}

bool trigger_kind_needs_record(enum trigger_kind kind)
{
    return trigger_kind_is_post(kind) || kind == TRIGGER_HIST;
}

static int refuse(struct trigger_error *err, const char *message, size_t pos)
{
    err->message = message;
    err->pos = pos;
    return -EINVAL;
}

/* COUNT in text[s..e): kstrtoul base 0 (decimal, 0x hex, 0 octal), at most
 * TRIGGER_MAX_COUNT. */
static bool parse_count(const char *text, size_t s, size_t e, int64_t *count)
{
    unsigned base = 10;
    if (e - s > 2 && text[s] == '0' && (text[s + 1] == 'x' || text[s + 1] == 'X')) {
        base = 16;
        s += 2;
    } else if (e - s > 1 && text[s] == '0') {
        base = 8;
        s++;
    }
    if (s == e)
        return false;
    uint64_t v = 0;
    for (size_t i = s; i < e; i++) {
        int d = parse_digit(text[i], base);
        if (d < 0)
            return false;
        v = v * base + (unsigned)d;
        if (v > TRIGGER_MAX_COUNT)
            return false;
    }
    *count = (int64_t)v;
    return true;
}

/* The end of the word starting at i: the next blank (is_space) or the end. */
static size_t word_end(const char *text, size_t i, size_t e)
{
    while (i < e && !is_space(text[i]))
        i++;
    return i;
}

/* The filter part from i: "if" then blanks then a non-empty filter, to e. */
static int parse_filter(const char *text, size_t i, size_t e, struct trigger_spec *out,
                        struct trigger_error *err)
{
    while (i < e && is_space(text[i]))
        i++;
    if (i == e)
        return 0;
    size_t w = word_end(text, i, e);
    if (w - i != 2 || text[i] != 'i' || text[i + 1] != 'f')
        return refuse(err, "Expected 'if' before the filter", i);
    while (w < e && is_space(text[w]))
        w++;
    if (w == e)
        return refuse(err, "Missing filter after 'if'", i);
    out->filter = text + w;
    out->filter_len = e - w;
    return 0;
}

/* The parameter of enable_event/disable_event, text[i..pe): SYSTEM:EVENT[:COUNT]. */
static int parse_target(const char *text, size_t i, size_t pe, struct trigger_spec *out,
                        struct trigger_error *err)
{
    size_t c1 = i;
    while (c1 < pe && text[c1] != ':')
        c1++;
    if (c1 == i || c1 == pe)
        return refuse(err, "Expected SYSTEM:EVENT", i);
    size_t c2 = c1 + 1;
    while (c2 < pe && text[c2] != ':')
        c2++;
    if (c2 == c1 + 1)
        return refuse(err, "Expected SYSTEM:EVENT", c1 + 1);
    out->system = text + i;
    out->system_len = c1 - i;
    out->event = text + c1 + 1;
    out->event_len = c2 - c1 - 1;
    if (c2 < pe && !out->remove && !parse_count(text, c2 + 1, pe, &out->count))
        return refuse(err, "Invalid count", c2 + 1);
    return 0;
}

int trigger_parse(const char *text, size_t len, struct trigger_spec *out,
                  struct trigger_error *err)
{
    size_t s, e;
    trim_blanks(text, len, &s, &e);
    *out = (struct trigger_spec){ .count = TRIGGER_UNLIMITED };
    if (e - s > TRIGGER_MAX_TEXT)
        return refuse(err, "Trigger too long", s + TRIGGER_MAX_TEXT);
    if (s == e)
        return refuse(err, "Missing trigger command", s);
    size_t i = s;
    if (text[i] == '!') {
        out->remove = true;
        i++;
    }
    size_t ce = i;
    while (ce < e && text[ce] != ':' && !is_space(text[ce]))
        ce++;
    unsigned k = 0;
    while (k < TRIGGER_KINDS &&
           !(strlen(kind_names[k]) == ce - i && strncmp(kind_names[k], text + i, ce - i) == 0))
        k++;
    if (k == TRIGGER_KINDS)
        return refuse(err, "Unknown trigger command", i);
    out->kind = (enum trigger_kind)k;
    /* What follows the command and its separator (Linux's param_and_filter). */
    size_t p = ce < e ? ce + 1 : e;
    while (p < e && is_space(text[p]))
        p++;
    if (out->kind == TRIGGER_ENABLE_EVENT || out->kind == TRIGGER_DISABLE_EVENT) {
        if (p == e || text[ce] != ':')
            return refuse(err, "Expected SYSTEM:EVENT", p);
        size_t pe = word_end(text, p, e);
        int r = parse_target(text, p, pe, out, err);
        return r ? r : parse_filter(text, pe, e, out, err);
    }
    if (out->kind == TRIGGER_HIST) {
        if (p == e || text[ce] != ':')
            return refuse(err, "Missing hist spec", p);
        size_t pe = word_end(text, p, e);
        out->param = text + p;
        out->param_len = pe - p;
        return parse_filter(text, pe, e, out, err);
    }
    /* The optional COUNT starts with a digit, as Linux checks; anything else is the filter. */
    if (p < e && text[p] >= '0' && text[p] <= '9') {
        size_t pe = word_end(text, p, e);
        size_t ne = p;
        while (ne < pe && text[ne] != ':') /* Linux ignores what follows a second ':' */
            ne++;
        if (!out->remove && !parse_count(text, p, ne, &out->count))
            return refuse(err, "Invalid count", p);
        p = pe;
    }
    return parse_filter(text, p, e, out, err);
}
