/*
 * time.h - nanoseconds since boot, from the CPU's cycle counter.
 */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include <stdint.h>

/* Starts the clock at 0 now; cycles_khz is the cycle counter's measured rate. */
void time_init(uint32_t cycles_khz);

/* Nanoseconds since time_init (0 before it). Cheap: one cycle-counter read, two multiplies. */
uint64_t time_ns(void);

/* A span of cycles (a difference of two counter reads) in nanoseconds. */
uint64_t time_span_ns(uint64_t cycles);

/* mult for cycles_to_ns: (10^6 << shift) / cycles_khz. */
uint32_t cycles_ns_mult(uint32_t cycles_khz, uint32_t shift);

#define TIME_SHIFT 22

/* The conversion itself, exposed for tests: (cycles * mult) >> shift without overflow,
 * the 64x32-bit product split in two 32x32-bit ones. */
static inline uint64_t cycles_to_ns(uint64_t cycles, uint32_t mult, uint32_t shift)
{
    uint64_t low = (uint64_t)(uint32_t)cycles * mult;
    uint64_t high = (cycles >> 32) * mult;
    return (high << (32 - shift)) + (low >> shift);
}

/* The clock's constants: set once by time_init, on the boot CPU before any other runs, and
 * only read afterwards. ns_mult is 0 before time_init. Here, and not hidden in time.c, so
 * that time_cycles_to_ns is inline: an event's timestamp is converted on the path that
 * logs it (IPC logging), where a call, its frame and its saved registers cost more than the
 * two multiplies. */
struct time_base {
    uint64_t boot_cycles;
    uint32_t ns_mult;
};
extern struct time_base time_base;

/* Nanoseconds since time_init for a cycle count read earlier (trace timestamps are stored
 * raw); 0 for a count from before time_init, and before it (ns_mult is 0 then, and so is
 * the product). */
static inline uint64_t time_cycles_to_ns(uint64_t cycles)
{
    uint64_t since_boot;
    if (__builtin_sub_overflow(cycles, time_base.boot_cycles, &since_boot))
        return 0; /* a count from before time_init */
    return cycles_to_ns(since_boot, time_base.ns_mult, TIME_SHIFT);
}

#endif
