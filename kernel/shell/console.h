/*
 * console.h - the kernel console (COM1): text out, keystrokes in.
 */
#ifndef KERNEL_SHELL_CONSOLE_H
#define KERNEL_SHELL_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Starts COM1, sends printk there, and starts interrupt-driven input. */
void console_init(void);

/* Writes text, turning "\n" into "\r\n" for the terminal. */
void console_write(const char *text, size_t len);

/* Sleeps until a byte arrives (at once if a ^C is pending), timeout_ns passed (0: none) or
 * the task is killed: 0, -ETIMEDOUT or -EINTR. Lets long waits (sleep, trace_pipe) notice ^C
 * at once; bytes typed ahead stay queued for the prompt and do not end the wait. */
int console_wait_input(uint64_t timeout_ns);
/* The next byte typed, sleeping until there is one. */
char console_getc(void);
/* The next byte typed if there is one, else -1. */
int console_trygetc(void);
/* True while a ^C typed is waiting to be taken (one load: cheap enough for any loop). */
bool console_interrupt_pending(void);
/* Takes the oldest pending ^C, if there is one: it and the bytes typed before it leave the
 * queue. *received_ns (may be NULL) gets the time it arrived. False if none is pending. */
bool console_take_interrupt(uint64_t *received_ns);
/* Bytes dropped because the input queue was full. */
unsigned console_input_overruns(void);

/* For a program's terminal (kernel/fs/tty.c, issue 16). */
/* Writes text as it is (a terminal without OPOST/ONLCR). */
void console_write_raw(const char *text, size_t len);
/* The oldest byte typed if a program may take it, else -1: a ^C counted as an interrupt
 * is left for the shell's console_take_interrupt, and what follows it waits behind it. */
int console_take_byte(void);
/* How many bytes console_take_byte would give one after another now. */
uint32_t console_bytes_for_program(void);
/* Sleeps until console_take_byte has a byte, timeout_ns passed (0: none) or the task is
 * interrupted: 0, -ETIMEDOUT or -EINTR. */
int console_wait_byte(uint64_t timeout_ns);
/* data true: ^C typed from now on is an ordinary byte (a foreground program's terminal
 * without ISIG); false: it is an interrupt, as at the shell. */
void console_interrupt_is_data(bool data);
/* handler non-NULL: a ^C typed from now on (unless it is data) is not queued; handler runs
 * in the interrupt handler instead, with interrupts off and no console lock held (a
 * terminal with ISIG signals its foreground group so). NULL: ^C is queued for the shell. */
void console_interrupt_handler(void (*handler)(void));
/* Throws away the bytes a program could take (TCSETSF, TCFLSH). */
void console_flush_input(void);

#endif
