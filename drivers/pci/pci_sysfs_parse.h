/*
 * pci_sysfs_parse.h - what the writable files of /sys/bus/pci accept, parsed as Linux
 * parses it: device names (bind, unbind), new_id's id fields, enable's number.
 *
 * A write hands its bytes as they came (not NUL-terminated; `echo` adds a newline), so every
 * parser takes a buffer and its length. Portable: tests/unit/test_pci_sysfs_parse.c and
 * tests/fuzz/fuzz_pci_sysfs_parse.c.
 */
#ifndef DRIVERS_PCI_PCI_SYSFS_PARSE_H
#define DRIVERS_PCI_PCI_SYSFS_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Linux's PCI_ANY_ID: an id field that matches every device. */
#define PCI_ANY_ID 0xffffffffu

/* One id a driver handles, with Linux's struct pci_device_id fields. */
struct pci_id_match {
    uint32_t vendor, device;        /* exact, or PCI_ANY_ID */
    uint32_t subvendor, subdevice;  /* exact, or PCI_ANY_ID */
    uint32_t class, class_mask;     /* (class ^ device's class) & class_mask must be 0 */
    uint32_t driver_data;
};

/* The identity an id is matched against: class is the 24-bit class code
 * (class << 16 | subclass << 8 | prog-if). */
struct pci_id_subject {
    uint32_t vendor, device, subvendor, subdevice, class;
};

/* Linux's sysfs_streq: a equals b (len bytes, not terminated), a single trailing newline on
 * either side ignored. */
bool sysfs_name_eq(const char *name, const char *buf, size_t len);

/* new_id's text as Linux's new_id_store reads it, sscanf "%x %x %x %x %x %x %lx": vendor,
 * device, then optionally subvendor, subdevice, class, class_mask, driver_data (hex, "0x"
 * allowed; fields not given are PCI_ANY_ID for the subsystem ids, 0 for the rest). Returns
 * how many fields were read (2..7) with *id filled, or -EINVAL for fewer than 2. */
int pci_parse_new_id(const char *buf, size_t len, struct pci_id_match *id);

/* Whether id matches s: Linux's pci_match_one_device. */
bool pci_id_matches(const struct pci_id_match *id, const struct pci_id_subject *s);

/* Linux's kstrtoul(buf, 0, &v) on a sysfs write: decimal, 0x hex or 0 octal, an optional
 * leading '+', one trailing newline, nothing else. 0, -EINVAL or -ERANGE (above 32 bits,
 * i386's unsigned long). */
int pci_parse_ulong(const char *buf, size_t len, uint32_t *value);

#endif
