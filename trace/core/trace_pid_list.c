/*
 * trace_pid_list.c - sets of pids for the pid filter files (trace_pid_list.h).
 */
#include "trace/core/trace_pid_list.h"

#include "kernel/lib/errno.h"
#include "kernel/lib/parse.h"

void trace_pid_list_set(struct trace_pid_list *l, int32_t pid, bool on)
{
    if (pid < 0 || pid >= TRACE_PID_MAX || trace_pid_list_has(l, pid) == on)
        return;
    l->bits[pid / 32] ^= 1u << (pid % 32);
    l->count = on ? l->count + 1 : l->count - 1;
}

void trace_pid_list_clear(struct trace_pid_list *l)
{
    for (unsigned i = 0; i < TRACE_PID_WORDS; i++)
        l->bits[i] = 0;
    l->count = 0;
}

/* One word as kstrtoul(word, 0, &v) reads it, with v < TRACE_PID_MAX: an optional '+',
 * then "0x"/"0X" and hex digits, or '0' and octal digits, or decimal digits. */
static int parse_pid(const char *w, size_t len, int32_t *pid)
{
    size_t i = 0;
    if (i < len && w[i] == '+')
        i++;
    unsigned base = 10;
    if (len - i >= 2 && w[i] == '0' && (w[i + 1] == 'x' || w[i + 1] == 'X')) {
        base = 16;
        i += 2;
    } else if (len - i >= 2 && w[i] == '0') {
        base = 8;
        i++;
    }
    if (i == len)
        return -EINVAL;
    uint32_t v = 0;
    for (; i < len; i++) {
        int d = parse_digit(w[i], base);
        if (d < 0)
            return -EINVAL;
        v = v * base + (uint32_t)d;
        if (v >= TRACE_PID_MAX)
            return -EINVAL;
    }
    *pid = (int32_t)v;
    return 0;
}

int trace_pid_list_parse(struct trace_pid_list *l, const char *text, size_t len)
{
    size_t i = 0;
    while (i < len) {
        while (i < len && is_space(text[i]))
            i++;
        size_t start = i;
        while (i < len && !is_space(text[i]))
            i++;
        if (i == start)
            break;
        int32_t pid;
        if (parse_pid(text + start, i - start, &pid) != 0)
            return -EINVAL;
        trace_pid_list_set(l, pid, true);
    }
    return 0;
}

int32_t trace_pid_list_next(const struct trace_pid_list *l, int32_t from)
{
    if (from < 0)
        from = 0;
    for (int32_t p = from; p < TRACE_PID_MAX; p++) {
        uint32_t word = l->bits[p / 32] >> (p % 32);
        if (word == 0) {
            p |= 31; /* nothing more in this word */
            continue;
        }
        if (word & 1)
            return p;
    }
    return -1;
}
