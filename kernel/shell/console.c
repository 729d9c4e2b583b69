/*
 * console.c - the console on COM1.
 *
 * Input arrives by interrupt, one byte at a time, into a queue; the shell takes bytes out,
 * sleeping (the scheduler runs other tasks) while it is empty. Output is written straight to the UART, so it reaches
 * the terminal even when interrupts are off or the kernel is crashing.
 *
 * ^C is noticed as it arrives, as Linux's terminal line discipline does with ISIG: the
 * interrupt handler counts it as a pending interrupt (a signal, on Linux) besides queueing
 * it. A command that runs long polls console_take_interrupt(), one load while nothing is
 * pending; at the prompt the line editor reads the ^C in its place among the other bytes.
 * Either way the ^C is taken once.
 *
 * While a program's terminal has ISIG (kernel/fs/tty.c), a ^C is not queued at all: the
 * terminal's handler runs at once in the interrupt handler and sends SIGINT, as n_tty's
 * isig() does; a ^C queued before (typed ahead of `run`) stays for the shell to take.
 *
 * Every other byte stays queued until the shell reads it, whatever runs meanwhile: what is
 * typed during a command runs after it, as on a terminal. Only a ^C flushes the bytes typed
 * before it (as Linux's n_tty does on SIGINT), and a full queue drops bytes and counts them
 * (console_input_overruns(), which the shell reports).
 */
#include "kernel/shell/console.h"

#include <stdint.h>

#include "drivers/serial/uart16550.h"
#include "kernel/arch.h"
#include "kernel/fs/file.h" /* file_poll_wake: poll() on the terminal */
#include "kernel/log/printk.h"
#include "kernel/proc/sched.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"

#define INPUT_QUEUE 8192 /* a power of two: two whole lines typed ahead (SHELL_LINE_MAX) */
#define CTRL_C 0x03

/* The input queue and the pending ^C count, under input_lock. */
static struct spinlock input_lock = SPINLOCK_INIT("console input");
static volatile char input[INPUT_QUEUE]; /* also the channel readers sleep on */
static volatile uint32_t input_head, input_tail; /* free-running; tail - head = queued */
static volatile unsigned pending_interrupts; /* ^C bytes in the queue, not yet taken */
static uint64_t arrived_ns[INPUT_QUEUE]; /* for a queued ^C: when it arrived */
static bool interrupt_at[INPUT_QUEUE];    /* the byte there is a ^C counted as an interrupt */
static unsigned overruns;
/* True while a program in the foreground reads ^C as data (its terminal has ISIG off:
 * kernel/fs/tty.c): the byte is then queued as any other, not counted as an interrupt. */
static volatile bool interrupt_is_data;
/* Set while a foreground program's terminal has ISIG: what a ^C does instead of queueing. */
static void (*volatile interrupt_handler)(void);

/* Runs in the COM1 interrupt handler. A ^C that finds the queue full first empties it (Linux
 * flushes typed-ahead input on ^C anyway): an interrupt is never lost. */
static void console_received(uint8_t byte)
{
    void (*handler)(void) = interrupt_handler;
    if (byte == CTRL_C && handler && !interrupt_is_data) {
        handler(); /* the terminal signals its foreground group; nothing is queued */
        return;
    }
    unsigned long flags = spin_lock_irqsave(&input_lock);
    bool interrupt = byte == CTRL_C && !interrupt_is_data;
    if (interrupt && input_tail - input_head == INPUT_QUEUE) {
        overruns += INPUT_QUEUE;
        input_head = input_tail;
        pending_interrupts = 0;
    }
    if (input_tail - input_head == INPUT_QUEUE) {
        overruns++;
    } else {
        input[input_tail % INPUT_QUEUE] = (char)byte;
        interrupt_at[input_tail % INPUT_QUEUE] = interrupt;
        if (interrupt) {
            arrived_ns[input_tail % INPUT_QUEUE] = time_ns();
            pending_interrupts++;
        }
        input_tail++;
    }
    spin_unlock_irqrestore(&input_lock, flags);
    wake_up((const void *)input);
    file_poll_wake();
}

void console_write(const char *text, size_t len)
{
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '\n')
            continue;
        uart_write(COM1, text + start, i - start);
        uart_write(COM1, "\r\n", 2);
        start = i + 1;
    }
    uart_write(COM1, text + start, len - start);
}

void console_init(void)
{
    uart_init(COM1);
    printk_set_console(console_write);
    uart_enable_rx_interrupt(COM1, COM1_IRQ, console_received);
}

int console_trygetc(void)
{
    unsigned long flags = spin_lock_irqsave(&input_lock);
    int c = -1;
    if (input_head != input_tail) {
        c = (unsigned char)input[input_head % INPUT_QUEUE];
        if (interrupt_at[input_head % INPUT_QUEUE])
            pending_interrupts--;
        input_head++;
    }
    spin_unlock_irqrestore(&input_lock, flags);
    return c;
}

bool console_interrupt_pending(void) { return pending_interrupts != 0; }

bool console_take_interrupt(uint64_t *received_ns)
{
    if (!pending_interrupts)
        return false; /* the common case of every poll: one load, no lock */
    unsigned long flags = spin_lock_irqsave(&input_lock);
    bool taken = pending_interrupts != 0;
    if (taken) {
        while (!interrupt_at[input_head % INPUT_QUEUE])
            input_head++; /* typed before the ^C: thrown away, as Linux flushes it */
        if (received_ns)
            *received_ns = arrived_ns[input_head % INPUT_QUEUE];
        input_head++;
        pending_interrupts--;
    }
    spin_unlock_irqrestore(&input_lock, flags);
    if (taken)
        wake_up((const void *)input); /* a program's read waiting behind the ^C goes on */
    return taken;
}

int console_wait_input(uint64_t timeout_ns)
{
    unsigned long flags = arch_irq_save(); /* one CPU sleeps here: see sched.h */
    int err = 0;
    if (!pending_interrupts) /* tested with interrupts off: a ^C cannot slip in between */
        err = sleep_on((const void *)input, timeout_ns);
    arch_irq_restore(flags);
    return err;
}

char console_getc(void)
{
    for (;;) {
        int c = console_trygetc();
        if (c >= 0)
            return (char)c;
        unsigned long flags = arch_irq_save();
        if (input_head == input_tail)
            sleep_on((const void *)input, 0);
        arch_irq_restore(flags);
    }
}

unsigned console_input_overruns(void) { return overruns; }

void console_write_raw(const char *text, size_t len) { uart_write(COM1, text, len); }

/* Whether the oldest queued byte is one a program may take: not a ^C left for the shell
 * as an interrupt. Called under input_lock. */
static bool byte_for_program(void)
{
    return input_head != input_tail && !interrupt_at[input_head % INPUT_QUEUE];
}

int console_take_byte(void)
{
    unsigned long flags = spin_lock_irqsave(&input_lock);
    int c = -1;
    if (byte_for_program()) {
        c = (unsigned char)input[input_head % INPUT_QUEUE];
        input_head++;
    }
    spin_unlock_irqrestore(&input_lock, flags);
    return c;
}

uint32_t console_bytes_for_program(void)
{
    unsigned long flags = spin_lock_irqsave(&input_lock);
    uint32_t n = 0;
    for (uint32_t at = input_head; at != input_tail && !interrupt_at[at % INPUT_QUEUE]; at++)
        n++;
    spin_unlock_irqrestore(&input_lock, flags);
    return n;
}

int console_wait_byte(uint64_t timeout_ns)
{
    unsigned long flags = arch_irq_save(); /* one CPU sleeps here: see sched.h */
    int err = 0;
    if (!byte_for_program())
        err = sleep_on((const void *)input, timeout_ns);
    arch_irq_restore(flags);
    return err;
}

void console_interrupt_is_data(bool data) { interrupt_is_data = data; }

void console_interrupt_handler(void (*handler)(void)) { interrupt_handler = handler; }

void console_flush_input(void)
{
    unsigned long flags = spin_lock_irqsave(&input_lock);
    while (byte_for_program())
        input_head++;
    spin_unlock_irqrestore(&input_lock, flags);
}
