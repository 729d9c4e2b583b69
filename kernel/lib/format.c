/*
 * format.c - printf-style formatting into a caller's buffer (see format.h).
 *
 * Written for a kernel without a C library: it needs only the compiler's own headers, never
 * allocates, and never divides a 64-bit number with '/', which on a 32-bit target would pull
 * in libgcc's __udivdi3 (see divide_small).
 *
 * Where C leaves the choice to the implementation, or a case is undefined, this file does:
 *  - %p prints "0x" and the pointer in lower-case hex, zero-padded to 2 * sizeof(void *)
 *    digits ("0x0000beef" on i386, NULL is "0x00000000"). Width and '-' apply; precision and
 *    the other flags are ignored.
 *  - %s of a NULL pointer prints "(null)", cut by the precision like any other string
 *    (glibc prints nothing instead when the precision is below 6).
 *  - A conversion it does not know (%n, %f, %y, %j, ...) is copied to the output as written,
 *    from the '%' to that character, and consumes no argument (a '*' inside it still does).
 *  - Length modifiers apply to the integer conversions; %c and %s ignore them (no wide
 *    characters). The '0' flag pads numbers only. %% prints '%' whatever its flags.
 *  - A result longer than INT_MAX characters cannot be returned as an int: the output stops
 *    growing there and the return value is -1 (POSIX's EOVERFLOW case).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/lib/format.h"

/* INT_MAX without <limits.h>: the longest result whose length the int return can hold. */
#define FORMAT_INT_MAX ((size_t)(~0u >> 1))

/* Widths and precisions saturate here: a width this large already makes the result too long
 * to return, and no larger number changes the outcome. */
#define FIELD_MAX (FORMAT_INT_MAX + 1)

/* Where characters go: buf receives the first size-1 of them, len counts all of them. */
struct sink {
    char *buf;
    size_t size;
    size_t len;
    bool overflowed; /* the result passed FORMAT_INT_MAX characters */
};

/* Appends one character; once buf is full the character is only counted. */
static void emit(struct sink *out, char c)
{
    if (out->len == FORMAT_INT_MAX) {
        out->overflowed = true;
        return;
    }
    if (out->len + 1 < out->size)
        out->buf[out->len] = c;
    out->len++;
}

/* Counts count characters that no longer fit in buf, without a loop. */
static void count_only(struct sink *out, size_t count)
{
    if (count > FORMAT_INT_MAX - out->len) {
        out->len = FORMAT_INT_MAX;
        out->overflowed = true;
    } else {
        out->len += count;
    }
}

/* Appends count copies of c (padding). Once buf is full the rest is only counted, so a huge
 * width into a small buffer costs no time. */
static void emit_repeated(struct sink *out, char c, size_t count)
{
    for (; count > 0 && out->len + 1 < out->size && !out->overflowed; count--)
        emit(out, c);
    count_only(out, count);
}

/* Appends count characters from s, which need not be NUL-terminated. */
static void emit_chars(struct sink *out, const char *s, size_t count)
{
    for (size_t i = 0; i < count && !out->overflowed; i++)
        emit(out, s[i]);
}

enum length { LEN_INT, LEN_CHAR, LEN_SHORT, LEN_LONG, LEN_LONG_LONG, LEN_SIZE, LEN_PTRDIFF };

/* One parsed conversion specification: %[flags][width][.precision][length]conversion. */
struct spec {
    bool left;  /* '-': pad on the right */
    bool zero;  /* '0': pad numbers with zeros after the sign or 0x */
    bool plus;  /* '+': a sign even on non-negative numbers */
    bool space; /* ' ': a space where '+' would go */
    bool alt;   /* '#': 0x / 0X before non-zero hex, a leading 0 for octal */
    size_t width;
    bool has_precision;
    size_t precision;
    enum length length;
    char conversion; /* '\0' when the format ended inside the specification */
};

/* Reads the decimal digits at *p (a width or precision) and moves *p past them. Saturates at
 * FIELD_MAX, so an absurd width cannot overflow: it just makes the result too long. */
static size_t parse_decimal(const char **p)
{
    size_t n = 0;

    while (**p >= '0' && **p <= '9') {
        size_t digit = (size_t)(**p - '0');
        n = n > (FIELD_MAX - digit) / 10 ? FIELD_MAX : n * 10 + digit;
        (*p)++;
    }
    return n;
}

/* Turns a '*' width argument into a width: a negative one means '-' and its magnitude. */
static void set_star_width(struct spec *spec, int width)
{
    unsigned magnitude = width < 0 ? 0u - (unsigned)width : (unsigned)width;

    if (width < 0)
        spec->left = true;
    spec->width = magnitude > FIELD_MAX ? FIELD_MAX : magnitude;
}

/*
 * Parses the specification that follows a '%' at *fmt, taking '*' arguments from ap, and
 * leaves *fmt after the conversion character (or on the format's NUL if it ended early).
 */
static void parse_spec(const char **fmt, struct spec *spec, va_list *ap)
{
    const char *p = *fmt;

    *spec = (struct spec){ .length = LEN_INT };
    for (;; p++) {
        if (*p == '-')
            spec->left = true;
        else if (*p == '0')
            spec->zero = true;
        else if (*p == '+')
            spec->plus = true;
        else if (*p == ' ')
            spec->space = true;
        else if (*p == '#')
            spec->alt = true;
        else
            break;
    }

    if (*p == '*') {
        p++;
        set_star_width(spec, va_arg(*ap, int));
    } else {
        spec->width = parse_decimal(&p);
    }

    if (*p == '.') {
        p++;
        spec->has_precision = true;
        if (*p == '*') {
            int precision = va_arg(*ap, int);
            p++;
            /* C: a negative precision argument is taken as if there were none. */
            spec->has_precision = precision >= 0;
            spec->precision = precision >= 0 ? (size_t)precision : 0;
        } else {
            spec->precision = parse_decimal(&p);
        }
    }

    if (p[0] == 'h' && p[1] == 'h') {
        spec->length = LEN_CHAR;
        p += 2;
    } else if (p[0] == 'h') {
        spec->length = LEN_SHORT;
        p++;
    } else if (p[0] == 'l' && p[1] == 'l') {
        spec->length = LEN_LONG_LONG;
        p += 2;
    } else if (p[0] == 'l') {
        spec->length = LEN_LONG;
        p++;
    } else if (p[0] == 'z') {
        spec->length = LEN_SIZE;
        p++;
    } else if (p[0] == 't') {
        spec->length = LEN_PTRDIFF;
        p++;
    }

    spec->conversion = *p;
    if (*p != '\0')
        p++;
    *fmt = p;
}

/* Takes a signed integer argument of the type the length modifier names. The narrow types
 * arrive promoted to int and are cut back to their own width, as C requires. */
static int64_t fetch_signed(va_list *ap, enum length length)
{
    switch (length) {
    case LEN_CHAR:
        return (signed char)va_arg(*ap, int);
    case LEN_SHORT:
        return (short)va_arg(*ap, int);
    case LEN_LONG:
        return va_arg(*ap, long);
    case LEN_LONG_LONG:
        return va_arg(*ap, long long);
    case LEN_SIZE: /* the signed type of size_t's width */
    case LEN_PTRDIFF:
        return va_arg(*ap, ptrdiff_t);
    case LEN_INT:
        break;
    }
    return va_arg(*ap, int);
}

/* Takes an unsigned integer argument of the type the length modifier names. unsigned char
 * and unsigned short arrive promoted to int. */
static uint64_t fetch_unsigned(va_list *ap, enum length length)
{
    switch (length) {
    case LEN_CHAR:
        return (unsigned char)va_arg(*ap, int);
    case LEN_SHORT:
        return (unsigned short)va_arg(*ap, int);
    case LEN_LONG:
        return va_arg(*ap, unsigned long);
    case LEN_LONG_LONG:
        return va_arg(*ap, unsigned long long);
    case LEN_SIZE:
        return va_arg(*ap, size_t);
    case LEN_PTRDIFF: /* the unsigned type of ptrdiff_t's width */
        return (size_t)va_arg(*ap, ptrdiff_t);
    case LEN_INT:
        break;
    }
    return va_arg(*ap, unsigned);
}

/*
 * Divides *value by base (2 to 16) in place and returns the remainder. It goes 16 bits at a
 * time so that every division is a 32-bit one: the remainder carried into the next piece is
 * below base, so each piece stays below 2^20. A 32-bit kernel thus needs no __udivdi3.
 */
static unsigned divide_small(uint64_t *value, uint32_t base)
{
    uint64_t quotient = 0;
    uint32_t remainder = 0;

    for (int shift = 48; shift >= 0; shift -= 16) {
        uint32_t piece = (remainder << 16) | (uint32_t)((*value >> shift) & 0xffff);
        quotient |= (uint64_t)(piece / base) << shift;
        remainder = piece % base;
    }
    *value = quotient;
    return remainder;
}

/*
 * Prints an integer's magnitude in base after prefix (a sign, "0x" or nothing), honouring
 * width, precision (minimum digits; value 0 with precision 0 prints no digits), '-', '0'
 * (ignored when there is a precision, as C says) and '#' for octal (first digit a 0).
 */
static void format_integer(struct sink *out, const struct spec *spec, uint64_t value,
                           uint32_t base, bool upper, const char *prefix)
{
    const char *digit_chars = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char digits[22]; /* a 64-bit number has at most 22 octal digits; stored backwards */
    size_t ndigits = 0;
    size_t prefix_len = 0;

    if (value > UINT32_MAX) {
        do {
            digits[ndigits++] = digit_chars[divide_small(&value, base)];
        } while (value > UINT32_MAX);
    }
    /* What fits in 32 bits (most numbers printed) takes one plain division per digit. */
    uint32_t low = (uint32_t)value;
    if (ndigits > 0 || low != 0 || !spec->has_precision || spec->precision != 0) {
        do {
            digits[ndigits++] = digit_chars[low % base];
            low /= base;
        } while (low != 0);
    }
    while (prefix[prefix_len] != '\0')
        prefix_len++;

    size_t zeros = 0; /* between prefix and digits: from the precision, '#' or '0' */
    if (spec->has_precision && spec->precision > ndigits)
        zeros = spec->precision - ndigits;
    /* Octal '#': make the first digit a 0 unless it already is one (value 0). */
    if (spec->alt && base == 8 && zeros == 0 && (ndigits == 0 || digits[ndigits - 1] != '0'))
        zeros = 1;

    size_t body = prefix_len + zeros + ndigits;
    size_t padding = spec->width > body ? spec->width - body : 0;
    if (spec->zero && !spec->left && !spec->has_precision) {
        zeros += padding;
        padding = 0;
    }

    if (!spec->left)
        emit_repeated(out, ' ', padding);
    emit_chars(out, prefix, prefix_len);
    emit_repeated(out, '0', zeros);
    while (ndigits > 0)
        emit(out, digits[--ndigits]);
    if (spec->left)
        emit_repeated(out, ' ', padding);
}

/* Prints count characters of s padded with spaces to the width, on the side '-' says. */
static void format_text(struct sink *out, const struct spec *spec, const char *s, size_t count)
{
    size_t padding = spec->width > count ? spec->width - count : 0;

    if (!spec->left)
        emit_repeated(out, ' ', padding);
    emit_chars(out, s, count);
    if (spec->left)
        emit_repeated(out, ' ', padding);
}

/* Length of s, but reading at most limit bytes: with a precision, %s may be handed an array
 * that has no NUL. */
static size_t bounded_length(const char *s, size_t limit)
{
    size_t n = 0;

    while (n < limit && s[n] != '\0')
        n++;
    return n;
}

/* Prints one parsed conversion, taking its argument from ap. Returns false, having printed
 * and taken nothing, when the conversion is not one this file knows. */
static bool format_conversion(struct sink *out, const struct spec *spec, va_list *ap)
{
    switch (spec->conversion) {
    case 'd':
    case 'i': {
        int64_t value = fetch_signed(ap, spec->length);
        uint64_t magnitude = value < 0 ? 0 - (uint64_t)value : (uint64_t)value;
        const char *sign = value < 0 ? "-" : spec->plus ? "+" : spec->space ? " " : "";
        format_integer(out, spec, magnitude, 10, false, sign);
        return true;
    }
    case 'u':
        format_integer(out, spec, fetch_unsigned(ap, spec->length), 10, false, "");
        return true;
    case 'o':
        format_integer(out, spec, fetch_unsigned(ap, spec->length), 8, false, "");
        return true;
    case 'x':
    case 'X': {
        uint64_t value = fetch_unsigned(ap, spec->length);
        bool upper = spec->conversion == 'X';
        const char *prefix = spec->alt && value != 0 ? (upper ? "0X" : "0x") : "";
        format_integer(out, spec, value, 16, upper, prefix);
        return true;
    }
    case 'p': {
        struct spec pointer = {
            .left = spec->left,
            .width = spec->width,
            .has_precision = true,
            .precision = 2 * sizeof(void *),
        };
        uintptr_t address = (uintptr_t)va_arg(*ap, void *);
        format_integer(out, &pointer, address, 16, false, "0x");
        return true;
    }
    case 'c': {
        char c = (char)va_arg(*ap, int);
        format_text(out, spec, &c, 1);
        return true;
    }
    case 's': {
        const char *s = va_arg(*ap, const char *);
        if (s == NULL)
            s = "(null)";
        size_t limit = spec->has_precision ? spec->precision : SIZE_MAX;
        format_text(out, spec, s, bounded_length(s, limit));
        return true;
    }
    case '%':
        emit(out, '%');
        return true;
    default:
        return false;
    }
}

/* The formatter itself: copies fmt to buf, replacing each conversion by its argument. */
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct sink out = { .buf = buf, .size = size };
    va_list args;

    /* A copy, so that helpers can take arguments through a pointer on every ABI. */
    va_copy(args, ap);
    while (*fmt != '\0') {
        if (*fmt != '%') {
            emit(&out, *fmt++);
            continue;
        }
        const char *start = fmt++;
        struct spec spec;
        parse_spec(&fmt, &spec, &args);
        if (!format_conversion(&out, &spec, &args))
            emit_chars(&out, start, (size_t)(fmt - start));
    }
    va_end(args);

    if (size > 0)
        buf[out.len < size ? out.len : size - 1] = '\0';
    return out.overflowed ? -1 : (int)out.len;
}

/* kvsnprintf for callers holding the arguments themselves. */
int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    int n = kvsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}
