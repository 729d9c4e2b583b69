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
/* The console's foreground process group (Linux's tty pgrp): the group the shell's `run`
 * gives the console to, which ^C sends SIGINT to; 1 (the shell's own) while none runs. A
 * minimal stand-in until the console is a full tty (issue 16, "files"). */
void tty_set_foreground_pgrp(int pgid);
int tty_foreground_pgrp(void);
/* Bytes dropped because the input queue was full. */
unsigned console_input_overruns(void);

#endif
