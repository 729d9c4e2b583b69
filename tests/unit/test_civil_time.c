/* test_civil_time.c - calendar dates to Unix time, against dates whose Unix time is
 * known (and the host's timegm for a sweep), and the validity check. */
#define _DEFAULT_SOURCE
#include "unit.h"

#include <time.h>

#include "kernel/lib/civil_time.h"

static int64_t unix_of(int y, int mo, int d, int h, int mi, int s)
{
    struct civil_time t = { y, mo, d, h, mi, s };
    return civil_time_to_unix(&t);
}

TEST(known_dates)
{
    CHECK_EQ_INT(unix_of(1970, 1, 1, 0, 0, 0), 0);
    CHECK_EQ_INT(unix_of(2000, 3, 1, 0, 0, 0), 951868800);
    CHECK_EQ_INT(unix_of(2038, 1, 19, 3, 14, 7), 2147483647);
    CHECK_EQ_INT(unix_of(1969, 12, 31, 23, 59, 59), -1);
    CHECK_EQ_INT(unix_of(2024, 2, 29, 12, 0, 0), 1709208000);
}

/* Every day from 1900 to 2200 at a time of day that changes, against the host's timegm. */
TEST(agrees_with_timegm)
{
    for (int64_t day = -25567; day < 84000; day += 1) {
        time_t when = (time_t)(day * 86400 + (day * 7919) % 86400);
        struct tm tm;
        gmtime_r(&when, &tm);
        struct civil_time t = { tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                                tm.tm_hour, tm.tm_min, tm.tm_sec };
        CHECK(civil_time_valid(&t));
        if (civil_time_to_unix(&t) != (int64_t)when) {
            CHECK_EQ_INT(civil_time_to_unix(&t), (int64_t)when);
            return;
        }
    }
}

TEST(invalid_dates)
{
    struct civil_time bad[] = {
        { 2023, 2, 29, 0, 0, 0 }, { 2100, 2, 29, 0, 0, 0 }, { 2024, 4, 31, 0, 0, 0 },
        { 2024, 13, 1, 0, 0, 0 }, { 2024, 0, 1, 0, 0, 0 },  { 2024, 1, 0, 0, 0, 0 },
        { 2024, 1, 1, 24, 0, 0 }, { 2024, 1, 1, 0, 60, 0 }, { 2024, 1, 1, 0, 0, 60 },
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(!civil_time_valid(&bad[i]));
    struct civil_time leap = { 2000, 2, 29, 23, 59, 59 };
    CHECK(civil_time_valid(&leap));
}
