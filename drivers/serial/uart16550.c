/*
 * uart16550.c - programs a 16550 UART and moves bytes through it.
 */
#include "kernel/init.h"
#include "kernel/log/ipc_logging.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "drivers/serial/uart16550.h"

#include "arch/x86/cpu.h"
#include "arch/x86/trap.h"

#define REG_DATA 0        /* receive/transmit holding; divisor low when DLAB=1 */
#define REG_IER 1         /* interrupt enable; divisor high when DLAB=1 */
#define REG_FCR 2         /* FIFO control (write) */
#define REG_IIR 2         /* interrupt identification (read): bits 7-6 say the FIFOs are on */
#define REG_LCR 3
#define REG_MCR 4
#define REG_LSR 5
#define REG_SCRATCH 7
#define LCR_DLAB 0x80
#define LCR_8N1 0x03
#define FCR_ENABLE_CLEAR 0x07
#define MCR_DTR_RTS_OUT2 0x0b /* OUT2 gates the UART's interrupt line on a PC */
#define LSR_DATA_READY 0x01
#define LSR_THR_EMPTY 0x20
#define IER_RX_AVAILABLE 0x01
#define IIR_FIFOS_ON 0xc0
#define FIFO_DEPTH_16550A 16
#define MAX_UARTS 4
#define BAUD_DIVISOR_115200 1

static uint16_t rx_port;
static void (*rx_callback)(uint8_t);

/* Per port uart_init found: the bytes the transmitter takes at once when it says it is
 * empty (16 on a 16550A, whose FIFOs are on; 1 on an older UART: an 8250 or 16450 has no
 * FIFO, a 16550 without the A a broken one), written once at boot before anything writes;
 * and the lock of its writers. Two CPUs that both saw the FIFO empty would put 32 bytes
 * into its 16, and lose 16: the console has writers that hold no other lock (printk
 * beside a program's terminal output). */
struct uart_port {
    uint16_t port;
    uint8_t depth;
    struct spinlock lock;
};
static struct uart_port ports[MAX_UARTS] = {
    { .lock = SPINLOCK_INIT("uart") }, { .lock = SPINLOCK_INIT("uart") },
    { .lock = SPINLOCK_INIT("uart") }, { .lock = SPINLOCK_INIT("uart") },
};

/* port's entry in ports; NULL for a port uart_init never found. */
static struct uart_port *port_of(uint16_t port)
{
    for (int i = 0; i < MAX_UARTS; i++)
        if (ports[i].port == port)
            return &ports[i];
    return 0;
}

/* Records port, found by uart_init, with its FIFO depth. */
static void remember_port(uint16_t port, unsigned depth)
{
    for (int i = 0; i < MAX_UARTS; i++)
        if (ports[i].port == port || ports[i].port == 0) {
            ports[i].port = port;
            ports[i].depth = (uint8_t)depth;
            return;
        }
}

bool uart_init(uint16_t port)
{
    /* The scratch register holds what we write only if a UART is there. */
    outb(port + REG_SCRATCH, 0x5a);
    if (inb(port + REG_SCRATCH) != 0x5a)
        return false;
    outb(port + REG_IER, 0);
    outb(port + REG_LCR, LCR_DLAB);
    outb(port + REG_DATA, BAUD_DIVISOR_115200);
    outb(port + REG_IER, 0);
    outb(port + REG_LCR, LCR_8N1);
    outb(port + REG_FCR, FCR_ENABLE_CLEAR);
    outb(port + REG_MCR, MCR_DTR_RTS_OUT2);
    bool fifos_on = (inb(port + REG_IIR) & IIR_FIFOS_ON) == IIR_FIFOS_ON;
    remember_port(port, fifos_on ? FIFO_DEPTH_16550A : 1);
    return true;
}

/*
 * Sends len bytes (len > 0) from data to port, a burst of up to depth bytes each time LSR
 * says the transmitter is empty (THRE: with the FIFO on, the whole FIFO is), each burst one
 * `rep outsb`. Written out in assembly because it is the inner loop of every export to
 * COM2 (the binary capture's cost per byte is mostly here). A full burst costs the status
 * read and its test (3 instructions), switching DX between the two registers (2), the
 * count and what is left (3), the `rep outsb` (one instruction per byte) and the loop's
 * jump: 9 beside the 16 bytes, where the compiler's loop took 12; the last, shorter burst
 * takes 3 more.
 */
static void send_bursts(uint16_t port, const void *data, size_t len, uint32_t depth)
{
    uint32_t lsr = port + REG_LSR, data_port = port + REG_DATA;
    __asm__ volatile("1:\n\t"
                     "movl %[lsr], %%edx\n"
                     "2:\n\t"
                     "inb %%dx, %%al\n\t"
                     "testb %[thre], %%al\n\t"
                     "jz 2b\n\t"
                     "movl %[data_port], %%edx\n\t"
                     "movl %[depth], %%ecx\n\t"
                     "subl %%ecx, %[len]\n\t"
                     "jbe 3f\n\t"   /* this burst is the last */
                     "rep outsb\n\t"
                     "jmp 1b\n"
                     "3:\n\t"
                     "addl %[len], %%ecx\n\t" /* depth + (len - depth): what was left */
                     "rep outsb"
                     : "+S"(data), [len] "+r"(len)
                     : [lsr] "rm"(lsr), [data_port] "rm"(data_port), [depth] "rm"(depth),
                       [thre] "i"(LSR_THR_EMPTY)
                     : "eax", "ecx", "edx", "cc", "memory");
}

/* One writer at a time per port, so that a write is never cut by another's bytes; once
 * smp_stop_others has run (a panic), the one CPU left writes without the lock, which a
 * stopped CPU may hold forever. */
void uart_write_two(uint16_t port, const void *data, size_t len, const void *more,
                    size_t more_len)
{
    struct uart_port *f = port_of(port);
    unsigned depth = f ? f->depth : 1;
    bool locking = f && !smp_stop_requested();
    unsigned long flags = locking ? spin_lock_irqsave(&f->lock) : 0;
    if (len)
        send_bursts(port, data, len, depth);
    if (more_len)
        send_bursts(port, more, more_len, depth);
    if (locking)
        spin_unlock_irqrestore(&f->lock, flags);
}

void uart_write(uint16_t port, const char *data, size_t len)
{
    uart_write_two(port, data, len, 0, 0);
}

/* The serial driver's IPC log (ipc_logging/serial/): bytes received, with their line status
 * (not bytes sent: every trace line the COM2 stream exports would double its cost). NULL
 * until the heap exists (an earlier byte is not logged). */
struct ipc_log_context *serial_log;

/* Drains the receive FIFO: one interrupt may stand for several bytes. */
static void uart_rx_interrupt(void)
{
    uint8_t lsr;
    while ((lsr = inb(rx_port + REG_LSR)) & LSR_DATA_READY) {
        uint8_t byte = inb(rx_port + REG_DATA);
        IPC_LOG(serial_log, "port %#x rx %#04x lsr %#04x", rx_port, byte, lsr);
        rx_callback(byte);
    }
}

static void serial_log_init(void) { serial_log = ipc_log_context_create(4, "serial", 0); }
INITCALL(device, serial_log_init);

void uart_enable_rx_interrupt(uint16_t port, int irq, void (*on_byte)(uint8_t))
{
    rx_port = port;
    rx_callback = on_byte;
    irq_set_handler(irq, uart_rx_interrupt);
    outb(port + REG_IER, IER_RX_AVAILABLE);
    uart_rx_interrupt(); /* bytes that arrived before we listened */
}
