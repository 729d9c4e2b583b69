/*
 * pci.h - PCI devices: what enumeration found, config-space access, and drivers.
 *
 * drivers/pci/pci.c scans every bus through configuration mechanism #1 (arch/x86/pci_config.c)
 * at boot and keeps one struct pci_device per function found. Drivers register with
 * PCI_DRIVER() and are bound by `modprobe NAME` and unbound by `rmmod NAME` (or through
 * /sys/bus/pci/drivers/NAME/bind and unbind: pci_sysfs.c), so tracing can be switched on
 * before a driver maps its BARs, as with a loadable module on Linux.
 */
#ifndef DRIVERS_PCI_PCI_H
#define DRIVERS_PCI_PCI_H

#include <stdbool.h>
#include <stdint.h>

#define PCI_MAX_BARS 6

struct pci_bar {
    uint64_t base;      /* bus address (== physical on a PC); 0 if the BAR is unused */
    uint64_t size;      /* bytes; 0 if unused */
    bool io;            /* I/O space rather than memory */
    bool prefetchable;
    bool is64;          /* a 64-bit memory BAR (it uses the next BAR slot too) */
};

/* One entry of Linux's resource view of a device (struct resource's start, end, flags):
 * drivers/pci/pci_resource.h says what the flags mean and how the table is filled. */
struct pci_resource {
    uint64_t start, end; /* bus addresses, inclusive; both 0 when unused */
    uint32_t flags;      /* IORESOURCE_* bits; 0 when unused */
};

/* Linux's resource numbers: BARs 0-5, the ROM (6), the 6 SR-IOV BARs (7-12, never used
 * here: no device offers SR-IOV through mechanism #1), the 4 bridge windows (13-16). */
#define PCI_ROM_RESOURCE 6
#define PCI_IOV_RESOURCES 7
#define PCI_BRIDGE_RESOURCES 13
#define PCI_NUM_RESOURCES 17

struct pci_driver;
struct fs_node;

struct pci_device {
    uint8_t bus, dev, fn;
    uint16_t vendor, device;
    uint16_t subsystem_vendor, subsystem_device;
    uint8_t class_code, subclass, prog_if, revision;
    uint8_t header_type;           /* 0 device, 1 PCI-to-PCI bridge (multifunction bit cleared) */
    uint8_t irq_line, irq_pin;     /* irq_pin 0: no interrupt; 1..4 = INTA..INTD */
    struct pci_bar bar[PCI_MAX_BARS]; /* what the BAR registers decode (sizing's result) */
    uint64_t rom_base, rom_size;   /* expansion ROM register, 0 if none */
    /* Linux's view of the same (pci_resource.h): BARs after the legacy IDE quirk, the ROM
     * after the video shadow fixup, bridge windows. Every text about a device's resources
     * (sysfs resource, /proc/bus/pci/devices, lspci -v, PCIDEV) reads this table. */
    struct pci_resource resource[PCI_NUM_RESOURCES];
    unsigned enable_count;         /* pci_enable_device calls not yet undone (sysfs enable) */
    uint8_t secondary_bus, subordinate_bus; /* bridges only */
    const struct pci_driver *driver; /* bound driver, or NULL */
    bool probing;                  /* driver's probe is running (pci_driver.c) */
    void *driver_data;
    /* Its sysfs directory, and while bound the two links to and from its driver's
     * directory (pci_sysfs.c). */
    struct fs_node *sysfs_dir, *sysfs_driver_link, *sysfs_bound_link;
    struct pci_device *next;
};

/* A (vendor, device) pair a driver handles; lists end with { 0, 0 }. */
struct pci_id {
    uint16_t vendor, device;
};

struct pci_driver {
    const char *name;
    const struct pci_id *ids;
    /* Binds to dev: 0, or a negative errno (the device stays unbound). Prints its own
     * pass/fail report on the console. */
    int (*probe)(struct pci_device *dev);
    /* Unbinds: undo probe (iounmap, release the IRQ). */
    void (*remove)(struct pci_device *dev);
};

/* Registers a driver at link time (section .pci_drivers), as SHELL_COMMAND does. */
#define PCI_DRIVER(drv)                                                        \
    static const struct pci_driver *const pci_driver_entry_##drv               \
        __attribute__((used, section(".pci_drivers"), aligned(4))) = &drv

/* Every function enumeration found, in bus/device/function order. */
struct pci_device *pci_devices(void);

/* The device at bus:dev.fn, or NULL. */
struct pci_device *pci_find_slot(uint8_t bus, uint8_t dev, uint8_t fn);

/* Parses "00:04.0" (hex bus, hex device, function), or a bound driver's name, into the
 * device; NULL if none matches. */
struct pci_device *pci_lookup(const char *name);

/* Config-space access of a device (offset < 256, naturally aligned). */
uint8_t pci_read8(const struct pci_device *d, uint8_t offset);
uint16_t pci_read16(const struct pci_device *d, uint8_t offset);
uint32_t pci_read32(const struct pci_device *d, uint8_t offset);
void pci_write8(const struct pci_device *d, uint8_t offset, uint8_t value);
void pci_write16(const struct pci_device *d, uint8_t offset, uint16_t value);
void pci_write32(const struct pci_device *d, uint8_t offset, uint32_t value);

/* Turns on memory and I/O decoding and bus mastering (DMA) in the command register, and
 * counts one more user of the device (sysfs's enable shows the count, as Linux's
 * enable_cnt). A device with an INTx pin gets Interrupt Disable cleared, as Linux's enable
 * does. The register is written only when a bit changes. */
void pci_enable_device(struct pci_device *d);

/* sysfs's `echo 1 > enable` (Linux's pci_enable_device): one more user, and the decoding
 * of the spaces d's resources use (I/O, memory) turned on, INTx allowed (as above); no bus
 * mastering. */
void pci_enable_decoding(struct pci_device *d);

/* Undoes one enable; the last one turns bus mastering off (Linux's pci_disable_device:
 * decoding stays on). Drivers call it in remove. */
void pci_disable_device(struct pci_device *d);

/* Scans all buses; called once at boot. */
void pci_init(void);

/* The PCI subsystem's IPC log context (ipc_logging/pci/). */
struct ipc_log_context;
extern struct ipc_log_context *pci_log;

#endif
