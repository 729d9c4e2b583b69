/*
 * loadavg.c - exponentially decaying averages of the active task count (loadavg.h).
 */
#include "kernel/loadavg.h"

/* exp(-5 s / 1, 5, 15 min) in fixed point: Linux's EXP_1, EXP_5, EXP_15. */
static const uint32_t decay[3] = { 1884, 2014, 2037 };
static uint32_t averages[3];
static uint64_t next_sample_ns = LOADAVG_PERIOD_NS;

/* One step of the average, rounding up while the load grows, as Linux's calc_load does
 * (otherwise a constant load never reaches its own value). */
static uint32_t decayed(uint32_t load, uint32_t exp, uint32_t active)
{
    uint64_t next = (uint64_t)load * exp + (uint64_t)active * (LOADAVG_FIXED_1 - exp);
    if (active >= load)
        next += LOADAVG_FIXED_1 - 1;
    return (uint32_t)(next / LOADAVG_FIXED_1);
}

void loadavg_sample(unsigned active, uint64_t now_ns)
{
    if (now_ns < next_sample_ns)
        return;
    /* Periods missed (the tick stopped, a long interrupt-off stretch) decay as zero-change
     * samples would not: Linux folds them too; one sample per call is enough here. */
    next_sample_ns = now_ns - now_ns % LOADAVG_PERIOD_NS + LOADAVG_PERIOD_NS;
    uint32_t fixed = active > 0xfffff ? 0xfffffu * LOADAVG_FIXED_1 : active * LOADAVG_FIXED_1;
    for (int i = 0; i < 3; i++)
        averages[i] = decayed(averages[i], decay[i], fixed);
}

void loadavg_get(uint32_t loads[3])
{
    for (int i = 0; i < 3; i++)
        loads[i] = averages[i];
}
