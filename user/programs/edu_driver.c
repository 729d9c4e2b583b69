/*
 * edu_driver.c - a user-space driver for QEMU's edu device (hw/misc/edu.c), written only
 * against Linux's interfaces, the way one is written on Linux with uio_pci_generic
 * (Documentation/driver-api/uio-howto.rst): the device found in sysfs, bound to
 * uio_pci_generic through new_id, its registers through an mmap of resource0, its
 * interrupt through /dev/uioN, its command register through the config file, and DMA to
 * and from two locked pages whose frames /proc/self/pagemap gives. The same static binary
 * runs on tracekern and on Linux 6.1 i686 and prints the same lines
 * (tools/compare/abi_diff.sh edu_driver; docs/device-models.md).
 *
 * Usage: edu_driver      (as root)
 * Prints "edu_driver: ..." lines; exit status 0 when every step worked, 1 at the first that
 * did not (its line says which and why).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define EDU_VENDOR 0x1234
#define EDU_DEVICE 0x11e8
#define BAR0_SIZE 0x100000

/* edu's registers (offsets in BAR 0) */
#define REG_ID 0x00
#define REG_LIVENESS 0x04
#define REG_IRQ_STATUS 0x24
#define REG_IRQ_RAISE 0x60
#define REG_IRQ_ACK 0x64
#define REG_DMA_SRC 0x80
#define REG_DMA_DST 0x88
#define REG_DMA_COUNT 0x90
#define REG_DMA_CMD 0x98
#define DMA_START 1u
#define DMA_TO_RAM 2u       /* direction: device to RAM */
#define EDU_DMA_BUFFER 0x40000u
#define DMA_BYTES 256u

#define PCI_COMMAND 0x04
#define COMMAND_MASTER 0x0004u
#define COMMAND_INTX_DISABLE 0x0400u

static char dev_dir[300]; /* /sys/bus/pci/devices/DDDD:BB:DD.F */
static const char *dev_name;
static volatile uint32_t *regs;

/* The last component of a path ("edu" for "../../drivers/edu"). */
static const char *last_component(const char *path)
{
    const char *last = path;
    for (const char *p = path; *p; p++)
        if (*p == '/')
            last = p + 1;
    return last;
}

/* Prints why a step failed and ends the program. */
static void fail(const char *what)
{
    printf("edu_driver: %s: %s\n", what, strerror(errno));
    exit(1);
}

/* The number a sysfs file holds ("0x1234\n"), or -1. */
static long read_number(const char *dir, const char *file)
{
    char path[400], text[32];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0)
        return -1;
    text[n] = '\0';
    return strtol(text, 0, 16);
}

/* Writes text to a sysfs file; 0, or -1 with errno. */
static int write_text(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    int err = errno;
    close(fd);
    errno = err;
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Finds the first edu in /sys/bus/pci/devices. */
static void find_device(void)
{
    DIR *d = opendir("/sys/bus/pci/devices");
    if (!d)
        fail("opendir /sys/bus/pci/devices");
    struct dirent *e;
    while ((e = readdir(d)) != 0) {
        if (e->d_name[0] == '.')
            continue;
        char dir[300];
        snprintf(dir, sizeof dir, "/sys/bus/pci/devices/%s", e->d_name);
        if (read_number(dir, "vendor") == EDU_VENDOR && read_number(dir, "device") == EDU_DEVICE) {
            snprintf(dev_dir, sizeof dev_dir, "%s", dir);
            dev_name = dev_dir + strlen("/sys/bus/pci/devices/");
            closedir(d);
            printf("edu_driver: edu at %s\n", dev_name);
            return;
        }
    }
    closedir(d);
    errno = ENODEV;
    fail("no edu device in /sys/bus/pci/devices");
}

/* The name of the driver bound to the device ("" if none). */
static void bound_driver(char *name, size_t size)
{
    char path[400], target[300];
    snprintf(path, sizeof path, "%s/driver", dev_dir);
    ssize_t n = readlink(path, target, sizeof target - 1);
    name[0] = '\0';
    if (n <= 0)
        return;
    target[n] = '\0';
    snprintf(name, size, "%s", last_component(target));
}

/* Unbinds the device from whatever has it and gives it to uio_pci_generic (new_id binds
 * every unbound device it matches; if the id was added already, bind does it). */
static void bind_to_uio(void)
{
    char driver[64], path[400];
    bound_driver(driver, sizeof driver);
    if (strcmp(driver, "uio_pci_generic") == 0)
        return;
    if (driver[0]) {
        snprintf(path, sizeof path, "%s/driver/unbind", dev_dir);
        if (write_text(path, dev_name) != 0)
            fail("unbind");
    }
    if (write_text("/sys/bus/pci/drivers/uio_pci_generic/new_id", "1234 11e8") != 0 &&
        errno != EEXIST)
        fail("new_id");
    bound_driver(driver, sizeof driver);
    if (strcmp(driver, "uio_pci_generic") != 0 &&
        write_text("/sys/bus/pci/drivers/uio_pci_generic/bind", dev_name) != 0)
        fail("bind");
    printf("edu_driver: bound to uio_pci_generic\n");
}

/* Opens /dev/uioN, the one whose /sys/class/uio/uioN/device is our device. */
static int open_uio(void)
{
    DIR *d = opendir("/sys/class/uio");
    if (!d)
        fail("opendir /sys/class/uio");
    struct dirent *e;
    int fd = -1;
    while (fd < 0 && (e = readdir(d)) != 0) {
        char path[300], target[300];
        if (strncmp(e->d_name, "uio", 3) != 0)
            continue;
        snprintf(path, sizeof path, "/sys/class/uio/%s/device", e->d_name);
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n <= 0)
            continue;
        target[n] = '\0';
        if (strcmp(last_component(target), dev_name) != 0)
            continue;
        snprintf(path, sizeof path, "/dev/%s", e->d_name);
        fd = open(path, O_RDWR);
        if (fd < 0)
            fail(path);
    }
    closedir(d);
    if (fd < 0) {
        errno = ENODEV;
        fail("no /sys/class/uio entry for the device");
    }
    return fd;
}

static int config_fd = -1; /* the device's config file, open for the whole run */

/* The command register, read from the device through the config file (each read reads the
 * device again, as on Linux). */
static uint16_t command(void)
{
    uint16_t cmd;
    if (config_fd < 0) {
        char path[400];
        snprintf(path, sizeof path, "%s/config", dev_dir);
        config_fd = open(path, O_RDWR);
    }
    if (config_fd < 0 || lseek(config_fd, PCI_COMMAND, SEEK_SET) != PCI_COMMAND ||
        read(config_fd, &cmd, 2) != 2)
        fail("read the command register");
    return cmd;
}

/* The command register through the config file: new = (old & ~clear) | set, both bytes
 * written at offset 4 (QEMU 7.2 looks at its INTx line again only for a write that covers
 * byte 4: the UIO documentation's one-byte write at offset 5 can leave the line stuck). */
static void change_command(uint16_t set, uint16_t clear)
{
    uint16_t cmd = (uint16_t)((command() & ~clear) | set);
    if (lseek(config_fd, PCI_COMMAND, SEEK_SET) != PCI_COMMAND || write(config_fd, &cmd, 2) != 2)
        fail("write the command register");
}

/* The physical address of the page at va, from /proc/self/pagemap (root sees frames). */
static uint32_t physical(const void *va)
{
    int fd = open("/proc/self/pagemap", O_RDONLY);
    uint64_t entry;
    off_t at = (off_t)((uintptr_t)va / 4096 * 8);
    if (fd < 0 || lseek(fd, at, SEEK_SET) != at || read(fd, &entry, 8) != 8)
        fail("read /proc/self/pagemap");
    close(fd);
    if (!(entry >> 63) || !(entry & ((1ull << 55) - 1))) {
        errno = EFAULT;
        fail("pagemap: page not present or no frame shown");
    }
    return (uint32_t)((entry & ((1ull << 55) - 1)) * 4096);
}

/* One DMA transfer of DMA_BYTES, started and waited for: edu moves the bytes 100 ms
 * (QEMU's virtual clock) after the start, so the command register is looked at once a
 * millisecond, for up to two seconds. */
static void dma(uint32_t src, uint32_t dst, uint32_t cmd)
{
    static const struct timespec ms = { 0, 1000000 };
    regs[REG_DMA_SRC / 4] = src;
    regs[REG_DMA_SRC / 4 + 1] = 0;
    regs[REG_DMA_DST / 4] = dst;
    regs[REG_DMA_DST / 4 + 1] = 0;
    regs[REG_DMA_COUNT / 4] = DMA_BYTES;
    regs[REG_DMA_CMD / 4] = cmd | DMA_START;
    for (int polls = 0; regs[REG_DMA_CMD / 4] & DMA_START; polls++) {
        if (polls > 2000) {
            errno = ETIMEDOUT;
            fail("DMA did not finish");
        }
        nanosleep(&ms, 0);
    }
}

int main(void)
{
    find_device();
    bind_to_uio();
    char path[400];
    snprintf(path, sizeof path, "%s/resource0", dev_dir);
    int bar = open(path, O_RDWR);
    if (bar < 0)
        fail("open resource0");
    regs = mmap(0, BAR0_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, bar, 0);
    if (regs == MAP_FAILED)
        fail("mmap resource0");
    printf("edu_driver: id 0x%08x\n", regs[REG_ID / 4]);
    regs[REG_LIVENESS / 4] = 0x12345678;
    printf("edu_driver: liveness 0x12345678 -> 0x%08x\n", regs[REG_LIVENESS / 4]);

    /* One interrupt: unmasked in the command register (uio_pci_generic masks INTx at
     * probe and in its handler), raised by the device, seen through /dev/uioN. */
    int uio = open_uio();
    change_command(COMMAND_MASTER, COMMAND_INTX_DISABLE);
    regs[REG_IRQ_RAISE / 4] = 1;
    uint32_t count;
    if (read(uio, &count, 4) != 4)
        fail("read /dev/uio");
    printf("edu_driver: interrupt seen (status 0x%x), INTx masked by the handler: %s\n",
           regs[REG_IRQ_STATUS / 4], (command() & COMMAND_INTX_DISABLE) ? "yes" : "no");
    regs[REG_IRQ_ACK / 4] = 1;
    change_command(0, COMMAND_INTX_DISABLE); /* the handler masked it: unmask for the next */

    /* DMA: 256 bytes from a locked page to the device's buffer and back to another. */
    uint8_t *pages = mmap(0, 2 * 4096, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED | MAP_POPULATE, -1, 0);
    if (pages == MAP_FAILED)
        fail("mmap two locked pages");
    for (unsigned i = 0; i < DMA_BYTES; i++)
        pages[i] = (uint8_t)(i * 7 + 3);
    dma(physical(pages), EDU_DMA_BUFFER, 0);
    dma(EDU_DMA_BUFFER, physical(pages + 4096), DMA_TO_RAM);
    printf("edu_driver: DMA of %u bytes to the device and back: %s\n", DMA_BYTES,
           memcmp(pages, pages + 4096, DMA_BYTES) == 0 ? "same bytes" : "DIFFERENT");
    munmap((void *)regs, BAR0_SIZE);
    close(bar);
    close(uio);
    close(config_fd);
    return 0;
}
