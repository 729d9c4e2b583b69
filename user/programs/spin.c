/*
 * spin.c - burns CPU in user mode forever, making no system calls, to show that the timer
 * preempts a user process (the shell and other programs keep running) and that ^C kills it.
 *
 * Prints "spin: pid N spinning" once, then nothing; never exits on its own.
 */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    printf("spin: pid %d spinning\n", getpid());
    /* A linear congruential generator; volatile so that every step is really computed. */
    volatile uint32_t x = 1;
    for (;;)
        x = x * 1664525u + 1013904223u;
}
