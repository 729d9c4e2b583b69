/*
 * background.c - runs the registered background work (see background.h).
 *
 * One CPU runs the work at a time (the `running` flag); on SMP the other CPUs' ticks skip it,
 * which is what a single consumer of one stream wants.
 */
#include "kernel/background.h"

#include "kernel/arch.h"

#define MAX_WORK 8
#define IDLE_SLICE_US 1000 /* the idle loop looks for runnable tasks at least this often */

static bool (*work[MAX_WORK])(uint64_t deadline);
static int work_count;
static volatile int running; /* a tick arriving during idle work does not run it again */

void background_register(bool (*fn)(uint64_t))
{
    if (work_count < MAX_WORK)
        work[work_count++] = fn;
}

/* The cycle count microseconds from now. */
static uint64_t deadline_in_us(uint32_t us)
{
    return arch_cycles() + (uint64_t)arch_cycles_khz() * us / 1000u;
}

/* Runs every piece until the deadline; true if any said there is more. */
static bool run_all(uint64_t deadline)
{
    if (__atomic_exchange_n(&running, 1, __ATOMIC_ACQUIRE))
        return false;
    bool more = false;
    for (int i = 0; i < work_count; i++)
        more |= work[i](deadline);
    __atomic_store_n(&running, 0, __ATOMIC_RELEASE);
    return more;
}

void background_tick(void) { run_all(deadline_in_us(BACKGROUND_TICK_US)); }

bool background_idle(void) { return run_all(deadline_in_us(IDLE_SLICE_US)); }

void background_drain(void)
{
    while (run_all(UINT64_MAX))
        ;
}

static void (*session_end[MAX_WORK])(void);
static int session_end_count;

void background_on_session_end(void (*fn)(void))
{
    if (session_end_count < MAX_WORK)
        session_end[session_end_count++] = fn;
}

void background_end_session(void)
{
    background_drain();
    for (int i = 0; i < session_end_count; i++)
        session_end[i]();
}
