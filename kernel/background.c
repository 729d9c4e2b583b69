/*
 * background.c - runs the registered background work (see background.h).
 */
#include "kernel/background.h"

#define MAX_WORK 8

static bool (*work[MAX_WORK])(bool from_tick);
static int work_count;
static volatile int running; /* a tick arriving during idle work does not run it again */

void background_register(bool (*fn)(bool))
{
    if (work_count < MAX_WORK)
        work[work_count++] = fn;
}

/* Runs every piece once; true if any said there is more. */
static bool run_all(bool from_tick)
{
    if (running)
        return false;
    running = 1;
    bool more = false;
    for (int i = 0; i < work_count; i++)
        more |= work[i](from_tick);
    running = 0;
    return more;
}

void background_tick(void) { run_all(true); }

bool background_idle(void) { return run_all(false); }

void background_drain(void)
{
    while (run_all(false))
        ;
}
