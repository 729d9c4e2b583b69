/*
 * console.c - the console on COM1.
 *
 * Input arrives by interrupt, one byte at a time, into a queue; the shell takes bytes out,
 * sleeping (hlt) while it is empty. Output is written straight to the UART, so it reaches
 * the terminal even when interrupts are off or the kernel is crashing.
 */
#include "kernel/console.h"

#include <stdint.h>

#include "drivers/serial/uart16550.h"
#include "kernel/arch.h"
#include "kernel/background.h"
#include "kernel/printk.h"

#define INPUT_QUEUE 256 /* a power of two */

static volatile char input[INPUT_QUEUE];
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

char console_getc(void)
{
    for (;;) {
        int c = console_trygetc();
        if (c >= 0)
            return (char)c;
        if (background_idle())
            continue; /* did some work: look for input again before sleeping */
        /* Check again with interrupts off, so a byte arriving now cannot be missed. */
        arch_irq_save();
        if (input_head == input_tail)
            arch_wait_for_interrupt();
        else
            arch_irq_enable();
    }
}

unsigned console_input_overruns(void) { return overruns; }
