/*
 * port_driver.c - a user-space driver of pci-testdev's I/O BAR (the header its tests are
 * described by, QEMU's hw/misc/pci-testdev.c), through ioperm and in/out as a Linux program
 * would do it: for the port tracing of mmiotrace's extension (tests/shell/port_trace.script,
 * docs/mmiotrace.md section 12), where every access must come out as an IN or OUT line
 * with this program's pid, equal to what QEMU's port model received.
 *
 * Usage: port_driver BASE      BASE: the I/O BAR's first port, in hex (resource1's start)
 *
 * Selects each of the BAR's tests in turn (outb to TEST), reads its WIDTH (inb), OFFSET
 * (inl), DATA (inw and inw) and its name (rep insb, one port read 16 times: the name's first
 * character each time, as the device serves it), and prints one line per test. Then sends
 * two selections at once with rep outsb. The output is the same traced or not: the tracing
 * does each access for the program, it does not change them.
 * Exit status: 0; 1 when ioperm is refused (not root).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>

#define TEST 0x00
#define WIDTH 0x01
#define OFFSET 0x04
#define DATA 0x08
#define NAME 0x10

/* count bytes from port into buf, one `rep insb` */
static void insb_rep(uint16_t port, void *buf, uint32_t count)
{
    __asm__ volatile("rep insb" : "+D"(buf), "+c"(count) : "d"(port) : "memory");
}

/* count bytes from buf to port, one `rep outsb` */
static void outsb_rep(uint16_t port, const void *buf, uint32_t count)
{
    __asm__ volatile("rep outsb" : "+S"(buf), "+c"(count) : "d"(port) : "memory");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: port_driver BASE\n");
        return 2;
    }
    uint16_t base = (uint16_t)strtoul(argv[1], 0, 16);
    if (ioperm(base, 0x100, 1) != 0) {
        printf("port_driver: ioperm 0x%x: %s\n", base, strerror(errno));
        return 1;
    }
    for (uint8_t test = 0; test < 8; test++) {
        outb(test, base + TEST);
        uint8_t width = inb(base + WIDTH);
        if (width == 0)
            break; /* no such test */
        uint32_t offset = inl(base + OFFSET);
        uint32_t data = inw(base + DATA) | (uint32_t)inw(base + DATA + 2) << 16;
        char name[17] = { 0 };
        insb_rep(base + NAME, name, 16);
        printf("port_driver: test %u width %u offset 0x%x data 0x%x name[0] '%c'\n", test, width,
               offset, data, name[0]);
    }
    static const uint8_t selections[2] = { 2, 0 };
    outsb_rep(base + TEST, selections, 2);
    printf("port_driver: selected test %u\n", inb(base + TEST));
    return 0;
}
