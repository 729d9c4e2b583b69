/*
 * com2_stream.c - COM2, the second serial port: a one-way stream to the host.
 *
 * The host captures COM2 into a file (make run: build/com2.txt; make trace:
 * OUT/trace_pipe.txt) while COM1 stays the interactive console. The tracing core streams
 * trace_pipe here; anything else can reach the file through /dev/ttyS1 (as on Linux, the
 * second port), e.g. `echo "run 1 starts" > /dev/ttyS1`. Bytes go out unchanged: the file on
 * the host gets exactly what was written, with Unix newlines.
 */
#include "drivers/serial/com2_stream.h"

#include "drivers/serial/uart16550.h"
#include "kernel/proc/cred.h"
#include "kernel/init.h"
#include "kernel/log/printk.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/fs/fs_tree.h"

static bool present;
static uint64_t bytes_sent;
struct spinlock com2_lock = SPINLOCK_INIT("com2");

bool com2_present(void) { return present; }

uint64_t com2_bytes_sent(void) { return bytes_sent; }

/* Once smp_stop_others has run (a panic, halt), the one CPU still running writes without
 * the lock: a CPU stopped by the NMI may hold it (CPU 0 streaming trace_pipe when another
 * CPU crashed) and will never give it back; the crash dump must not wait for it. */
void com2_write_two(const void *data, size_t len, const void *more, size_t more_len)
{
    if (!present)
        return;
    bool locking = !smp_stop_requested();
    unsigned long flags = 0;
    if (locking)
        flags = spin_lock_irqsave(&com2_lock);
    uart_write_two(COM2, data, len, more, more_len);
    bytes_sent += len + more_len;
    if (locking)
        spin_unlock_irqrestore(&com2_lock, flags);
}

void com2_write(const char *data, size_t len) { com2_write_two(data, len, 0, 0); }

static int write_ttys1(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)f;
    (void)append;
    com2_write(data, len);
    return 0;
}

static const struct fs_file_ops ttys1_ops = { .write = write_ttys1, .streams = true };

static void com2_init(void)
{
    present = uart_init(COM2);
    if (!present) {
        printk("serial: no UART at COM2 (%#x): no trace stream to the host\n", COM2);
        return;
    }
    /* crw-rw---- root dialout, as udev makes the serial ports. */
    fs_set_rdev(fs_set_mode(fs_create(fs_mkdir_path("dev"), "ttyS1", &ttys1_ops, 0), 0660, 0,
                            GID_DIALOUT),
                4, 65);
}
INITCALL(device, com2_init);
