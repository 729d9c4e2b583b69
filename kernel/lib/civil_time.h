/*
 * civil_time.h - a calendar date and time of day (UTC) as seconds since the Unix epoch,
 * for the wall clock read from the machine's clock chip (kernel/wall_clock.c). Portable.
 */
#ifndef KERNEL_LIB_CIVIL_TIME_H
#define KERNEL_LIB_CIVIL_TIME_H

#include <stdbool.h>
#include <stdint.h>

struct civil_time {
    int year;   /* e.g. 2026 */
    int month;  /* 1..12 */
    int day;    /* 1..31 */
    int hour, minute, second;
};

/* Whether t is a real date and time (days per month, leap years; seconds 0..59). */
bool civil_time_valid(const struct civil_time *t);

/* Seconds since 1970-01-01 00:00:00 UTC (negative before it), proleptic Gregorian. */
int64_t civil_time_to_unix(const struct civil_time *t);

#endif
