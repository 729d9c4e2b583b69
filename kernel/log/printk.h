/*
 * printk.h - kernel messages: to the console and into the in-memory log (dmesg).
 */
#ifndef KERNEL_LOG_PRINTK_H
#define KERNEL_LOG_PRINTK_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Formats like printf (kernel/lib/format.h). Text is written to the console at once and kept in
 * the kernel log; each line in the log carries the time it was started, in nanoseconds since
 * boot, shown by dmesg as [seconds.microseconds].
 */
void printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vprintk(const char *fmt, va_list ap);

/* Where console text goes (COM1); set by the serial driver. Writes must not sleep. */
void printk_set_console(void (*write)(const char *text, size_t len));

/* After this, printk takes no locks (a crashing CPU may hold them) and never blocks. */
void printk_enter_emergency(void);

/* Prints "name+0x1c/0x80" for a code address, or the bare address if it is no function. */
void print_symbol(uintptr_t addr);
/* Prints one backtrace line: "  [<address>] name+off/size". */
void print_call_site(uintptr_t addr);

#endif
