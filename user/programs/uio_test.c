/*
 * uio_test.c - a user-space driver's side of uio_pci_generic (drivers/uio/), run by
 * tests/shell/uio.script as root with a device bound to uio_pci_generic, using only what
 * a program on Linux uses: /dev/uioN, /sys/class/uio/uioN and the device's config file.
 *
 * Usage: uio_test files N     /dev/uioN and its sysfs files; the refusals of bad sizes;
 *                             a blocking read a signal ends
 *        uio_test wait        blocks in read(/dev/uio0) until the device interrupts (the
 *                             script makes edu raise one), then checks that the handler
 *                             masked INTx in the command register, unmasks it through
 *                             config, and sees the interrupt edu still asserts come back
 *                             through poll, select and read; other openers count alone
 *        uio_test hold        blocks in read(/dev/uio0) while the script unbinds the
 *                             device: EIO, and the dead file's write and poll
 *        uio_test noirq N     /dev/uioN of a device without an interrupt: EIO
 * Check lines as tracekern/check.h prints them, then "uio_test: P passed, F failed".
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <tracekern/check.h>
#include <unistd.h>

#define UIO_MAJOR 254             /* what /sys/class/uio/uioN/dev says here */
#define COMMAND 4                 /* the command register's offset in config space */
#define INTX_DISABLE 0x0400       /* its bit 10 */
#define STATUS_INTERRUPT 0x0008   /* the status register's (offset 6) bit 3 */
#define CONFIG "/sys/class/uio/uio0/device/config"

/* Reads path's first line (newline dropped) into buf; false if it cannot. */
static bool read_line(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    char *nl = strchr(buf, '\n');
    if (nl)
        *nl = '\0';
    return true;
}

/* Checks that path's first line is want. */
static void check_file(const char *path, const char *want)
{
    char got[128], what[200];
    bool ok = read_line(path, got, sizeof got);
    snprintf(what, sizeof what, "%s reads \"%s\"", path, want);
    check_true(what, ok && strcmp(got, want) == 0);
    if (ok && strcmp(got, want) != 0)
        printf("#   got \"%s\"\n", got);
}

/* The command and status registers (offset 4, 4 bytes) through the config file; -1 if it
 * cannot. The file is opened for each look: this tree's config file keeps the bytes its
 * first read() rendered for later reads of the same open file (Linux reads the device at
 * every read), and the test wants what the device says now. */
static long command_and_status(void)
{
    uint8_t b[4];
    int fd = open(CONFIG, O_RDONLY);
    bool ok = fd >= 0 && lseek(fd, COMMAND, SEEK_SET) == COMMAND && read(fd, b, 4) == 4;
    if (fd >= 0)
        close(fd);
    if (!ok)
        return -1;
    return (long)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                  (uint32_t)b[3] << 24);
}

/* Clears Interrupt Disable through the config file, writing the whole command register
 * (2 bytes at offset 4). The UIO documentation's example writes only its high byte (1
 * byte at offset 5); QEMU before 8.0 looks at the INTx line again only when a write
 * covers byte 4, so after that one-byte write the line stays as the mask left it, and
 * the device's next acknowledgement drives it the wrong way (docs/uio.md). */
static bool unmask_through_config(void)
{
    long regs = command_and_status();
    if (regs < 0)
        return false;
    uint16_t command = (uint16_t)regs & (uint16_t)~INTX_DISABLE;
    uint8_t b[2] = { (uint8_t)command, (uint8_t)(command >> 8) };
    int fd = open(CONFIG, O_WRONLY);
    bool ok = fd >= 0 && lseek(fd, COMMAND, SEEK_SET) == COMMAND && write(fd, b, 2) == 2;
    if (fd >= 0)
        close(fd);
    return ok;
}

static volatile int alarms;
static void on_alarm(int sig)
{
    (void)sig;
    alarms++;
}

/* A blocking read that a signal ends: EINTR (Linux's -ERESTARTSYS, for a handler without
 * SA_RESTART). */
static void interrupted_read(int fd)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, 0);
    struct itimerval in_50ms = { { 0, 0 }, { 0, 50000 } };
    setitimer(ITIMER_REAL, &in_50ms, 0);
    uint32_t count;
    check_call("a blocking read ended by a signal", read(fd, &count, 4), EINTR);
    check_number("the signal's handler ran", alarms, 1);
}

/* /dev/uioN, its sysfs files, and the refusals of sizes other than 4. */
static void files(int n)
{
    char dev[32], dir[64], path[128], want[32];
    snprintf(dev, sizeof dev, "/dev/uio%d", n);
    snprintf(dir, sizeof dir, "/sys/class/uio/uio%d", n);
    struct stat st;
    check_call("stat /dev/uioN", stat(dev, &st), 0);
    check_true("/dev/uioN is a character device, mode 0600",
               (st.st_mode & 0170000) == 0020000 && (st.st_mode & 07777) == 0600);
    check_number("st_rdev is makedev(254, N)", (long long)st.st_rdev, (UIO_MAJOR << 8) | n);
    snprintf(path, sizeof path, "%s/name", dir);
    check_file(path, "uio_pci_generic");
    snprintf(path, sizeof path, "%s/version", dir);
    check_file(path, "0.01.0");
    snprintf(path, sizeof path, "%s/dev", dir);
    snprintf(want, sizeof want, "%d:%d", UIO_MAJOR, n);
    check_file(path, want);
    snprintf(path, sizeof path, "%s/event", dir);
    check_file(path, "0");
    char target[128];
    snprintf(path, sizeof path, "%s/device", dir);
    ssize_t len = readlink(path, target, sizeof target - 1);
    target[len > 0 ? len : 0] = '\0';
    check_true("uioN/device links to the PCI device", len > 0 && strncmp(target, "../../../0000:", 14) == 0);
    printf("# %s -> %s\n", path, target);
    len = readlink(dir, target, sizeof target - 1);
    target[len > 0 ? len : 0] = '\0';
    check_true("/sys/class/uio/uioN links into /sys/devices",
               len > 0 && strncmp(target, "../../devices/pci0000:00/", 25) == 0);
    printf("# %s -> %s\n", dir, target);

    int fd = open(dev, O_RDWR);
    check_call("open /dev/uioN", fd, 0);
    char buf[8] = { 0 };
    check_call("read of 3 bytes", read(fd, buf, 3), EINVAL);
    check_call("read of 8 bytes", read(fd, buf, 8), EINVAL);
    check_call("write of 2 bytes", write(fd, buf, 2), EINVAL);
    check_call("write of 4 bytes: no irqcontrol in uio_pci_generic", write(fd, buf, 4), ENOSYS);
    int nb = open(dev, O_RDONLY | O_NONBLOCK);
    check_call("read with O_NONBLOCK and no interrupt yet", read(nb, buf, 4), EAGAIN);
    struct pollfd p = { fd, POLLIN, 0 };
    check_call("poll without an interrupt: nothing ready", poll(&p, 1, 0), 0);
    interrupted_read(fd);
    close(nb);
    close(fd);
}

/* Blocks for the interrupt, then the masking and unmasking round. */
static void wait_for_interrupts(void)
{
    int a = open("/dev/uio0", O_RDWR);
    int b = open("/dev/uio0", O_RDONLY | O_NONBLOCK); /* opened before any interrupt */
    check_true("open /dev/uio0 twice", a >= 0 && b >= 0);
    check_true("Interrupt Disable cleared through config", unmask_through_config());
    long regs = command_and_status();
    check_true("command register: INTx enabled", regs >= 0 && !(regs & INTX_DISABLE));
    printf("uio_test: pid %d waiting for the interrupt\n", (int)getpid());
    fflush(stdout);

    uint32_t count = 0;
    check_call("read(/dev/uio0) returns when the device interrupts", read(a, &count, 4), 0);
    check_number("the interrupt count", count, 1);
    regs = command_and_status();
    check_true("the handler masked INTx (command bit 10 set)", regs >= 0 && (regs & INTX_DISABLE));
    check_true("the device still asserts it (status bit 3)",
               regs >= 0 && ((regs >> 16) & STATUS_INTERRUPT));
    int nb = open("/dev/uio0", O_RDONLY | O_NONBLOCK);
    check_call("a file opened after the interrupt has nothing to read", read(nb, &count, 4), EAGAIN);

    /* The device still asserts INTx (edu holds it until 0x64 is written): unmasking lets
     * it through again at once, and the handler masks it again. */
    check_true("Interrupt Disable cleared again through config", unmask_through_config());
    struct pollfd p = { a, POLLIN, 0 };
    check_call("poll sees the next interrupt", poll(&p, 1, 2000), 0);
    check_number("poll's revents: POLLIN (what was asked of POLLIN | POLLRDNORM)", p.revents, POLLIN);
    fd_set set;
    FD_ZERO(&set);
    FD_SET(a, &set);
    struct timeval tv = { 0, 0 };
    check_number("select says readable", select(a + 1, &set, 0, 0, &tv), 1);
    check_call("read after poll", read(a, &count, 4), 0);
    check_number("the interrupt count", count, 2);
    regs = command_and_status();
    check_true("masked again by the handler", regs >= 0 && (regs & INTX_DISABLE));
    check_call("the file opened first reads the count now", read(b, &count, 4), 0);
    check_number("its count", count, 2);
    check_call("and then has nothing more", read(b, &count, 4), EAGAIN);
    check_call("the file opened late sees the second interrupt", read(nb, &count, 4), 0);
    check_number("its count", count, 2);
    check_file("/sys/class/uio/uio0/event", "2");
    close(nb);
    close(b);
    close(a);
}

/* Blocks in read while the script unbinds the device. */
static void hold(void)
{
    int fd = open("/dev/uio0", O_RDWR);
    check_call("open /dev/uio0", fd, 0);
    printf("uio_test: holding /dev/uio0\n");
    fflush(stdout);
    uint32_t count;
    check_call("read while the device is unbound", read(fd, &count, 4), EIO);
    check_call("read again", read(fd, &count, 4), EIO);
    check_call("write on the dead file", write(fd, &count, 4), EINVAL);
    struct pollfd p = { fd, POLLIN, 0 };
    check_call("poll on the dead file", poll(&p, 1, 0), 0);
    check_true("poll says POLLERR and POLLHUP", (p.revents & (POLLERR | POLLHUP)) == (POLLERR | POLLHUP));
    struct stat st;
    check_call("/dev/uio0 is gone", stat("/dev/uio0", &st), ENOENT);
    close(fd);
}

/* A device without an interrupt line. */
static void noirq(int n)
{
    char dev[32];
    snprintf(dev, sizeof dev, "/dev/uio%d", n);
    int fd = open(dev, O_RDWR | O_NONBLOCK); /* a device with an interrupt: EAGAIN, no hang */
    check_call("open /dev/uioN of a device without INTx", fd, 0);
    uint32_t count;
    check_call("read: no interrupt to wait for", read(fd, &count, 4), EIO);
    check_call("write: no interrupt to control", write(fd, &count, 4), EIO);
    struct pollfd p = { fd, POLLIN, 0 };
    poll(&p, 1, 0);
    check_true("poll says POLLERR", (p.revents & POLLERR) != 0);
    close(fd);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int n = argc > 2 ? atoi(argv[2]) : 0;
    if (strcmp(mode, "files") == 0)
        files(n);
    else if (strcmp(mode, "wait") == 0)
        wait_for_interrupts();
    else if (strcmp(mode, "hold") == 0)
        hold();
    else if (strcmp(mode, "noirq") == 0)
        noirq(n);
    else {
        fprintf(stderr, "usage: uio_test files N | wait | hold | noirq N\n");
        return 2;
    }
    return check_summary("uio_test");
}
