/*
 * hostile_triggers.c - attacks on the trigger and hist files and the snapshot buffer
 * (issue 18): each must be refused with Linux's errno and harm nothing; last, what an
 * O_TRUNC open of a trigger file removes
 * (tests/shell/hostile_triggers.script, which writes two markers to trace_marker first).
 *
 * Usage: hostile_triggers    every attack, one check line each (tracekern/check.h)
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/user_events.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <tracekern/check.h>
#include <unistd.h>

#define T "/sys/kernel/tracing/"
#define WRITE_TRIGGER T "events/syscalls/sys_enter_write/trigger"
#define GETPID_TRIGGER T "events/syscalls/sys_enter_getpid/trigger"
#define HT T "events/user_events/hostile_ht/"
#define HT_COMMAND "hostile_ht u32 n"

static char big[65536];
static char text[1 << 20];

/* write() of len bytes to path in one call: 0 or -errno. */
static long write_raw(const char *path, const char *data, size_t len)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -errno;
    long r = write(fd, data, len);
    long err = r < 0 ? -errno : 0;
    close(fd);
    return err;
}

static long put(const char *path, const char *line) { return write_raw(path, line, strlen(line)); }

/* One check: writing line to path gives want (an errno, or 0). */
static void put_is(const char *what, const char *path, const char *line, int want)
{
    check_errno(what, (int)-put(path, line), want);
}

/* The whole of path, read in pieces, into text (NUL-terminated); its length or -errno. */
static long read_all(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -errno;
    size_t len = 0;
    long n;
    while (len < sizeof text - 1 && (n = read(fd, text + len, sizeof text - 1 - len)) > 0)
        len += (size_t)n;
    close(fd);
    text[len] = '\0';
    return (long)len;
}

/* The next line of text from *cursor (which it moves past it), NUL-terminated in place;
 * NULL at the end. */
static char *next_line(char **cursor)
{
    char *line = *cursor;
    if (!*line)
        return NULL;
    char *nl = strchr(line, '\n');
    if (nl) {
        *nl = '\0';
        *cursor = nl + 1;
    } else {
        *cursor = line + strlen(line);
    }
    return line;
}

static int count_of(const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

static void malformed(void)
{
    const char *bad[] = { "bogus", "traceon:x", "traceon if", "traceon if nosuch == 1",
                          "traceoff:99999999999", "enable_event", "enable_event:syscalls",
                          "enable_event:nosuch:event", "disable_event:syscalls:nosuch:1",
                          "hist", "hist:keys=nosuch", "hist:keys=fd:size=1",
                          "hist:keys=fd:sort=nosuch", "hist:vals=fd", "stacktrace:1 when x" };
    long wrong = 0;
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
        wrong += put(WRITE_TRIGGER, bad[i]) != -EINVAL;
    check_number("15 malformed trigger lines, each EINVAL", wrong, 0);
    memset(big, 'x', sizeof big);
    memcpy(big, "traceon if fd == ", 17);
    check_errno("a 64 KiB trigger line", (int)-write_raw(WRITE_TRIGGER, big, sizeof big), EINVAL);
    for (int i = 0; i < 256; i++)
        big[i] = (char)(255 - i);
    check_errno("256 bytes of binary junk", (int)-write_raw(WRITE_TRIGGER, big, 256), EINVAL);
    check_errno("a NUL inside the command", (int)-write_raw(WRITE_TRIGGER, "traceon\0:1", 10),
                EINVAL);
    read_all(WRITE_TRIGGER);
    check_true("the trigger file still lists no trigger",
               strncmp(text, "# Available triggers:\n", 22) == 0);
    read_all(T "events/syscalls/sys_enter_write/enable");
    check_true("the event is still disabled", strcmp(text, "0\n") == 0);
    read_all(T "error_log");
    check_number("error_log keeps its newest 16 entries", count_of("  Command: "), 16);
}

/* enable_event triggers on sys_enter_write aiming at other syscall events, up to the bound. */
static void many_triggers(void)
{
    read_all(T "available_events");
    static char names[80][64];
    int n = 0;
    char *cursor = text, *name;
    while ((name = next_line(&cursor)) && n < 80)
        if (strncmp(name, "syscalls:sys_exit_", 18) == 0)
            snprintf(names[n++], sizeof names[0], "%s", name);
    check_true("at least 65 syscall exit events to aim at", n >= 65);
    long wrong = 0;
    char line[128];
    for (int i = 0; i < 64; i++) {
        snprintf(line, sizeof line, "enable_event:%s:%d", names[i], i + 1);
        wrong += put(WRITE_TRIGGER, line) != 0;
    }
    check_number("64 enable_event triggers on one event", wrong, 0);
    snprintf(line, sizeof line, "enable_event:%s", names[64]);
    put_is("the 65th", WRITE_TRIGGER, line, ENOSPC);
    snprintf(line, sizeof line, "disable_event:%s", names[0]);
    put_is("disable_event on a target enable_event already has", WRITE_TRIGGER, line, EEXIST);
    for (int i = 0; i < 64; i++) {
        snprintf(line, sizeof line, "!enable_event:%s", names[i]);
        wrong += put(WRITE_TRIGGER, line) != 0;
    }
    check_number("all 64 removed", wrong, 0);
    read_all(T "events/syscalls/sys_enter_write/enable");
    check_true("sys_enter_write disarmed: enable reads 0", strcmp(text, "0\n") == 0);
    /* This program's own writes fired the triggers: their targets were turned on, and
     * stay on once the triggers go, as on Linux. */
    read_all(T "set_event");
    check_true("targets the triggers turned on stay on", count_of("syscalls:sys_exit_") >= 60);
    put_is("turn them off", T "events/syscalls/enable", "0", 0);
    read_all(T "set_event");
    check_true("no target left enabled", strstr(text, "syscalls:") == NULL);
}

/* hist tables on syscall events until the hist budget refuses one. */
static void hist_budget(void)
{
    put_is("a hist table of 131072 entries is past the budget", WRITE_TRIGGER,
           "hist:keys=fd:size=131072", ENOMEM);
    read_all(T "available_events");
    static char names[200][64];
    int n = 0;
    char *cursor = text, *line;
    while ((line = next_line(&cursor)) && n < 200)
        if (strncmp(line, "syscalls:sys_enter_", 19) == 0)
            snprintf(names[n++], sizeof names[0], "%s", line + 9);
    int made = 0;
    long err = 0;
    char path[160];
    for (int i = 0; i < n && !err; i++) {
        snprintf(path, sizeof path, T "events/syscalls/%s/trigger", names[i]);
        err = put(path, "hist:keys=common_pid.execname");
        made += err == 0;
    }
    check_errno("hist tables on every syscall event until one is refused", (int)-err, ENOMEM);
    check_true("at least 8 fit first", made >= 8);
    long wrong = 0;
    for (int i = 0; i < made; i++) {
        snprintf(path, sizeof path, T "events/syscalls/%s/trigger", names[i]);
        wrong += put(path, "!hist:keys=common_pid.execname") != 0;
    }
    check_number("all removed", wrong, 0);
    put_is("and the budget is back", WRITE_TRIGGER, "hist:keys=fd", 0);
    put_is("removed again", WRITE_TRIGGER, "!hist:keys=fd", 0);
}

/* A user event counted by a hist of 128 entries: 300 distinct keys, 172 dropped. */
static void hist_full_and_user_event(void)
{
    put_is("create " HT_COMMAND, T "dynamic_events", "u:" HT_COMMAND, 0);
    put_is("hist:keys=n:size=128 on it", HT "trigger", "hist:keys=n:size=128", 0);
    put_is("enable_event on itself (recursion is a flag)", HT "trigger",
           "enable_event:user_events:hostile_ht", 0);
    int data = open(T "user_events_data", O_RDWR);
    struct user_reg_status reg = { 0 };
    reg.size = sizeof reg;
    reg.name_args = (uintptr_t)HT_COMMAND;
    check_call("register it for writing", ioctl(data, DIAG_IOCSREG, &reg), 0);
    long wrong = 0;
    for (uint32_t i = 0; i < 300; i++) {
        uint32_t rec[2] = { reg.write_index, i };
        wrong += write(data, rec, sizeof rec) != (ssize_t)sizeof rec;
    }
    check_number("300 events written", wrong, 0);
    read_all(HT "hist");
    check_true("the hist says Hits: 300, Entries: 128, Dropped: 172",
               strstr(text, "Totals:\n    Hits: 300\n    Entries: 128\n    Dropped: 172\n"));
    check_number("128 lines in the table", count_of("{ n: "), 128);
    close(data); /* its registration no longer holds the event: only the triggers do */
    data = open(T "user_events_data", O_RDWR);
    put_is("delete it while triggers hold it (dynamic_events)", T "dynamic_events", "!u:hostile_ht",
           EBUSY);
    check_call("delete it while triggers hold it (DIAG_IOCSDEL)",
               ioctl(data, DIAG_IOCSDEL, "hostile_ht"), EBUSY);
    int trig = open(HT "trigger", O_RDWR);
    put_is("remove the hist", HT "trigger", "!hist:keys=n", 0);
    put_is("remove enable_event", HT "trigger", "!enable_event:user_events:hostile_ht", 0);
    read_all(HT "enable");
    check_true("enable_event on itself left it on, as Linux does", strcmp(text, "1\n") == 0);
    check_call("so it is still busy", ioctl(data, DIAG_IOCSDEL, "hostile_ht"), EBUSY);
    put_is("turn it off", HT "enable", "0", 0);
    check_call("delete it now", ioctl(data, DIAG_IOCSDEL, "hostile_ht"), 0);
    close(data);
    check_call("write to its trigger file held open", write(trig, "traceon", 7), ENODEV);
    char buf[64];
    check_call("read it", read(trig, buf, sizeof buf), ENODEV);
    close(trig);
}

/* Floods: a stacktrace trigger on every getpid, one on the timer interrupt, a snapshot
 * trigger swapping under them; then the trace must hold every marker and stack trace. */
static void floods(void)
{
    put_is("stacktrace on every getpid", GETPID_TRIGGER, "stacktrace", 0);
    put_is("snapshot:1000 on every getpid too", GETPID_TRIGGER, "snapshot:1000", 0);
    put_is("stacktrace:50 on irq_handler_entry", T "events/irq/irq_handler_entry/trigger",
           "stacktrace:50", 0);
    for (int i = 0; i < 3000; i++)
        getpid();
    put_is("snapshot trigger keeps the buffer: echo 0 > snapshot", T "snapshot", "0", EBUSY);
    put_is("remove the snapshot trigger", GETPID_TRIGGER, "!snapshot", 0);
    put_is("remove the getpid stacktrace", GETPID_TRIGGER, "!stacktrace", 0);
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        read_all(T "events/irq/irq_handler_entry/trigger");
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while (!strstr(text, "stacktrace:count=0") && now.tv_sec - start.tv_sec < 5);
    check_true("the timer's stacktrace:50 was used up", strstr(text, "stacktrace:count=0") != NULL);
    put_is("remove it", T "events/irq/irq_handler_entry/trigger", "!stacktrace", 0);
    /* 1000 swaps: the live buffer is the one that had the markers (an even count). */
    put_is("free the snapshot", T "snapshot", "0", 0);
    long len = read_all(T "trace");
    if (!check_true("trace read whole", len > 0 && len < (long)sizeof text - 1))
        printf("#   %ld bytes\n", len);
    check_true("both markers are still in the trace",
               strstr(text, "before-attacks-1") && strstr(text, "before-attacks-2"));
    int stacks = count_of("<stack trace>");
    if (!check_true("at least the getpid flood's stack traces since the last swap", stacks >= 2000))
        printf("#   %d stack traces\n", stacks);
    char *h = strstr(text, "# entries-in-buffer/entries-written: ");
    unsigned long in = 0, written = 1;
    if (h) {
        char *end;
        in = strtoul(h + 37, &end, 10);
        written = *end == '/' ? strtoul(end + 1, NULL, 10) : written;
    }
    check_true("entries-in-buffer equals entries-written", in == written);
    read_all(T "events/syscalls/sys_enter_getpid/enable");
    check_true("getpid disarmed", strcmp(text, "0\n") == 0);
}

/* A program's open with O_TRUNC removes the event's hist triggers first, as Linux's
 * trigger file open does, even when what it then writes is refused; the event's other
 * triggers stay, and an open without O_TRUNC removes nothing. */
static void truncating_open(void)
{
    put_is("a hist on getpid", GETPID_TRIGGER, "hist:keys=common_pid", 0);
    put_is("and a traceon", GETPID_TRIGGER, "traceon", 0);
    int fd = open(GETPID_TRIGGER, O_WRONLY);
    if (fd >= 0)
        close(fd);
    read_all(GETPID_TRIGGER);
    check_true("an open without O_TRUNC keeps both",
               count_of("hist:keys=common_pid") == 1 && count_of("traceon:unlimited") == 1);
    fd = open(GETPID_TRIGGER, O_WRONLY | O_TRUNC);
    long err = fd < 0 ? -errno : write(fd, "bogus", 5) < 0 ? -errno : 0;
    if (fd >= 0)
        close(fd);
    check_errno("O_TRUNC open, then a refused write", (int)-err, EINVAL);
    read_all(GETPID_TRIGGER);
    check_true("the hist is gone, the traceon stays",
               count_of("hist:") == 0 && count_of("traceon:unlimited") == 1);
    put_is("remove the traceon", GETPID_TRIGGER, "!traceon", 0);
}

int main(void)
{
    malformed();
    many_triggers();
    hist_budget();
    hist_full_and_user_event();
    floods();
    truncating_open();
    return check_summary("hostile_triggers");
}
