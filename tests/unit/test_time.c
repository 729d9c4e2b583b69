/* test_time.c - cycles to nanoseconds without overflow or drift. */
#include "unit.h"

#include <stdbool.h>

#include "kernel/time.h"

extern uint64_t host_cycles; /* tests/unit/host_arch.c: what arch_cycles() returns */

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

/* time_cycles_to_ns as it was out of line in kernel/time.c, before it became inline (issue
 * 20): 0 before time_init (mult 0) and for a count from before it, else the conversion. */
static uint64_t reference_cycles_to_ns(uint64_t cycles, uint64_t boot, uint32_t mult)
{
    if (!mult || cycles < boot)
        return 0;
    uint64_t c = cycles - boot;
    uint64_t low = (uint64_t)(uint32_t)c * mult;
    uint64_t high = (c >> 32) * mult;
    return (high << (32 - TIME_SHIFT)) + (low >> TIME_SHIFT);
}

/* The inline conversion gives what the old function gave, for every kind of count: before
 * time_init, before boot, just after, around 2^32 and far beyond (where the high product's
 * shift drops bits, as it always did), at several rates. */
TEST(inline_conversion_same_as_before)
{
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    bool same = true;
    time_base = (struct time_base){ 0, 0 }; /* before time_init */
    for (int i = 0; i < 1000 && same; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        same = time_cycles_to_ns(seed) == 0;
    }
    static const uint32_t khz[] = { 1193, 999931, 1000000, 2999999, 4000000 };
    for (unsigned k = 0; k < sizeof khz / sizeof khz[0] && same; k++) {
        host_cycles = 123456789012ull * (k + 1);
        time_init(khz[k]);
        uint64_t boot = host_cycles;
        uint32_t mult = cycles_ns_mult(khz[k], TIME_SHIFT);
        static const uint64_t around[] = { 0, 1, 0xffffffffull, 0x100000000ull, 0x100000001ull,
                                           0xffffffffffull, 1ull << 52 };
        for (unsigned a = 0; a < sizeof around / sizeof around[0] && same; a++) {
            uint64_t counts[] = { boot + around[a], boot - 1 - around[a] % boot };
            for (unsigned c = 0; c < 2 && same; c++)
                same = time_cycles_to_ns(counts[c]) ==
                       reference_cycles_to_ns(counts[c], boot, mult);
        }
        for (int i = 0; i < 100000 && same; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t cycles = i % 2 ? seed : boot + (seed >> (seed & 63));
            same = time_cycles_to_ns(cycles) == reference_cycles_to_ns(cycles, boot, mult);
        }
    }
    CHECK(same);
}
