/*
 * ftrace_filter.c - set_ftrace_filter, set_ftrace_notrace and set_graph_function: parsing
 * their writes into function sets, and printing the sets back.
 */
#include "trace/ftrace/ftrace_filter.h"

#include "kernel/lib/errno.h"
#include "kernel/lib/parse.h"
#include "kernel/lib/string.h"

void ftrace_func_set_init(struct ftrace_func_set *set, uint32_t *bits, uint32_t nfuncs)
{
    set->bits = bits;
    set->nfuncs = nfuncs;
    ftrace_func_set_clear(set);
}

void ftrace_func_set_clear(struct ftrace_func_set *set)
{
    memset(set->bits, 0, FTRACE_FUNC_SET_WORDS(set->nfuncs) * sizeof(uint32_t));
    set->count = 0;
}

bool ftrace_func_set_has(const struct ftrace_func_set *set, uint32_t index)
{
    return index < set->nfuncs && (set->bits[index / 32] >> (index % 32) & 1u);
}

bool ftrace_filter_allows(const struct ftrace_func_set *filter,
                          const struct ftrace_func_set *notrace, uint32_t index)
{
    if (notrace && ftrace_func_set_has(notrace, index))
        return false;
    return !filter || filter->count == 0 || ftrace_func_set_has(filter, index);
}

/* lib/glob.c's algorithm, bounded by plen: remember the last '*' and, on a mismatch, let it
 * swallow one more character. A NUL in the pattern ends it, as it would Linux's string. */
bool ftrace_glob_match(const char *pattern, size_t plen, const char *name)
{
    const unsigned char *pat = (const unsigned char *)pattern;
    const unsigned char *str = (const unsigned char *)name;
    const unsigned char *back_str = NULL;
    size_t p = 0, back_p = 0;

    for (;;) {
        unsigned char c = *str++;
        unsigned char d = p < plen ? pat[p++] : '\0';

        switch (d) {
        case '?': /* any one character */
            if (c == '\0')
                return false;
            break;
        case '*': /* any run, the empty one too */
            if (p == plen)
                return true;
            back_p = p;
            back_str = --str;
            break;
        case '[': { /* a class: spans a or a-b; the first may be ']'; '!' inverts */
            size_t q = p;
            bool inverted = q < plen && pat[q] == '!';
            bool match = false;
            q += inverted;
            if (q >= plen || pat[q] == '\0')
                goto literal;
            unsigned char a = pat[q++];
            for (;;) {
                unsigned char b = a;
                if (q < plen && pat[q] == '-') {
                    if (q + 1 >= plen || pat[q + 1] == '\0')
                        goto literal;
                    if (pat[q + 1] != ']') {
                        b = pat[q + 1];
                        q += 2;
                    }
                }
                match |= a <= c && c <= b;
                if (q >= plen || pat[q] == '\0')
                    goto literal; /* unterminated: the '[' is an ordinary character */
                a = pat[q++];
                if (a == ']')
                    break;
            }
            if (match == inverted || c == '\0') /* nor does "[!x]" match the end */
                goto backtrack;
            p = q;
            break;
        }
        case '\\': /* the next character literally; at the end, the end */
            d = p < plen ? pat[p++] : '\0';
            goto literal;
        default:
        literal:
            if (c == d) {
                if (d == '\0')
                    return true;
                break;
            }
        backtrack:
            if (c == '\0' || back_str == NULL)
                return false;
            p = back_p;
            str = ++back_str;
            break;
        }
    }
}

static bool is_separator(char c)
{
    return is_space(c) || c == '\0';
}

/* kstrtoul(word, 0): the whole word a number, 0x/0X hex, leading-0 octal, else decimal. */
static bool parse_index(const char *w, size_t len, uint32_t *out)
{
    unsigned base = 10;
    size_t i = 0;
    if (len >= 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X')) {
        base = 16;
        i = 2;
    } else if (len >= 1 && w[0] == '0') {
        base = 8;
    }
    if (i == len)
        return false;
    uint32_t v = 0;
    for (; i < len; i++) {
        int digit = parse_digit(w[i], base);
        if (digit < 0 || v > (UINT32_MAX - (uint32_t)digit) / base)
            return false;
        v = v * base + (uint32_t)digit;
    }
    *out = v;
    return true;
}

static const char *func_name(uint32_t addr, const struct symbol_table *symbols)
{
    const char *name = symbols ? symbol_lookup(symbols, addr, NULL, NULL) : NULL;
    return name ? name : "";
}

static void set_bit_to(uint32_t *bits, uint32_t i, bool on)
{
    if (on)
        bits[i / 32] |= 1u << (i % 32);
    else
        bits[i / 32] &= ~(1u << (i % 32));
}

/* Applies one word (no separators in it) to bits: 0, or -EINVAL. */
static int apply_word(uint32_t *bits, uint32_t nfuncs, const char *w, size_t len,
                      const uint32_t *func_addrs, const struct symbol_table *symbols)
{
    bool add = true;
    if (w[0] == '!') {
        add = false;
        w++;
        len--;
    }
    if (len == 0)
        return -EINVAL;
    for (size_t i = 0; i < len; i++)
        if (w[i] == ':')
            return -EINVAL; /* func:command and :mod:name need what we lack */

    if (w[0] >= '0' && w[0] <= '9') {
        uint32_t index;
        if (!parse_index(w, len, &index) || index == 0 || index > nfuncs)
            return -EINVAL;
        set_bit_to(bits, index - 1, add);
        return 0;
    }

    bool found = false;
    for (uint32_t i = 0; i < nfuncs; i++) {
        if (ftrace_glob_match(w, len, func_name(func_addrs[i], symbols))) {
            set_bit_to(bits, i, add);
            found = true;
        }
    }
    return found ? 0 : -EINVAL;
}

static uint32_t popcount32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
}

int ftrace_filter_write(struct ftrace_func_set *set, uint32_t *scratch, const char *text,
                        size_t len, bool append, const uint32_t *func_addrs,
                        const struct symbol_table *symbols)
{
    uint32_t words = FTRACE_FUNC_SET_WORDS(set->nfuncs);
    size_t bytes = words * sizeof(uint32_t);

    if (append)
        memcpy(scratch, set->bits, bytes);
    else
        memset(scratch, 0, bytes);

    size_t i = 0;
    while (i < len) {
        if (is_separator(text[i])) {
            i++;
            continue;
        }
        size_t start = i;
        while (i < len && !is_separator(text[i]))
            i++;
        int err = apply_word(scratch, set->nfuncs, text + start, i - start, func_addrs, symbols);
        if (err)
            return err;
    }

    uint32_t count = 0;
    for (uint32_t w = 0; w < words; w++)
        count += popcount32(scratch[w]);
    memcpy(set->bits, scratch, bytes);
    set->count = count;
    return 0;
}

static void emit_str(struct fs_writer *out, const char *s)
{
    out->emit(out, s, strlen(s));
}

void ftrace_filter_print(const struct ftrace_func_set *set, struct fs_writer *out,
                         const uint32_t *func_addrs, const struct symbol_table *symbols,
                         const char *empty_text)
{
    if (set->count == 0) {
        if (empty_text)
            emit_str(out, empty_text);
        return;
    }
    uint32_t printed = 0;
    for (uint32_t i = 0; i < set->nfuncs; i++) {
        if (!ftrace_func_set_has(set, i))
            continue;
        if (++printed % 64 == 0 && out->interrupted && out->interrupted(out))
            return;
        const char *name = symbols ? symbol_lookup(symbols, func_addrs[i], NULL, NULL) : NULL;
        if (name) {
            emit_str(out, name);
            out->emit(out, "\n", 1);
        } else {
            static const char hex[] = "0123456789abcdef";
            char buf[12];
            size_t n = 0;
            uint32_t a = func_addrs[i];
            buf[n++] = '0';
            buf[n++] = 'x';
            int shift = 28;
            while (shift > 0 && (a >> shift & 0xf) == 0)
                shift -= 4;
            for (; shift >= 0; shift -= 4)
                buf[n++] = hex[a >> shift & 0xf];
            buf[n++] = '\n';
            out->emit(out, buf, n);
        }
    }
}
