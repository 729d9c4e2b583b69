/*
 * pci_sysfs.c - Linux's sysfs PCI tree (pci_sysfs.h), file for file as Linux 6.1 has it:
 *
 *   /sys/devices/pci0000:00/0000:BB:DD.F/       a function (behind a bridge: in the
 *                                               bridge's directory, as on Linux)
 *       vendor device subsystem_vendor subsystem_device   "0x%04x\n"
 *       class "0x%06x\n"  revision "0x%02x\n"  irq "%u\n"
 *       resource     13 lines (17 for a bridge) of start, end, flags: pci_resource.h
 *       config       the configuration bytes: 256 to root, 64 to anyone else (Linux's
 *                    rule: some chips hang when unprivileged reads touch the rest);
 *                    written by root at the file offset, in the widest aligned pieces
 *       enable       how many enables the device holds; root writes 1 or 0
 *       driver       -> ../../../bus/pci/drivers/NAME while bound
 *       resourceN    (0600) a BAR: mmap of memory, pread/pwrite of ports
 *                    (pci_sysfs_resource.c); resourceN_wc for a prefetchable one
 *   /sys/bus/pci/devices/0000:BB:DD.F -> ../../../devices/pci0000:00/0000:BB:DD.F
 *   /sys/bus/pci/drivers/NAME/           each built-in driver
 *       bind unbind    (0200) a device name: bind it to / unbind it from this driver
 *       new_id         (0200) "VVVV DDDD [SVVV SDDD CLASS MASK DATA]" in hex
 *       0000:BB:DD.F   -> ../../../../devices/pci0000:00/0000:BB:DD.F per bound device
 *
 * Modes are the tree's defaults, which are Linux's here: 0444 for what is only read, 0644
 * for what root also writes, 0200 for what is only written. Errors are Linux's: bind of a
 * name no device has, or of a device the driver does not handle, ENODEV; of a bound
 * device, EBUSY; unbind of a device not bound to this driver, ENODEV; a malformed new_id,
 * EINVAL; an id the driver handles already, EEXIST.
 * Everything here runs under the big kernel lock (the shell, system calls).
 */
#include "drivers/pci/pci_sysfs.h"

#include "drivers/pci/pci_driver.h"
#include "drivers/pci/pci_format.h"
#include "drivers/pci/pci_resource.h"
#include "drivers/pci/pci_sysfs_parse.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs_tree.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/log/printk.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/cred.h"
#include "kernel/proc/task_internal.h"

/* Linux's "pci0000:00": the root bus's directory under /sys/devices. */
#define ROOT_BUS_DIR "pci0000:00"

static struct fs_node *bus_devices_dir, *drivers_dir, *root_bus_dir;

/* "0000:00:04.0": the device's name in sysfs. */
static void device_name(const struct pci_device *d, char buf[FS_NAME_MAX])
{
    char slot[PCI_SLOT_NAME_MAX];
    pci_slot_name(d, slot);
    ksnprintf(buf, FS_NAME_MAX, "0000:%s", slot);
}

/* The bridge whose secondary bus is bus, or NULL (bus 0, or no bridge found). */
static const struct pci_device *bridge_to(uint8_t bus)
{
    if (bus == 0)
        return NULL;
    for (const struct pci_device *b = pci_devices(); b; b = b->next)
        if (b->header_type == 1 && b->secondary_bus == bus)
            return b;
    return NULL;
}

/* d's path below /sys/devices ("pci0000:00/0000:00:04.0"); returns its component count,
 * 0 when it does not fit (bridges nested past any real machine's depth). */
static int device_path(const struct pci_device *d, char *buf, size_t size)
{
    const struct pci_device *chain[8];
    int n = 0;
    for (const struct pci_device *p = d; p && n < 8; p = bridge_to(p->bus))
        chain[n++] = p;
    if (n == 8)
        return 0;
    size_t len = (size_t)ksnprintf(buf, size, "%s", ROOT_BUS_DIR);
    for (int i = n - 1; i >= 0; i--) {
        char name[FS_NAME_MAX];
        device_name(chain[i], name);
        len += (size_t)ksnprintf(buf + len, len < size ? size - len : 0, "/%s", name);
    }
    return len < size ? n + 1 : 0;
}

/* Writes "<ups>devices/<path>" or "<ups>bus/pci/drivers/NAME" into buf. */
static int link_to_device(const struct pci_device *d, const char *ups, char *buf, size_t size)
{
    char path[FS_PATH_MAX];
    if (!device_path(d, path, sizeof path))
        return -ENAMETOOLONG;
    int n = ksnprintf(buf, size, "%sdevices/%s", ups, path);
    return n < (int)size ? n : (int)size - 1;
}

/* /sys/bus/pci/devices/NAME: three levels up to /sys. */
static int readlink_bus_device(struct fs_node *link, char *buf, size_t size)
{
    return link_to_device(link->data, "../../../", buf, size);
}

/* /sys/bus/pci/drivers/DRIVER/NAME: four levels up. */
static int readlink_bound_device(struct fs_node *link, char *buf, size_t size)
{
    return link_to_device(link->data, "../../../../", buf, size);
}

/* /sys/devices/.../NAME/driver: one level up per path component, and one more. */
static int readlink_driver(struct fs_node *link, char *buf, size_t size)
{
    const struct pci_device *d = link->data;
    char path[FS_PATH_MAX];
    int depth = device_path(d, path, sizeof path);
    if (!depth || !d->driver)
        return -ENOENT;
    size_t len = 0;
    for (int i = 0; i < depth; i++)
        len += (size_t)ksnprintf(buf + len, len < size ? size - len : 0, "../");
    len += (size_t)ksnprintf(buf + len, len < size ? size - len : 0, "../bus/pci/drivers/%s",
                             d->driver->name);
    return len < size ? (int)len : (int)size - 1;
}

static const struct fs_file_ops bus_device_link_ops = { .readlink = readlink_bus_device };
static const struct fs_file_ops bound_device_link_ops = { .readlink = readlink_bound_device };
static const struct fs_file_ops driver_link_ops = { .readlink = readlink_driver };

/* --- a device's attribute files ------------------------------------------------------- */

static int read_vendor(struct fs_node *f, struct fs_writer *out)
{
    fs_printf(out, "0x%04x\n", ((struct pci_device *)f->data)->vendor);
    return 0;
}

static int read_device(struct fs_node *f, struct fs_writer *out)
{
    fs_printf(out, "0x%04x\n", ((struct pci_device *)f->data)->device);
    return 0;
}

static int read_subsystem_vendor(struct fs_node *f, struct fs_writer *out)
{
    fs_printf(out, "0x%04x\n", ((struct pci_device *)f->data)->subsystem_vendor);
    return 0;
}

static int read_subsystem_device(struct fs_node *f, struct fs_writer *out)
{
    fs_printf(out, "0x%04x\n", ((struct pci_device *)f->data)->subsystem_device);
    return 0;
}

static int read_class(struct fs_node *f, struct fs_writer *out)
{
    const struct pci_device *d = f->data;
    fs_printf(out, "0x%02x%02x%02x\n", d->class_code, d->subclass, d->prog_if);
    return 0;
}

static int read_revision(struct fs_node *f, struct fs_writer *out)
{
    fs_printf(out, "0x%02x\n", ((struct pci_device *)f->data)->revision);
    return 0;
}

static int read_irq(struct fs_node *f, struct fs_writer *out)
{
    fs_printf(out, "%u\n", pci_irq(f->data));
    return 0;
}

static int read_resource(struct fs_node *f, struct fs_writer *out)
{
    pci_print_resource_file(out, f->data);
    return 0;
}

static int read_enable(struct fs_node *f, struct fs_writer *out)
{
    fs_printf(out, "%u\n", ((struct pci_device *)f->data)->enable_count);
    return 0;
}

/* Linux's enable_store: root only (EPERM, after the file's mode let a writer in), not
 * while a driver holds the device (EBUSY); 0 on a device nobody enabled is EIO. */
static int write_enable(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)append;
    struct pci_device *d = f->data;
    uint32_t value;
    if (!cred_privileged(&current->cred))
        return -EPERM;
    int err = pci_parse_ulong(data, len, &value);
    if (err)
        return err;
    if (d->driver)
        return -EBUSY;
    if (value)
        pci_enable_decoding(d);
    else if (d->enable_count)
        pci_disable_device(d);
    else
        return -EIO;
    return 0;
}

/* How much of the configuration space the config file shows the current task: 256 bytes
 * to root; else 64, or 128 for a CardBus bridge, as Linux (Linux asks about the opener,
 * the same task here unless it changed its ids since). */
static unsigned config_visible(const struct pci_device *d)
{
    return cred_privileged(&current->cred) ? PCI_CONFIG_SIZE : d->header_type == 2 ? 128 : 64;
}

/* The live configuration bytes [from, to), read a dword at a time (the whole dwords that
 * hold them: to is at most 256) under the configuration lock (arch/x86/pci_config.c), into
 * the same places of bytes. */
static void config_bytes(const struct pci_device *d, uint8_t *bytes, unsigned from, unsigned to)
{
    for (unsigned offset = from & ~3u; offset < to; offset += 4) {
        uint32_t v = pci_read32(d, (uint8_t)offset);
        memcpy(bytes + offset, &v, 4);
    }
}

/* The config file's text, for the console's cat: every visible byte. */
static int read_config(struct fs_node *f, struct fs_writer *out)
{
    uint8_t bytes[PCI_CONFIG_SIZE];
    unsigned size = config_visible(f->data);
    config_bytes(f->data, bytes, 0, size);
    out->emit(out, (const char *)bytes, size);
    return 0;
}

/* A program's read() or pread64() of config: the bytes from pos on, read from the device at
 * every call, as Linux's pci_read_config does, so that a program polling a register through
 * one open file sees it change. */
static int32_t read_config_at(struct file *file, uint32_t ubuf, uint32_t count, uint64_t pos)
{
    uint8_t bytes[PCI_CONFIG_SIZE];
    unsigned size = config_visible(file->node->data);
    if (pos >= size)
        return 0;
    uint32_t n = count < size - (uint32_t)pos ? count : size - (uint32_t)pos;
    config_bytes(file->node->data, bytes, (unsigned)pos, (unsigned)pos + n);
    if (copy_to_user(ubuf, bytes + pos, n) != 0)
        return -EFAULT;
    return (int32_t)n;
}

/*
 * A program's write() to config: the bytes go to the configuration space from the file
 * offset on, as Linux's pci_write_config cuts them: a byte to reach an even offset, a word
 * to reach a dword boundary, dwords, then a word and a byte for what is left. A write that
 * starts at or past the end is EFBIG, as sysfs's binary files give (sysfs_kf_bin_write);
 * one that runs past it is cut there. The offset moves past what was written. Only root
 * opens the file for writing (0644).
 */
static long write_config(struct file *file, const void *data, size_t len)
{
    struct pci_device *d = file->node->data;
    const uint8_t *bytes = data;
    uint32_t off = file->pos;
    if (off >= PCI_CONFIG_SIZE)
        return -EFBIG;
    size_t count = len < PCI_CONFIG_SIZE - off ? len : PCI_CONFIG_SIZE - off, left = count;
    if ((off & 1) && left) {
        pci_write8(d, (uint8_t)off, bytes[0]);
        off++, bytes++, left--;
    }
    if ((off & 3) && left > 2) {
        pci_write16(d, (uint8_t)off, (uint16_t)(bytes[0] | bytes[1] << 8));
        off += 2, bytes += 2, left -= 2;
    }
    for (; left > 3; off += 4, bytes += 4, left -= 4)
        pci_write32(d, (uint8_t)off, (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 |
                                         (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24);
    if (left >= 2) {
        pci_write16(d, (uint8_t)off, (uint16_t)(bytes[0] | bytes[1] << 8));
        off += 2, bytes += 2, left -= 2;
    }
    if (left)
        pci_write8(d, (uint8_t)off, bytes[0]);
    file->pos += (uint32_t)count;
    return (long)count;
}

static const struct fs_file_ops vendor_ops = { .read = read_vendor };
static const struct fs_file_ops device_ops = { .read = read_device };
static const struct fs_file_ops subsystem_vendor_ops = { .read = read_subsystem_vendor };
static const struct fs_file_ops subsystem_device_ops = { .read = read_subsystem_device };
static const struct fs_file_ops class_ops = { .read = read_class };
static const struct fs_file_ops revision_ops = { .read = read_revision };
static const struct fs_file_ops irq_ops = { .read = read_irq };
static const struct fs_file_ops resource_ops = { .read = read_resource };
static const struct fs_file_ops enable_ops = { .read = read_enable, .write = write_enable };
static const struct fs_file_ops config_ops = { .read = read_config, .read_at = read_config_at,
                                               .write_data = write_config };

/* The files of one device directory, with their ops and Linux's modes. */
static const struct {
    const char *name;
    const struct fs_file_ops *ops;
    uint16_t mode;
} device_files[] = {
    { "vendor", &vendor_ops, 0444 },
    { "device", &device_ops, 0444 },
    { "subsystem_vendor", &subsystem_vendor_ops, 0444 },
    { "subsystem_device", &subsystem_device_ops, 0444 },
    { "class", &class_ops, 0444 },
    { "revision", &revision_ops, 0444 },
    { "irq", &irq_ops, 0444 },
    { "resource", &resource_ops, 0444 },
    { "enable", &enable_ops, 0644 },
    { "config", &config_ops, 0644 },
};

/* --- a driver's files ------------------------------------------------------------------ */

/* The device whose sysfs name is buf (len bytes, a trailing newline allowed), or NULL. */
static struct pci_device *device_named(const char *buf, size_t len)
{
    for (struct pci_device *d = pci_devices(); d; d = d->next) {
        char name[FS_NAME_MAX];
        device_name(d, name);
        if (sysfs_name_eq(name, buf, len))
            return d;
    }
    return NULL;
}

/* Linux's bind_store: the device must exist and match the driver (else ENODEV). */
static int write_bind(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)append;
    const struct pci_driver *drv = f->data;
    struct pci_device *d = device_named(data, len);
    if (!d || !pci_driver_matches(drv, d))
        return -ENODEV;
    return pci_bind_driver(drv, d);
}

/* Linux's unbind_store: only a device bound to this driver (else ENODEV). */
static int write_unbind(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)append;
    struct pci_device *d = device_named(data, len);
    if (!d || d->driver != f->data)
        return -ENODEV;
    return pci_unbind_driver(d);
}

static int write_new_id(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)append;
    return pci_driver_new_id(f->data, data, len);
}

static const struct fs_file_ops bind_ops = { .write = write_bind };
static const struct fs_file_ops unbind_ops = { .write = write_unbind };
static const struct fs_file_ops new_id_ops = { .write = write_new_id };

/* The directory of drv under /sys/bus/pci/drivers, or NULL. */
static struct fs_node *driver_dir(const struct pci_driver *drv)
{
    int err;
    return drivers_dir ? fs_resolve(drivers_dir, drv->name, NULL, FS_NOFOLLOW, &err) : NULL;
}

void pci_sysfs_bound(struct pci_device *d)
{
    char name[FS_NAME_MAX];
    struct fs_node *dir = driver_dir(d->driver);
    device_name(d, name);
    if (d->sysfs_dir && !d->sysfs_driver_link)
        d->sysfs_driver_link = fs_symlink(d->sysfs_dir, "driver", &driver_link_ops, d);
    if (dir && !d->sysfs_bound_link)
        d->sysfs_bound_link = fs_symlink(dir, name, &bound_device_link_ops, d);
}

void pci_sysfs_unbound(struct pci_device *d)
{
    if (d->sysfs_driver_link && fs_remove(d->sysfs_driver_link) == 0)
        d->sysfs_driver_link = NULL;
    if (d->sysfs_bound_link && fs_remove(d->sysfs_bound_link) == 0)
        d->sysfs_bound_link = NULL;
}

/* --- the tree -------------------------------------------------------------------------- */

/* Makes every missing directory of path ("sys/..."), each below /sys drwxr-xr-x as
 * Linux's (the tree would give them /sys's own 0555); returns the last or NULL. */
static struct fs_node *sysfs_mkdir(const char *path)
{
    char prefix[FS_PATH_MAX + 16];
    struct fs_node *dir = NULL;
    size_t len = strlen(path);
    if (len >= sizeof prefix)
        return NULL;
    for (size_t i = 4; i <= len; i++) { /* past "sys/" */
        if (i < len && path[i] != '/')
            continue;
        memcpy(prefix, path, i);
        prefix[i] = '\0';
        dir = fs_set_mode(fs_mkdir_path(prefix), 0755, 0, 0);
        if (!dir)
            return NULL;
    }
    return dir;
}

/* d's directory (and its bridges', which come first in the list), its files, its
 * /sys/bus/pci/devices link. Short of memory, what could not be made is missing. The
 * directory is made in its parent's directory, known already (pci0000:00's, or the
 * bridge's one bus up), not by walking its path from /sys again (issue 24). */
static void add_device(struct pci_device *d)
{
    char name[FS_NAME_MAX];
    const struct pci_device *bridge = bridge_to(d->bus);
    struct fs_node *parent = bridge ? bridge->sysfs_dir : root_bus_dir;
    if (!parent)
        return; /* the bridge above has no directory: too deep, or memory was short */
    if (bridge) {
        char path[FS_PATH_MAX];
        if (!device_path(d, path, sizeof path))
            return; /* nested past any real machine's depth */
    }
    device_name(d, name);
    d->sysfs_dir = fs_set_mode(fs_mkdir(parent, name), 0755, 0, 0);
    if (!d->sysfs_dir)
        return;
    for (size_t i = 0; i < sizeof device_files / sizeof device_files[0]; i++) {
        struct fs_node *f = fs_set_mode(fs_create(d->sysfs_dir, device_files[i].name,
                                                  device_files[i].ops, d),
                                        device_files[i].mode, 0, 0);
        if (f && device_files[i].ops == &config_ops)
            f->size = PCI_CONFIG_SIZE; /* st_size, as Linux's binary attribute has */
    }
    pci_sysfs_add_resource_files(d);
    if (bus_devices_dir)
        fs_symlink(bus_devices_dir, name, &bus_device_link_ops, d);
    if (d->driver)
        pci_sysfs_bound(d);
}

void pci_sysfs_init(void)
{
    bus_devices_dir = sysfs_mkdir("sys/bus/pci/devices");
    drivers_dir = sysfs_mkdir("sys/bus/pci/drivers");
    root_bus_dir = sysfs_mkdir("sys/devices/" ROOT_BUS_DIR);
    if (!bus_devices_dir || !drivers_dir || !root_bus_dir) {
        printk("pci: no memory for /sys/bus/pci\n");
        return;
    }
    for (const struct pci_driver *const *p = pci_drivers_start; p < pci_drivers_end; p++) {
        struct fs_node *dir = fs_set_mode(fs_mkdir(drivers_dir, (*p)->name), 0755, 0, 0);
        void *drv = (void *)*p; /* the files only read it */
        if (!dir)
            continue;
        fs_set_mode(fs_create(dir, "bind", &bind_ops, drv), 0200, 0, 0);
        fs_set_mode(fs_create(dir, "unbind", &unbind_ops, drv), 0200, 0, 0);
        fs_set_mode(fs_create(dir, "new_id", &new_id_ops, drv), 0200, 0, 0);
    }
    for (struct pci_device *d = pci_devices(); d; d = d->next)
        add_device(d);
}
