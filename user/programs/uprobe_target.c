/*
 * uprobe_target.c - a function called a known number of times with known arguments, for
 * the uprobes tests (tests/shell/uprobes.script, docs/kprobes.md "uprobes").
 *
 *   uprobe_target where             prints "where entry 0xOFF" and "where mid 0xOFF": the
 *                                   file offsets of add_pair's first instruction and of the
 *                                   lea in its middle (uprobes.check checks them against
 *                                   nm and readelf of build/user/uprobe_target), and
 *                                   "where data 0xOFF", uprobe_data's (no code there)
 *   uprobe_target N BASE [MS [fork]]
 *                                   sleeps MS milliseconds, then calls add_pair(BASE + i,
 *                                   2 * (BASE + i) + 1) for i = 0 .. N-1; with "fork" a child
 *                                   makes the same calls with BASE + 1000 first
 *
 * Prints "uprobe_target BASE: N calls, sum S" (the sum of add_pair's answers), so a probe
 * that changed what the function computes shows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The ELF header, loaded with the text (user/user.ld's FILEHDR): the linker names it. */
extern const unsigned char __ehdr_start[];

int add_pair(int a, int b) __attribute__((noinline, noclone));

/* The probed function. uprobe_mid labels an instruction in its middle: a lea that reads
 * a from %eax and b from %edx (a probe there sees them in those registers). */
int add_pair(int a, int b)
{
    int sum;
    __asm__ volatile("nop\n\t.globl uprobe_mid\nuprobe_mid:\n\tlea (%%eax,%%edx), %%ecx"
                     : "=c"(sum) : "a"(a), "d"(b));
    return sum;
}

extern const char uprobe_mid[];

/* A word of the data segment: where a probe may not go (uprobes.script, test_uprobe_elf). */
volatile int uprobe_data = 1;

/* The file offset of the code at addr: the loadable segment's p_offset plus the distance
 * from its p_vaddr, read from the program headers in memory. 0 when none holds it. */
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

/* n calls from base on; the sum of the answers. */
static long calls(int n, int base)
{
    long sum = 0;
    for (int i = 0; i < n; i++)
        sum += add_pair(base + i, 2 * (base + i) + 1);
    return sum;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "where") == 0) {
        printf("where entry 0x%x\n", file_offset((const void *)add_pair));
        printf("where mid 0x%x\n", file_offset(uprobe_mid));
        printf("where data 0x%x\n", file_offset((const void *)&uprobe_data));
        return 0;
    }
    if (argc < 3) {
        printf("usage: uprobe_target where | N BASE [MS [fork]]\n");
        return 2;
    }
    int n = atoi(argv[1]), base = atoi(argv[2]);
    if (argc > 3)
        usleep((unsigned)atoi(argv[3]) * 1000u);
    if (argc > 4 && strcmp(argv[4], "fork") == 0) {
        pid_t child = fork();
        if (child == 0) {
            printf("uprobe_target %d: %d calls, sum %ld\n", base + 1000, n,
                   calls(n, base + 1000));
            return 0;
        }
        int status;
        waitpid(child, &status, 0);
    }
    printf("uprobe_target %d: %d calls, sum %ld\n", base, n, calls(n, base));
    return 0;
}
