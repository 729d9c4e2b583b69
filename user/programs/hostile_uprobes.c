/*
 * hostile_uprobes.c - a program that turns uprobes on itself and then misbehaves under
 * them (tests/shell/hostile_uprobes.script, docs/security.md "uprobes"). It writes its own
 * probe on victim() through uprobe_events, so it knows where the kernel put an int3.
 *
 *   hostile_uprobes forkbomb N   probe on, 10 calls, N children that each make 5 calls
 *                                and exit (no wait between forks), all reaped, probe off
 *   hostile_uprobes exec         probe on, 3 calls, then execs hello with the probe on
 *   hostile_uprobes shared       victim's text page replaced by a MAP_SHARED copy before
 *                                the probe is enabled: the kernel must not write its int3
 *                                into a page shared with anyone (byte unchanged, 0 events)
 *   hostile_uprobes fault        a probe on an instruction that faults (a load through
 *                                NULL): the event is recorded, then SIGSEGV comes at the
 *                                probed instruction's own address and the int3 is back
 *   hostile_uprobes int3         the program's own int3 (no probe there) while a probe is
 *                                on: it continues after it, as without probes (a snapshot)
 *
 * Each prints TAP lines "ok - ..." / "not ok - ...". The script counts the events.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

extern const unsigned char __ehdr_start[];

/* victim(x) = 3x + 1, alone on a text page of its own (the "shared" attack replaces that
 * page while running elsewhere). */
int victim(int x);
__asm__(".pushsection .text.hostile_victim,\"ax\"\n"
        ".balign 4096\n"
        ".globl victim\n"
        ".type victim, @function\n"
        "victim:\n"
        "\tpush %ebp\n"
        "\tmov %esp, %ebp\n"
        "\tmov 8(%ebp), %eax\n"
        "\tlea 1(%eax,%eax,2), %eax\n"
        "\tpop %ebp\n"
        "\tret\n"
        ".size victim, . - victim\n"
        ".balign 4096\n"
        ".popsection");

int load_null(void) __attribute__((noinline, noclone));
/* load_fault labels a load through NULL: the probe in "fault" sits on it. */
int load_null(void)
{
    int v;
    __asm__ volatile(".globl load_fault\nload_fault:\n\tmovl 0, %0" : "=r"(v));
    return v;
}
extern const char load_fault[];

/* The file offset of the code at addr (see uprobe_target.c). */
static unsigned file_offset(const void *addr)
{
    unsigned phoff, a = (unsigned)(unsigned long)addr;
    unsigned short phnum;
    memcpy(&phoff, __ehdr_start + 28, 4);
    memcpy(&phnum, __ehdr_start + 44, 2);
    for (unsigned i = 0; i < phnum; i++) {
        const unsigned char *ph = __ehdr_start + phoff + 32 * i;
        unsigned type, offset, vaddr, filesz;
        memcpy(&type, ph, 4);
        memcpy(&offset, ph + 4, 4);
        memcpy(&vaddr, ph + 8, 4);
        memcpy(&filesz, ph + 16, 4);
        if (type == 1 && a >= vaddr && a - vaddr < filesz)
            return offset + (a - vaddr);
    }
    return 0;
}

/* Writes text to a tracefs file: 0, or the errno. */
static int write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_APPEND);
    if (fd < 0)
        return errno;
    int rc = write(fd, text, strlen(text)) == (long)strlen(text) ? 0 : errno;
    close(fd);
    return rc;
}

/* Adds the probe hu/NAME at addr's file offset and enables it. */
static int probe_on(const char *name, const void *addr, const char *args)
{
    char line[160];
    snprintf(line, sizeof line, "p:hu/%s /bin/hostile_uprobes:0x%x %s\n", name, file_offset(addr),
             args);
    int rc = write_file("/sys/kernel/tracing/uprobe_events", line);
    char path[96];
    snprintf(path, sizeof path, "/sys/kernel/tracing/events/hu/%s/enable", name);
    return rc ? rc : write_file(path, "1");
}

static int probe_off(const char *name)
{
    char path[96];
    snprintf(path, sizeof path, "/sys/kernel/tracing/events/hu/%s/enable", name);
    return write_file(path, "0");
}

static void report(int ok, const char *what)
{
    printf("%s - %s\n", ok ? "ok" : "not ok", what);
}

static int forkbomb(int n)
{
    int good = probe_on("v", (const void *)victim, "x=+4($stack):s32") == 0;
    for (int i = 0; i < 10; i++)
        good &= victim(i) == i * 3 + 1;
    int forked = 0;
    for (int i = 0; i < n; i++) {
        pid_t p = fork();
        if (p == 0) {
            int ok = 1;
            for (int j = 0; j < 5; j++)
                ok &= victim(100 + j) == 301 + 3 * j;
            _exit(ok ? 0 : 1);
        }
        forked += p > 0;
    }
    int reaped_ok = 0, status;
    while (wait(&status) > 0)
        reaped_ok += WIFEXITED(status) && WEXITSTATUS(status) == 0;
    good &= probe_off("v") == 0;
    printf("forkbomb: %d forked, %d exited right\n", forked, reaped_ok);
    report(good && reaped_ok == forked, "fork bomb under an enabled probe: every child computed right");
    return 0;
}

static int exec_probed(void)
{
    int good = probe_on("e", (const void *)victim, "x=+4($stack):s32") == 0;
    for (int i = 0; i < 3; i++)
        good &= victim(i) == i * 3 + 1;
    report(good, "probe on, 3 calls, now exec hello");
    fflush(stdout);
    char *argv[] = { "hello", "after-exec", 0 };
    execv("/bin/hello", argv);
    report(0, "execv hello");
    return 1;
}

static int shared_page(void)
{
    unsigned long page = (unsigned long)victim & ~4095ul;
    static unsigned char copy[4096];
    memcpy(copy, (const void *)page, sizeof copy);
    void *m = mmap((void *)page, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED,
                   -1, 0);
    if (m != (void *)page) {
        report(0, "mmap MAP_SHARED over the text page");
        return 1;
    }
    memcpy(m, copy, sizeof copy);
    unsigned char before = *(volatile unsigned char *)victim;
    int good = probe_on("s", (const void *)victim, "x=+4($stack):s32") == 0;
    unsigned char armed = *(volatile unsigned char *)victim;
    good &= victim(7) == 22;
    good &= probe_off("s") == 0;
    report(good && armed == before && armed != 0xcc,
           "a MAP_SHARED text page gets no int3 (the byte is unchanged)");
    return 0;
}

static sigjmp_buf fault_jmp;
static volatile unsigned fault_eip;

static void on_segv(int sig, siginfo_t *si, void *ucv)
{
    (void)sig, (void)si;
    fault_eip = ((ucontext_t *)ucv)->uc_mcontext.eip;
    siglongjmp(fault_jmp, 1);
}

static int step_fault(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, 0);
    int good = probe_on("f", load_fault, "ax=%ax") == 0;
    if (sigsetjmp(fault_jmp, 1) == 0) {
        load_null();
        report(0, "a load through NULL did not fault");
        return 1;
    }
    unsigned char after = *(volatile unsigned char *)load_fault;
    good &= probe_off("f") == 0;
    unsigned char off = *(volatile unsigned char *)load_fault;
    printf("fault: eip 0x%x, probe at 0x%x\n", fault_eip, (unsigned)(unsigned long)load_fault);
    report(good && fault_eip == (unsigned)(unsigned long)load_fault,
           "a stepped instruction's fault: SIGSEGV at the probed address");
    report(after == 0xcc && off != 0xcc, "the int3 back after the fault, gone when disabled");
    return 0;
}

static int own_int3(void)
{
    int good = probe_on("i", (const void *)victim, "x=+4($stack):s32") == 0;
    __asm__ volatile("int3");
    good &= victim(1) == 4;
    good &= probe_off("i") == 0;
    report(good, "the program's own int3 with a probe on: it continues");
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, 0, _IOLBF, 0);
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "forkbomb") == 0)
        return forkbomb(argc > 2 ? atoi(argv[2]) : 20);
    if (strcmp(mode, "exec") == 0)
        return exec_probed();
    if (strcmp(mode, "shared") == 0)
        return shared_page();
    if (strcmp(mode, "fault") == 0)
        return step_fault();
    if (strcmp(mode, "int3") == 0)
        return own_int3();
    printf("usage: hostile_uprobes forkbomb N | exec | shared | fault | int3\n");
    return 2;
}
