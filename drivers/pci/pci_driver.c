/*
 * pci_driver.c - binding and unbinding drivers, and their run-time ids (pci_driver.h).
 */
#include "drivers/pci/pci_driver.h"

#include "drivers/pci/pci_format.h"
#include "drivers/pci/pci_sysfs.h"
#include "drivers/pci/pci_sysfs_parse.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/log/ipc_logging.h"
#include "kernel/log/printk.h"
#include "kernel/mm/heap.h"
#include "kernel/trace_hooks.h"

/* An id given to a driver through new_id; kept until reboot, as Linux keeps them until
 * remove_id or the driver's unloading. */
struct pci_dynid {
    const struct pci_driver *driver;
    struct pci_id_match id;
    struct pci_dynid *next;
};

static struct pci_dynid *dynids; /* under the big kernel lock */

const struct pci_driver *pci_find_driver(const char *name)
{
    for (const struct pci_driver *const *p = pci_drivers_start; p < pci_drivers_end; p++)
        if (strcmp((*p)->name, name) == 0)
            return *p;
    return NULL;
}

/* The identity new_id's ids are matched against. */
static struct pci_id_subject subject_of(const struct pci_device *d)
{
    return (struct pci_id_subject){ d->vendor, d->device, d->subsystem_vendor,
                                    d->subsystem_device,
                                    (uint32_t)d->class_code << 16 | (uint32_t)d->subclass << 8 |
                                        d->prog_if };
}

/* Whether drv's table or its dynamic ids match s. */
static bool driver_matches_subject(const struct pci_driver *drv, const struct pci_id_subject *s)
{
    for (const struct pci_id *id = drv->ids; id->vendor || id->device; id++)
        if (id->vendor == s->vendor && id->device == s->device)
            return true;
    for (const struct pci_dynid *dyn = dynids; dyn; dyn = dyn->next)
        if (dyn->driver == drv && pci_id_matches(&dyn->id, s))
            return true;
    return false;
}

bool pci_driver_matches(const struct pci_driver *drv, const struct pci_device *d)
{
    struct pci_id_subject s = subject_of(d);
    return driver_matches_subject(drv, &s);
}

int pci_bind_driver(const struct pci_driver *drv, struct pci_device *d)
{
    if (d->driver)
        return -EBUSY;
    d->driver = drv;
    d->probing = true;
    int err = drv->probe(d);
    d->probing = false;
    IPC_LOG(pci_log, "%02x:%02x.%u probe by %s: %d", d->bus, d->dev, d->fn, drv->name, err);
    trace_pci_driver_bind(d, drv->name, err);
    if (err) {
        d->driver = NULL;
        d->driver_data = NULL;
        return err;
    }
    pci_sysfs_bound(d);
    return 0;
}

int pci_unbind_driver(struct pci_device *d)
{
    const struct pci_driver *drv = d->driver;
    if (!drv)
        return -ENODEV;
    if (d->probing)
        return -EBUSY;
    pci_sysfs_unbound(d);
    if (drv->remove)
        drv->remove(d);
    IPC_LOG(pci_log, "%02x:%02x.%u unbound from %s", d->bus, d->dev, d->fn, drv->name);
    trace_pci_driver_unbind(d, drv->name);
    d->driver = NULL;
    d->driver_data = NULL;
    return 0;
}

int pci_driver_new_id(const struct pci_driver *drv, const char *buf, size_t len)
{
    struct pci_id_match id;
    int fields = pci_parse_new_id(buf, len, &id);
    if (fields < 0)
        return fields;
    if (fields != 7) {
        /* As Linux: an id the driver handles already is refused, tested on a device that
         * has exactly the given fields. */
        struct pci_id_subject s = { id.vendor, id.device, id.subvendor, id.subdevice, id.class };
        if (driver_matches_subject(drv, &s))
            return -EEXIST;
    }
    if (id.driver_data != 0)
        return -EINVAL; /* the tables here carry no driver_data: only 0 names an entry */
    struct pci_dynid *dyn = kzalloc(sizeof *dyn);
    if (!dyn)
        return -ENOMEM;
    dyn->driver = drv;
    dyn->id = id;
    dyn->next = dynids;
    dynids = dyn;
    /* Linux's driver_attach: every unbound device the driver now matches; a probe that
     * fails leaves its device unbound and does not fail the write. */
    for (struct pci_device *d = pci_devices(); d; d = d->next)
        if (!d->driver && pci_driver_matches(drv, d))
            pci_bind_driver(drv, d);
    return 0;
}
