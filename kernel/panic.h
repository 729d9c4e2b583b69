/*
 * panic.h - stopping the kernel when it cannot go on, with everything a reader needs.
 */
#ifndef KERNEL_PANIC_H
#define KERNEL_PANIC_H

/* Prints the message and a backtrace, then stops the machine (QEMU exits with status 35). */
void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* For crash reporters that print their own report: panic_begin() stops interrupts and puts
 * printk in emergency mode; panic_end() prints the final line and stops the machine. */
void panic_begin(void);
void panic_end(const char *reason) __attribute__((noreturn));

/* Work for the last moment: the flight recorder (trace/snapshot/flight_recorder.c) registers one
 * that sends every tracer's unread events to the serial ports, so a crash loses no trace
 * data. Runs in panic_end with interrupts off and printk lock-free; must not take locks. */
void panic_register_last_words(void (*fn)(void));
/* Runs them now (once): for `halt`, which stops the machine on purpose. */
void panic_run_last_words(void);

#endif
