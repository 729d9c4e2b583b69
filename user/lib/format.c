/*
 * format.c - the printf formatter and the functions that format into memory (snprintf,
 * vsnprintf). stdio.c sends the same formatter's output to file descriptors.
 *
 * Conversions: %d %i %u %x %X %p %s %c %%; length modifiers l, ll and z on the integer ones;
 * flags '-' (pad on the right) and '0' (pad numbers with zeros); a decimal width. Anything
 * else is printed as written, so that a bad format shows in the output.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "libc_internal.h"

struct conversion {
    bool left;      /* '-' */
    bool zero;      /* '0' */
    unsigned width; /* minimum characters */
    int length;     /* 0: int, 1: long (l, z), 2: long long (ll) */
};

/* Emits prefix and digits (both may be empty) padded to c->width: spaces before, zeros
 * between prefix and digits ('0'), or spaces after ('-'). Returns characters emitted. */
static int emit_padded(void (*emit)(char, void *), void *ctx, const struct conversion *c,
                       const char *prefix, const char *digits, unsigned ndigits)
{
    unsigned nprefix = 0, n = 0;
    while (prefix[nprefix])
        nprefix++;
    unsigned len = nprefix + ndigits;
    unsigned pad = c->width > len ? c->width - len : 0;
    if (!c->left && !c->zero)
        for (; pad; pad--, n++)
            emit(' ', ctx);
    for (unsigned i = 0; i < nprefix; i++, n++)
        emit(prefix[i], ctx);
    if (!c->left)
        for (; pad; pad--, n++)
            emit('0', ctx);
    for (unsigned i = 0; i < ndigits; i++, n++)
        emit(digits[i], ctx);
    for (; pad; pad--, n++)
        emit(' ', ctx);
    return (int)n;
}

/* Formats v in base 10 or 16 (upper selects A-F) with the given prefix ("-", "0x" or ""). */
static int emit_number(void (*emit)(char, void *), void *ctx, const struct conversion *c,
                       const char *prefix, uint64_t v, unsigned base, bool upper)
{
    const char *digit_chars = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char buf[20]; /* 2^64-1 has 20 decimal digits */
    unsigned n = sizeof(buf);
    do {
        buf[--n] = digit_chars[v % base];
        v /= base;
    } while (v);
    return emit_padded(emit, ctx, c, prefix, buf + n, (unsigned)sizeof(buf) - n);
}

int format_output(void (*emit)(char c, void *ctx), void *ctx, const char *fmt, va_list ap)
{
    int count = 0;
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            emit(*p, ctx);
            count++;
            continue;
        }
        const char *start = p++;
        struct conversion c = { false, false, 0, 0 };
        for (;; p++) {
            if (*p == '-')
                c.left = true;
            else if (*p == '0')
                c.zero = true;
            else
                break;
        }
        if (c.left)
            c.zero = false;
        for (; *p >= '0' && *p <= '9'; p++)
            c.width = c.width * 10 + (unsigned)(*p - '0');
        if (*p == 'z') {
            c.length = 1;
            p++;
        } else {
            for (; *p == 'l' && c.length < 2; p++)
                c.length++;
        }

        switch (*p) {
        case 'd':
        case 'i': {
            int64_t v = c.length == 2 ? va_arg(ap, long long)
                      : c.length == 1 ? va_arg(ap, long)
                                      : va_arg(ap, int);
            uint64_t magnitude = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
            count += emit_number(emit, ctx, &c, v < 0 ? "-" : "", magnitude, 10, false);
            break;
        }
        case 'u':
        case 'x':
        case 'X': {
            uint64_t v = c.length == 2 ? va_arg(ap, unsigned long long)
                       : c.length == 1 ? va_arg(ap, unsigned long)
                                       : va_arg(ap, unsigned int);
            count += emit_number(emit, ctx, &c, "", v, *p == 'u' ? 10 : 16, *p == 'X');
            break;
        }
        case 'p':
            count += emit_number(emit, ctx, &c, "0x", (uintptr_t)va_arg(ap, void *), 16, false);
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s)
                s = "(null)";
            unsigned len = 0;
            while (s[len])
                len++;
            c.zero = false;
            count += emit_padded(emit, ctx, &c, "", s, len);
            break;
        }
        case 'c': {
            char ch = (char)va_arg(ap, int);
            c.zero = false;
            count += emit_padded(emit, ctx, &c, "", &ch, 1);
            break;
        }
        case '%':
            emit('%', ctx);
            count++;
            break;
        default: /* unknown conversion, or the format ended inside one: print it as is */
            for (const char *q = start; q <= p && *q; q++, count++)
                emit(*q, ctx);
            if (!*p)
                return count;
            break;
        }
    }
    return count;
}

/* Where vsnprintf is writing, and how much room is left (one byte is kept for the NUL). */
struct buffer_sink {
    char *buf;
    size_t size;
    size_t used;
};

static void emit_to_buffer(char c, void *ctx)
{
    struct buffer_sink *s = ctx;
    if (s->used + 1 < s->size)
        s->buf[s->used++] = c;
}

/* As C says: writes at most size bytes including the NUL (nothing when size is 0) and
 * returns the length the whole output would have had. */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct buffer_sink s = { buf, size, 0 };
    int n = format_output(emit_to_buffer, &s, fmt, ap);
    if (size)
        buf[s.used] = '\0';
    return n;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}
