/* test_loadavg.c - the load average: samples only every 5 s, converges on a constant load
 * as Linux's does (1-minute average of one busy task after one minute: about 0.63), and
 * decays back. */
#include "unit.h"

#include "kernel/loadavg.h"

#define SEC 1000000000ull

TEST(samples_every_five_seconds_and_converges)
{
    uint32_t l[3];
    loadavg_sample(1, 1 * SEC); /* before the first period: nothing */
    loadavg_get(l);
    CHECK_EQ_INT(l[0], 0);
    uint64_t t = 5 * SEC;
    for (int i = 0; i < 12; i++, t += 5 * SEC) { /* one minute of one active task */
        loadavg_sample(1, t);
        loadavg_sample(1, t + SEC / 2); /* same period: ignored */
    }
    loadavg_get(l);
    /* 1 - e^-1 = 0.632; Linux's fixed point gives 1294/2048 = 0.632 (rounding up). */
    CHECK(l[0] >= 1280 && l[0] <= 1310);
    CHECK(l[1] < l[0] && l[2] < l[1]);
    for (int i = 0; i < 600; i++, t += 5 * SEC) /* 50 minutes */
        loadavg_sample(3, t);
    loadavg_get(l);
    CHECK_EQ_INT(l[0], 3 * LOADAVG_FIXED_1);
    CHECK(l[2] > 2 * LOADAVG_FIXED_1);
    for (int i = 0; i < 120; i++, t += 5 * SEC) /* 10 idle minutes */
        loadavg_sample(0, t);
    loadavg_get(l);
    CHECK(l[0] < LOADAVG_FIXED_1 / 100);
    CHECK(l[2] > LOADAVG_FIXED_1);
}
