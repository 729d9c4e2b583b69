/*
 * cpumask_text.c - CPU masks in Linux's hex text (cpumask_text.h).
 */
#include "trace/core/cpumask_text.h"

#include <stdbool.h>

#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/lib/parse.h"

/* A character that ends a group (Linux's __end_of_region): white space or a comma. */
static bool ends_group(char c) { return is_space(c) || c == ','; }

/* Groups are read from the end of the text backwards, as Linux reads them: the last group
 * is bits 0-31, the one before it bits 32-63, and so on. */
int cpumask_text_parse(const char *text, size_t len, unsigned ncpus,
                       uint32_t mask[CPUMASK_TEXT_WORDS])
{
    if (ncpus == 0 || ncpus > CPUMASK_TEXT_MAX_CPUS)
        return -EINVAL;
    size_t n = 0;
    while (n < len && text[n] != '\n' && text[n] != '\0')
        n++;
    uint32_t words[CPUMASK_TEXT_WORDS] = { 0 };
    unsigned groups = (ncpus + 31) / 32, group = 0;
    size_t end = n; /* text[0..end) is what is left to read */
    for (;;) {
        while (end > 0 && ends_group(text[end - 1]))
            end--;
        if (end == 0)
            break;
        if (group == groups)
            return -EOVERFLOW;
        uint32_t value = 0;
        unsigned digits = 0;
        while (end > 0 && !ends_group(text[end - 1])) {
            int d = parse_digit(text[end - 1], 16);
            if (d < 0)
                return -EINVAL;
            if (digits == 8)
                return -EOVERFLOW;
            value |= (uint32_t)d << (4 * digits++);
            end--;
        }
        words[group++] = value;
    }
    if (ncpus % 32 && (words[groups - 1] >> (ncpus % 32)) != 0)
        return -EOVERFLOW;
    for (unsigned i = 0; i < CPUMASK_TEXT_WORDS; i++)
        mask[i] = words[i];
    return 0;
}

size_t cpumask_text_print(char *buf, size_t size, const uint32_t mask[CPUMASK_TEXT_WORDS],
                          unsigned ncpus)
{
    if (size == 0)
        return 0;
    buf[0] = '\0';
    if (ncpus == 0 || ncpus > CPUMASK_TEXT_MAX_CPUS)
        return 0;
    size_t used = 0;
    unsigned top_bits = ncpus % 32 ? ncpus % 32 : 32;
    for (int g = (int)((ncpus + 31) / 32) - 1; g >= 0; g--) {
        unsigned width = g == (int)((ncpus - 1) / 32) ? (top_bits + 3) / 4 : 8;
        int wrote = ksnprintf(buf + used, size - used, "%s%0*lx", used ? "," : "", (int)width,
                              (unsigned long)mask[g]);
        if (wrote < 0)
            break;
        used += (size_t)wrote;
        if (used >= size) {
            used = size - 1;
            break;
        }
    }
    return used;
}
