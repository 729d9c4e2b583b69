/*
 * civil_time.c - calendar dates to Unix time (civil_time.h).
 */
#include "kernel/lib/civil_time.h"

static bool is_leap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

static int days_in_month(int year, int month)
{
    static const unsigned char days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    return month == 2 && is_leap(year) ? 29 : days[month - 1];
}

bool civil_time_valid(const struct civil_time *t)
{
    return t->year >= 1 && t->year <= 9999 && t->month >= 1 && t->month <= 12 && t->day >= 1 &&
           t->day <= days_in_month(t->year, t->month) && t->hour >= 0 && t->hour < 24 &&
           t->minute >= 0 && t->minute < 60 && t->second >= 0 && t->second < 60;
}

/* Days from 1970-01-01 to the date: count from March 1 of year 0 in 400-year eras, so
 * that the leap day falls at the end of each counted year. */
static int64_t days_from_epoch(int year, int month, int day)
{
    int y = month <= 2 ? year - 1 : year;
    int era = (y >= 0 ? y : y - 399) / 400;
    int year_of_era = y - era * 400;                                  /* 0..399 */
    int month_from_march = month > 2 ? month - 3 : month + 9;          /* 0..11 */
    int day_of_year = (153 * month_from_march + 2) / 5 + day - 1;      /* 0..365 */
    int day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return (int64_t)era * 146097 + day_of_era - 719468; /* 719468: 0000-03-01 to 1970-01-01 */
}

int64_t civil_time_to_unix(const struct civil_time *t)
{
    return days_from_epoch(t->year, t->month, t->day) * 86400 + t->hour * 3600 +
           t->minute * 60 + t->second;
}
