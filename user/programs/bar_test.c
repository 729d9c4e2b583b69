/*
 * bar_test.c - a user-space driver's first steps on Linux's sysfs PCI files (issue 23):
 * mmap of edu's memory BAR through resource0, pread/pwrite of pci-testdev's I/O BAR
 * through resource1, and the errors Linux 6.1 gives for what it refuses.
 *
 * Usage: bar_test          the checks (edu and pci-testdev must be there, run as root)
 *        bar_test killed   a child maps edu's BAR and is killed while it hammers it; then
 *                          this process maps it again and edu still answers
 *        bar_test fork     a child of a process that mapped the BAR reads it too (fork
 *                          shares device pages)
 *        bar_test hostile  faults inside traced instructions, a jump into the BAR, pushf
 *                          with the stack in the BAR: each in a child, the device fine
 * Prints, TAP-style (tracekern/check.h), and "bar_test: P passed, F failed" at the end.
 * Under mmiotrace every access here is in the log with this process's pid; the device
 * accesses are exactly those tests/shell/bar_mmap.check compares with QEMU's record.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <tracekern/check.h>
#include <unistd.h>

#define EDU_ID 0x010000ed
#define EDU_BAR_SIZE (1u << 20)

/* The sysfs directory of the function with this vendor and device id, into dir. */
static bool find_device(unsigned vendor, unsigned device, char *dir, size_t size)
{
    DIR *d = opendir("/sys/bus/pci/devices");
    struct dirent *e;
    bool found = false;
    while (d && !found && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[128], text[16];
        unsigned v = 0, id = 0;
        snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/vendor", e->d_name);
        int fd = open(path, O_RDONLY);
        ssize_t n = fd >= 0 ? read(fd, text, sizeof text - 1) : -1;
        if (fd >= 0)
            close(fd);
        if (n > 0) {
            text[n] = 0;
            v = (unsigned)strtoul(text, 0, 16);
        }
        snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/device", e->d_name);
        fd = open(path, O_RDONLY);
        n = fd >= 0 ? read(fd, text, sizeof text - 1) : -1;
        if (fd >= 0)
            close(fd);
        if (n > 0) {
            text[n] = 0;
            id = (unsigned)strtoul(text, 0, 16);
        }
        if (v == vendor && id == device) {
            snprintf(dir, size, "/sys/bus/pci/devices/%s", e->d_name);
            found = true;
        }
    }
    if (d)
        closedir(d);
    return found;
}

/* edu's BAR 0 mapped read-write, or NULL. */
static volatile uint32_t *map_edu(const char *dir, int *fd_out)
{
    char path[160];
    snprintf(path, sizeof path, "%s/resource0", dir);
    int fd = open(path, O_RDWR);
    if (fd < 0)
        return 0;
    void *p = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (fd_out)
        *fd_out = fd;
    else
        close(fd);
    return p == MAP_FAILED ? 0 : (volatile uint32_t *)p;
}

/* The memory BAR: the id, the liveness register, and what Linux refuses. */
static void memory_bar(const char *edu)
{
    char path[160];
    int fd = -1;
    volatile uint32_t *regs = map_edu(edu, &fd);
    check_true("mmap of edu's resource0 (MAP_SHARED, read-write)", regs != 0);
    if (!regs)
        return;
    check_number("edu's id register through the mapping", regs[0], EDU_ID);
    regs[1] = 0x12345678;
    check_number("edu's liveness register: ~X after writing X", regs[1], ~0x12345678u & 0xffffffffu);
    regs[1] = 0xa5a5a5a5;
    check_number("and again with another X", regs[1], 0x5a5a5a5a);
    /* A read-modify-write (stepped under mmiotrace, where a plain mov is emulated): edu
     * reads 0x5a5a5a5a, takes 0x5a5a5a5b, gives back its complement. */
    __asm__ volatile("addl $1, %0" : "+m"(regs[1]) : : "cc");
    check_number("addl $1 to the liveness register, then a read", regs[1], 0xa5a5a5a4);
    check_call("mmap at a page offset past the BAR -> EINVAL",
               (long)mmap(0, 4096, PROT_READ, MAP_SHARED, fd, EDU_BAR_SIZE), EINVAL);
    check_call("mmap of a length past the BAR -> EINVAL",
               (long)mmap(0, 2 * EDU_BAR_SIZE, PROT_READ, MAP_SHARED, fd, 0), EINVAL);
    check_call("mmap of 2 pages from the last one -> EINVAL",
               (long)mmap(0, 8192, PROT_READ, MAP_SHARED, fd, EDU_BAR_SIZE - 4096), EINVAL);
    char buf[4];
    check_call("read of a memory BAR's file -> EIO", read(fd, buf, 4), EIO);
    check_call("pwrite of a memory BAR's file -> EIO", pwrite(fd, buf, 4, 0), EIO);
    struct stat st;
    check_true("st_size of resource0 is the BAR's length",
               fstat(fd, &st) == 0 && st.st_size == EDU_BAR_SIZE);
    check_call("munmap of the BAR", munmap((void *)regs, 4096), 0);
    close(fd);
    snprintf(path, sizeof path, "%s/resource0", edu);
    pid_t child = fork();
    if (child == 0) {
        setuid(1000);
        int nfd = open(path, O_RDONLY);
        _exit(nfd < 0 && errno == EACCES ? 0 : 1);
    }
    int status = -1;
    waitpid(child, &status, 0);
    check_true("open of resource0 by a user who is not root -> EACCES (mode 0600)",
               WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* The I/O BAR: 1, 2 and 4 bytes through pread/pwrite, the rest refused. */
static void io_bar(const char *td)
{
    char path[160];
    snprintf(path, sizeof path, "%s/resource1", td);
    int fd = open(path, O_RDWR);
    check_true("open of pci-testdev's resource1 (its I/O BAR)", fd >= 0);
    if (fd < 0)
        return;
    struct stat st;
    long size = fstat(fd, &st) == 0 ? (long)st.st_size : 0;
    check_true("st_size of resource1 is the I/O BAR's length", size > 8);
    check_call("mmap of an I/O BAR -> ENODEV (no mmap of ports on x86)",
               (long)mmap(0, 4096, PROT_READ, MAP_SHARED, fd, 0), ENODEV);
    uint8_t one = 1;
    uint32_t v = 0;
    check_number("pwrite of 1 byte at offset 0 (select test 1)", pwrite(fd, &one, 1, 0), 1);
    check_number("pread of 1 byte at offset 4", pread(fd, &v, 1, 4), 1);
    check_number("pread of 2 bytes at offset 4", pread(fd, &v, 2, 4), 2);
    check_number("pread of 4 bytes at offset 4", pread(fd, &v, 4, 4), 4);
    check_call("pread of 3 bytes -> EINVAL", pread(fd, &v, 3, 4), EINVAL);
    check_call("pread of 8 bytes -> EINVAL", pread(fd, &v, 8, 0), EINVAL);
    check_call("pwrite of 3 bytes -> EINVAL", pwrite(fd, &v, 3, 0), EINVAL);
    check_number("pread at the end of the BAR -> 0", pread(fd, &v, 1, size), 0);
    check_call("pwrite at the end of the BAR -> EFBIG", pwrite(fd, &one, 1, size), EFBIG);
    check_number("pread of 4 bytes 2 before the end: cut to 2", pread(fd, &v, 4, size - 2), 2);
    check_call("pread at a negative offset -> EINVAL", pread(fd, &v, 1, -1), EINVAL);
    check_call("pwrite at a negative offset -> EINVAL", pwrite(fd, &v, 1, -1), EINVAL);
    check_number("lseek then read of 1 byte (read moves the offset)",
                 lseek(fd, 4, SEEK_SET) == 4 ? read(fd, &v, 1) : -1, 1);
    close(fd);
}

/* A child maps the BAR and writes the liveness register in a loop until it is killed
 * (under mmiotrace most likely inside a step: the add is stepped); then this process maps
 * it again and edu answers. */
static void killed(const char *edu)
{
    int ready[2];
    pipe(ready);
    pid_t child = fork();
    if (child == 0) {
        volatile uint32_t *regs = map_edu(edu, 0);
        char c = regs ? 'y' : 'n';
        write(ready[1], &c, 1);
        for (uint32_t i = 0; regs; i++) { /* a mov (emulated when traced), an add (stepped) */
            regs[1] = i;
            __asm__ volatile("addl $1, %0" : "+m"(regs[1]) : : "cc");
        }
        _exit(1);
    }
    char c = 0;
    read(ready[0], &c, 1);
    check_true("the child mapped edu's BAR", c == 'y');
    usleep(20000);
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    check_true("the child was killed while it wrote the BAR", WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    volatile uint32_t *regs = map_edu(edu, 0);
    check_true("the BAR maps again", regs != 0);
    if (!regs)
        return;
    check_number("edu's id register after the kill", regs[0], EDU_ID);
    regs[1] = 0x0f0f0f0f;
    check_number("edu's liveness register after the kill", regs[1], 0xf0f0f0f0);
    munmap((void *)regs, 4096);
}

/* Runs what(regs) in a child that maps edu's BAR itself (so it is traced there when the
 * tracer is on); the child's wait status. */
static int in_child(const char *edu, void (*what)(volatile uint32_t *regs))
{
    pid_t child = fork();
    if (child == 0) {
        volatile uint32_t *regs = map_edu(edu, 0);
        if (!regs)
            _exit(3);
        what(regs);
        _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    return status;
}

/* movsl from the BAR to an address with nothing mapped: the read is made, the write
 * faults inside the step. */
static void movs_to_nothing(volatile uint32_t *regs)
{
    uint32_t esi = (uint32_t)regs, edi = 0x10, ecx = 1;
    __asm__ volatile("rep movsl" : "+S"(esi), "+D"(edi), "+c"(ecx) : : "memory");
}

/* A 4-byte read across the end of the mapped page: its second half is mapped nowhere. */
static void read_across_the_end(volatile uint32_t *regs)
{
    volatile uint32_t *across = (volatile uint32_t *)((volatile char *)regs + 4094);
    (void)*across;
}

/* An execute of the BAR: a jump into the device page. */
static void jump_into_the_bar(volatile uint32_t *regs)
{
    ((void (*)(void))(uintptr_t)regs)();
}

/* pushfl with the stack pointer inside the BAR (at edu's liveness register), then popl:
 * what edu gives back is ~the flags pushed. The tracer does not step these (UNKNOWN);
 * they run, and the flags pushed are the program's own (TF clear, IF set). */
static uint32_t pushf_into_the_bar(volatile uint32_t *regs)
{
    uint32_t v;
    __asm__ volatile("movl %%esp, %%ebx\n\t"
                     "movl %1, %%esp\n\t"
                     "pushfl\n\t"
                     "popl %%eax\n\t"
                     "movl %%ebx, %%esp"
                     : "=a"(v) : "c"((uint32_t)regs + 8) : "ebx", "memory", "cc");
    return v;
}

/* Signals while stepping: SIGALRM every millisecond while the program runs stepped
 * read-modify-writes on the BAR; the handler reads the BAR too. A signal is delivered only
 * between instructions, never inside a step, so each addl stays one R and one W and the
 * device ends where the arithmetic says: each addl writes ~s + 1 = -s over the last value
 * s written, so after an even number of them the register holds X again and reads ~X. */
static volatile uint32_t *alarm_regs;
static volatile uint32_t alarms, alarm_bad;

static void on_alarm(int sig)
{
    (void)sig;
    alarms++;
    if (alarm_regs[0] != EDU_ID)
        alarm_bad++;
}

static void signals_while_stepping(volatile uint32_t *regs)
{
    alarm_regs = regs;
    struct sigaction sa = { 0 };
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, 0);
    struct itimerval every = { { 0, 1000 }, { 0, 1000 } };
    setitimer(ITIMER_REAL, &every, 0);
    regs[1] = 0x01020304;
    for (int i = 0; i < 4000 || (alarms < 3 && i < 400000); i += 2) {
        __asm__ volatile("addl $1, %0" : "+m"(regs[1]) : : "cc");
        __asm__ volatile("addl $1, %0" : "+m"(regs[1]) : : "cc");
    }
    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_REAL, &off, 0);
    _exit(regs[1] == ~0x01020304u && alarms >= 3 && !alarm_bad ? 0 : 1);
}

/* The traced mapping moved elsewhere (mremap with MREMAP_FIXED): its pages arrive armed
 * but no longer traced (the move ended the mapping's trace: UNMAP), and the first access
 * there finds them so and gives them to the program directly. */
static void moved_by_mremap(volatile uint32_t *regs)
{
    if (regs[0] != EDU_ID)
        _exit(1);
    void *spot = mmap(0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (spot == MAP_FAILED)
        _exit(2);
    long moved = syscall(SYS_mremap, (long)regs, 4096L, 4096L, 3L /* MAYMOVE | FIXED */, (long)spot);
    if (moved != (long)spot)
        _exit(3);
    _exit(((volatile uint32_t *)spot)[0] == EDU_ID ? 0 : 4);
}

/* What a hostile program does to a traced mapping, each in a child of its own; the
 * kernel and the device must come out of each as they went in. */
static void hostile(const char *edu)
{
    int status = in_child(edu, movs_to_nothing);
    check_true("a traced movs whose write faults: SIGSEGV", WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
    status = in_child(edu, read_across_the_end);
    check_true("a read across the mapping's end: SIGSEGV", WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
    status = in_child(edu, jump_into_the_bar);
    check_true("a jump into the BAR: killed by a signal, not the kernel", WIFSIGNALED(status));
    status = in_child(edu, moved_by_mremap);
    check_true("a traced mapping moved by mremap: UNMAP, and it reads edu's id where it went",
               WIFEXITED(status) && WEXITSTATUS(status) == 0);
    status = in_child(edu, signals_while_stepping);
    check_true("SIGALRMs while stepped read-modify-writes: each whole, the handler reads the BAR",
               WIFEXITED(status) && WEXITSTATUS(status) == 0);
    volatile uint32_t *regs = map_edu(edu, 0);
    check_true("mmap of edu's BAR", regs != 0);
    if (!regs)
        return;
    uint32_t flags = ~pushf_into_the_bar(regs);
    check_true("pushf/popf with the stack in the BAR: the program's flags (IF set, TF clear)",
               (flags & 0x302) == 0x202);
    check_number("edu's id register afterwards (the page now untraced)", regs[0], EDU_ID);
    munmap((void *)regs, 4096);
    regs = map_edu(edu, 0);
    check_true("mapped again: traced again", regs != 0);
    if (!regs)
        return;
    regs[1] = 0x11223344;
    check_number("edu's liveness register", regs[1], ~0x11223344u);
    munmap((void *)regs, 4096);
}

/* fork shares the device pages: the child reads the same registers. */
static void forked(const char *edu)
{
    volatile uint32_t *regs = map_edu(edu, 0);
    check_true("mmap of edu's BAR", regs != 0);
    if (!regs)
        return;
    pid_t child = fork();
    if (child == 0)
        _exit(regs[0] == EDU_ID ? 0 : 1);
    int status = -1;
    waitpid(child, &status, 0);
    check_true("a forked child reads edu's id through the inherited mapping",
               WIFEXITED(status) && WEXITSTATUS(status) == 0);
    check_number("the parent still reads it", regs[0], EDU_ID);
    munmap((void *)regs, 4096);
}

int main(int argc, char **argv)
{
    char edu[128], td[128];
    if (!find_device(0x1234, 0x11e8, edu, sizeof edu) || !find_device(0x1b36, 0x0005, td, sizeof td)) {
        printf("bar_test: edu and pci-testdev are needed\n");
        return 2;
    }
    const char *mode = argc > 1 ? argv[1] : "check";
    if (strcmp(mode, "killed") == 0) {
        killed(edu);
    } else if (strcmp(mode, "hostile") == 0) {
        hostile(edu);
    } else if (strcmp(mode, "fork") == 0) {
        forked(edu);
    } else {
        memory_bar(edu);
        io_bar(td);
    }
    return check_summary("bar_test");
}
