/* test_time.c - cycles to nanoseconds without overflow or drift. */
#include "unit.h"

#include "kernel/time.h"



TEST(exact_rates)
{
    uint32_t mult = cycles_ns_mult(1000000, TIME_SHIFT); /* 1 GHz: 1 cycle = 1 ns */
    CHECK_EQ_INT(cycles_to_ns(123456789, mult, TIME_SHIFT), 123456789);
    mult = cycles_ns_mult(2000000, TIME_SHIFT);
    CHECK_EQ_INT(cycles_to_ns(2000000000ull, mult, TIME_SHIFT), 1000000000ull);
}

TEST(large_counts_do_not_overflow)
{
    uint32_t khz = 2999999;
    uint32_t mult = cycles_ns_mult(khz, TIME_SHIFT);
    uint64_t cycles = (uint64_t)khz * 1000 * 86400 * 30; /* 30 days */
    uint64_t ns = cycles_to_ns(cycles, mult, TIME_SHIFT);
    uint64_t expect = 86400ull * 30 * 1000000000ull;
    uint64_t diff = ns > expect ? ns - expect : expect - ns;
    CHECK(diff < expect / 1000000); /* within 1 ppm */
}

TEST(slow_counter)
{
    uint32_t mult = cycles_ns_mult(1193, TIME_SHIFT); /* ~PIT rate */
    uint64_t ns = cycles_to_ns(1193, mult, TIME_SHIFT);
    CHECK(ns >= 999999 && ns <= 1000001);
}

TEST(span_is_a_duration)
{
    time_init(1000000); /* 1 GHz; the clock starts at the host counter's now */
    /* A span is not measured from boot: the same count converts the same at any time. */
    CHECK_EQ_INT(time_span_ns(5000), 5000);
    CHECK_EQ_INT(time_span_ns(0), 0);
    CHECK_EQ_INT(time_span_ns(3000000000ull), 3000000000ull);
}
