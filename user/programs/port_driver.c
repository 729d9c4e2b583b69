/*
 * port_driver.c - a user-space driver of pci-testdev's I/O BAR (the header its tests are
 * described by, QEMU's hw/misc/pci-testdev.c), through ioperm and in/out as a Linux program
 * would do it: for the port tracing of mmiotrace's extension (tests/shell/port_trace.script,
 * docs/mmiotrace.md section 12), where every access must come out as an IN or OUT line
 * with this program's pid, equal to what QEMU's port model received.
 *
 * Usage: port_driver           (finds pci-testdev in /sys/bus/pci/devices, and its I/O BAR's
 *                              first port in the device's resource file, as on Linux)
 *
 * Selects each of the BAR's tests in turn (outb to TEST), reads its WIDTH (inb), OFFSET
 * (inl), DATA (inw and inw) and its name (rep insb, one port read 16 times: the name's first
 * character each time, as the device serves it), and prints one line per test. Then sends
 * two selections at once with rep outsb. The output is the same traced or not: the tracing
 * does each access for the program, it does not change them.
 * The same static binary runs on Linux 6.1 i686 and prints the same lines
 * (tools/compare/abi_diff.sh port_driver).
 * Exit status: 0; 1 when the device is not found or ioperm is refused (not root).
 */
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>
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

/* The text of a sysfs file of device directory dir, NUL-terminated; its length or -1. */
static int read_file(const char *dir, const char *file, char *text, int size)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    int n = (int)read(fd, text, (size_t)size - 1);
    close(fd);
    if (n < 0)
        return -1;
    text[n] = '\0';
    return n;
}

/* The first port of pci-testdev's BAR 1 (the second line of its resource file: "start end
 * flags"), or 0 when there is no such device or the BAR is not I/O space (flag 0x100). */
static uint16_t find_io_bar(void)
{
    DIR *d = opendir("/sys/bus/pci/devices");
    struct dirent *e;
    uint16_t base = 0;
    while (d && !base && (e = readdir(d)) != 0) {
        char dir[300], text[1024];
        snprintf(dir, sizeof dir, "/sys/bus/pci/devices/%s", e->d_name);
        if (e->d_name[0] == '.' || read_file(dir, "vendor", text, sizeof text) < 0 ||
            strtoul(text, 0, 16) != 0x1b36 || read_file(dir, "device", text, sizeof text) < 0 ||
            strtoul(text, 0, 16) != 0x0005 || read_file(dir, "resource", text, sizeof text) < 0)
            continue;
        char *line = strchr(text, '\n');
        if (!line)
            continue;
        char *end;
        unsigned long start = strtoul(line + 1, &end, 16);
        strtoul(end, &end, 16);
        unsigned long flags = strtoul(end, 0, 16);
        if ((flags & 0x100) && start && start < 0x10000)
            base = (uint16_t)start;
    }
    if (d)
        closedir(d);
    return base;
}

int main(void)
{
    uint16_t base = find_io_bar();
    if (!base) {
        printf("port_driver: no pci-testdev with an I/O BAR 1 in /sys/bus/pci/devices\n");
        return 1;
    }
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
