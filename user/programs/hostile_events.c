/*
 * hostile_events.c - attacks on the timer/, mmio/, ipc/ and pci/ events (issue 18) through
 * their files, from a program (tests/shell/hostile_events.script): enable toggled hundreds
 * of times (mmio/ arms and disarms mmiotrace's fault path each time), enable words that are
 * not 0 or 1, filters that do not compile for these events' fields; then, as uid 1000, the
 * same files refuse to open for writing. Every refusal is Linux's errno and leaves the
 * event as it was.
 *
 * Usage: hostile_events     one check line each (tracekern/check.h)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <tracekern/check.h>
#include <unistd.h>

#define EVENTS "/sys/kernel/tracing/events/"

/* write() of text to path in one call: 0 or -errno (of open or write). */
static long write_text(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -errno;
    long r = write(fd, text, strlen(text));
    long err = r < 0 ? -errno : 0;
    close(fd);
    return err;
}

/* What path reads as (NUL-terminated, at most 127 bytes). */
static const char *read_text(const char *path)
{
    static char buf[128];
    int fd = open(path, O_RDONLY);
    long n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
    close(fd);
    buf[n > 0 ? n : 0] = '\0';
    return buf;
}

/* A filter write that must fail with EINVAL and leave the event's filter "none". */
static void refused(const char *event, const char *filter)
{
    char path[128], what[160];
    snprintf(path, sizeof path, EVENTS "%s/filter", event);
    snprintf(what, sizeof what, "%s: '%s'", event, filter);
    check_errno(what, (int)-write_text(path, filter), EINVAL);
}

/* A filter that names the event's own fields: taken, then cleared. */
static void taken(const char *event, const char *filter)
{
    char path[128], what[160];
    snprintf(path, sizeof path, EVENTS "%s/filter", event);
    snprintf(what, sizeof what, "%s: '%s' is taken and cleared", event, filter);
    long err = write_text(path, filter);
    if (!err)
        err = write_text(path, "0");
    check_errno(what, (int)-err, 0);
}

int main(void)
{
    /* mmio/: each enable arms the fault path for new mappings, each disable disarms. */
    long bad = 0;
    for (int i = 0; i < 200; i++) {
        bad += write_text(EVENTS "mmio/mmio_rw/enable", "1") != 0;
        bad += write_text(EVENTS "mmio/enable", i % 2 ? "1" : "0") != 0;
        bad += write_text(EVENTS "mmio/mmio_rw/enable", "0") != 0;
        bad += write_text(EVENTS "mmio/mmio_map/enable", "0") != 0;
    }
    check_number("800 enable writes to mmio/ refused", bad, 0);
    check_true("mmio/ is off after them", strcmp(read_text(EVENTS "mmio/enable"), "0\n") == 0);
    bad = 0;
    for (int i = 0; i < 100; i++)
        bad += write_text(EVENTS "timer/enable", i % 2 ? "0" : "1") != 0 ||
               write_text(EVENTS "ipc/enable", i % 2 ? "0" : "1") != 0 ||
               write_text(EVENTS "pci/enable", i % 2 ? "0" : "1") != 0;
    check_number("300 enable writes to timer/, ipc/, pci/ refused", bad, 0);
    check_errno("enable '2'", (int)-write_text(EVENTS "mmio/mmio_rw/enable", "2"), EINVAL);
    check_errno("enable '-1'", (int)-write_text(EVENTS "timer/hrtimer_start/enable", "-1"), EINVAL);
    check_errno("enable 'on'", (int)-write_text(EVENTS "ipc/ipc_call/enable", "on"), EINVAL);

    refused("mmio/mmio_rw", "addr ~ \"fea*\"");
    refused("mmio/mmio_rw", "phys == 0xfea00020");
    refused("mmio/mmio_rw", "addr == ");
    refused("mmio/mmio_rw", "addr == 0xfea00020 &&");
    refused("mmio/mmio_map", "addr == 0x1 || (op == 4");
    refused("timer/hrtimer_expire_entry", "function ~ \"timer*\"");
    refused("timer/hrtimer_start", "expires == 99999999999999999999999");
    refused("ipc/ipc_call", "token");
    refused("ipc/ipc_send", "label == label");
    refused("pci/pci_driver_bind", "driver < \"edu\"");
    refused("pci/pci_driver_unbind", "ret == 0");
    check_true("the refused filters left mmio_rw's as it was",
               strcmp(read_text(EVENTS "mmio/mmio_rw/filter"), "none\n") == 0);

    taken("mmio/mmio_rw", "addr == 0xfea00020 && width == 4 && rw == 1 && pc != 0 && map_id > 0");
    taken("mmio/mmio_map", "op == 4 && len >= 4096 && virt > 0");
    taken("timer/hrtimer_start", "expires > 0 && mode == 1 && softexpires == 5");
    taken("timer/hrtimer_expire_entry", "now > 0 && hrtimer != 0");
    taken("ipc/ipc_call", "ep == 1 && caller != 0 && server > 1 && label < 3 && len <= 120");
    taken("ipc/ipc_recv", "sender > 0 || token == 0");
    taken("pci/pci_config_write", "bus == 0 && dev == 4 && offset == 4 && width == 2");
    taken("pci/pci_driver_bind", "driver ~ \"ed*\" && ret == 0 && vendor == 0x1234");

    /* An ordinary user may not touch them. */
    check_call("setuid(1000)", setuid(1000), 0);
    check_errno("uid 1000: open mmio/mmio_rw/enable for writing",
                (int)-write_text(EVENTS "mmio/mmio_rw/enable", "1"), EACCES);
    check_errno("uid 1000: open ipc/ipc_call/filter for writing",
                (int)-write_text(EVENTS "ipc/ipc_call/filter", "ep == 1"), EACCES);
    check_errno("uid 1000: open timer/enable for writing",
                (int)-write_text(EVENTS "timer/enable", "1"), EACCES);
    check_errno("uid 1000: open pci/pci_config_write/enable for writing",
                (int)-write_text(EVENTS "pci/pci_config_write/enable", "1"), EACCES);
    return check_summary("hostile_events");
}
