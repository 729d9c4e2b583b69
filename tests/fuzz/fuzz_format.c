/*
 * fuzz_format.c - kernel/lib/format.c against the host's snprintf, on formats built from bytes.
 *
 * Arbitrary bytes are not used as a format directly: most would be undefined behaviour for
 * the host's printf, and %n would write through garbage. Instead each group of input bytes
 * chooses flags, width, precision (literal, '*' or none), length modifier, conversion, value,
 * surrounding literal text and buffer size, within what C defines; the format is built from
 * those, run through ksnprintf and snprintf, and the program aborts if the return values or
 * any byte of the two buffers differ. Left out, as format.c documents its own choice there:
 * %p, NULL %s with a precision below 6, unknown conversions; also %n and floating point.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/format.h"

#define BUF_SIZE 512
#define FILL 0x5a /* both buffers start as this: bytes neither side writes must still match */

/* Hands out input bytes in order, then zeros. */
struct input {
    const uint8_t *data;
    size_t size;
};

static uint8_t take(struct input *in)
{
    if (in->size == 0)
        return 0;
    in->size--;
    return *in->data++;
}

static uint64_t take_u64(struct input *in)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | take(in);
    return v;
}

/* A '*' argument between -128 and 127: large enough for every path, small enough to be fast. */
static int take_star(struct input *in)
{
    return (int8_t)take(in);
}

/* Appends up to 6 input bytes as literal text; a '%' is doubled and a NUL becomes '.'. */
static size_t append_literal(struct input *in, char *fmt, size_t len)
{
    size_t count = take(in) % 7;
    for (size_t i = 0; i < count; i++) {
        char c = (char)take(in);
        if (c == '\0')
            c = '.';
        if (c == '%')
            fmt[len++] = '%';
        fmt[len++] = c;
    }
    return len;
}

/* A value for the argument: often an edge case, otherwise eight input bytes. */
static uint64_t take_value(struct input *in)
{
    static const uint64_t edges[] = { 0, 1, UINT64_MAX, INT64_MAX, (uint64_t)INT64_MIN,
                                      INT32_MAX, (uint64_t)INT32_MIN, UINT32_MAX, 0x80,
                                      0xff, 0x7fff, 0x8000, 0xffff, 10, 100, 4096 };
    uint8_t choice = take(in);
    if (choice < 2 * sizeof edges / sizeof edges[0])
        return edges[choice % (sizeof edges / sizeof edges[0])];
    return take_u64(in);
}

/* Runs one call of both formatters with the star arguments the format asks for, then the
 * value. A format with no conversion for the value just ignores it, as C allows. */
#define RUN_BOTH(value)                                                                    \
    do {                                                                                   \
        switch (nstars) {                                                                  \
        case 0:                                                                            \
            ours_len = ksnprintf(out_ours, size, fmt, value);                              \
            host_len = snprintf(out_host, size, fmt, value);                               \
            break;                                                                         \
        case 1:                                                                            \
            ours_len = ksnprintf(out_ours, size, fmt, stars[0], value);                    \
            host_len = snprintf(out_host, size, fmt, stars[0], value);                     \
            break;                                                                         \
        default:                                                                           \
            ours_len = ksnprintf(out_ours, size, fmt, stars[0], stars[1], value);          \
            host_len = snprintf(out_host, size, fmt, stars[0], stars[1], value);           \
            break;                                                                         \
        }                                                                                  \
    } while (0)

/* Builds one format from the input, runs both formatters, aborts on any difference. */
static void check_one(struct input *in)
{
    static const char conversions[] = "diuxXocs%";
    static const char *const lengths[] = { "", "hh", "h", "l", "ll", "z", "t" };
    char fmt[64];
    size_t len = 0;
    int stars[2];
    int nstars = 0;
    bool has_precision = false; /* as printf will see it: a negative '*' is no precision */
    int precision_value = 0;

    uint8_t flags = take(in);
    uint8_t shape = take(in);
    char conv = conversions[shape % (sizeof conversions - 1)];
    size_t length = conv == 'c' || conv == 's' || conv == '%' ? 0 : (shape >> 4) % 7;
    bool is_text = conv == 'c' || conv == 's';

    len = append_literal(in, fmt, len);
    fmt[len++] = '%';
    if (conv != '%') {
        /* '#' only where C defines it, '0' '+' ' ' only on numbers. */
        if (flags & 1)
            fmt[len++] = '-';
        if ((flags & 2) && !is_text)
            fmt[len++] = '0';
        if ((flags & 4) && !is_text)
            fmt[len++] = '+';
        if ((flags & 8) && !is_text)
            fmt[len++] = ' ';
        if ((flags & 16) && (conv == 'o' || conv == 'x' || conv == 'X'))
            fmt[len++] = '#';

        uint8_t width = take(in);
        if (width >= 200) {
            fmt[len++] = '*';
            stars[nstars++] = take_star(in);
        } else if (width >= 100) {
            len += (size_t)snprintf(fmt + len, sizeof fmt - len, "%u", width - 100u);
        }

        uint8_t precision = conv == 'c' ? 0 : take(in); /* %c has no precision */
        if (precision >= 200) {
            memcpy(fmt + len, ".*", 2);
            len += 2;
            precision_value = stars[nstars++] = take_star(in);
            has_precision = precision_value >= 0;
        } else if (precision >= 100) {
            precision_value = precision - 100;
            has_precision = true;
            len += (size_t)snprintf(fmt + len, sizeof fmt - len, ".%d", precision_value);
        } else if (precision >= 90) {
            fmt[len++] = '.';
            has_precision = true;
        }
        memcpy(fmt + len, lengths[length], strlen(lengths[length]));
        len += strlen(lengths[length]);
    }
    fmt[len++] = conv;
    len = append_literal(in, fmt, len);
    fmt[len] = '\0';

    uint8_t size_choice = take(in);
    size_t size = size_choice >= 128 ? BUF_SIZE : size_choice % 64;
    char ours[BUF_SIZE], host[BUF_SIZE];
    char *out_ours = size ? ours : NULL, *out_host = size ? host : NULL;
    memset(ours, FILL, sizeof ours);
    memset(host, FILL, sizeof host);
    int ours_len, host_len;

    uint64_t value = take_value(in);
    bool is_signed = conv == 'd' || conv == 'i';
    if (conv == 's') {
        /* The string: up to 15 input bytes, or NULL when the host agrees on "(null)". */
        char text[16];
        size_t text_len = take(in) % sizeof text;
        for (size_t i = 0; i < text_len; i++)
            text[i] = (char)(take(in) | 1);
        text[text_len] = '\0';
        bool cut_short = has_precision && precision_value < 6;
        const char *s = (value & 1) && !cut_short ? NULL : text;
        RUN_BOTH(s);
    } else if (conv == 'c' || conv == '%' || length <= 2) {
        if (is_signed || conv == 'c' || conv == '%')
            RUN_BOTH((int)value);
        else
            RUN_BOTH((unsigned)value);
    } else if (length == 3) {
        if (is_signed)
            RUN_BOTH((long)value);
        else
            RUN_BOTH((unsigned long)value);
    } else if (length == 4) {
        if (is_signed)
            RUN_BOTH((long long)value);
        else
            RUN_BOTH((unsigned long long)value);
    } else if (length == 5 && !is_signed) {
        RUN_BOTH((size_t)value);
    } else {
        RUN_BOTH((ptrdiff_t)value);
    }

    if (ours_len != host_len || memcmp(ours, host, sizeof ours) != 0) {
        fprintf(stderr, "fuzz_format: \"%s\" size %zu: ours %d \"%.*s\", host %d \"%.*s\"\n",
                fmt, size, ours_len, (int)strnlen(ours, size), ours, host_len,
                (int)strnlen(host, size), host);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct input in = { data, size };

    /* Several formats per input, so that long inputs are not wasted. */
    for (int i = 0; i < 8 && in.size > 0; i++)
        check_one(&in);
    return 0;
}
