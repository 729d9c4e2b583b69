/*
 * hostile_cpu.c - attacks on the CPU's protection from ring 3 (see usage()).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The access rights of selector sel as LAR reports them, or -1 when LAR refuses it. */
static long lar_of(uint32_t sel)
{
    uint32_t rights, ok;
    asm volatile("xor %1, %1\n\tlar %2, %0\n\tsetz %b1" : "=r"(rights), "=&q"(ok) : "r"(sel) : "cc");
    return ok & 1 ? (long)rights : -1;
}

/* Holds an LDT selector in FS across a sleep (the panic). */
static int ldt_hold(void)
{
    for (uint32_t sel = 0x1007; sel < 0x10000; sel += 8) {
        long r = lar_of(sel);
        /* present (bit 15), code/data (bit 12), data or readable code */
        if (r < 0 || !(r & 0x8000) || !(r & 0x1000) || ((r & 0x800) && !(r & 0x200)))
            continue;
        asm volatile("mov %0, %%fs" : : "r"(sel));
        printf("hostile_cpu: fs = %#x (LDT), sleeping\n", (unsigned)sel);
        usleep(300000);
        uint32_t fs;
        asm volatile("mov %%fs, %0" : "=r"(fs));
        printf("hostile_cpu: awake, fs = %#x\n", (unsigned)fs);
        return 0;
    }
    printf("hostile_cpu: no LDT selector is loadable\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "ldt_hold"))
        return ldt_hold();
    if (argc > 1 && !strcmp(argv[1], "int3")) {
        usleep(100000);
        asm volatile("int3");
        printf("hostile_cpu: int3 done\n");
        return 0;
    }
    return 2;
}
