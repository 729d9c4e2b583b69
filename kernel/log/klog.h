/*
 * klog.h - the kernel log kept in memory, as `dmesg` shows it.
 *
 * A byte ring of records; when full, the oldest records go and are counted.
 * Portable: tests/unit/test_klog.c.
 */
#ifndef KERNEL_LOG_KLOG_H
#define KERNEL_LOG_KLOG_H

#include <stddef.h>
#include <stdint.h>

#define KLOG_SIZE (64u * 1024)

/* Appends text to the log; a line begins a record stamped with now_ns. */
void klog_write(const char *text, size_t len, uint64_t now_ns);

/* Calls emit() with each complete line formatted as "[    1.234567] text\n", oldest first,
 * preceded by a line saying how many records were lost if any were. */
void klog_dump(void (*emit)(void *ctx, const char *text, size_t len), void *ctx);

/* Empties the log (and the lost count). */
void klog_clear(void);

#endif
