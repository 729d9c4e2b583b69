/*
 * time.c - turns cycle counts into nanoseconds.
 *
 * ns = cycles * 10^6 / khz. Dividing on every timestamp would cost a 64-bit division, so we
 * precompute mult = (10^6 << TIME_SHIFT) / khz once and then compute (cycles * mult) >>
 * TIME_SHIFT, splitting the 64x32-bit product so it cannot overflow.
 */
#include "kernel/time.h"

#include "kernel/arch.h"

struct time_base time_base;

uint32_t cycles_ns_mult(uint32_t cycles_khz, uint32_t shift)
{
    return (uint32_t)((1000000ull << shift) / cycles_khz);
}

void time_init(uint32_t cycles_khz)
{
    time_base.ns_mult = cycles_ns_mult(cycles_khz, TIME_SHIFT);
    time_base.boot_cycles = arch_cycles();
}

uint64_t time_span_ns(uint64_t cycles)
{
    return cycles_to_ns(cycles, time_base.ns_mult, TIME_SHIFT);
}

uint64_t time_ns(void) { return time_cycles_to_ns(arch_cycles()); }
