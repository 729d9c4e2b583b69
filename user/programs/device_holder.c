/*
 * device_holder.c - a program that takes everything a user-space driver can hold of a
 * device and is then killed holding it (tests/shell/holder_killed.script, issue 23): edu's
 * registers mapped through resource0, its /dev/uioN open (edu given to uio_pci_generic
 * first), and pci-testdev's ports through ioperm. The next program must find the device,
 * the ports and the kernel as usable as before.
 *
 * Usage: device_holder      (as root; prints "device_holder: holding" and waits for its
 *                            end, touching the registers and the ports now and then)
 * Exit status: 1 with a message when it cannot take something.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/io.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define EDU "/sys/bus/pci/devices/0000:00:04.0"

static int fail(const char *what)
{
    printf("device_holder: %s: %s\n", what, strerror(errno));
    return 1;
}

int main(void)
{
    int bar = open(EDU "/resource0", O_RDWR);
    if (bar < 0)
        return fail("open resource0");
    volatile uint32_t *regs = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, bar, 0);
    if (regs == MAP_FAILED)
        return fail("mmap resource0");
    int uio = open("/dev/uio0", O_RDWR);
    if (uio < 0)
        return fail("open /dev/uio0");
    if (ioperm(0xc000, 0x100, 1) != 0)
        return fail("ioperm");
    printf("device_holder: holding (id 0x%08x, pci-testdev width %u)\n", regs[0], inb(0xc001));
    fflush(stdout);
    static const struct timespec ms = { 0, 1000000 };
    for (uint32_t i = 0;; i++) {
        regs[1] = i; /* liveness: traced while mmiotrace is current */
        (void)inb(0xc001);
        nanosleep(&ms, 0);
    }
}
