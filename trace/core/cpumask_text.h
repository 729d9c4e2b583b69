/*
 * cpumask_text.h - CPU masks as Linux writes them in tracing_cpumask (and /proc/irq/N/
 * smp_affinity): hexadecimal, in groups of 32 bits separated by commas, the highest group
 * first ("1" for one CPU, "ff" for eight, "1,ffffffff" for 33).
 * Portable: tests/unit/test_cpumask_text.c, tests/fuzz/fuzz_cpumask_text.c.
 */
#ifndef TRACE_CORE_CPUMASK_TEXT_H
#define TRACE_CORE_CPUMASK_TEXT_H

#include <stddef.h>
#include <stdint.h>

#define CPUMASK_TEXT_MAX_CPUS 256
#define CPUMASK_TEXT_WORDS (CPUMASK_TEXT_MAX_CPUS / 32)

/* Parses text[0..len) as Linux's bitmap_parse does for a mask of ncpus bits (1 to
 * CPUMASK_TEXT_MAX_CPUS): the text ends at its first newline or NUL; groups of 1 to 8 hex
 * digits, the last one naming bits 0-31, each group ended by a comma or white space (which
 * may repeat); no groups at all is the empty mask. Returns 0 with mask[] set (bits from
 * ncpus up zero), -EINVAL for a character that is no hex digit, or -EOVERFLOW for a group
 * of more than 8 digits, more groups than the mask has, or a bit set at or past ncpus. */
int cpumask_text_parse(const char *text, size_t len, unsigned ncpus,
                       uint32_t mask[CPUMASK_TEXT_WORDS]);

/* Writes mask (ncpus bits) as Linux's "%*pb" prints it, NUL-terminated, into buf: the
 * highest group zero-padded to the hex digits its bits need, the others to 8. Returns the
 * length (cut to size - 1 when buf is smaller). */
size_t cpumask_text_print(char *buf, size_t size, const uint32_t mask[CPUMASK_TEXT_WORDS],
                          unsigned ncpus);

#endif
