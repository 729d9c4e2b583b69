/*
 * fuzz_pci_sysfs_parse.c - fuzz target for drivers/pci/pci_sysfs_parse.c, what a write to
 * /sys/bus/pci's bind, unbind, new_id and enable hands the kernel.
 *
 * The input is the written bytes, in a buffer of exactly their size (ASan sees any read past
 * them). Checks that: a device name matches exactly when the bytes are the name with at most
 * one trailing newline; new_id gives -EINVAL or 2..7 fields, and the fields printed back as
 * hex parse again to the same id with the same count; enable's number, when accepted,
 * printed back in decimal parses to itself, and is refused (never accepted) when the bytes
 * hold anything but digits, an optional '+' and prefix and one trailing newline.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/pci/pci_sysfs_parse.h"
#include "uapi/errno.h"

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_pci_sysfs_parse: %s\n", what);
    abort();
}

/* The name rule, written the obvious way. */
static int names_equal(const char *name, const char *buf, size_t len)
{
    size_t n = strlen(name);
    if (len && buf[len - 1] == '\n')
        len--;
    return n == len && memcmp(name, buf, n) == 0;
}

static void check_new_id(const char *buf, size_t len)
{
    struct pci_id_match id, again;
    int fields = pci_parse_new_id(buf, len, &id);
    if (fields == -EINVAL)
        return;
    if (fields < 2 || fields > 7)
        fail("new_id field count out of 2..7");
    uint32_t f[7] = { id.vendor, id.device, id.subvendor, id.subdevice, id.class,
                      id.class_mask, id.driver_data };
    char text[7 * 12];
    size_t at = 0;
    for (int i = 0; i < fields; i++)
        at += (size_t)snprintf(text + at, sizeof text - at, "%s%x", i ? " " : "", f[i]);
    if (pci_parse_new_id(text, at, &again) != fields || memcmp(&id, &again, sizeof id) != 0)
        fail("new_id fields printed back parse differently");
}

static void check_ulong(const char *buf, size_t len)
{
    uint32_t v;
    int err = pci_parse_ulong(buf, len, &v);
    if (err != 0 && err != -EINVAL && err != -ERANGE)
        fail("enable parse gave an unexpected error");
    if (err)
        return;
    for (size_t i = 0; i < len; i++)
        if (!strchr("0123456789abcdefABCDEFxX+", buf[i]) && !(buf[i] == '\n' && i == len - 1))
            fail("enable accepted a byte that is no part of a number");
    char text[16];
    int n = snprintf(text, sizeof text, "%u", v);
    uint32_t again;
    if (pci_parse_ulong(text, (size_t)n, &again) != 0 || again != v)
        fail("enable value printed back parses differently");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    static const char *const names[] = { "0000:00:04.0", "0000:00:05.0", "" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (sysfs_name_eq(names[i], buf, size) != names_equal(names[i], buf, size))
            fail("device name match differs from the rule");
    check_new_id(buf, size);
    check_ulong(buf, size);
    free(buf);
    return 0;
}
