/*
 * com2_stream.h - the byte stream from the kernel to the host on COM2.
 */
#ifndef DRIVERS_SERIAL_COM2_STREAM_H
#define DRIVERS_SERIAL_COM2_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Sends bytes unchanged; does nothing when the machine has no COM2. Safe from any context
 * that may take a spinlock with interrupts off. */
void com2_write(const char *data, size_t len);
/* data, then more (more_len may be 0), as one write: nothing else's bytes come between. */
void com2_write_two(const void *data, size_t len, const void *more, size_t more_len);
/* Held while bytes go out; a crash dump skips it (com2_stream.c). Exposed for the crash
 * test that holds it while another CPU panics (tests/guest/st_smp.c). */
extern struct spinlock com2_lock;
bool com2_present(void);
/* Bytes sent since boot (the export benchmark measures with it). */
uint64_t com2_bytes_sent(void);

#endif
