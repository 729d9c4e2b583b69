/*
 * sleeper.c - sleeps in a loop, printing a line after each sleep, to show a process that
 * blocks in the kernel (nanosleep) while the shell and other programs run.
 *
 * Usage: sleeper [MS [COUNT]]   (defaults 500 ms, 5 times)
 * Prints, COUNT times:  sleeper: pid P woke I/COUNT after MS ms
 * then                  sleeper: done
 * and exits 0 (1, with perror's message, if nanosleep fails).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int ms = argc > 1 ? atoi(argv[1]) : 500;
    int count = argc > 2 ? atoi(argv[2]) : 5;
    int pid = getpid();
    for (int i = 1; i <= count; i++) {
        struct timespec t = { ms / 1000, (ms % 1000) * 1000000 };
        if (nanosleep(&t, 0) < 0) {
            perror("sleeper: nanosleep");
            return 1;
        }
        printf("sleeper: pid %d woke %d/%d after %d ms\n", pid, i, count, ms);
    }
    printf("sleeper: done\n");
    return 0;
}
