/*
 * hostile_filter.c - attacks on the event filter files (issue 18): each write must fail
 * with EINVAL, leave the filter as it was and harm nothing (tests/shell/hostile_filter.script).
 *
 * Usage: hostile_filter    every attack, one check line each (tracekern/check.h)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracekern/check.h>
#include <unistd.h>

#define FILTER "/sys/kernel/tracing/events/syscalls/sys_enter_write/filter"
#define SYSTEM_FILTER "/sys/kernel/tracing/events/syscalls/filter"

static char big[65536];

/* write() of len bytes of text to path in one call: 0 or -errno. */
static long write_raw(const char *path, const char *text, size_t len)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -errno;
    long r = write(fd, text, len);
    long err = r < 0 ? -errno : 0;
    close(fd);
    return err;
}

/* What path reads as, into buf (NUL-terminated). */
static const char *read_text(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY);
    long n = fd < 0 ? -1 : read(fd, buf, size - 1);
    close(fd);
    buf[n > 0 ? n : 0] = '\0';
    return buf;
}

/* n copies of unit, then tail, in big. */
static size_t repeat(const char *head, const char *unit, unsigned n, const char *tail)
{
    size_t len = 0, u = strlen(unit);
    len += (size_t)snprintf(big, sizeof big, "%s", head);
    for (unsigned i = 0; i < n && len + u + 64 < sizeof big; i++) {
        memcpy(big + len, unit, u);
        len += u;
    }
    len += (size_t)snprintf(big + len, sizeof big - len, "%s", tail);
    return len;
}

static void refused(const char *what, const char *path, size_t len)
{
    check_errno(what, (int)-write_raw(path, big, len), EINVAL);
}

int main(void)
{
    char text[256];
    check_call("a valid filter is taken", write_raw(FILTER, "fd == 1", 7), 0);

    refused("64 KiB of predicates", FILTER, repeat("fd == 1", " || fd == 1", 6000, ""));
    refused("65 predicates (one past the bound)", FILTER,
            repeat("fd == 0", " || fd == 0", 64, ""));
    refused("1000 nested parentheses", FILTER, repeat("", "(", 1000, "fd == 1"));
    refused("33 nested parentheses (one past the bound)", FILTER,
            repeat("", "(", 33, "fd == 1)))))))))))))))))))))))))))))))))"));
    refused("1000 negations", FILTER, repeat("", "!", 1000, "fd == 1"));
    refused("an unknown field", FILTER, repeat("nosuchfield == 1", "", 0, ""));
    refused("a number too large for 64 bits", FILTER,
            repeat("fd == 99999999999999999999999", "", 0, ""));
    refused("a string compared with a number field", FILTER, repeat("fd ~ \"*\"", "", 0, ""));
    for (int i = 0; i < 256; i++)
        big[i] = (char)(255 - i);
    refused("256 bytes of binary junk", FILTER, 256);
    memcpy(big, "fd == 1\0|| fd == 2", 18);
    refused("a NUL inside the filter", FILTER, 18);
    refused("an unterminated quote", FILTER, repeat("fd == 1 && common_pid == \"", "x", 100, ""));
    refused("the system filter with a field no event has", SYSTEM_FILTER,
            repeat("nosuchfield == 1", "", 0, ""));

    check_true("the filter is still the one set before the attacks",
               strcmp(read_text(FILTER, text, sizeof text), "fd == 1\n") == 0);

    /* The bounds themselves pass: 64 predicates, 32 parentheses. */
    check_call("64 predicates are taken", write_raw(FILTER, big, repeat("fd == 0", " || fd == 0", 63, "")), 0);
    check_call("32 nested parentheses are taken", write_raw(FILTER, big,
               repeat("", "(", 32, "fd == 1))))))))))))))))))))))))))))))))")), 0);

    /* Replaced many times while this program's own writes are traced through it. */
    long bad = 0;
    for (int i = 0; i < 300; i++) {
        bad += write_raw(FILTER, i % 2 ? "fd == 1" : "fd != 1 && common_pid > 0", i % 2 ? 7 : 25) != 0;
        bad += write_raw(FILTER, "0", 1) != 0;
    }
    check_number("300 replacements and clears refused", bad, 0);
    check_true("cleared at the end", strcmp(read_text(FILTER, text, sizeof text), "none\n") == 0);

    /* error_log keeps the newest 16 entries, however many were refused. */
    for (int i = 0; i < 40; i++)
        write_raw(FILTER, "nosuchfield == 1", 16);
    static char log[65536];
    read_text("/sys/kernel/tracing/error_log", log, sizeof log);
    int entries = 0;
    for (const char *p = log; (p = strstr(p, "  Command: ")); p++)
        entries++;
    check_number("error_log entries after 50 refusals", entries, 16);
    check_call("echo > error_log empties it", write_raw("/sys/kernel/tracing/error_log", "", 0), 0);
    check_true("error_log is empty", read_text("/sys/kernel/tracing/error_log", log, sizeof log)[0] == '\0');
    return check_summary("hostile_filter");
}
