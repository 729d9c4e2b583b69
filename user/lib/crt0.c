/*
 * crt0.c - where a program starts: _start, at the ELF entry point.
 *
 * The kernel starts the program with Linux's i386 initial stack: [esp] = argc, then
 * argv[0..argc-1], a NULL, the environment (environ) and its NULL, then the auxiliary vector.
 * Nothing is in the registers. _start hands that stack pointer to start_main(), which calls
 * main(argc, argv) and exits with what it returns.
 */
#include <stdint.h>
#include <stdlib.h>

int main(int argc, char **argv);

void start_main(uint32_t *sp) __attribute__((noreturn, used));

/* In .text.entry, which user.ld puts first, so the entry point is the first byte of the
 * image. EBP = 0 ends the frame chain for backtraces; the stack is 16-byte aligned at the
 * call, as the i386 System V ABI requires. */
asm(".section .text.entry, \"ax\"\n"
    ".globl _start\n"
    ".type _start, @function\n"
    "_start:\n"
    "    xorl %ebp, %ebp\n"
    "    movl %esp, %eax\n"
    "    andl $-16, %esp\n"
    "    subl $12, %esp\n"
    "    pushl %eax\n"
    "    call start_main\n"
    "    ud2\n"
    ".size _start, . - _start\n"
    ".previous\n");

char **environ; /* unistd.h: the environment, after argv's NULL */

void start_main(uint32_t *sp)
{
    int argc = (int)sp[0];
    char **argv = (char **)(sp + 1);
    environ = argv + argc + 1;
    exit(main(argc, argv));
}
