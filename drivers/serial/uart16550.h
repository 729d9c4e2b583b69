/*
 * uart16550.h - the PC's 16550 serial ports: COM1 is the console, COM2 the trace stream.
 */
#ifndef DRIVERS_SERIAL_UART16550_H
#define DRIVERS_SERIAL_UART16550_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define COM1 0x3f8
#define COM2 0x2f8
#define COM1_IRQ 4

/* 115200 baud, 8N1, FIFOs on, interrupts off. Returns false if no UART answers at port. */
bool uart_init(uint16_t port);

/* Sends len bytes, waiting for room in the transmitter. One writer at a time (a lock per
 * port, not taken once a crash has stopped the other CPUs). */
void uart_write(uint16_t port, const char *data, size_t len);
/* Sends data, then more (more_len may be 0), as one write. */
void uart_write_two(uint16_t port, const void *data, size_t len, const void *more,
                    size_t more_len);

/* Turns on the received-data interrupt: on_byte(b) runs in the IRQ handler per byte. */
void uart_enable_rx_interrupt(uint16_t port, int irq, void (*on_byte)(uint8_t byte));

/* The serial driver's IPC log context (ipc_logging/serial/), NULL before the heap exists. */
struct ipc_log_context;
extern struct ipc_log_context *serial_log;

#endif
