/*
 * time.c - turns cycle counts into nanoseconds.
 *
 * ns = cycles * 10^6 / khz. Dividing on every timestamp would cost a 64-bit division, so we
 * precompute mult = (10^6 << TIME_SHIFT) / khz once and then compute (cycles * mult) >>
 * TIME_SHIFT, splitting the 64x32-bit product so it cannot overflow.
 */
#include "kernel/time.h"

#include "kernel/arch.h"

static uint64_t boot_cycles;
static uint32_t ns_mult;

uint32_t cycles_ns_mult(uint32_t cycles_khz, uint32_t shift)
{
    return (uint32_t)((1000000ull << shift) / cycles_khz);
}

uint64_t cycles_to_ns(uint64_t cycles, uint32_t mult, uint32_t shift)
{
    uint64_t low = (uint64_t)(uint32_t)cycles * mult;
    uint64_t high = (cycles >> 32) * mult;
    return (high << (32 - shift)) + (low >> shift);
}

void time_init(uint32_t cycles_khz)
{
    ns_mult = cycles_ns_mult(cycles_khz, TIME_SHIFT);
    boot_cycles = arch_cycles();
}

uint64_t time_cycles_to_ns(uint64_t cycles)
{
    if (!ns_mult || cycles < boot_cycles)
        return 0;
    return cycles_to_ns(cycles - boot_cycles, ns_mult, TIME_SHIFT);
}

uint64_t time_span_ns(uint64_t cycles) { return cycles_to_ns(cycles, ns_mult, TIME_SHIFT); }

uint64_t time_ns(void) { return time_cycles_to_ns(arch_cycles()); }
