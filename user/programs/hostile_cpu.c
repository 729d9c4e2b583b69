/*
 * hostile_cpu.c - a program that attacks the CPU's protection from ring 3 the way an
 * attacker would, and asserts the exact answer Linux i386 gives to each attack: the
 * signal, its si_code and si_addr, and the trapno/err the sigcontext reports (or the errno
 * of a system call). It catches every fatal attack with a SIGSEGV/SIGILL/SIGFPE/SIGTRAP/
 * SIGBUS handler (SA_SIGINFO, on an alternate stack) and siglongjmp, so one run makes
 * thousands of them. Prints one TAP line per group of attacks ("ok - ..." when every
 * attack of the group got its answer, "not ok - ..." and the first mismatches otherwise).
 *
 * Usage: hostile_cpu MODE
 *   all_umip | all_noumip  every attack; the UMIP group expects that mode (the kernel's
 *                          boot line says which: "umip: enabled" under -cpu max)
 *   ldt_hold               the LDT panic: try to hold an LDT selector in FS across a
 *                          sleep while another process executes int3
 *   int3                   sleep 0.1 s, then int3 (the other half of ldt_hold)
 *   secret_holder          keep a secret at a fixed address (run in the background) ...
 *   secret_reader          ... and try to reach it from this second process
 *   blocked | ignored      a page fault with SIGSEGV blocked / ignored: the process dies
 *   bad_stack              a fault with ESP in the kernel: the frame cannot be written, so
 *                          the process dies of SIGSEGV
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "uapi/syscall.h"
#include <tracekern/ipc.h>

#define USER_CS 0x1b
#define USER_DS 0x23
#define KERNEL_TEXT 0xc0100000u /* the kernel's text: KERNEL_BASE + its load address */

/* What an attack got: the signal (0: none) and what its siginfo/sigcontext said. */
struct outcome {
    int sig, code;
    uint32_t addr, trapno, err;
};

static uint8_t alt_stack[16384] __attribute__((aligned(16))); /* the handler's stack */
static sigjmp_buf attack_jmp;
static volatile int attack_armed;
static volatile struct outcome caught;
static volatile uint32_t handler_esp;

/* The handler of every fatal signal: records the answer, leaves through siglongjmp. */
static void on_fault(int sig, siginfo_t *si, void *ucv)
{
    ucontext_t *uc = ucv;
    int local;
    handler_esp = (uint32_t)(uintptr_t)&local;
    caught.sig = sig, caught.code = si->si_code, caught.addr = si->si_addr;
    caught.trapno = uc->uc_mcontext.trapno, caught.err = uc->uc_mcontext.err;
    if (!attack_armed) {
        dprintf(1, "not ok - signal %d (code %d, trapno %u) outside an attack at eip %x\n", sig,
                si->si_code, uc->uc_mcontext.trapno, uc->uc_mcontext.eip);
        _exit(1);
    }
    siglongjmp(attack_jmp, 1);
}

static void reset_segments(void)
{
    asm volatile("mov %0, %%ds\n\tmov %0, %%es\n\tmov %0, %%fs\n\tmov %0, %%gs" : : "r"(USER_DS));
}

/* Runs fn(arg) and returns what happened to it. */
static struct outcome attempt(void (*fn)(uint32_t), uint32_t arg)
{
    caught.sig = 0, caught.code = 0, caught.addr = 0, caught.trapno = 0, caught.err = 0;
    attack_armed = 1;
    if (sigsetjmp(attack_jmp, 0) == 0)
        fn(arg);
    attack_armed = 0;
    reset_segments();
    struct outcome o = { caught.sig, caught.code, caught.addr, caught.trapno, caught.err };
    return o;
}

/* --- reporting ------------------------------------------------------------------------- */

static int group_checks, group_failures, total_checks, total_failures;

static void group_begin(void) { group_checks = group_failures = 0; }

/* One failed check of the group; the first few are shown. */
static void mismatch(const char *what, uint32_t arg, const char *fmt_got, struct outcome o)
{
    group_failures++;
    if (group_failures <= 5)
        printf("#   %s %x: got sig %d code %d addr %x trapno %u err %x%s\n", what, arg, o.sig,
               o.code, o.addr, o.trapno, o.err, fmt_got);
}

/* Checks one attack's outcome against the expected one. */
static void check(const char *what, uint32_t arg, struct outcome o, struct outcome want)
{
    group_checks++;
    if (o.sig != want.sig || (want.sig && (o.code != want.code || o.addr != want.addr ||
                                           o.trapno != want.trapno || o.err != want.err)))
        mismatch(what, arg, "", o);
}

/* Checks a plain condition (a system call's result). */
static void check_true(const char *what, uint32_t arg, int ok)
{
    group_checks++;
    if (!ok) {
        struct outcome none = { 0, 0, 0, 0, 0 };
        mismatch(what, arg, " (condition failed)", none);
    }
}

static void group_end(const char *description)
{
    total_checks += group_checks;
    total_failures += group_failures;
    if (group_failures)
        printf("not ok - %s (%d of %d failed)\n", description, group_failures, group_checks);
    else
        printf("ok - %s\n", description);
}

static struct outcome none(void) { return (struct outcome){ 0, 0, 0, 0, 0 }; }
static struct outcome segv_gp(uint32_t err) { return (struct outcome){ SIGSEGV, SI_KERNEL, 0, 13, err }; }
static struct outcome segv_pf(int code, uint32_t addr, uint32_t err)
{
    return (struct outcome){ SIGSEGV, code, addr, 14, err };
}

/* --- memory ---------------------------------------------------------------------------- */

static void read_at(uint32_t a)
{
    uint32_t v;
    asm volatile("movl (%1), %0" : "=r"(v) : "r"(a) : "memory");
}
static void write_at(uint32_t a) { asm volatile("movl $0, (%0)" : : "r"(a) : "memory"); }
static void exec_at(uint32_t a) { asm volatile("call *%0" : : "r"(a) : "memory", "eax", "ecx", "edx"); }

/* A word of the kernel's /proc/kallsyms, or 0 when it is not there or reads as 0. */
static uint32_t kernel_symbol(const char *name)
{
    static char buf[4096];
    int fd = open("/proc/kallsyms", O_RDONLY);
    if (fd < 0)
        return 0;
    size_t len = strlen(name);
    uint32_t found = 0;
    char line[128];
    size_t ll = 0;
    ssize_t n;
    while (!found && (n = read(fd, buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < n && !found; i++) {
            if (buf[i] != '\n') {
                if (ll < sizeof line - 1)
                    line[ll++] = buf[i];
                continue;
            }
            line[ll] = 0;
            if (ll > 11 + len && !strcmp(line + 11, name)) {
                uint32_t v = 0;
                for (int k = 0; k < 8; k++) {
                    char c = line[k];
                    v = v * 16 + (uint32_t)(c <= '9' ? c - '0' : c - 'a' + 10);
                }
                found = v;
            }
            ll = 0;
        }
    }
    close(fd);
    return found;
}

static void attack_kernel_memory(void)
{
    uint32_t targets[8] = { 0, 0x1000, KERNEL_TEXT, USER_BASE - 0x1000, 0xc0000000, 0xfffff000, 0, 0 };
    int n = 6;
    uint32_t kmain = kernel_symbol("kmain"), pd = kernel_symbol("page_directory");
    if (kmain)
        targets[n++] = kmain;
    if (pd)
        targets[n++] = pd;
    group_begin();
    for (int i = 0; i < n; i++) {
        uint32_t a = targets[i];
        /* Outside user memory: SEGV_MAPERR, and the error code always says "protection"
         * (present or not), as Linux reports kernel addresses. */
        check("read", a, attempt(read_at, a), segv_pf(SEGV_MAPERR, a, 5));
        check("write", a, attempt(write_at, a), segv_pf(SEGV_MAPERR, a, 7));
        check("execute", a, attempt(exec_at, a), segv_pf(SEGV_MAPERR, a, 5));
    }
    group_end("kernel memory (NULL page, low memory, kernel text, data and page tables, above "
              "user memory): read/write/execute -> SIGSEGV SEGV_MAPERR at the address, "
              "trapno 14, err 5/7/5");

    group_begin();
    uint8_t *p = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(p + 4096, 4096);
    uint32_t gone = (uint32_t)(uintptr_t)(p + 4096), text = (uint32_t)(uintptr_t)&read_at;
    check("read unmapped", gone, attempt(read_at, gone), segv_pf(SEGV_MAPERR, gone, 4));
    check("write unmapped", gone, attempt(write_at, gone), segv_pf(SEGV_MAPERR, gone, 6));
    check("write text", text, attempt(write_at, text), segv_pf(SEGV_ACCERR, text, 7));
    munmap(p, 4096);
    group_end("user memory: unmapped page -> SEGV_MAPERR (err 4/6), write to own text -> "
              "SEGV_ACCERR (err 7)");
}

/* --- system call pointers -------------------------------------------------------------- */

static long raw_syscall(long nr, long a, long b, long c, long d)
{
    long ret;
    asm volatile("int $0x80" : "=a"(ret) : "0"(nr), "b"(a), "c"(b), "d"(c), "S"(d) : "memory");
    return ret;
}

static void attack_syscall_pointers(void)
{
    int fd = open("/dev/null", O_WRONLY);
    uint8_t *p = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(p + 4096, 4096);
    uint32_t end = (uint32_t)(uintptr_t)(p + 4096), text = (uint32_t)(uintptr_t)&read_at;
    struct {
        uint32_t addr, len;
        long want;
    } writes[] = {
        { USER_BASE - 1, 2, -EFAULT },  { USER_BASE - 4096, 1, -EFAULT },
        { USER_TOP, 1, -EFAULT },       { USER_TOP - 1, 2, -EFAULT },
        { 0xffffffff, 2, -EFAULT },     { KERNEL_TEXT, 16, -EFAULT },
        { 0, 1, -EFAULT },              { end - 1, 2, -EFAULT },
        { end - 1, 1, 1 },              { end - 4096, 4096, 4096 },
        { end - 4096, 4097, -EFAULT },  { USER_STACK_TOP - 1, 2, -EFAULT },
        { USER_STACK_TOP - 1, 1, 1 },   { text, 4, 4 },
    };
    group_begin();
    for (unsigned i = 0; i < sizeof writes / sizeof writes[0]; i++)
        check_true("write(/dev/null, addr, len)", writes[i].addr,
                   raw_syscall(SYS_write, fd, writes[i].addr, writes[i].len, 0) == writes[i].want);
    uint32_t bad_out[] = { text, KERNEL_TEXT, 0, USER_TOP - 4, end - 4, USER_BASE - 8 };
    for (unsigned i = 0; i < sizeof bad_out / sizeof bad_out[0]; i++) {
        check_true("clock_gettime(tp)", bad_out[i],
                   raw_syscall(SYS_clock_gettime, CLOCK_MONOTONIC, bad_out[i], 0, 0) == -EFAULT);
        if (bad_out[i]) { /* NULL is "no old value wanted" for these two */
            check_true("rt_sigprocmask(oset)", bad_out[i],
                       raw_syscall(SYS_rt_sigprocmask, SIG_BLOCK, 0, bad_out[i], 8) == -EFAULT);
            check_true("sigaltstack(old)", bad_out[i],
                       raw_syscall(SYS_sigaltstack, 0, bad_out[i], 0, 0) == -EFAULT);
        }
    }
    /* Pointers the kernel reads from: anything outside user memory, or running into an
     * unmapped page (the path's last bytes are not a NUL). */
    memset(p + 4092, 'a', 4);
    uint32_t bad_in[] = { 0, 1, KERNEL_TEXT, USER_BASE - 8, USER_TOP, end - 4, 0xfffffffc };
    for (unsigned i = 0; i < sizeof bad_in / sizeof bad_in[0]; i++) {
        check_true("rt_sigaction(act)", bad_in[i],
                   bad_in[i] == 0 || raw_syscall(SYS_rt_sigaction, SIGUSR1, bad_in[i], 0, 8) == -EFAULT);
        check_true("open(path)", bad_in[i], raw_syscall(SYS_open, bad_in[i], O_RDONLY, 0, 0) == -EFAULT);
        check_true("rt_sigprocmask(set)", bad_in[i],
                   bad_in[i] == 0 || raw_syscall(SYS_rt_sigprocmask, SIG_BLOCK, bad_in[i], 0, 8) == -EFAULT);
    }
    close(fd);
    munmap(p, 4096);
    group_end("system call pointers at and across the edges of user memory (below USER_BASE, "
              "at USER_TOP, an unmapped page, the stack top, kernel text, read-only text) -> "
              "EFAULT, the valid ranges next to them work");
}

/* --- privileged instructions ----------------------------------------------------------- */

static uint8_t descriptor_image[8];
static void p_cli(uint32_t a) { (void)a; asm volatile("cli"); }
static void p_sti(uint32_t a) { (void)a; asm volatile("sti"); }
static void p_hlt(uint32_t a) { (void)a; asm volatile("hlt"); }
static void p_inb(uint32_t port) { uint8_t v; asm volatile("inb %w1, %0" : "=a"(v) : "d"(port)); }
static void p_outb(uint32_t port) { asm volatile("outb %0, %w1" : : "a"((uint8_t)0), "d"(port)); }
static void p_outl(uint32_t port) { asm volatile("outl %0, %w1" : : "a"(0x80000000u), "d"(port)); }
static void p_insb(uint32_t port)
{
    uint8_t buf[4];
    asm volatile("rep insb" : : "D"(buf), "c"(4), "d"(port) : "memory");
}
static void p_lgdt(uint32_t a) { (void)a; asm volatile("lgdt %0" : : "m"(descriptor_image)); }
static void p_lidt(uint32_t a) { (void)a; asm volatile("lidt %0" : : "m"(descriptor_image)); }
static void p_ltr(uint32_t a) { asm volatile("ltr %w0" : : "r"(a)); }
static void p_lldt(uint32_t a) { asm volatile("lldt %w0" : : "r"(a)); }
static void p_lmsw(uint32_t a) { asm volatile("lmsw %w0" : : "r"(a)); }
static void p_rd_cr0(uint32_t a) { (void)a; uint32_t v; asm volatile("mov %%cr0, %0" : "=r"(v)); }
static void p_wr_cr0(uint32_t a) { asm volatile("mov %0, %%cr0" : : "r"(a)); }
static void p_rd_cr3(uint32_t a) { (void)a; uint32_t v; asm volatile("mov %%cr3, %0" : "=r"(v)); }
static void p_wr_cr3(uint32_t a) { asm volatile("mov %0, %%cr3" : : "r"(a)); }
static void p_rd_cr4(uint32_t a) { (void)a; uint32_t v; asm volatile("mov %%cr4, %0" : "=r"(v)); }
static void p_wr_cr4(uint32_t a) { asm volatile("mov %0, %%cr4" : : "r"(a)); }
static void p_rd_dr7(uint32_t a) { (void)a; uint32_t v; asm volatile("mov %%dr7, %0" : "=r"(v)); }
static void p_wr_dr7(uint32_t a) { asm volatile("mov %0, %%dr7" : : "r"(a)); }
static void p_rdmsr(uint32_t msr) { uint32_t lo, hi; asm volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr)); }
static void p_wrmsr(uint32_t msr) { asm volatile("wrmsr" : : "a"(0), "d"(0), "c"(msr)); }
static void p_invlpg(uint32_t a) { asm volatile("invlpg (%0)" : : "r"(a) : "memory"); }
static void p_wbinvd(uint32_t a) { (void)a; asm volatile("wbinvd"); }
static void p_invd(uint32_t a) { (void)a; asm volatile("invd"); }
static void p_clts(uint32_t a) { (void)a; asm volatile("clts"); }
static void p_rdpmc(uint32_t a) { uint32_t lo, hi; asm volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(a)); }
static void p_sysexit(uint32_t a) { (void)a; asm volatile("sysexit"); }
static void p_mov_ss(uint32_t a) { asm volatile("mov %0, %%ss\n\tmov %1, %%ss" : : "r"(a), "r"(USER_DS)); }
/* iret and lret to the kernel's code segment at the next instruction. */
static void p_iret_ring0(uint32_t cs)
{
    asm volatile("pushl %%ss\n\tpushl %%esp\n\tpushfl\n\tpushl %0\n\tpushl $1f\n\tiret\n1:"
                 : : "r"(cs) : "memory");
}
static void p_lret_ring0(uint32_t cs)
{
    asm volatile("pushl %0\n\tpushl $1f\n\tlret\n1:" : : "r"(cs) : "memory");
}

static void attack_privileged(void)
{
    static const struct {
        const char *name;
        void (*fn)(uint32_t);
        uint32_t arg, err;
    } ops[] = {
        { "cli", p_cli, 0, 0 },           { "sti", p_sti, 0, 0 },
        { "hlt", p_hlt, 0, 0 },           { "inb 0x20", p_inb, 0x20, 0 },
        { "inb 0x60", p_inb, 0x60, 0 },   { "inb 0x3f8", p_inb, 0x3f8, 0 },
        { "outb 0x80", p_outb, 0x80, 0 }, { "outb 0x64", p_outb, 0x64, 0 },
        { "outb 0x20", p_outb, 0x20, 0 }, { "outb 0xa0", p_outb, 0xa0, 0 },
        { "outb 0x43", p_outb, 0x43, 0 }, { "outb 0x70", p_outb, 0x70, 0 },
        { "outb 0x92", p_outb, 0x92, 0 }, { "outb 0x2f8", p_outb, 0x2f8, 0 },
        { "outb 0x501", p_outb, 0x501, 0 }, { "outb 0x604", p_outb, 0x604, 0 },
        { "outl 0xcf8", p_outl, 0xcf8, 0 }, { "rep insb 0x1f0", p_insb, 0x1f0, 0 },
        { "lgdt", p_lgdt, 0, 0 },         { "lidt", p_lidt, 0, 0 },
        { "ltr", p_ltr, 0x28, 0 },        { "lldt", p_lldt, 0x10, 0 },
        { "lmsw", p_lmsw, 0, 0 },         { "mov cr0, r", p_rd_cr0, 0, 0 },
        { "mov r, cr0", p_wr_cr0, 0, 0 }, { "mov cr3, r", p_rd_cr3, 0, 0 },
        { "mov r, cr3", p_wr_cr3, 0, 0 }, { "mov cr4, r", p_rd_cr4, 0, 0 },
        { "mov r, cr4", p_wr_cr4, 0, 0 }, { "mov dr7, r", p_rd_dr7, 0, 0 },
        { "mov r, dr7", p_wr_dr7, 0x3ff, 0 }, { "rdmsr 0x10", p_rdmsr, 0x10, 0 },
        { "wrmsr 0x174", p_wrmsr, 0x174, 0 }, { "invlpg", p_invlpg, KERNEL_TEXT, 0 },
        { "wbinvd", p_wbinvd, 0, 0 },     { "invd", p_invd, 0, 0 },
        { "clts", p_clts, 0, 0 },         { "rdpmc", p_rdpmc, 0, 0 },
        { "sysexit", p_sysexit, 0, 0 },   { "mov 0x10, ss", p_mov_ss, 0x10, 0x10 },
        { "iret to 0x08", p_iret_ring0, 0x08, 0x08 }, { "lret to 0x08", p_lret_ring0, 0x08, 0x08 },
    };
    group_begin();
    for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        struct outcome o = attempt(ops[i].fn, ops[i].arg);
        group_checks++;
        if (o.sig != SIGSEGV || o.code != SI_KERNEL || o.trapno != 13 || o.err != ops[i].err)
            mismatch(ops[i].name, ops[i].arg, "", o);
    }
    /* popf cannot raise IOPL or clear IF in ring 3: the bits are ignored, no fault. */
    uint32_t flags;
    asm volatile("pushfl\n\torl $0x3000, (%%esp)\n\tandl $~0x200, (%%esp)\n\tpopfl\n\t"
                 "pushfl\n\tpopl %0" : "=r"(flags) : : "cc");
    check_true("popf IOPL 3, IF 0", flags, (flags & 0x3200) == 0x200);
    group_end("privileged instructions (cli sti hlt, in/out on 13 ports, lgdt lidt ltr lldt "
              "lmsw, mov to/from cr0 cr3 cr4 dr7, rdmsr wrmsr, invlpg wbinvd invd clts rdpmc "
              "sysexit, iret/lret to ring 0, mov to SS) -> SIGSEGV SI_KERNEL trapno 13; popf "
              "leaves IOPL 0 and IF 1");
}

/* --- every int N ----------------------------------------------------------------------- */

static uint8_t int_stub[4] __attribute__((aligned(16))); /* int N; ret (data is executable) */
static volatile uint32_t int_result;

static void do_int(uint32_t n)
{
    uint32_t eax;
    int_stub[0] = 0xcd, int_stub[1] = (uint8_t)n, int_stub[2] = 0xc3;
    asm volatile("call *%1" : "=a"(eax) : "r"(int_stub), "0"(SYS_getpid) : "memory", "ecx", "edx");
    int_result = eax;
}

static void do_into(uint32_t a)
{
    (void)a;
    asm volatile("movl $0x7fffffff, %%eax\n\taddl $1, %%eax\n\tinto" : : : "eax", "cc");
}

static void do_int3(uint32_t a) { (void)a; asm volatile("int3"); }

static void attack_int_n(void)
{
    int pid = getpid();
    group_begin();
    for (uint32_t n = 0; n < 256; n++) {
        int_result = 0;
        struct outcome o = attempt(do_int, n);
        if (n == 3) /* the snapshot task gate: the program continues after it */
            check("int", n, o, none());
        else if (n == 0x80)
            check_true("int 0x80 is getpid", n, o.sig == 0 && int_result == (uint32_t)pid);
        else if (n == 4) /* #OF, DPL 3 as in Linux */
            check("int", n, o, (struct outcome){ SIGSEGV, SI_KERNEL, 0, 4, 0 });
        else /* a gate ring 3 may not use: #GP with the IDT entry in the error code */
            check("int", n, o, segv_gp(n * 8 + 2));
    }
    check("into with OF", 0, attempt(do_into, 0), (struct outcome){ SIGSEGV, SI_KERNEL, 0, 4, 0 });
    check("int3 (0xcc)", 0, attempt(do_int3, 0), none());
    group_end("all 256 int N: int 3 takes a snapshot and continues, int 0x80 is a system call, "
              "int 4 and into -> SIGSEGV trapno 4, the other 253 -> SIGSEGV SI_KERNEL trapno "
              "13 err N*8+2");
}

/* --- other exceptions ------------------------------------------------------------------ */

extern char ud2_at[], div_at[], icebp_after[];
__attribute__((noinline, noclone)) static void do_ud2(uint32_t a) { (void)a; asm volatile("ud2_at: ud2"); }
__attribute__((noinline, noclone)) static void do_div0(uint32_t a)
{
    asm volatile("xorl %%edx, %%edx\n\tmovl $1, %%eax\ndiv_at: divl %0" : : "r"(a) : "eax", "edx", "cc");
}
__attribute__((noinline, noclone)) static void do_icebp(uint32_t a) { (void)a; asm volatile(".byte 0xf1\nicebp_after:"); }
static void do_x87_div0(uint32_t a)
{
    (void)a;
    uint16_t cw = 0x037b; /* default control word with the zero-divide exception unmasked */
    asm volatile("fninit\n\tfldcw %0\n\tfld1\n\tfldz\n\tfdivrp\n\tfwait" : : "m"(cw) : "memory");
}

static void attack_exceptions(void)
{
    group_begin();
    check("ud2", 0, attempt(do_ud2, 0),
          (struct outcome){ SIGILL, ILL_ILLOPN, (uint32_t)(uintptr_t)ud2_at, 6, 0 });
    check("div 0", 0, attempt(do_div0, 0),
          (struct outcome){ SIGFPE, FPE_INTDIV, (uint32_t)(uintptr_t)div_at, 0, 0 });
    /* icebp (int1) raises #DB on hardware (SIGTRAP TRAP_BRKPT after it, as the kernel's
     * vector 1 path answers); QEMU's TCG decodes it as #UD on every CPU model. */
    check("icebp", 0, attempt(do_icebp, 0),
          (struct outcome){ SIGILL, ILL_ILLOPN, (uint32_t)(uintptr_t)icebp_after - 1, 6, 0 });
    struct outcome o = attempt(do_x87_div0, 0);
    asm volatile("fninit");
    group_checks++;
    if (o.sig != SIGFPE || o.code != FPE_FLTDIV || o.trapno != 16)
        mismatch("x87 divide by zero", 0, "", o);
    group_end("ud2 -> SIGILL ILL_ILLOPN at it; div by 0 -> SIGFPE FPE_INTDIV at it; icebp "
              "(#UD under QEMU's TCG) -> SIGILL ILL_ILLOPN; an unmasked x87 divide by zero -> "
              "SIGFPE FPE_FLTDIV trapno 16");
}

/* --- segment selectors ----------------------------------------------------------------- */

static void load_ds(uint32_t s) { asm volatile("mov %0, %%ds\n\tmov %1, %%ds" : : "r"(s), "r"(USER_DS)); }
static void load_es(uint32_t s) { asm volatile("mov %0, %%es\n\tmov %1, %%es" : : "r"(s), "r"(USER_DS)); }
static void load_fs(uint32_t s) { asm volatile("mov %0, %%fs" : : "r"(s)); }
static void load_gs(uint32_t s) { asm volatile("mov %0, %%gs" : : "r"(s)); }
static void load_ss(uint32_t s) { asm volatile("mov %0, %%ss\n\tmov %1, %%ss" : : "r"(s), "r"(USER_DS)); }

/* far_call(ptr)/far_jmp(ptr) go to {offset, selector} at ptr: the landings return. */
void far_call(uint32_t *ptr);
void far_jmp(uint32_t *ptr);
extern char far_call_landing[], far_jmp_landing[];
asm(".text\n"
    "far_call: movl 4(%esp), %eax\n"
    "    lcall *(%eax)\n"
    "    ret\n"
    "far_call_landing: lret\n"
    "far_jmp: movl 4(%esp), %eax\n"
    "    ljmp *(%eax)\n"
    "far_jmp_landing: ret\n");
static uint32_t far_ptr[2];
static void do_far_call(uint32_t s)
{
    far_ptr[0] = (uint32_t)(uintptr_t)far_call_landing, far_ptr[1] = s;
    far_call(far_ptr);
}
static void do_far_jmp(uint32_t s)
{
    far_ptr[0] = (uint32_t)(uintptr_t)far_jmp_landing, far_ptr[1] = s;
    far_jmp(far_ptr);
}

/* What loading selector s must give, from the GDT's layout (gdt.h): only the null selector
 * and the user code (index 3) and data (index 4) segments are usable from ring 3, the LDT
 * is null, and everything else is #GP with the selector (RPL cleared) as error code. */
static void check_selector(uint32_t s)
{
    uint32_t index = s >> 3, ldt = s & 4;
    bool null = !ldt && index == 0, user_code = !ldt && index == 3, user_data = !ldt && index == 4;
    struct outcome refused = segv_gp(s & ~3u);
    struct outcome data_ok = (null || user_code || user_data) ? none() : refused;
    check("ds", s, attempt(load_ds, s), data_ok);
    check("es", s, attempt(load_es, s), data_ok);
    check("fs", s, attempt(load_fs, s), data_ok);
    check("gs", s, attempt(load_gs, s), data_ok);
    check("ss", s, attempt(load_ss, s), s == USER_DS ? none() : refused);
    check("lcall", s, attempt(do_far_call, s), user_code ? none() : refused);
    check("ljmp", s, attempt(do_far_jmp, s), user_code ? none() : refused);
}

/* LAR's view of selector s: the access rights, or -1 when it is not visible to ring 3. */
static long lar_of(uint32_t sel)
{
    uint32_t rights;
    uint8_t ok;
    asm volatile("xorl %0, %0\n\tlar %2, %0\n\tsetz %1" : "=&r"(rights), "=q"(ok) : "r"(sel) : "cc");
    return ok ? (long)rights : -1;
}

static void attack_selectors(void)
{
    group_begin();
    for (uint32_t s = 0; s < 64 * 8; s++) /* the GDT's 32 entries and 32 beyond its limit */
        if (!(s & 4))
            check_selector(s);
    group_end("every GDT selector (indices 0-63, RPL 0-3) into DS ES FS GS SS and as a far "
              "call/jmp target: null and the user segments load, everything else -> SIGSEGV "
              "SI_KERNEL trapno 13 err = the selector");
    group_begin();
    for (uint32_t s = 4; s < 0x10000; s += 8)
        check_selector(s | (s >> 3 & 3)); /* every LDT entry, with RPLs 0-3 in turn */
    group_end("every LDT selector (all 8192 entries, TI=1) into DS ES FS GS SS and as a far "
              "call/jmp target -> SIGSEGV SI_KERNEL trapno 13 err = the selector (the LDT is "
              "null)");
    group_begin();
    for (uint32_t s = 0; s < 0x10000; s++) {
        long r = lar_of(s);
        bool user = !(s & 4) && ((s & ~7u) == 0x18 || (s & ~7u) == 0x20);
        /* Visible: only the user segments, DPL 3, present, 32-bit (D/B set): no 16-bit stack
         * segment for the espfix leak, no call gate, no task gate, nothing in the LDT. */
        check_true("lar", s, user ? (r >= 0 && (r & 0x40e000) == 0x40e000 && !(s & 4)) : r < 0);
    }
    group_end("lar over all 65536 selectors sees only the two 32-bit DPL-3 user segments: no "
              "16-bit stack segment (espfix), no gate, no LDT entry");
}

/* --- forged sigreturn frames ----------------------------------------------------------- */

static uint8_t forged_area[8192] __attribute__((aligned(16)));
static uint8_t landing_stack[4096] __attribute__((aligned(16)));
static volatile uint32_t landed_ds, landed_fs, landed_eflags;
void forged_landing(void);
void forged_landed(void) __attribute__((used, noreturn));
void forged_landed(void) { siglongjmp(attack_jmp, 2); }
asm(".text\n"
    "forged_landing:\n"
    "    movl %ds, %ebx\n"
    "    movl %fs, %esi\n"
    "    pushfl\n"
    "    popl %edi\n"
    "    movl $0x23, %eax\n"
    "    movl %eax, %ds\n"
    "    movl %eax, %es\n"
    "    movl %eax, %fs\n"
    "    movl %ebx, landed_ds\n"
    "    movl %esi, landed_fs\n"
    "    movl %edi, landed_eflags\n"
    "    call forged_landed\n");

/* A sigcontext that would resume at forged_landing with everything valid. */
static void good_context(struct kernel_sigcontext *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->gs = sc->fs = sc->es = sc->ds = USER_DS;
    sc->cs = USER_CS, sc->ss = USER_DS;
    sc->eip = (uint32_t)(uintptr_t)forged_landing;
    sc->esp = (uint32_t)(uintptr_t)(landing_stack + sizeof landing_stack - 16);
    sc->eflags = 0x202;
}

static struct kernel_sigcontext forged;
static volatile int forged_rt;

/* Builds the frame from `forged` in forged_area and makes the call with ESP where the
 * restorer would have it. */
static void do_forged_sigreturn(uint32_t frame_override)
{
    uint32_t esp;
    if (forged_rt) {
        struct kernel_rt_sigframe *f = (void *)(forged_area + 4096);
        memset(f, 0, sizeof *f);
        f->uc.uc_mcontext = forged;
        /* as in a real frame: the alternate stack in use (rt_sigreturn sets it again) */
        f->uc.uc_stack.ss_sp = (uint32_t)(uintptr_t)alt_stack;
        f->uc.uc_stack.ss_size = sizeof alt_stack;
        esp = (uint32_t)(uintptr_t)f + 4;
    } else {
        struct kernel_sigframe *f = (void *)(forged_area + 4096);
        memset(f, 0, sizeof *f);
        f->sc = forged;
        esp = (uint32_t)(uintptr_t)f + 8;
    }
    if (frame_override)
        esp = frame_override;
    asm volatile("movl %0, %%esp\n\tint $0x80" : : "r"(esp), "a"(forged_rt ? SYS_rt_sigreturn : SYS_sigreturn)
                 : "memory");
}

static void attack_sigreturn(void)
{
    for (int rt = 1; rt >= 0; rt--) {
        forged_rt = rt;
        const char *name = rt ? "rt_sigreturn" : "sigreturn";
        group_begin();
        /* Accepted, but only what ring 3 may have: IOPL, NT, VM, VIF, VIP and IF-off are
         * dropped; a kernel DS and an LDT FS become null on the way out. */
        good_context(&forged);
        forged.eflags = 0x3000 | 0x4000 | 0x20000 | 0x80000 | 0x100000 | 0x2 | 0x1 | 0x40000;
        forged.ds = 0x10, forged.fs = 0x1007;
        landed_ds = landed_fs = landed_eflags = 0xdead;
        struct outcome o = attempt(do_forged_sigreturn, 0);
        asm volatile("pushfl\n\tandl $~0x40001, (%%esp)\n\tpopfl" : : : "cc"); /* AC, CF off */
        check("accepted frame", 0, o, none());
        check_true("eflags after", landed_eflags, (landed_eflags & 0x1f7200) == 0x40200 &&
                                                  (landed_eflags & 1));
        check_true("ds after", landed_ds, landed_ds == 0);
        check_true("fs after", landed_fs, landed_fs == 0);
        static const uint16_t bad_cs[] = { 0x08, 0x0b, 0x10, 0x23, 0x28, 0x2b, 0x1f, 0x00, 0x1004 };
        for (unsigned i = 0; i < sizeof bad_cs / sizeof bad_cs[0]; i++) {
            good_context(&forged);
            forged.cs = bad_cs[i];
            check("bad cs", bad_cs[i], attempt(do_forged_sigreturn, 0),
                  (struct outcome){ SIGSEGV, SI_KERNEL, 0, 0, 0 });
        }
        static const uint16_t bad_ss[] = { 0x10, 0x13, 0x1b, 0x08, 0x00, 0x28, 0x1007 };
        for (unsigned i = 0; i < sizeof bad_ss / sizeof bad_ss[0]; i++) {
            good_context(&forged);
            forged.ss = bad_ss[i];
            check("bad ss", bad_ss[i], attempt(do_forged_sigreturn, 0),
                  (struct outcome){ SIGSEGV, SI_KERNEL, 0, 0, 0 });
        }
        good_context(&forged);
        forged.eip = KERNEL_TEXT;
        check("kernel eip", KERNEL_TEXT, attempt(do_forged_sigreturn, 0),
              segv_pf(SEGV_MAPERR, KERNEL_TEXT, 5));
        good_context(&forged);
        check("frame in the kernel", KERNEL_TEXT, attempt(do_forged_sigreturn, KERNEL_TEXT),
              (struct outcome){ SIGSEGV, SI_KERNEL, 0, 0, 0 });
        char desc[256];
        snprintf(desc, sizeof desc, "forged %s frames: EFLAGS IOPL/NT/VM/VIF/VIP dropped, IF kept, "
                 "kernel DS and LDT FS become null; a CS or SS other than 0x1b/0x23 or a frame "
                 "in the kernel -> SIGSEGV SI_KERNEL; a kernel EIP -> SIGSEGV SEGV_MAPERR there",
                 name);
        group_end(desc);
    }
}

/* --- sgdt sidt smsw str sldt ----------------------------------------------------------- */

static uint8_t table_image[6];
static volatile uint32_t msw_value;
static void do_sgdt(uint32_t a) { asm volatile("sgdt (%0)" : : "r"(a) : "memory"); }
static void do_sidt(uint32_t a) { asm volatile("sidt (%0)" : : "r"(a) : "memory"); }
static void do_sgdt_sib(uint32_t a)
{
    /* sgdt 8(%eax,%ecx,2): the decoder must follow ModRM, SIB and the displacement */
    asm volatile("sgdt 8(%0,%1,2)" : : "r"(a - 8 - 2 * 3), "r"(3) : "memory");
}
static void do_smsw_mem(uint32_t a) { asm volatile("smsw (%0)" : : "r"(a) : "memory"); }
static void do_smsw_reg(uint32_t a)
{
    uint32_t v = a;
    asm volatile("smsw %0" : "+r"(v));
    msw_value = v;
}
static void do_smsw_reg16(uint32_t a)
{
    uint32_t v = a;
    asm volatile("smsw %w0" : "+r"(v));
    msw_value = v;
}
static void do_str(uint32_t a) { (void)a; uint32_t v = 0; asm volatile("str %w0" : "+r"(v)); msw_value = v; }
static void do_sldt(uint32_t a) { (void)a; uint32_t v = 7; asm volatile("sldt %w0" : "+r"(v)); msw_value = v; }
/* The same with a register of each operand size (a starts in it) and with a memory operand. */
static void do_str_reg32(uint32_t a) { uint32_t v = a; asm volatile("str %0" : "+r"(v)); msw_value = v; }
static void do_str_reg16(uint32_t a) { uint32_t v = a; asm volatile("str %w0" : "+r"(v)); msw_value = v; }
static void do_str_mem(uint32_t a) { asm volatile("str (%0)" : : "r"(a) : "memory"); }
static void do_sldt_reg32(uint32_t a) { uint32_t v = a; asm volatile("sldt %0" : "+r"(v)); msw_value = v; }
static void do_sldt_reg16(uint32_t a) { uint32_t v = a; asm volatile("sldt %w0" : "+r"(v)); msw_value = v; }
static void do_sldt_mem(uint32_t a) { asm volatile("sldt (%0)" : : "r"(a) : "memory"); }

static uint32_t image_base(void)
{
    uint32_t b;
    memcpy(&b, table_image + 2, 4);
    return b;
}
static uint32_t image_limit(void) { return (uint32_t)table_image[0] | (uint32_t)table_image[1] << 8; }

static void attack_umip(bool umip)
{
    uint32_t img = (uint32_t)(uintptr_t)table_image;
    group_begin();
    if (umip) {
        check("sgdt", 0, attempt(do_sgdt, img), none());
        check_true("sgdt gives 0xfffe0000 limit 0", image_base(),
                   image_base() == 0xfffe0000 && image_limit() == 0);
        memset(table_image, 0x55, sizeof table_image);
        check("sgdt via SIB", 0, attempt(do_sgdt_sib, img), none());
        check_true("sgdt via SIB", image_base(), image_base() == 0xfffe0000 && image_limit() == 0);
        check("sidt", 0, attempt(do_sidt, img), none());
        check_true("sidt gives 0xffff0000 limit 0", image_base(),
                   image_base() == 0xffff0000 && image_limit() == 0);
        memset(table_image, 0x55, sizeof table_image);
        check("smsw mem", 0, attempt(do_smsw_mem, img), none());
        check_true("smsw to memory writes 0x0033 and no more", image_limit(),
                   image_limit() == 0x0033 && table_image[2] == 0x55);
        check("smsw r32", 0, attempt(do_smsw_reg, 0x12345678), none());
        check_true("smsw r32 = 0x80050033", msw_value, msw_value == 0x80050033);
        check("smsw r16", 0, attempt(do_smsw_reg16, 0x12345678), none());
        check_true("smsw r16 keeps the high half", msw_value, msw_value == 0x12340033);
        check("sgdt to the kernel", KERNEL_TEXT, attempt(do_sgdt, KERNEL_TEXT),
              segv_pf(SEGV_MAPERR, KERNEL_TEXT, 6));
        /* str and sldt as Linux 5.10+ answers them: TR = i386 Linux's TSS selector 0x80,
         * LDTR = 0; a 32-bit register gets the value zero-extended, a 16-bit one keeps its
         * high half, memory gets 2 bytes */
        check("str r32", 0, attempt(do_str_reg32, 0x12345678), none());
        check_true("str r32 = 0x80", msw_value, msw_value == 0x80);
        check("str r16", 0, attempt(do_str_reg16, 0x12345678), none());
        check_true("str r16 keeps the high half", msw_value, msw_value == 0x12340080);
        memset(table_image, 0x55, sizeof table_image);
        check("str mem", 0, attempt(do_str_mem, img), none());
        check_true("str to memory writes 0x0080 and no more", image_limit(),
                   image_limit() == 0x0080 && table_image[2] == 0x55);
        check("sldt r32", 0, attempt(do_sldt_reg32, 0x12345678), none());
        check_true("sldt r32 = 0", msw_value, msw_value == 0);
        check("sldt r16", 0, attempt(do_sldt_reg16, 0x12345678), none());
        check_true("sldt r16 keeps the high half", msw_value, msw_value == 0x12340000);
        memset(table_image, 0x55, sizeof table_image);
        check("sldt mem", 0, attempt(do_sldt_mem, img), none());
        check_true("sldt to memory writes 0x0000 and no more", image_limit(),
                   image_limit() == 0 && table_image[2] == 0x55);
        check("str to the kernel", KERNEL_TEXT, attempt(do_str_mem, KERNEL_TEXT),
              segv_pf(SEGV_MAPERR, KERNEL_TEXT, 6));
        group_end("UMIP on: sgdt/sidt -> Linux's dummy tables (0xfffe0000/0xffff0000, limit 0), "
                  "smsw -> 0x80050033, str -> 0x80, sldt -> 0 (a register: zero-extended at 32 "
                  "bits, high half kept at 16; memory: 2 bytes), a kernel operand -> SIGSEGV "
                  "SEGV_MAPERR there (trapno 14 err 6)");
    } else {
        check("sgdt", 0, attempt(do_sgdt, img), none());
        check_true("sgdt: the real GDT (32 entries) in kernel memory", image_base(),
                   image_limit() == 32 * 8 - 1 && image_base() >= USER_TOP);
        check("sidt", 0, attempt(do_sidt, img), none());
        check_true("sidt: the real IDT (256 gates)", image_limit(), image_limit() == 256 * 8 - 1);
        check("smsw", 0, attempt(do_smsw_reg, 0), none());
        check_true("smsw: PE MP ET NE (TS as the FPU is)", msw_value, (msw_value & 0xfff7) == 0x33);
        check("str", 0, attempt(do_str, 0), none());
        check_true("str: the main TSS", msw_value, msw_value == 0x28);
        check("sldt", 0, attempt(do_sldt, 0), none());
        check_true("sldt: the null LDT", msw_value, msw_value == 0);
        group_end("no UMIP on this CPU: sgdt/sidt/smsw/str/sldt run in ring 3 (the CPU answers: "
                  "GDT limit 0xff, IDT limit 0x7ff, TR 0x28, LDTR 0 (null))");
    }
}

/* --- the signal calls themselves ------------------------------------------------------- */

static volatile int old_style_sig;
static volatile uint64_t mask_in_handler;

/* An old-style handler (no SA_SIGINFO) that skips the ud2 and returns: sigreturn. */
static void skip_ud2_old(int sig)
{
    /* The old frame: pretcode (our return address), sig, then the sigcontext. The pointer
     * goes through an asm so that gcc does not treat it as pointing into sig. */
    char *args = (char *)&sig;
    asm("" : "+r"(args));
    struct kernel_sigcontext *sc = (void *)(args + 4);
    old_style_sig = sig;
    sigprocmask(SIG_BLOCK, 0, (sigset_t *)&mask_in_handler);
    sc->eip += 2;
}

/* An SA_SIGINFO handler that skips the ud2 and returns: rt_sigreturn. */
static void skip_ud2_rt(int sig, siginfo_t *si, void *ucv)
{
    (void)si;
    ucontext_t *uc = ucv;
    old_style_sig = sig;
    sigprocmask(SIG_BLOCK, 0, (sigset_t *)&mask_in_handler);
    uc->uc_mcontext.eip += 2;
}


static void install_fault_handler(void)
{
    stack_t ss = { (uint32_t)(uintptr_t)alt_stack, 0, sizeof alt_stack };
    sigaltstack(&ss, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
    int sigs[] = { SIGSEGV, SIGILL, SIGFPE, SIGTRAP, SIGBUS };
    for (unsigned i = 0; i < 5; i++)
        sigaction(sigs[i], &sa, 0);
}

static unsigned recurse(unsigned depth)
{
    volatile char frame[512];
    frame[0] = (char)depth;
    if (depth == UINT32_MAX) /* never: tells gcc the recursion has an end */
        return 0;
    return recurse(depth + 1) + (unsigned)frame[0];
}
static void do_overflow(uint32_t a) { (void)a; recurse(0); }

static void test_signal_calls(void)
{
    group_begin();
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = skip_ud2_old;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGUSR1);
    sigaction(SIGILL, &sa, 0);
    old_style_sig = 0;
    asm volatile("ud2");
    sigset_t now;
    sigprocmask(SIG_BLOCK, 0, &now);
    check_true("old-style handler ran and returned", old_style_sig, old_style_sig == SIGILL);
    check_true("its mask had SIGILL and sa_mask", (uint32_t)mask_in_handler,
               mask_in_handler == (SIGSET_BIT(SIGILL) | SIGSET_BIT(SIGUSR1)));
    check_true("the mask is back after sigreturn", (uint32_t)now, now == 0);

    sa.sa_sigaction = skip_ud2_rt;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGILL, &sa, 0);
    old_style_sig = 0;
    asm volatile("ud2");
    sigprocmask(SIG_BLOCK, 0, &now);
    check_true("SA_SIGINFO handler ran and returned", old_style_sig, old_style_sig == SIGILL);
    check_true("SA_NODEFER: SIGILL not blocked in it", (uint32_t)mask_in_handler, mask_in_handler == 0);
    sigaction(SIGILL, 0, &old);
    check_true("SA_RESETHAND: the action is SIG_DFL after", (uint32_t)(uintptr_t)old.sa_handler,
               old.sa_handler == 0);

    /* rt_sigaction's and rt_sigprocmask's errors, in Linux's order. */
    struct kernel_sigaction k = { 1, 0, 0, 0 };
    check_true("rt_sigaction(0)", 0, raw_syscall(SYS_rt_sigaction, 0, (long)&k, 0, 8) == -EINVAL);
    check_true("rt_sigaction(65)", 65, raw_syscall(SYS_rt_sigaction, 65, (long)&k, 0, 8) == -EINVAL);
    check_true("rt_sigaction(SIGKILL, act)", 9, raw_syscall(SYS_rt_sigaction, SIGKILL, (long)&k, 0, 8) == -EINVAL);
    check_true("rt_sigaction(SIGSTOP, act)", 19, raw_syscall(SYS_rt_sigaction, SIGSTOP, (long)&k, 0, 8) == -EINVAL);
    check_true("rt_sigaction(SIGKILL, NULL, old)", 9,
               raw_syscall(SYS_rt_sigaction, SIGKILL, 0, (long)&k, 8) == 0 && k.handler == 0);
    check_true("rt_sigaction sigsetsize 4", 4, raw_syscall(SYS_rt_sigaction, SIGUSR1, 0, 0, 4) == -EINVAL);
    check_true("rt_sigaction(65, bad act): EFAULT first", 65,
               raw_syscall(SYS_rt_sigaction, 65, KERNEL_TEXT, 0, 8) == -EFAULT);
    k = (struct kernel_sigaction){ 1, SA_UNSUPPORTED | SA_SIGINFO | 0x100, 0,
                                   SIGSET_BIT(SIGKILL) | SIGSET_BIT(SIGUSR2) };
    raw_syscall(SYS_rt_sigaction, SIGUSR1, (long)&k, 0, 8);
    raw_syscall(SYS_rt_sigaction, SIGUSR1, 0, (long)&k, 8);
    check_true("unknown sa_flags and SIGKILL in sa_mask are dropped", k.flags,
               k.flags == SA_SIGINFO && k.mask == SIGSET_BIT(SIGUSR2));
    sigset_t all = ~(sigset_t)0;
    check_true("rt_sigprocmask how 3", 3, raw_syscall(SYS_rt_sigprocmask, 3, (long)&all, 0, 8) == -EINVAL);
    check_true("rt_sigprocmask sigsetsize 16", 16, raw_syscall(SYS_rt_sigprocmask, 0, 0, 0, 16) == -EINVAL);
    sigprocmask(SIG_SETMASK, &all, 0);
    sigprocmask(SIG_SETMASK, 0, &now);
    check_true("SIGKILL and SIGSTOP cannot be blocked", (uint32_t)now,
               now == (all & ~(SIGSET_BIT(SIGKILL) | SIGSET_BIT(SIGSTOP))));
    sigemptyset(&now);
    sigprocmask(SIG_SETMASK, &now, 0);

    /* sigaltstack's errors. */
    stack_t ss = { (uint32_t)(uintptr_t)alt_stack, 0, MINSIGSTKSZ - 1 };
    errno = 0;
    check_true("sigaltstack too small", ENOMEM, sigaltstack(&ss, 0) == -1 && errno == ENOMEM);
    ss.ss_size = sizeof alt_stack, ss.ss_flags = 4;
    check_true("sigaltstack bad flags", EINVAL, sigaltstack(&ss, 0) == -1 && errno == EINVAL);
    stack_t cur;
    check_true("sigaltstack query: none yet", 0, sigaltstack(0, &cur) == 0 &&
               cur.ss_sp == 0 && cur.ss_flags == SS_DISABLE);
    group_end("signals: an old-style handler returns through sigreturn, an SA_SIGINFO one "
              "through rt_sigreturn, with the masks Linux sets (sa_mask, SA_NODEFER, "
              "SA_RESETHAND); rt_sigaction/rt_sigprocmask/sigaltstack errors as Linux's");

    install_fault_handler();
    group_begin();
    check_true("sigaltstack query", 0, sigaltstack(0, &cur) == 0 &&
               cur.ss_sp == (uint32_t)(uintptr_t)alt_stack && cur.ss_flags == 0 &&
               cur.ss_size == sizeof alt_stack);
    handler_esp = 0;
    struct outcome o = attempt(do_overflow, 0);
    group_checks++;
    if (o.sig != SIGSEGV || o.code != SEGV_MAPERR || o.trapno != 14)
        mismatch("stack overflow", 0, "", o);
    uint32_t alt = (uint32_t)(uintptr_t)alt_stack;
    check_true("the handler ran on the alternate stack", handler_esp,
               handler_esp > alt && handler_esp < alt + sizeof alt_stack);
    group_end("a stack overflow is caught by an SA_ONSTACK handler on the alternate stack "
              "(SIGSEGV SEGV_MAPERR)");
}

/* --- modes that end in a kill ---------------------------------------------------------- */

static int die_with(const char *mode)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    if (!strcmp(mode, "blocked")) {
        sigaction(SIGSEGV, &sa, 0);
        sigset_t s = SIGSET_BIT(SIGSEGV);
        sigprocmask(SIG_BLOCK, &s, 0);
    } else if (!strcmp(mode, "ignored")) {
        sa.sa_handler = (void (*)(int))1; /* SIG_IGN */
        sa.sa_flags = 0;
        sigaction(SIGSEGV, &sa, 0);
    } else { /* bad_stack */
        sigaction(SIGILL, &sa, 0);
        printf("hostile_cpu: ud2 with ESP in the kernel\n");
        asm volatile("movl %0, %%esp\n\tud2" : : "r"(KERNEL_TEXT + 64));
    }
    printf("hostile_cpu: reading address 0 with SIGSEGV %s\n", mode);
    read_at(0);
    printf("not ok - the fault with SIGSEGV %s did not kill\n", mode);
    return 1;
}

/* --- another process's memory ---------------------------------------------------------- */

/* The holder (run in the background) puts a secret in secret_page, which has the same
 * virtual address in every process running this program, and in a page it maps at
 * SECRET_FIXED, which nothing else maps; then it answers the reader over IPC (no timing:
 * the reader finds it by name, and the holder registers the name only once its secret is
 * in place). The reader must see its own zeroed page at the secret's address, SIGSEGV at
 * SECRET_FIXED, and its own bytes (or EFAULT) wherever a system call takes that address;
 * the holder checks at the end that its secret is unchanged. */
#define SECRET_FIXED 0x70000000u
#define SECRET_NAME "cpu-secret"
#define SECRET_TEXT "A-SECRET-5ec2e7a1"
#define READER_TEXT "B-own-data"
enum { SECRET_READY = 1, SECRET_PROBE, SECRET_DONE };

static char secret_page[4096] __attribute__((aligned(4096)));

/* True when both copies of the holder's secret are as it wrote them. */
static bool secret_intact(void)
{
    return !strcmp(secret_page, SECRET_TEXT) &&
           !strcmp((const char *)(uintptr_t)SECRET_FIXED, SECRET_TEXT);
}

static int secret_holder(void)
{
    memcpy(secret_page, SECRET_TEXT, sizeof SECRET_TEXT);
    if (mmap((void *)(uintptr_t)SECRET_FIXED, 4096, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != (void *)(uintptr_t)SECRET_FIXED) {
        printf("not ok - secret holder: mmap at %x failed\n", SECRET_FIXED);
        return 1;
    }
    memcpy((char *)(uintptr_t)SECRET_FIXED, SECRET_TEXT, sizeof SECRET_TEXT);
    int ep = ipc_create(SECRET_NAME);
    if (ep < 0 || ipc_register(ep, SECRET_NAME) < 0) {
        printf("not ok - secret holder: endpoint %s: errno %d\n", SECRET_NAME, errno);
        return 1;
    }
    bool probe_ok = false;
    for (;;) {
        struct ipc_msg m;
        int token = ipc_recv(ep, &m, 60000);
        if (token < 0) {
            printf("not ok - secret holder: no reader came (errno %d)\n", errno);
            return 1;
        }
        if (token == 0)
            continue;
        struct ipc_msg reply = { 0, 0, { 0 } };
        if (m.label == SECRET_PROBE) {
            /* the reader sent a message from its copy of secret_page: its own bytes */
            probe_ok = m.len == sizeof READER_TEXT && !memcmp(m.data, READER_TEXT, m.len);
            reply.label = probe_ok;
        } else if (m.label == SECRET_DONE) {
            bool ok = probe_ok && secret_intact();
            printf("%s - another process's memory (the holder): the reader's message from the "
                   "secret's address carried the reader's bytes; the secret at that address "
                   "and at %x is unchanged\n", ok ? "ok" : "not ok", SECRET_FIXED);
            reply.label = ok;
            ipc_reply(token, &reply);
            return !ok;
        } else {
            reply.label = secret_intact();
        }
        ipc_reply(token, &reply);
    }
}

static int secret_reader(void)
{
    install_fault_handler();
    int ep = -1;
    for (int tries = 0; tries < 3000 && ep < 0; tries++) { /* up to 30 s for the holder */
        ep = ipc_lookup(SECRET_NAME);
        if (ep < 0)
            usleep(10000);
    }
    struct ipc_msg m = { SECRET_READY, 0, { 0 } }, reply;
    if (ep < 0 || ipc_call(ep, &m, &reply, 10000) < 0 || reply.label != 1) {
        printf("not ok - another process's memory: the secret holder is not there (errno %d)\n",
               errno);
        return 1;
    }
    uint32_t same = (uint32_t)(uintptr_t)secret_page;
    group_begin();
    /* The holder's secret page is mapped at this very address in the holder: here it is
     * this process's own, zeroed. */
    bool zero = true;
    for (unsigned i = 0; i < sizeof secret_page; i++)
        zero &= secret_page[i] == 0;
    check_true("read at the secret's address: own zeroed page", same, zero);
    memcpy(secret_page, READER_TEXT, sizeof READER_TEXT);
    check_true("write at the secret's address: own page", same, !strcmp(secret_page, READER_TEXT));
    /* The holder's page at SECRET_FIXED is not mapped here. */
    check("read the holder's mapping", SECRET_FIXED, attempt(read_at, SECRET_FIXED),
          segv_pf(SEGV_MAPERR, SECRET_FIXED, 4));
    check("write the holder's mapping", SECRET_FIXED, attempt(write_at, SECRET_FIXED),
          segv_pf(SEGV_MAPERR, SECRET_FIXED, 6));
    /* System calls given the holder's addresses reach this process's memory, or EFAULT. */
    check_true("write(1, holder's mapping)", SECRET_FIXED,
               raw_syscall(SYS_write, 1, SECRET_FIXED, 16, 0) == -EFAULT);
    check_true("open(holder's mapping)", SECRET_FIXED,
               raw_syscall(SYS_open, SECRET_FIXED, O_RDONLY, 0, 0) == -EFAULT);
    check_true("clock_gettime(holder's mapping)", SECRET_FIXED,
               raw_syscall(SYS_clock_gettime, CLOCK_MONOTONIC, SECRET_FIXED, 0, 0) == -EFAULT);
    errno = 0;
    check_true("ipc_call(msg = holder's mapping)", SECRET_FIXED,
               ipc_call(ep, (const struct ipc_msg *)(uintptr_t)SECRET_FIXED, &reply, 10000) < 0 &&
                   errno == EFAULT);
    errno = 0;
    check_true("ipc_call(reply = holder's mapping)", SECRET_FIXED,
               ipc_call(ep, &m, (struct ipc_msg *)(uintptr_t)SECRET_FIXED, 10000) < 0 &&
                   errno == EFAULT);
    static const char line[] = "hostile_cpu: write(1) at the secret's address printed the reader's own bytes\n";
    memcpy(secret_page, line, sizeof line);
    check_true("write(1, the secret's address)", same,
               raw_syscall(SYS_write, 1, same, sizeof line - 1, 0) == (long)(sizeof line - 1));
    /* A message sent from the secret's address carries this process's bytes. */
    struct ipc_msg *probe = (struct ipc_msg *)(void *)secret_page;
    probe->label = SECRET_PROBE;
    probe->len = sizeof READER_TEXT;
    memcpy(probe->data, READER_TEXT, sizeof READER_TEXT);
    check_true("ipc_call(msg = the secret's address) carries own bytes", same,
               ipc_call(ep, probe, &reply, 10000) == 0 && reply.label == 1);
    m.label = SECRET_DONE;
    check_true("the holder's secret unchanged", 0, ipc_call(ep, &m, &reply, 10000) == 0 && reply.label == 1);
    /* The holder exits after that answer; a call blocks until its endpoint goes with it
     * (EPIPE, or EBADF once it is gone), so its exit notice is on the console before the
     * line below. */
    m.label = SECRET_READY;
    errno = 0;
    check_true("the holder exits", 0, ipc_call(ep, &m, &reply, 10000) < 0 && (errno == EPIPE || errno == EBADF));
    group_end("another process's memory: at the address of its secret the reader sees its own "
              "zeroed page; the holder's mapping at 0x70000000 -> SIGSEGV SEGV_MAPERR (err 4/6); "
              "write/open/clock_gettime/ipc_call with that address -> EFAULT, with the "
              "secret's address -> the reader's own bytes");
    return total_failures != 0;
}

/* The panic: an LDT selector held in FS while another process runs int3. With the
 * LDT null no LDT selector loads at all; the process holds what it can (the null selector
 * in FS) across the sleep. */
static int ldt_hold(void)
{
    install_fault_handler();
    int visible = 0;
    for (uint32_t sel = 7; sel < 0x10000; sel += 8)
        visible += lar_of(sel) >= 0;
    struct outcome o = attempt(load_fs, 0x1007);
    if (visible == 0 && o.sig == SIGSEGV && o.trapno == 13 && o.err == 0x1004)
        printf("ok - LDT selectors: none visible to lar, mov 0x1007 to FS -> SIGSEGV err 0x1004\n");
    else
        printf("not ok - LDT selectors: %d visible, mov to FS gave sig %d err %x\n", visible,
               o.sig, o.err);
    usleep(300000); /* the other process's int3 happens now */
    uint32_t fs;
    asm volatile("mov %%fs, %0" : "=r"(fs));
    printf("ok - awake after another process's int3 (FS %x): the kernel returned to us\n", fs);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "ldt_hold"))
        return ldt_hold();
    if (!strcmp(mode, "secret_holder"))
        return secret_holder();
    if (!strcmp(mode, "secret_reader"))
        return secret_reader();
    if (!strcmp(mode, "int3")) {
        usleep(100000);
        asm volatile("int3");
        printf("hostile_cpu: int3 done\n");
        return 0;
    }
    if (!strcmp(mode, "blocked") || !strcmp(mode, "ignored") || !strcmp(mode, "bad_stack"))
        return die_with(mode);
    bool umip = !strcmp(mode, "all_umip");
    if (!umip && strcmp(mode, "all_noumip")) {
        printf("usage: hostile_cpu all_umip|all_noumip|ldt_hold|int3|secret_holder|secret_reader|blocked|ignored|bad_stack\n");
        return 2;
    }
    /* An optional second argument runs only the groups whose names it contains. */
    const char *only = argc > 2 ? argv[2] : 0;
#define GROUP(name, call)                                                                  \
    if (!only || strstr(only, name))                                                       \
        call;
    test_signal_calls(); /* installs the fault handler last */
    GROUP("memory", attack_kernel_memory());
    GROUP("pointers", attack_syscall_pointers());
    GROUP("privileged", attack_privileged());
    GROUP("int", attack_int_n());
    GROUP("exceptions", attack_exceptions());
    GROUP("selectors", attack_selectors());
    GROUP("sigreturn", attack_sigreturn());
    GROUP("umip", attack_umip(umip));
    printf("hostile_cpu: %d checks, %d failed\n", total_checks, total_failures);
    return total_failures != 0;
}
