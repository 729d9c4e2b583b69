/*
 * bar_bench.c - what a program's access to a mapped BAR costs (`make bench`, issue 23):
 * edu's resource0 mapped before mmiotrace is current (untraced: the load is the bare
 * instruction, the device page present and uncached) and mapped again while it is (traced:
 * every load and store faults, is done by the kernel, recorded and stepped;
 * arch/x86/mmiotrace_user.c). Measured with the TSC, which under QEMU's
 * -icount shift=0,sleep=off advances one per guest instruction; an empty loop's cost is
 * taken off. Prints, for tools/bench.sh:
 *   BENCH mmiotrace_user_untraced N.NN   one 4-byte load, untraced
 *   BENCH mmiotrace_user_read N.NN       one 4-byte load, traced (an R record)
 *   BENCH mmiotrace_user_write N.NN      one 4-byte store, traced (a W record)
 *   BENCH mmiotrace_user_port_untraced N.NN   one inb from a port ioperm gave it, untraced
 *   BENCH mmiotrace_user_port_read N.NN  the same inb traced: the #GP, the access done for
 *                                        the program, the IN record (arch/x86/ioport.c)
 * or "BENCH-ERROR NAME: WHAT: ERRNO" for a row it could not measure. Run as root, with
 * edu at 00:04.0, pci-testdev at 00:05.0 (its I/O BAR the second line of its resource
 * file) and the nop tracer current; it leaves nop current.
 */
#include <stdlib.h>
#include <sys/io.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <tracekern/check.h>
#include <unistd.h>

#define RESOURCE "/sys/bus/pci/devices/0000:00:04.0/resource0"
#define TRACER "/sys/kernel/debug/tracing/current_tracer"
#define UNTRACED_LOOPS 2000
#define TRACED_LOOPS 200
#define REPEATS 3

static inline uint64_t rdtsc(void)
{
    uint64_t t;
    asm volatile("rdtsc" : "=A"(t) : : "memory");
    return t;
}

static volatile uint32_t *regs;

static uint64_t __attribute__((noinline)) loop_empty(uint32_t n)
{
    uint64_t start = rdtsc();
    for (uint32_t i = 0; i < n; i++)
        asm volatile("" : : : "memory");
    return rdtsc() - start;
}

static uint64_t __attribute__((noinline)) loop_read(uint32_t n)
{
    volatile uint32_t *r = regs;
    uint64_t start = rdtsc();
    for (uint32_t i = 0; i < n; i++) {
        (void)r[0];
        asm volatile("" : : : "memory");
    }
    return rdtsc() - start;
}

static uint64_t __attribute__((noinline)) loop_write(uint32_t n)
{
    volatile uint32_t *r = regs;
    uint64_t start = rdtsc();
    for (uint32_t i = 0; i < n; i++) {
        r[1] = i;
        asm volatile("" : : : "memory");
    }
    return rdtsc() - start;
}

static uint16_t port; /* pci-testdev's WIDTH register (its I/O BAR + 1): reads change nothing */

static uint64_t __attribute__((noinline)) loop_port(uint32_t n)
{
    uint16_t p = port;
    uint64_t start = rdtsc();
    for (uint32_t i = 0; i < n; i++) {
        (void)inb(p);
        asm volatile("" : : : "memory");
    }
    return rdtsc() - start;
}

/* pci-testdev's I/O BAR from its resource file, and ioperm for it; false with a
 * BENCH-ERROR line for row. */
static bool take_port(const char *row)
{
    char text[1024];
    int fd = open("/sys/bus/pci/devices/0000:00:05.0/resource", O_RDONLY);
    ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof text - 1);
    if (fd >= 0)
        close(fd);
    char *line = n > 0 ? (text[n] = '\0', strchr(text, '\n')) : 0;
    unsigned long base = line ? strtoul(line + 1, 0, 16) : 0;
    if (!base || base >= 0x10000 || ioperm(base, 2, 1) != 0) {
        printf("BENCH-ERROR %s: pci-testdev's I/O BAR at 00:05.0: %s\n", row,
               base ? strerror(errno) : "not found");
        return false;
    }
    port = (uint16_t)(base + 1);
    return true;
}

/* The smallest of REPEATS runs of loop(n). */
static uint64_t min_cycles(uint64_t (*loop)(uint32_t), uint32_t n)
{
    uint64_t best = UINT64_MAX;
    for (int r = 0; r < REPEATS; r++) {
        uint64_t c = loop(n);
        if (c < best)
            best = c;
    }
    return best;
}

/* Prints (with - without) / n with two decimals, in integers. */
static void report(const char *row, uint64_t with, uint64_t without, uint32_t n)
{
    uint64_t diff = with > without ? with - without : 0;
    uint64_t hundredths = (diff * 100 + n / 2) / n;
    printf("BENCH %s %llu.%02llu\n", row, hundredths / 100, hundredths % 100);
}

/* edu's BAR mapped, or NULL with a BENCH-ERROR line for row. */
static volatile uint32_t *map_bar(const char *row)
{
    int fd = open(RESOURCE, O_RDWR);
    void *p = fd < 0 ? MAP_FAILED : mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        printf("BENCH-ERROR %s: mapping " RESOURCE ": %s\n", row, strerror(errno));
        return 0;
    }
    close(fd);
    return p;
}

int main(void)
{
    if (!(regs = map_bar("mmiotrace_user_untraced")))
        return 1;
    report("mmiotrace_user_untraced", min_cycles(loop_read, UNTRACED_LOOPS),
           min_cycles(loop_empty, UNTRACED_LOOPS), UNTRACED_LOOPS);
    munmap((void *)regs, 4096);
    bool ports = take_port("mmiotrace_user_port_untraced");
    if (ports)
        report("mmiotrace_user_port_untraced", min_cycles(loop_port, UNTRACED_LOOPS),
               min_cycles(loop_empty, UNTRACED_LOOPS), UNTRACED_LOOPS);
    if (write_file(TRACER, "mmiotrace") < 0) {
        printf("BENCH-ERROR mmiotrace_user_read: " TRACER ": %s\n", strerror(errno));
        return 1;
    }
    if (!(regs = map_bar("mmiotrace_user_read")))
        return 1;
    report("mmiotrace_user_read", min_cycles(loop_read, TRACED_LOOPS),
           min_cycles(loop_empty, TRACED_LOOPS), TRACED_LOOPS);
    report("mmiotrace_user_write", min_cycles(loop_write, TRACED_LOOPS),
           min_cycles(loop_empty, TRACED_LOOPS), TRACED_LOOPS);
    if (ports)
        report("mmiotrace_user_port_read", min_cycles(loop_port, TRACED_LOOPS),
               min_cycles(loop_empty, TRACED_LOOPS), TRACED_LOOPS);
    munmap((void *)regs, 4096);
    write_file(TRACER, "nop");
    return 0;
}
