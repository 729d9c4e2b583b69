/* test_pci_sysfs_parse.c - what /sys/bus/pci's writable files accept, parsed as Linux's
 * sysfs_streq, new_id_store's sscanf and kstrtoul parse it. */
#include "unit.h"

#include "drivers/pci/pci_sysfs_parse.h"
#include "uapi/errno.h"

#define S(text) text, sizeof text - 1

TEST(device_names_match_as_sysfs_streq)
{
    CHECK(sysfs_name_eq("0000:00:04.0", S("0000:00:04.0")));
    CHECK(sysfs_name_eq("0000:00:04.0", S("0000:00:04.0\n")));
    CHECK(!sysfs_name_eq("0000:00:04.0", S("0000:00:04.0\n\n")));
    CHECK(!sysfs_name_eq("0000:00:04.0", S("0000:00:04.0 ")));
    CHECK(!sysfs_name_eq("0000:00:04.0", S("00:04.0")));
    CHECK(!sysfs_name_eq("0000:00:04.0", S("0000:00:04.")));
    CHECK(!sysfs_name_eq("0000:00:04.0", S("0000:00:04.00")));
    CHECK(!sysfs_name_eq("0000:00:04.0", S("")));
    CHECK(!sysfs_name_eq("0000:00:04.0", S("\n")));
    CHECK(sysfs_name_eq("", S("\n")));
}

TEST(new_id_two_fields_leave_any_subsystem)
{
    struct pci_id_match id;
    CHECK_EQ_INT(pci_parse_new_id(S("1234 11e8\n"), &id), 2);
    CHECK_EQ_INT(id.vendor, 0x1234);
    CHECK_EQ_INT(id.device, 0x11e8);
    CHECK_EQ_INT(id.subvendor, PCI_ANY_ID);
    CHECK_EQ_INT(id.subdevice, PCI_ANY_ID);
    CHECK_EQ_INT(id.class, 0);
    CHECK_EQ_INT(id.class_mask, 0);
    CHECK_EQ_INT(id.driver_data, 0);
    CHECK_EQ_INT(pci_parse_new_id(S("0x1234\t0X11E8"), &id), 2);
    CHECK_EQ_INT(id.device, 0x11e8);
}

TEST(new_id_all_seven_fields)
{
    struct pci_id_match id;
    CHECK_EQ_INT(pci_parse_new_id(S("8086 10d3 ffffffff ffffffff 020000 ffff00 0\n"), &id), 7);
    CHECK_EQ_INT(id.vendor, 0x8086);
    CHECK_EQ_INT(id.subvendor, 0xffffffff);
    CHECK_EQ_INT(id.class, 0x020000);
    CHECK_EQ_INT(id.class_mask, 0xffff00);
    CHECK_EQ_INT(pci_parse_new_id(S("1 2 3 4 5 6 7 8"), &id), 7); /* sscanf stops at 7 */
    CHECK_EQ_INT(id.driver_data, 7);
    CHECK_EQ_INT(pci_parse_new_id(S("1 2 3 zz"), &id), 3); /* stops at what is no number */
    CHECK_EQ_INT(id.subvendor, 3);
    CHECK_EQ_INT(id.subdevice, PCI_ANY_ID);
    CHECK_EQ_INT(pci_parse_new_id(S("123456789 1"), &id), 2); /* the low 32 bits, as a u32 */
    CHECK_EQ_INT(id.vendor, 0x23456789);
}

TEST(new_id_malformed_is_einval)
{
    struct pci_id_match id;
    CHECK_EQ_INT(pci_parse_new_id(S(""), &id), -EINVAL);
    CHECK_EQ_INT(pci_parse_new_id(S("\n"), &id), -EINVAL);
    CHECK_EQ_INT(pci_parse_new_id(S("zz"), &id), -EINVAL);
    CHECK_EQ_INT(pci_parse_new_id(S("1234"), &id), -EINVAL);
    CHECK_EQ_INT(pci_parse_new_id(S("1234 "), &id), -EINVAL);
    CHECK_EQ_INT(pci_parse_new_id(S("1234,11e8"), &id), -EINVAL);
    /* The kernel skips "0x" even with no digit after it: "0x" reads as 0. */
    CHECK_EQ_INT(pci_parse_new_id(S("0x 11e8"), &id), 2);
    CHECK_EQ_INT(id.vendor, 0);
    CHECK_EQ_INT(id.device, 0x11e8);
    CHECK_EQ_INT(pci_parse_new_id(S("0xg 1"), &id), -EINVAL); /* "g" is no number */
    CHECK_EQ_INT(pci_parse_new_id(S("-1 2"), &id), -EINVAL);
    CHECK_EQ_INT(pci_parse_new_id("1234\0 11e8", 10, &id), -EINVAL); /* a NUL ends the text */
}

TEST(ids_match_as_pci_match_one_device)
{
    struct pci_id_subject edu = { 0x1234, 0x11e8, 0x1af4, 0x1100, 0x00ff00 };
    struct pci_id_match id = { 0x1234, 0x11e8, PCI_ANY_ID, PCI_ANY_ID, 0, 0, 0 };
    CHECK(pci_id_matches(&id, &edu));
    id.device = 0x11e9;
    CHECK(!pci_id_matches(&id, &edu));
    id = (struct pci_id_match){ PCI_ANY_ID, PCI_ANY_ID, 0x1af4, PCI_ANY_ID, 0x00ff00, 0xffff00, 0 };
    CHECK(pci_id_matches(&id, &edu));
    id.class = 0x020000;
    CHECK(!pci_id_matches(&id, &edu));
    id.class_mask = 0;
    CHECK(pci_id_matches(&id, &edu));
    id.subvendor = 0x1b36;
    CHECK(!pci_id_matches(&id, &edu));
}

TEST(enable_numbers_as_kstrtoul)
{
    uint32_t v = 99;
    CHECK_EQ_INT(pci_parse_ulong(S("1\n"), &v), 0);
    CHECK_EQ_INT(v, 1);
    CHECK_EQ_INT(pci_parse_ulong(S("0"), &v), 0);
    CHECK_EQ_INT(v, 0);
    CHECK_EQ_INT(pci_parse_ulong(S("0x10"), &v), 0);
    CHECK_EQ_INT(v, 16);
    CHECK_EQ_INT(pci_parse_ulong(S("010"), &v), 0);
    CHECK_EQ_INT(v, 8);
    CHECK_EQ_INT(pci_parse_ulong(S("+7"), &v), 0);
    CHECK_EQ_INT(v, 7);
    CHECK_EQ_INT(pci_parse_ulong(S("4294967295"), &v), 0);
    CHECK_EQ_INT(v, 0xffffffffu);
    CHECK_EQ_INT(pci_parse_ulong(S("4294967296"), &v), -ERANGE);
    CHECK_EQ_INT(pci_parse_ulong(S("on"), &v), -EINVAL);
    CHECK_EQ_INT(pci_parse_ulong(S(""), &v), -EINVAL);
    CHECK_EQ_INT(pci_parse_ulong(S("\n"), &v), -EINVAL);
    CHECK_EQ_INT(pci_parse_ulong(S("1 "), &v), -EINVAL);
    CHECK_EQ_INT(pci_parse_ulong(S("1\n\n"), &v), -EINVAL);
    CHECK_EQ_INT(pci_parse_ulong(S("08"), &v), -EINVAL);
    CHECK_EQ_INT(pci_parse_ulong(S("-1"), &v), -EINVAL);
    CHECK_EQ_INT(pci_parse_ulong(S("0x"), &v), -EINVAL);
}
