/*
 * uio.c - the UIO core: /dev/uioN, its sysfs directory and the interrupt line (uio.h).
 *
 * A struct uio_device lives as long as anything points at it: one reference for being
 * registered and one per open /dev/uioN file, so a file that outlives the device still has
 * something to say EIO with. Its info is NULL once unregistered (Linux's idev->info).
 * Interrupt lines: handlers here take no argument, so each line gets its own small entry
 * (line_handlers[]) that walks the registered devices on that line. A line another driver
 * already has is refused (-EBUSY), as Linux's request_irq refuses a line whose handler
 * does not share.
 */
#include "drivers/uio/uio.h"

#include "arch/x86/trap.h"
#include "kernel/arch.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs_tree.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"
#include "kernel/proc/sched.h"
#include "kernel/trace_hooks.h"
#include "uapi/fs.h"
#include "uapi/syscall.h"

struct uio_device {
    struct uio_info *info;     /* NULL once unregistered */
    unsigned minor;
    uint32_t event;            /* interrupts counted: what read() returns */
    unsigned refs;             /* registered (1) + open files */
    struct fs_node *dev_node;  /* /dev/uioN */
    struct fs_node *dir;       /* PARENT/uio/uioN */
    struct fs_node *class_link; /* /sys/class/uio/uioN */
    struct uio_device *next;   /* registered devices */
};

/* One open /dev/uioN: the count it last returned (Linux's struct uio_listener). */
struct uio_listener {
    struct uio_device *dev;
    uint32_t event_count;
};

/* All under the big kernel lock (uio.h). */
static struct uio_device *registered;
static uint32_t minors_used[UIO_MAX_DEVICES / 32];

/* --- numbers and lifetime --------------------------------------------------------------- */

/* The lowest free minor, marked used; -ENOSPC when none is left. */
static int take_minor(void)
{
    for (unsigned m = 0; m < UIO_MAX_DEVICES; m++)
        if (!(minors_used[m / 32] & (1u << (m % 32)))) {
            minors_used[m / 32] |= 1u << (m % 32);
            return (int)m;
        }
    return -ENOSPC;
}

static void free_minor(unsigned m) { minors_used[m / 32] &= ~(1u << (m % 32)); }

/* Drops one reference; the last one frees the device. */
static void uio_put(struct uio_device *idev)
{
    if (--idev->refs == 0)
        kfree(idev);
}

unsigned uio_minor(const struct uio_info *info) { return info->uio_dev->minor; }

/* --- the interrupt ---------------------------------------------------------------------- */

void uio_event_notify(struct uio_info *info)
{
    struct uio_device *idev = info->uio_dev;
    __atomic_add_fetch(&idev->event, 1, __ATOMIC_RELAXED);
    wake_up(idev);
    file_poll_wake();
}

/* Line irq interrupted: every device registered on it whose driver says the interrupt was
 * its own is counted (Linux's uio_interrupt; the line may be shared). */
static void uio_interrupt(unsigned irq)
{
    for (struct uio_device *idev = registered; idev; idev = idev->next)
        if (idev->info->irq == irq && idev->info->handler(idev->info))
            uio_event_notify(idev->info);
}

#define LINE_ENTRY(n) static void uio_line_##n(void) { uio_interrupt(n); }
LINE_ENTRY(0) LINE_ENTRY(1) LINE_ENTRY(2) LINE_ENTRY(3) LINE_ENTRY(4) LINE_ENTRY(5)
LINE_ENTRY(6) LINE_ENTRY(7) LINE_ENTRY(8) LINE_ENTRY(9) LINE_ENTRY(10) LINE_ENTRY(11)
LINE_ENTRY(12) LINE_ENTRY(13) LINE_ENTRY(14) LINE_ENTRY(15)

/* The entry irq_set_handler gets for each line. */
_Static_assert(IRQ_COUNT == 16, "one LINE_ENTRY per interrupt line");
static const irq_handler_fn line_handlers[IRQ_COUNT] = {
    uio_line_0,  uio_line_1,  uio_line_2,  uio_line_3,  uio_line_4,  uio_line_5,
    uio_line_6,  uio_line_7,  uio_line_8,  uio_line_9,  uio_line_10, uio_line_11,
    uio_line_12, uio_line_13, uio_line_14, uio_line_15,
};

/* Whether a registered device other than except uses line irq. */
static bool line_in_use(unsigned irq, const struct uio_device *except)
{
    for (struct uio_device *idev = registered; idev; idev = idev->next)
        if (idev != except && idev->info->irq == irq)
            return true;
    return false;
}

/* --- /dev/uioN -------------------------------------------------------------------------- */

/* Linux's uio_open: a listener that has seen every interrupt so far. */
static int uio_open(struct fs_node *node, struct file *f)
{
    struct uio_device *idev = node->data;
    if (!idev || !idev->info)
        return -ENODEV;
    struct uio_listener *l = kzalloc(sizeof *l);
    if (!l)
        return -ENOMEM;
    l->dev = idev;
    l->event_count = idev->event;
    idev->refs++;
    f->private_data = l;
    return 0;
}

/* Linux's uio_release: the driver's release while registered (uio_pci_generic turns bus
 * mastering off), then the listener goes. */
static void uio_release(struct file *f)
{
    struct uio_listener *l = f->private_data;
    struct uio_device *idev = l->dev;
    if (idev->info && idev->info->release)
        idev->info->release(idev->info);
    kfree(l);
    uio_put(idev);
}

/*
 * Linux's uio_read: 4 bytes or EINVAL; EIO once the device is gone (or has no interrupt);
 * else waits for a count this file has not returned yet (EAGAIN with O_NONBLOCK; EINTR
 * when a signal comes, as the tree's other interruptible sleeps end). The count is tested
 * and the sleep begun with interrupts off, so an interrupt between them is not missed.
 * mmiotrace's extension records IRQ_SEEN (the reader's pid, the count) when a count
 * reaches the program: that is when the user-space driver learns of the interrupt.
 */
static long uio_read(struct file *f, void *buf, size_t len)
{
    struct uio_listener *l = f->private_data;
    struct uio_device *idev = l->dev;
    if (len != sizeof(uint32_t))
        return -EINVAL;
    unsigned long flags = arch_irq_save();
    long ret;
    unsigned irq = 0;
    uint32_t count = 0;
    for (;;) {
        if (!idev->info || !idev->info->irq) {
            ret = -EIO;
            break;
        }
        irq = idev->info->irq;
        count = __atomic_load_n(&idev->event, __ATOMIC_RELAXED);
        if (count != l->event_count) {
            memcpy(buf, &count, sizeof count);
            l->event_count = count;
            ret = sizeof count;
            break;
        }
        if (f->flags & O_NONBLOCK) {
            ret = -EAGAIN;
            break;
        }
        int err = sleep_on(idev, 0);
        if (err) {
            ret = err;
            break;
        }
    }
    arch_irq_restore(flags);
    if (ret > 0)
        trace_device_irq(TRACE_DEVICE_IRQ_SEEN, irq, count);
    return ret;
}

/* Linux's uio_write: 4 bytes or EINVAL; EINVAL once the device is gone, EIO without an
 * interrupt, ENOSYS when the driver has no irqcontrol (uio_pci_generic: the program
 * unmasks through the config file instead). */
static long uio_write(struct file *f, const void *data, size_t len)
{
    struct uio_listener *l = f->private_data;
    struct uio_info *info = l->dev->info;
    if (len != sizeof(int32_t))
        return -EINVAL;
    if (!info)
        return -EINVAL;
    if (!info->irq)
        return -EIO;
    if (!info->irqcontrol)
        return -ENOSYS;
    int32_t irq_on;
    memcpy(&irq_on, data, sizeof irq_on);
    int err = info->irqcontrol(info, irq_on);
    return err ? err : (long)sizeof irq_on;
}

/* Linux's uio_poll: readable while a count waits for this file. A dead device answers
 * -EIO taken as a mask, as Linux's does: poll() then reports every bit asked for but
 * POLLOUT, with POLLERR and POLLHUP. */
static unsigned uio_poll(struct file *f)
{
    struct uio_listener *l = f->private_data;
    struct uio_device *idev = l->dev;
    if (!idev->info || !idev->info->irq)
        return (unsigned)-EIO;
    return l->event_count != __atomic_load_n(&idev->event, __ATOMIC_RELAXED)
               ? POLLIN | POLLRDNORM
               : 0;
}

static const struct fs_file_ops uio_dev_ops = {
    .open = uio_open,
    .release = uio_release,
    .read_data = uio_read,
    .write_data = uio_write,
    .poll = uio_poll,
};

/* --- sysfs ------------------------------------------------------------------------------ */

/* The attribute files' device, NULL once it is gone (an open file then reads ENODEV). */
static struct uio_device *attr_dev(struct fs_node *f) { return f->data; }

static int read_name(struct fs_node *f, struct fs_writer *out)
{
    struct uio_device *idev = attr_dev(f);
    if (!idev)
        return -ENODEV;
    fs_printf(out, "%s\n", idev->info->name);
    return 0;
}

static int read_version(struct fs_node *f, struct fs_writer *out)
{
    struct uio_device *idev = attr_dev(f);
    if (!idev)
        return -ENODEV;
    fs_printf(out, "%s\n", idev->info->version);
    return 0;
}

static int read_event(struct fs_node *f, struct fs_writer *out)
{
    struct uio_device *idev = attr_dev(f);
    if (!idev)
        return -ENODEV;
    fs_printf(out, "%u\n", __atomic_load_n(&idev->event, __ATOMIC_RELAXED));
    return 0;
}

static int read_dev(struct fs_node *f, struct fs_writer *out)
{
    struct uio_device *idev = attr_dev(f);
    if (!idev)
        return -ENODEV;
    fs_printf(out, "%u:%u\n", UIO_MAJOR, idev->minor);
    return 0;
}

/* Writes "<ups><text>" into buf, cut to size; returns the length. */
static int link_text(char *buf, size_t size, const char *ups, const char *text)
{
    int n = ksnprintf(buf, size, "%s%s", ups, text);
    return n < (int)size ? n : (int)size - 1;
}

/* PARENT/uio/uioN/device -> ../../../PARENT (the parent's name, data). */
static int readlink_device(struct fs_node *link, char *buf, size_t size)
{
    return link_text(buf, size, "../../../", link->data);
}

/* /sys/class/uio/uioN -> ../../devices/.../uio/uioN (the uioN directory, data). */
static int readlink_class(struct fs_node *link, char *buf, size_t size)
{
    char path[FS_PATH_MAX];
    fs_path_of(link->data, path, sizeof path);
    const char *below_sys = strncmp(path, "/sys/", 5) == 0 ? path + 5 : path;
    return link_text(buf, size, "../../", below_sys);
}

static const struct fs_file_ops name_ops = { .read = read_name };
static const struct fs_file_ops version_ops = { .read = read_version };
static const struct fs_file_ops event_ops = { .read = read_event };
static const struct fs_file_ops dev_ops = { .read = read_dev };
static const struct fs_file_ops device_link_ops = { .readlink = readlink_device };
static const struct fs_file_ops class_link_ops = { .readlink = readlink_class };

/* A directory below /sys, drwxr-xr-x as Linux's (the tree would give /sys's 0555). */
static struct fs_node *sysfs_dir(struct fs_node *parent, const char *name)
{
    int err;
    struct fs_node *dir = fs_resolve(parent, name, NULL, FS_NOFOLLOW, &err);
    if (!dir)
        dir = fs_set_mode(fs_mkdir(parent, name), 0755, 0, 0);
    return dir && fs_is_dir(dir) ? dir : NULL;
}

/* Takes node out of the tree; its ops stop using the device first (an open file of it
 * reads ENODEV from then on). */
static void remove_node(struct fs_node *node)
{
    if (!node)
        return;
    if (!fs_is_symlink(node))
        node->data = NULL;
    fs_detach(node);
}

/* Removes PARENT/uio/uioN with its files, the uio directory when it is left empty, and
 * the class link. */
static void remove_sysfs(struct uio_device *idev)
{
    remove_node(idev->class_link);
    idev->class_link = NULL;
    if (!idev->dir)
        return;
    while (idev->dir->children)
        remove_node(idev->dir->children);
    struct fs_node *uio_dir = idev->dir->parent;
    fs_detach(idev->dir);
    idev->dir = NULL;
    if (uio_dir && !uio_dir->children)
        fs_detach(uio_dir);
}

/* Makes PARENT/uio/uioN, its files, and /sys/class/uio/uioN: 0 or -ENOMEM (what was made
 * is removed again). */
static int add_sysfs(struct uio_device *idev, struct fs_node *parent, const char *name)
{
    static const struct {
        const char *name;
        const struct fs_file_ops *ops;
    } files[] = { { "name", &name_ops }, { "version", &version_ops },
                  { "event", &event_ops }, { "dev", &dev_ops } };
    struct fs_node *uio_dir = sysfs_dir(parent, "uio");
    idev->dir = uio_dir ? sysfs_dir(uio_dir, name) : NULL;
    bool ok = idev->dir != NULL;
    for (size_t i = 0; ok && i < sizeof files / sizeof files[0]; i++)
        ok = fs_set_mode(fs_create(idev->dir, files[i].name, files[i].ops, idev), 0444, 0, 0);
    ok = ok && fs_symlink(idev->dir, "device", &device_link_ops, parent->name);
    struct fs_node *class_dir = ok ? fs_mkdir_path("sys/class") : NULL;
    if (class_dir)
        fs_set_mode(class_dir, 0755, 0, 0);
    class_dir = class_dir ? sysfs_dir(class_dir, "uio") : NULL;
    idev->class_link = class_dir ? fs_symlink(class_dir, name, &class_link_ops, idev->dir) : NULL;
    if (!idev->class_link) {
        if (!idev->dir && uio_dir && !uio_dir->children)
            fs_detach(uio_dir);
        remove_sysfs(idev);
        return -ENOMEM;
    }
    return 0;
}

/* --- registering ------------------------------------------------------------------------ */

/* Takes info's line for the core unless it has it already: 0, or -EBUSY when another
 * driver's handler is on it. */
static int take_line(struct uio_info *info)
{
    unsigned irq = info->irq;
    if (!irq)
        return 0;
    if (irq >= IRQ_COUNT)
        return -EINVAL;
    irq_handler_fn now = irq_handler_of((int)irq);
    if (now && now != line_handlers[irq])
        return -EBUSY;
    if (!now)
        irq_set_handler((int)irq, line_handlers[irq]);
    return 0;
}

int uio_register_device(struct fs_node *parent, struct uio_info *info)
{
    if (!parent)
        return -ENODEV;
    struct uio_device *idev = kzalloc(sizeof *idev);
    if (!idev)
        return -ENOMEM;
    int minor = take_minor();
    if (minor < 0) {
        kfree(idev);
        return minor;
    }
    idev->minor = (unsigned)minor;
    idev->refs = 1;
    char name[FS_NAME_MAX];
    ksnprintf(name, sizeof name, "uio%u", idev->minor);
    int err = add_sysfs(idev, parent, name);
    if (!err) {
        struct fs_node *dev_dir = fs_mkdir_path("dev");
        idev->dev_node = fs_set_rdev(
            fs_set_mode(fs_create(dev_dir, name, &uio_dev_ops, idev), 0600, 0, 0),
            UIO_MAJOR, idev->minor);
        err = idev->dev_node ? 0 : -ENOMEM;
    }
    if (!err)
        err = take_line(info);
    if (err) {
        remove_node(idev->dev_node);
        remove_sysfs(idev);
        free_minor(idev->minor);
        kfree(idev);
        return err;
    }
    idev->info = info;
    info->uio_dev = idev;
    idev->next = registered;
    registered = idev;
    return 0;
}

void uio_unregister_device(struct uio_info *info)
{
    struct uio_device *idev = info->uio_dev;
    struct uio_device **link = &registered;
    while (*link != idev)
        link = &(*link)->next;
    *link = idev->next;
    if (info->irq && !line_in_use(info->irq, idev))
        irq_set_handler((int)info->irq, NULL);
    remove_sysfs(idev);
    remove_node(idev->dev_node);
    idev->dev_node = NULL;
    idev->info = NULL;
    free_minor(idev->minor);
    /* Blocked readers and pollers look again and find the device gone. */
    wake_up(idev);
    file_poll_wake();
    info->uio_dev = NULL;
    uio_put(idev);
}
