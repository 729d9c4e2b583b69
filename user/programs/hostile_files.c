/*
 * hostile_files.c - a program that tries what an unprivileged attacker would with files,
 * user ids and IPC names, and checks that each attempt gets Linux's exact refusal; run as
 * root, it checks that the same opens succeed, as on Linux.
 *
 *   hostile_files user    run with `run -u 1000 ...`: every attack must fail as expected
 *   hostile_files root    run as root: the same files open; ids drop and come back only
 *                         as Linux allows
 *
 * Prints one line per check ("ok N - what -> EACCES", tracekern/check.h) and ends with
 * "hostile_files: P passed, F failed"; the exit status is 1 when anything failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <tracekern/check.h>
#include <tracekern/ipc.h>
#include <unistd.h>

#define KERNEL_ADDRESS 0xc0100000
#define UNMAPPED_ADDRESS 0x1000
#define FILES_PER_PROCESS 32  /* kernel/proc/proc.h TASK_FILES_MAX */
#define ENDPOINTS_PER_TASK 8  /* kernel/ipc/ipc.h IPC_ENDPOINTS_PER_TASK */
#define NAMES_PER_TASK 4      /* kernel/ipc/nameserver.c NS_NAMES_PER_TASK */

/* Opens path with flags, closes it again if that worked, and checks errno want. */
static void expect_open(const char *path, int flags, int want)
{
    char what[160];
    snprintf(what, sizeof what, "open %s %s", path,
             (flags & O_ACCMODE) == O_RDONLY ? "for reading"
             : (flags & O_ACCMODE) == O_WRONLY ? "for writing"
             : (flags & O_ACCMODE) == O_RDWR ? "for reading and writing"
                                             : "with access mode 3 (ioctl only)");
    int fd = open(path, flags);
    check_call(what, fd, want);
    if (fd >= 0)
        close(fd);
}

/* The files a non-root program must not read: the console's keystrokes, the other
 * programs' IPC, and the trace itself. */
static const char *const secret_files[] = {
    "/sys/kernel/debug/ipc_logging/serial/log",
    "/sys/kernel/debug/ipc_logging/serial/log_cont",
    "/sys/kernel/debug/ipc_logging/ipc/log",
    "/sys/kernel/tracing/trace",
    "/sys/kernel/tracing/trace_pipe",
    "/sys/kernel/tracing/saved_cmdlines",
    "/sys/kernel/tracing/user_events_status",
};

/* The control files of tracefs, and the devices whose output others trust. */
static const char *const control_files[] = {
    "/dev/kmsg",
    "/dev/ttyS1",
    "/dev/console",
    "/sys/kernel/tracing/tracing_on",
    "/sys/kernel/tracing/current_tracer",
    "/sys/kernel/tracing/buffer_size_kb",
    "/sys/kernel/tracing/trace_entries",
    "/sys/kernel/tracing/trace_marker",
    "/sys/kernel/tracing/trace",
    "/sys/kernel/tracing/set_event",
    "/sys/kernel/tracing/set_ftrace_filter",
    "/sys/kernel/tracing/set_ftrace_notrace",
    "/sys/kernel/tracing/set_graph_function",
    "/sys/kernel/tracing/function_profile_enabled",
    "/sys/kernel/tracing/dynamic_events",
    "/sys/kernel/tracing/user_events_data",
    "/sys/kernel/tracing/events/enable",
    "/sys/kernel/tracing/events/syscalls/enable",
    "/sys/kernel/tracing/events/syscalls/sys_enter_open/enable",
    "/sys/kernel/tracing/options/overwrite",
    "/sys/kernel/tracing/options/stream_com2",
    "/sys/kernel/tracing/options/func_stack_trace",
    "/sys/kernel/tracing/mmiotrace/filter_offset",
    "/proc/sys/kernel/user_events_max",
};

/* Files nobody writes; opening them for writing fails for everyone (here and in the
 * whole-tree check of hostile_files.check, which walks `ls -lR /`). */
static const char *const read_only_files[] = {
    "/sys/kernel/tracing/per_cpu/cpu0/stats",
    "/sys/kernel/tracing/trace_stat/function0",
    "/sys/kernel/debug/ipc_logging/pci/stats",
    "/sys/kernel/tracing/available_events",
    "/proc/bus/pci/devices",
    "/proc/kallsyms",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Reads the first lines of /proc/kallsyms; true when every address in them is zero. */
static int kallsyms_all_zero(int *lines)
{
    char buf[2048];
    int fd = open("/proc/kallsyms", O_RDONLY);
    long n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    if (fd >= 0)
        close(fd);
    *lines = 0;
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    int zero = 1;
    for (char *line = buf; *line && strchr(line, '\n'); line = strchr(line, '\n') + 1) {
        (*lines)++;
        if (strncmp(line, "00000000 ", 9) != 0)
            zero = 0;
    }
    return zero;
}

/* Attacks with files: nothing secret opens for reading, nothing trusted for writing. */
static void file_attacks(void)
{
    for (unsigned i = 0; i < COUNT(secret_files); i++)
        expect_open(secret_files[i], O_RDONLY, EACCES);
    for (unsigned i = 0; i < COUNT(control_files); i++)
        expect_open(control_files[i], O_WRONLY, EACCES);
    for (unsigned i = 0; i < COUNT(read_only_files); i++)
        expect_open(read_only_files[i], O_WRONLY, EACCES);
    expect_open("/dev/kmsg", O_RDWR, EACCES);
    expect_open("/sys/kernel/tracing/trace", O_RDONLY | O_TRUNC, EACCES);
    /* Through a directory it may not search, even to a name that exists. */
    expect_open("/sys/kernel/tracing/events/../../../../proc/meminfo", O_RDONLY, EACCES);
    /* What Linux lets anyone do still works. */
    expect_open("/proc/meminfo", O_RDONLY, 0);
    expect_open("/proc/kallsyms", O_RDONLY, 0);
    expect_open("/dev/null", O_RDWR, 0);
    /* dmesg_restrict=1: the kernel log holds what was typed at the console. The mode
     * (0644) lets the open through; devkmsg_open's CAP_SYSLOG check refuses it. */
    expect_open("/dev/kmsg", O_RDONLY, EPERM);
    /* A trailing slash asks for a directory. */
    expect_open("/dev/kmsg/", O_WRONLY, ENOTDIR);
    expect_open("/dev/null/", O_RDONLY, ENOTDIR);
    /* Access mode 3 asks for read and write permission and gives neither. */
    expect_open("/proc/meminfo", 3, EACCES);
    int ioctl_only = open("/dev/null", 3);
    check_call("open /dev/null with access mode 3 (ioctl only)", ioctl_only, 0);
    char byte;
    check_call("read from it", read(ioctl_only, &byte, 1), EBADF);
    check_call("write to it", write(ioctl_only, "x", 1), EBADF);
    close(ioctl_only);
    int lines;
    int zero = kallsyms_all_zero(&lines);
    check_true("/proc/kallsyms shows every address as 00000000", zero == 1 && lines > 10);
    /* The forged lines of the issue, had the opens worked. */
    int fd = open("/dev/kmsg", O_WRONLY);
    const char forged[] = "Kernel panic - not syncing: FORGED-BY-USER\n";
    check_call("forge a panic line in dmesg",
               fd < 0 ? -1 : write(fd, forged, sizeof forged - 1), EACCES);
    fd = open("/dev/ttyS1", O_WRONLY);
    const char fake_mmio[] = "R 4 0.000001 1 0xfebf0000 0x0 0x0 0 FORGED-BY-USER\n";
    check_call("forge an mmiotrace line in the COM2 stream",
               fd < 0 ? -1 : write(fd, fake_mmio, sizeof fake_mmio - 1), EACCES);
}

/* Attacks on the id system calls as an ordinary user (uid 1000, gid 1000). */
static void id_attacks(void)
{
    uid_t r, e, s;
    check_call("setuid(0)", setuid(0), EPERM);
    check_call("setgid(0)", setgid(0), EPERM);
    check_call("setresuid(0, 0, 0)", setresuid(0, 0, 0), EPERM);
    check_call("setresuid(-1, 0, -1): become root in euid only", setresuid(-1, 0, -1), EPERM);
    check_call("setresgid(0, -1, -1)", setresgid(0, -1, -1), EPERM);
    check_call("setreuid(0, -1)", setreuid(0, -1), EPERM);
    check_call("setregid(-1, 0)", setregid(-1, 0), EPERM);
    check_call("setuid16(0)", syscall(SYS_setuid, 0), EPERM);
    check_call("setuid16(0x10000): only 16 bits count, so 0", syscall(SYS_setuid, 0x10000), EPERM);
    check_call("setresuid16(-1, -1, 0)", syscall(SYS_setresuid, 0xffff, 0xffff, 0), EPERM);
    check_call("setuid(-1): not an id", setuid(-1), EINVAL);
    check_call("setresuid(-1, -1, -1): changes nothing", setresuid(-1, -1, -1), 0);
    check_call("setresuid16(0xffff x3)", syscall(SYS_setresuid, 0xffff, 0xffff, 0xffff), 0);
    check_call("setuid(own uid)", setuid(1000), 0);
    check_true("ids are 1000:1000",
               getuid() == 1000 && geteuid() == 1000 && getgid() == 1000 && getegid() == 1000);
    check_call("getresuid into unmapped memory",
               getresuid((uid_t *)UNMAPPED_ADDRESS, &e, &s), EFAULT);
    check_call("getresuid into kernel memory", getresuid(&r, &e, (uid_t *)KERNEL_ADDRESS), EFAULT);
    check_call("getresgid across the end of user memory",
               getresgid(&r, (gid_t *)(0xc0000000u - 2), &s), EFAULT);
    check_call("getresuid16 into kernel memory",
               syscall(SYS_getresuid, &r, &e, (void *)KERNEL_ADDRESS), EFAULT);
    check_call("getresuid", getresuid(&r, &e, &s), 0);
    check_true("getresuid says 1000 1000 1000", r == 1000 && e == 1000 && s == 1000);
}

/* Attacks on the name service: squat the kernel's names, bind someone else's endpoint. */
static void ipc_attacks(void)
{
    int own = ipc_create("pong");
    check_call("create an endpoint called pong (a label only)", own, 0);
    check_call("squat the name pong before ipc_pong starts", ipc_register(own, "pong"), EACCES);
    check_call("take the name service's own name", ipc_register(own, "nameserver"), EACCES);
    check_call("take ipc_test's reserved name", ipc_register(own, "ipc_test"), EACCES);
    check_call("bind the name service's endpoint", ipc_register(IPC_NAMESERVER, "mine"), EPERM);
    struct ipc_msg m = { 0 };
    check_call("receive on the name service's endpoint", ipc_recv(IPC_NAMESERVER, &m, 0), EPERM);
    check_call("answer a call this program never took", ipc_reply(1, &m), ESRCH);
    check_call("pong is not found while its server is away", ipc_lookup("pong"), ENOENT);
}

/* Floods of each per-process resource: each ends with its errno at its limit. */
static void floods(void)
{
    int fds[FILES_PER_PROCESS], opened = 0, fd;
    while ((fd = open("/dev/null", O_RDONLY)) >= 0 && opened < FILES_PER_PROCESS)
        fds[opened++] = fd;
    check_call("open /dev/null until the descriptor table is full", fd, EMFILE);
    check_true("29 opens fit beside stdin, stdout and stderr", opened == FILES_PER_PROCESS - 3);
    while (opened > 0)
        close(fds[--opened]);

    int eps[ENDPOINTS_PER_TASK + 1], made = 0, ep;
    while ((ep = ipc_create("flood")) >= 0 && made < ENDPOINTS_PER_TASK + 1)
        eps[made++] = ep;
    check_call("create endpoints until the per-process limit", ep, EMFILE);
    check_true("7 more endpoints fit beside the first", made == ENDPOINTS_PER_TASK - 1);

    int bound = 0, err = 0;
    for (int i = 0; i < made && err == 0; i++) {
        char name[16];
        snprintf(name, sizeof name, "flood%d", i);
        err = ipc_register(eps[i], name);
        bound += err == 0;
    }
    check_call("register names until the per-process limit", err, ENOSPC);
    check_true("4 names fit", bound == NAMES_PER_TASK);
}

/* Through the tree's links (kernel/fs/fs_layout.h): /sys/kernel/debug/tracing and /debug
 * lead into tracefs and debugfs, and each directory on the way is checked as it is met,
 * so the links open no back door. */
static void link_attacks(void)
{
    expect_open("/sys/kernel/debug/tracing/trace", O_RDONLY, EACCES);
    expect_open("/debug/tracing/trace_marker", O_WRONLY, EACCES);
    expect_open("/debug/ipc_logging/serial/log", O_RDONLY, EACCES);
    check_call("chdir /sys/kernel/debug", chdir("/sys/kernel/debug"), EACCES);
    check_call("chdir /debug/tracing", chdir("/debug/tracing"), EACCES);
}

/* As root, everything the attacks tried opens, and ids drop as Linux lets them. */
static void root_checks(void)
{
    for (unsigned i = 0; i < COUNT(secret_files); i++)
        if (strstr(secret_files[i], "trace_pipe") == 0) /* opened, not read: reading takes */
            expect_open(secret_files[i], O_RDONLY, 0);
    for (unsigned i = 0; i < COUNT(control_files); i++)
        expect_open(control_files[i], O_WRONLY, 0);
    expect_open("/sys/kernel/tracing/trace_pipe", O_RDONLY, 0);
    expect_open("/debug/tracing/trace", O_RDONLY, 0);
    expect_open("/dev/kmsg", O_RDONLY, 0);
    int lines;
    check_true("/proc/kallsyms shows root the addresses", kallsyms_all_zero(&lines) == 0);
    int fd = open("/dev/kmsg", O_WRONLY);
    const char line[] = "hostile_files: root wrote this line to /dev/kmsg\n";
    check_call("root writes a line to dmesg", fd < 0 ? -1 : write(fd, line, sizeof line - 1), 0);
    close(fd);
    fd = open("/dev/ttyS1", O_WRONLY);
    const char com2[] = "hostile_files: root wrote this line to /dev/ttyS1\n";
    check_call("root writes a line to COM2", fd < 0 ? -1 : write(fd, com2, sizeof com2 - 1), 0);
    close(fd);

    /* A temporary drop keeps 0 as the saved id, so it comes back; the files follow. */
    check_call("setresuid(-1, 1000, 0): euid 1000, saved 0", setresuid(-1, 1000, 0), 0);
    expect_open("/sys/kernel/tracing/tracing_on", O_WRONLY, EACCES);
    check_call("setuid(0) with saved id 0: euid back to 0", setuid(0), 0);
    expect_open("/sys/kernel/tracing/tracing_on", O_WRONLY, 0);
    /* 16-bit views of a high id. */
    check_call("setresgid(70000 x3)", setresgid(70000, 70000, 70000), 0);
    check_true("getgid16 shows 70000 as overflowgid 65534, getgid32 as 70000",
               syscall(SYS_getgid) == 65534 && getgid() == 70000);
    unsigned short r16[3] = { 1, 1, 1 };
    check_call("getresgid16", syscall(SYS_getresgid, &r16[0], &r16[1], &r16[2]), 0);
    check_true("getresgid16: 65534 x3", r16[0] == 65534 && r16[1] == 65534 && r16[2] == 65534);
    /* A full drop: setuid as root sets all three, and there is no way back. */
    check_call("setuid(1000) as root: real, effective and saved", setuid(1000), 0);
    check_call("setuid(0) after dropping", setuid(0), EPERM);
    check_call("setresuid(0, 0, 0) after dropping", setresuid(0, 0, 0), EPERM);
    check_call("setreuid(-1, 0) after dropping", setreuid(-1, 0), EPERM);
    expect_open("/sys/kernel/tracing/tracing_on", O_WRONLY, EACCES);
    check_true("after the drop /proc/kallsyms shows zeros", kallsyms_all_zero(&lines) == 1);
}

int main(int argc, char **argv)
{
    int as_root = argc > 1 && strcmp(argv[1], "root") == 0;
    printf("hostile_files: uid %u euid %u gid %u egid %u\n", getuid(), geteuid(), getgid(),
           getegid());
    if (as_root) {
        root_checks();
    } else {
        file_attacks();
        id_attacks();
        ipc_attacks();
        floods();
        link_attacks();
    }
    return check_summary("hostile_files");
}
