/*
 * hello.c - the smallest user program: shows that a process starts with its arguments and
 * can make system calls.
 *
 * Prints:
 *   hello from pid N
 *   argv[0] = hello
 *   argv[1] = ...          (one line per argument)
 * and exits with status 0.
 */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    printf("hello from pid %d\n", getpid());
    for (int i = 0; i < argc; i++)
        printf("argv[%d] = %s\n", i, argv[i]);
    return 0;
}
