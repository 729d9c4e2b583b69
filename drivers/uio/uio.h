/*
 * uio.h - Linux's UIO core (drivers/uio/uio.c): a device whose driver lives in a user
 * program. The kernel part only takes the device's interrupt and counts it; the program
 * waits for the count in /dev/uioN and does everything else itself.
 *
 * A kernel driver (uio_pci_generic.c) fills a struct uio_info and registers it. The core
 * then makes, as Linux 6.1 does:
 *   /dev/uioN          (N the lowest free number; character device UIO_MAJOR:N, 0600)
 *       read()   exactly 4 bytes: waits until the interrupt count differs from what this
 *                open file last returned, then returns the count (a 32-bit integer)
 *       write()  exactly 4 bytes: the driver's irqcontrol (1 unmask, 0 mask), ENOSYS when
 *                it has none
 *       poll()   POLLIN | POLLRDNORM while a count is waiting for this open file
 *   PARENT/uio/uioN/   in the parent device's sysfs directory, with
 *       name version   the driver's strings; event  the count; dev  "MAJOR:MINOR"
 *       device         -> the parent device's directory
 *   /sys/class/uio/uioN -> that directory
 * and takes the interrupt line: its handler asks the driver's handler whether the
 * interrupt was the device's, and if so counts it and wakes the readers and pollers.
 *
 * Unregistering removes all of it. A program that still holds /dev/uioN open keeps a dead
 * file: read and poll say EIO, write EINVAL (Linux's info == NULL), and the number is free
 * for the next device at once.
 *
 * Everything here runs under the big kernel lock (kernel/kernel_lock.h): the shell and
 * system calls hold it, and so do interrupt handlers registered with irq_set_handler.
 */
#ifndef DRIVERS_UIO_UIO_H
#define DRIVERS_UIO_UIO_H

#include <stdbool.h>
#include <stdint.h>

struct fs_node;
struct uio_device;

/* Linux hands UIO a dynamic major: find_dynamic_major starts at 254 and goes down, and
 * nothing else here asks for one. Programs read it from /sys/class/uio/uioN/dev. */
#define UIO_MAJOR 254
/* The minors st_rdev can hold here ((major << 8) | minor: kernel/fs/fs_tree.h). */
#define UIO_MAX_DEVICES 256

struct uio_info {
    const char *name;     /* sysfs name */
    const char *version;  /* sysfs version */
    unsigned irq;         /* the interrupt line (< IRQ_COUNT); 0: none (read, poll: EIO) */
    /* In the interrupt (kernel lock held, interrupts off): true when the interrupt was
     * the device's and is quieted (Linux's IRQ_HANDLED); false leaves it to others. */
    bool (*handler)(struct uio_info *info);
    /* write() of a 4-byte value; 0 or -errno. NULL: write is ENOSYS. */
    int (*irqcontrol)(struct uio_info *info, int32_t irq_on);
    /* Each close of /dev/uioN while registered (NULL: nothing to do). */
    void (*release)(struct uio_info *info);
    void *priv;           /* the driver's */
    struct uio_device *uio_dev; /* set by uio_register_device */
};

/* Registers info under the sysfs directory parent (the device's; named like
 * "0000:00:04.0"): 0, -ENOSPC (all numbers taken), -EBUSY (the line has another driver's
 * handler), -ENOMEM. On an error nothing is left behind. */
int uio_register_device(struct fs_node *parent, struct uio_info *info);

/* Undoes uio_register_device: the line's handler goes, the files go, open files turn dead
 * (EIO) and their blocked readers and pollers wake up. */
void uio_unregister_device(struct uio_info *info);

/* One more interrupt: the count goes up and readers and pollers wake (Linux's
 * uio_event_notify, for drivers that learn of events some other way). */
void uio_event_notify(struct uio_info *info);

/* The number N of /dev/uioN (tests and messages). */
unsigned uio_minor(const struct uio_info *info);

#endif
