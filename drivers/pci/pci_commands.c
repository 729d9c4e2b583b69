/*
 * pci_commands.c - PCI at the console: listing devices, binding and unbinding drivers.
 *
 *   lspci [-v]        every function, in pciutils' layout (pci_format.c)
 *   modprobe NAME     binds driver NAME to every unbound device it handles
 *   rmmod NAME        unbinds it from all of them
 *   lsmod             the built-in drivers and what each is bound to
 *   /proc/bus/pci/devices   Linux's table of devices and resources
 *
 * Drivers are built in (PCI_DRIVER), yet binding waits for modprobe, as loading a module
 * would: tracing (mmiotrace) can be switched on first and see the probe map its BARs.
 */
#include "kernel/log/ipc_logging.h"
#include "drivers/pci/pci.h"

#include "drivers/pci/pci_driver.h"
#include "drivers/pci/pci_format.h"
#include "kernel/lib/errno.h"
#include "kernel/init.h"
#include "kernel/log/printk.h"
#include "kernel/shell/shell.h"
#include "kernel/lib/string.h"
#include "kernel/fs/fs_tree.h"
#include "kernel/trace_hooks.h"

/* Lists every function, tersely or with -v in full; ^C stops a long listing. */
static int cmd_lspci(int argc, char **argv, struct fs_writer *out)
{
    bool verbose = argc == 2 && strcmp(argv[1], "-v") == 0;
    if (argc > 2 || (argc == 2 && !verbose))
        return SHELL_USAGE;
    for (struct pci_device *d = pci_devices(); d; d = d->next) {
        pci_print_lspci(out, d, verbose);
        if (out->interrupted(out))
            return -EINTR;
    }
    return 0;
}
SHELL_COMMAND("lspci", "lspci [-v]", "list PCI devices (-v: BARs, capabilities, driver)", cmd_lspci);

/*
 * Binds drv to each matching device that has no driver. The device names its driver while
 * probe runs (as on Linux), and goes back to none if probe fails; the failure is reported
 * and the other devices are still tried. Fails if no device matched or a probe failed.
 */
static int cmd_modprobe(int argc, char **argv, struct fs_writer *out)
{
    (void)out;
    if (argc != 2)
        return SHELL_USAGE;
    const struct pci_driver *drv = pci_find_driver(argv[1]);
    if (!drv) {
        printk("modprobe: %s: no such driver\n", argv[1]);
        return SHELL_FAILED;
    }
    int matched = 0, failed = 0;
    for (struct pci_device *d = pci_devices(); d; d = d->next) {
        if (!pci_driver_matches(drv, d))
            continue;
        matched++;
        if (d->driver)
            continue; /* bound already, to drv or another driver */
        int err = pci_bind_driver(drv, d);
        if (err) {
            char slot[PCI_SLOT_NAME_MAX];
            pci_slot_name(d, slot);
            printk("modprobe: %s: probe of %s failed: %s\n", drv->name, slot, error_name(err));
            failed++;
        }
    }
    if (!matched) {
        printk("modprobe: %s: no matching device\n", drv->name);
        return SHELL_FAILED;
    }
    return failed ? SHELL_FAILED : 0;
}
SHELL_COMMAND("modprobe", "modprobe NAME", "bind driver NAME to its devices (see lsmod)", cmd_modprobe);

/* Unbinds drv from every device it is bound to: remove undoes what probe did. */
static int cmd_rmmod(int argc, char **argv, struct fs_writer *out)
{
    (void)out;
    if (argc != 2)
        return SHELL_USAGE;
    const struct pci_driver *drv = pci_find_driver(argv[1]);
    if (!drv) {
        printk("rmmod: %s: no such driver\n", argv[1]);
        return SHELL_FAILED;
    }
    int unbound = 0;
    for (struct pci_device *d = pci_devices(); d; d = d->next)
        if (d->driver == drv && pci_unbind_driver(d) == 0)
            unbound++;
    if (!unbound) {
        printk("rmmod: %s: not bound to any device\n", drv->name);
        return SHELL_FAILED;
    }
    return 0;
}
SHELL_COMMAND("rmmod", "rmmod NAME", "unbind driver NAME from its devices", cmd_rmmod);

/* One line per built-in driver: its name and the slots it is bound to ("-" for none). */
static int cmd_lsmod(int argc, char **argv, struct fs_writer *out)
{
    (void)argv;
    if (argc != 1)
        return SHELL_USAGE;
    fs_puts(out, "Driver               Bound to\n");
    for (const struct pci_driver *const *p = pci_drivers_start; p < pci_drivers_end; p++) {
        int bound = 0;
        fs_printf(out, "%-20s", (*p)->name);
        for (struct pci_device *d = pci_devices(); d; d = d->next) {
            if (d->driver != *p)
                continue;
            char slot[PCI_SLOT_NAME_MAX];
            pci_slot_name(d, slot);
            fs_printf(out, "%s%s", bound++ ? ", " : " ", slot);
        }
        fs_puts(out, bound ? "\n" : " -\n");
    }
    return 0;
}
SHELL_COMMAND("lsmod", "lsmod", "list the PCI drivers and the devices they are bound to", cmd_lsmod);

static int read_proc_devices(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    for (struct pci_device *d = pci_devices(); d; d = d->next)
        pci_print_proc_device(out, d);
    return 0;
}

static const struct fs_file_ops proc_devices_ops = { .read = read_proc_devices };

/* Creates /proc/bus/pci/devices. */
static void pci_files_init(void)
{
    struct fs_node *dir = fs_mkdir_path("proc/bus/pci");
    if (dir)
        fs_create(dir, "devices", &proc_devices_ops, 0);
}
INITCALL(device, pci_files_init);
