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

/* The same for a cycle count read earlier (trace timestamps are stored raw). */
uint64_t time_cycles_to_ns(uint64_t cycles);

/* A span of cycles (a difference of two counter reads) in nanoseconds. */
uint64_t time_span_ns(uint64_t cycles);

/* The conversion itself, exposed for tests: (cycles * mult) >> shift without overflow. */
uint64_t cycles_to_ns(uint64_t cycles, uint32_t mult, uint32_t shift);
uint32_t cycles_ns_mult(uint32_t cycles_khz, uint32_t shift);

#define TIME_SHIFT 22

#endif
