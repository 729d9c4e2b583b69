/*
 * fault.c - a user program that breaks the rules on purpose, one way per argument, to show
 * that the kernel stops a faulting process (with a report of what it did) and carries on.
 *
 * Usage: fault KIND, where KIND is
 *   null        read address 0 (the unmapped NULL page): #PF
 *   kernel      read 0xc0100000, kernel text, not user-accessible: #PF
 *   write_text  write to this program's own code (a read-only page): #PF
 *   cli         disable interrupts (IOPL is 0): #GP
 *   hlt         halt the CPU (privileged): #GP
 *   io          outb to port 0x80 (IOPL is 0, no I/O bitmap grant): #GP
 *   ud          execute ud2: #UD
 *   div         divide by zero: #DE
 *   int         int $0x30, a vector whose gate user mode may not use: #GP
 *   stack       recurse until the stack runs out: #PF below the stack
 *   int3        a breakpoint: the kernel takes a CPU snapshot through its task gate and
 *               the program continues
 *   std         set the direction flag, write a line with it set (the kernel's own string
 *               copies must not run backwards: it clears DF on entry), then read address
 *               0 with it still set: the line comes out whole, then the #PF report
 *   caught      read address 0 with a SIGSEGV handler installed: the handler prints
 *               "fault: caught SIGSEGV" and the program exits 0
 * Prints "fault: about to KIND" first. Every KIND but int3 and caught should be killed
 * there; int3 prints "fault: survived int3" and exits 0. If a fault does not happen, it prints
 * "fault: KIND did not fault" and exits 1; an unknown KIND gives the usage and status 2.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Reads the word at addr with one instruction the compiler cannot remove or replace (a
 * plain NULL dereference in C would be undefined behaviour, which gcc may turn into ud2). */
static uint32_t read_at(uintptr_t addr)
{
    uint32_t v;
    asm volatile("movl (%1), %0" : "=r"(v) : "r"(addr) : "memory");
    return v;
}

static void write_byte_at(uintptr_t addr, uint8_t v)
{
    asm volatile("movb %1, (%0)" : : "r"(addr), "q"(v) : "memory");
}

/* Each call takes a 256-byte frame and is not a tail call (it uses the result), so depth
 * grows until the stack's pages run out; the depth test is never true in practice and only
 * tells gcc the recursion has an end. */
static unsigned recurse(unsigned depth)
{
    volatile char frame[256];
    frame[0] = (char)depth;
    if (depth == UINT32_MAX)
        return 0;
    return recurse(depth + 1) + (unsigned)frame[0];
}

static void do_null(void) { read_at(0); }
static void do_kernel(void) { read_at(0xc0100000); }
static void do_write_text(void) { write_byte_at((uintptr_t)&do_write_text, 0xc3); }
static void do_cli(void) { asm volatile("cli"); }
static void do_hlt(void) { asm volatile("hlt"); }
static void do_io(void) { asm volatile("outb %%al, $0x80" : : "a"(0)); }
static void do_ud(void) { asm volatile("ud2"); }
static void do_div(void)
{
    asm volatile("xorl %%ecx, %%ecx\n\tdivl %%ecx" : : : "eax", "ecx", "edx");
}
static void do_int(void) { asm volatile("int $0x30"); }
static void do_stack(void) { recurse(0); }
static void do_int3(void) { asm volatile("int3"); }
static void do_std(void)
{
    static const char line[] =
        "fault: this line was written with the direction flag set, and it reads forwards\n";
    int ret;
    asm volatile("std\n\tint $0x80"
                 : "=a"(ret)
                 : "a"(4 /* write */), "b"(1), "c"(line), "d"(sizeof line - 1)
                 : "memory");
    read_at(0);
}

/* The SIGSEGV handler of `caught`: says so and ends the program (returning would run the
 * faulting read again). */
static void on_segv(int sig)
{
    (void)sig;
    static const char line[] = "fault: caught SIGSEGV\n";
    write(1, line, sizeof line - 1);
    _exit(0);
}

static void do_caught(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_segv;
    sigaction(SIGSEGV, &sa, 0);
    read_at(0);
}

static const struct {
    const char *kind;
    void (*run)(void);
} kinds[] = {
    { "null", do_null }, { "kernel", do_kernel }, { "write_text", do_write_text },
    { "cli", do_cli },   { "hlt", do_hlt },       { "io", do_io },
    { "ud", do_ud },     { "div", do_div },       { "int", do_int },
    { "stack", do_stack }, { "int3", do_int3 },   { "std", do_std },
    { "caught", do_caught },
};

int main(int argc, char **argv)
{
    for (unsigned i = 0; argc == 2 && i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        if (strcmp(argv[1], kinds[i].kind) != 0)
            continue;
        printf("fault: about to %s\n", kinds[i].kind);
        kinds[i].run();
        if (strcmp(kinds[i].kind, "int3") == 0) {
            printf("fault: survived int3\n");
            return 0;
        }
        printf("fault: %s did not fault\n", kinds[i].kind);
        return 1;
    }
    printf("usage: fault KIND, KIND one of:");
    for (unsigned i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        printf(" %s", kinds[i].kind);
    printf("\n");
    return 2;
}
