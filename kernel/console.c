/*
 * console.c - the console on COM1.
 *
 * Input arrives by interrupt, one byte at a time, into a queue; the shell takes bytes out,
 * sleeping (the scheduler runs other tasks) while it is empty. Output is written straight to the UART, so it reaches
 * the terminal even when interrupts are off or the kernel is crashing.
 */
#include "kernel/console.h"

#include <stdint.h>

#include "drivers/serial/uart16550.h"
#include "kernel/arch.h"
#include "kernel/printk.h"
#include "kernel/sched.h"

#define INPUT_QUEUE 256 /* a power of two */

static volatile char input[INPUT_QUEUE]; /* also the channel readers sleep on */
static volatile uint32_t input_head, input_tail; /* free-running; tail - head = queued */
static unsigned overruns;

/* Runs in the COM1 interrupt handler. */
static void console_received(uint8_t byte)
{
    if (input_tail - input_head == INPUT_QUEUE) {
        overruns++;
        return;
    }
    input[input_tail % INPUT_QUEUE] = (char)byte;
    input_tail++;
    wake_up((const void *)input);
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
    unsigned long flags = arch_irq_save();
    int c = -1;
    if (input_head != input_tail) {
        c = (unsigned char)input[input_head % INPUT_QUEUE];
        input_head++;
    }
    arch_irq_restore(flags);
    return c;
}

int console_wait_input(uint64_t timeout_ns)
{
    unsigned long flags = arch_irq_save();
    int err = 0;
    if (input_head == input_tail)
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
        console_wait_input(0);
    }
}

unsigned console_input_overruns(void) { return overruns; }
