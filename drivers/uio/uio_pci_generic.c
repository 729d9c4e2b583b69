/*
 * uio_pci_generic.c - Linux's generic UIO driver for PCI 2.3 devices, built in.
 *
 * It has no device ids: a device comes to it only through sysfs, as on Linux,
 *   echo "1234 11e8" > /sys/bus/pci/drivers/uio_pci_generic/new_id
 *   echo 0000:00:04.0 > /sys/bus/pci/drivers/uio_pci_generic/bind
 * and it does almost nothing itself: probe enables the device and registers it with the
 * UIO core (drivers/uio/uio.h), which makes /dev/uioN. The device's own registers are the
 * program's business (through resourceN); the driver only has to stop a level-triggered
 * interrupt that no kernel code knows how to acknowledge from firing forever. PCI 2.3 lets
 * it do that without knowing the device: the handler sets Interrupt Disable in the command
 * register when the status says the device is interrupting (pci_check_and_mask_intx), and
 * the program clears it again through the config file once it has served the device.
 * There is no irqcontrol, as in Linux 6.1: a write to /dev/uioN is ENOSYS.
 *
 * As Linux's probe: a device with an interrupt line whose Interrupt Disable bit does not
 * stick is refused (ENODEV); a device without a line (no INTx pin: pci-testdev) binds with
 * a warning, and its /dev/uioN reads EIO. Each close of /dev/uioN turns bus mastering off,
 * so that DMA a program set up does not outlive it. Unbinding unregisters and undoes the
 * enable.
 */
#include "drivers/pci/pci.h"
#include "drivers/pci/pci_format.h"
#include "drivers/pci/pci_intx.h"
#include "drivers/uio/uio.h"
#include "kernel/lib/errno.h"
#include "kernel/log/printk.h"
#include "kernel/mm/heap.h"

#define DRIVER_VERSION "0.01.0"

struct uio_pci_generic_dev {
    struct uio_info info;
    struct pci_device *pdev;
};

static struct uio_pci_generic_dev *gdev_of(struct uio_info *info) { return info->priv; }

/* Linux's irqhandler: the interrupt was ours when the device says it is interrupting; it
 * is then masked at the device until the program unmasks it. */
static bool irqhandler(struct uio_info *info)
{
    return pci_check_and_mask_intx(gdev_of(info)->pdev);
}

/* Linux's release: no DMA after the program closes the file (pci_clear_master). */
static void release(struct uio_info *info)
{
    struct pci_device *d = gdev_of(info)->pdev;
    uint16_t cmd = pci_read16(d, PCI_COMMAND);
    if (cmd & PCI_COMMAND_MASTER)
        pci_write16(d, PCI_COMMAND, cmd & (uint16_t)~PCI_COMMAND_MASTER);
}

/* "uio_pci_generic 0000:00:04.0: " before a message, as dev_warn prints it. */
static void report(const struct pci_device *d, const char *what)
{
    char slot[PCI_SLOT_NAME_MAX];
    pci_slot_name(d, slot);
    printk("uio_pci_generic 0000:%s: %s\n", slot, what);
}

static int probe(struct pci_device *pdev)
{
    unsigned irq = pci_irq(pdev);
    pci_enable_decoding(pdev); /* Linux's pci_enable_device: decoding, no bus mastering */
    if (irq && !pci_intx_mask_supported(pdev)) {
        pci_disable_device(pdev);
        return -ENODEV;
    }
    struct uio_pci_generic_dev *gdev = kzalloc(sizeof *gdev);
    if (!gdev) {
        pci_disable_device(pdev);
        return -ENOMEM;
    }
    gdev->info.name = "uio_pci_generic";
    gdev->info.version = DRIVER_VERSION;
    gdev->info.release = release;
    gdev->info.priv = gdev;
    gdev->pdev = pdev;
    if (irq) {
        gdev->info.irq = irq;
        gdev->info.handler = irqhandler;
    } else {
        report(pdev, "No IRQ assigned to device: no support for interrupts?");
    }
    int err = uio_register_device(pdev->sysfs_dir, &gdev->info);
    if (err) {
        kfree(gdev);
        pci_disable_device(pdev);
        return err;
    }
    pdev->driver_data = gdev;
    return 0;
}

static void remove(struct pci_device *pdev)
{
    struct uio_pci_generic_dev *gdev = pdev->driver_data;
    uio_unregister_device(&gdev->info);
    pci_disable_device(pdev);
    kfree(gdev);
}

static const struct pci_id no_ids[] = { { 0, 0 } }; /* only new_id's */

static const struct pci_driver uio_pci_driver = {
    .name = "uio_pci_generic",
    .ids = no_ids,
    .probe = probe,
    .remove = remove,
};
PCI_DRIVER(uio_pci_driver);
