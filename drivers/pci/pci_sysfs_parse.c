/*
 * pci_sysfs_parse.c - parsing what is written to /sys/bus/pci (pci_sysfs_parse.h).
 */
#include "drivers/pci/pci_sysfs_parse.h"

#include "uapi/errno.h"

bool sysfs_name_eq(const char *name, const char *buf, size_t len)
{
    size_t i = 0;
    for (; name[i] && i < len; i++)
        if (name[i] != buf[i])
            return false;
    if (!name[i] && i == len)
        return true;
    if (!name[i]) /* buf goes on: only "\n" may follow */
        return i + 1 == len && buf[i] == '\n';
    return name[i] == '\n' && !name[i + 1] && i == len; /* name ends in "\n", buf does not */
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* One "%x" of the kernel's vsscanf at *pos: spaces skipped, then a hex digit must come;
 * a "0x" there is skipped whether digits follow or not (the kernel's radix fix-up does so:
 * "0x" alone reads as 0), then the digits (the value keeps the low 32 bits, as the
 * kernel's assignment to a u32 does). False, with *pos unchanged, when no digit is there. */
static bool scan_hex(const char *buf, size_t len, size_t *pos, uint32_t *value)
{
    size_t i = *pos;
    while (i < len && is_space(buf[i]))
        i++;
    if (i >= len || hex_digit(buf[i]) < 0)
        return false;
    if (buf[i] == '0' && i + 1 < len && (buf[i + 1] == 'x' || buf[i + 1] == 'X'))
        i += 2;
    uint32_t v = 0;
    for (; i < len && hex_digit(buf[i]) >= 0; i++)
        v = v << 4 | (uint32_t)hex_digit(buf[i]);
    *value = v;
    *pos = i;
    return true;
}

int pci_parse_new_id(const char *buf, size_t len, struct pci_id_match *id)
{
    uint32_t field[7] = { 0, 0, PCI_ANY_ID, PCI_ANY_ID, 0, 0, 0 };
    size_t pos = 0;
    int fields = 0;
    while (fields < 7 && pos < len && buf[pos] != '\0' && scan_hex(buf, len, &pos, &field[fields]))
        fields++;
    if (fields < 2)
        return -EINVAL;
    *id = (struct pci_id_match){ field[0], field[1], field[2], field[3], field[4], field[5],
                                 field[6] };
    return fields;
}

bool pci_id_matches(const struct pci_id_match *id, const struct pci_id_subject *s)
{
    return (id->vendor == PCI_ANY_ID || id->vendor == s->vendor) &&
           (id->device == PCI_ANY_ID || id->device == s->device) &&
           (id->subvendor == PCI_ANY_ID || id->subvendor == s->subvendor) &&
           (id->subdevice == PCI_ANY_ID || id->subdevice == s->subdevice) &&
           ((id->class ^ s->class) & id->class_mask) == 0;
}

int pci_parse_ulong(const char *buf, size_t len, uint32_t *value)
{
    size_t i = 0;
    if (len && buf[len - 1] == '\n')
        len--;
    if (i < len && buf[i] == '+')
        i++;
    unsigned base = 10;
    if (i < len && buf[i] == '0') {
        base = 8;
        if (i + 1 < len && (buf[i + 1] == 'x' || buf[i + 1] == 'X') && i + 2 < len &&
            hex_digit(buf[i + 2]) >= 0) {
            base = 16;
            i += 2;
        }
    }
    if (i >= len)
        return -EINVAL;
    uint64_t v = 0;
    for (; i < len; i++) {
        int d = hex_digit(buf[i]);
        if (d < 0 || (unsigned)d >= base)
            return -EINVAL;
        v = v * base + (unsigned)d;
        if (v > 0xffffffffu)
            return -ERANGE;
    }
    *value = (uint32_t)v;
    return 0;
}
