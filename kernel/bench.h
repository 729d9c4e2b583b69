/*
 * bench.h - measurements the kernel makes of itself, run with `bench` on the command line
 * (`make bench`). Under QEMU's -icount shift=0,sleep=off the cycle counter advances exactly
 * one per guest instruction, so a cost is reported in guest instructions and is the same on
 * every run and every host.
 *
 * Each BENCHMARK function measures and calls bench_report() for each row it produces. The
 * runner prints every row as `bench: NAME VALUE UNIT` and finally one line
 * `BENCH-JSON [...]` that the host turns into build/bench.json.
 *
 * The benchmarks themselves (tests/bench/) are linked only into build/tracekern-test.elf;
 * this runner is in every kernel, and on one without benchmarks it says so and exits with 35.
 */
#ifndef KERNEL_BENCH_H
#define KERNEL_BENCH_H

#include <stdint.h>

struct benchmark {
    const char *name;
    void (*run)(void);
};

#define BENCHMARK(bname)                                                       \
    static void bench_##bname(void);                                           \
    static const struct benchmark bench_entry_##bname                          \
        __attribute__((used, section(".benchmarks"), aligned(4))) = {          \
            #bname, bench_##bname };                                           \
    static void bench_##bname(void)

/* One result row. value is scaled by 1000 when unit says so (see bench.c). */
void bench_report(const char *row, uint64_t value, const char *unit);

/* Cycles (guest instructions under -icount) per iteration of fn over iterations runs, with
 * the cost of an empty iteration taken off. */
uint64_t bench_cost(void (*fn)(void *), void *arg, uint32_t iterations);

/* Runs every benchmark named in which ("" = all) and leaves QEMU. */
void bench_run(const char *which) __attribute__((noreturn));

#endif
