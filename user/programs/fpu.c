/*
 * fpu.c - keeps a number in the x87 register stack across many task switches and checks
 * it is still there, to show that each process has FPU registers of its own.
 *
 * The kernel switches the FPU lazily (arch/x86/fpu.c): only when a process runs an x87
 * instruction after another process used the FPU does it save one's registers and load
 * the other's. Two copies of this program with different values, run at once, would read
 * each other's number if it did not.
 *
 * Usage: fpu VALUE [ROUNDS]   (default 20 rounds; each round sleeps 1 ms, a tick here)
 *        fpu fresh            check that the FPU a process first gets is clean: control
 *                             word 0x37f, status 0, and all eight data registers zero (read
 *                             through MMX, which sees what FNINIT would leave behind)
 *        fpu trap             unmask x87's invalid-operation error and take the square root
 *                             of -1: the kernel kills the program with SIGFPE (#MF)
 * Prints "fpu: VALUE held for ROUNDS rounds" and exits 0, or "fpu: round R found X, not
 * VALUE" and exits 1; "fpu: fresh FPU is clean", or what was not.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Pushes v onto the x87 register stack. */
static void fpu_push(int32_t v) { __asm__ volatile("fildl %0" : : "m"(v)); }

/* The integer in the top x87 register (ST0), left where it is. */
static int32_t fpu_top(void)
{
    int32_t v;
    __asm__ volatile("fistl %0" : "=m"(v));
    return v;
}

/* sqrt(-1) with the invalid-operation error unmasked in the control word: the next x87
 * instruction (fwait) raises #MF. */
static void fpu_trap(void)
{
    uint16_t control = 0x037e; /* the default 0x037f with bit 0 (invalid operation) unmasked */
    __asm__ volatile("fldcw %0\n\tfld1\n\tfchs\n\tfsqrt\n\tfwait" : : "m"(control));
}

/* The control and status words and the eight MMX registers (the x87 data registers' low
 * 64 bits), as a process finds them before it has done anything with the FPU. */
static int fresh_fpu_is_clean(void)
{
    uint16_t control, status;
    uint64_t mm[8];
    __asm__ volatile("fnstcw %0\n\tfnstsw %1" : "=m"(control), "=m"(status));
    __asm__ volatile("movq %%mm0, 0(%0)\n\tmovq %%mm1, 8(%0)\n\t"
                     "movq %%mm2, 16(%0)\n\tmovq %%mm3, 24(%0)\n\t"
                     "movq %%mm4, 32(%0)\n\tmovq %%mm5, 40(%0)\n\t"
                     "movq %%mm6, 48(%0)\n\tmovq %%mm7, 56(%0)\n\temms"
                     : : "r"(mm) : "memory");
    int dirty = control != 0x037f || status != 0;
    if (dirty)
        printf("fpu: control word %#x, status word %#x\n", control, status);
    for (int i = 0; i < 8; i++) {
        if (mm[i] != 0) {
            printf("fpu: mm%d = %08x%08x, left by another process\n", i,
                   (unsigned)(mm[i] >> 32), (unsigned)mm[i]);
            dirty = 1;
        }
    }
    if (!dirty)
        printf("fpu: fresh FPU is clean\n");
    return dirty;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "fresh") == 0)
        return fresh_fpu_is_clean();
    if (argc == 2 && strcmp(argv[1], "trap") == 0) {
        printf("fpu: about to take sqrt(-1) with the error unmasked\n");
        fpu_trap();
        printf("fpu: sqrt(-1) did not trap\n");
        return 1;
    }
    if (argc < 2 || argc > 3) {
        printf("usage: fpu VALUE [ROUNDS] | fpu fresh | fpu trap\n");
        return 2;
    }
    int32_t value = atoi(argv[1]);
    int rounds = argc > 2 ? atoi(argv[2]) : 20;
    fpu_push(value);
    for (int r = 0; r < rounds; r++) {
        usleep(1000);
        int32_t found = fpu_top();
        if (found != value) {
            printf("fpu: round %d found %d, not %d\n", r, (int)found, (int)value);
            return 1;
        }
    }
    printf("fpu: %d held for %d rounds\n", (int)value, rounds);
    return 0;
}
