/*
 * exit.c - the two ways a program ends on its own: exit() and abort().
 */
#include <stdlib.h>
#include <unistd.h>

#include "libc_internal.h"

/* Whatever printf() still holds is written first, so that the last line is not lost. */
void exit(int status)
{
    stdout_flush();
    _exit(status);
}

/* Ends the process without flushing anything; 134 is 128 + SIGABRT, what a shell reports for
 * a program that aborted on Linux. */
void abort(void) { _exit(134); }
