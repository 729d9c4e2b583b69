/*
 * selftest.h - tests that run inside the kernel, at boot, with `selftest` on the command
 * line. Each prints one TAP line (`ok 3 - heap` / `not ok 3 - heap: why`); then QEMU exits
 * with 33 if all passed and 35 otherwise (isa-debug-exit).
 *
 *   selftest              runs every ordinary test
 *   selftest=heap,ioremap runs just those; this is also how the crash tests run, one at a
 *                         time, since they end the kernel (stack_overflow, ...)
 *
 * A test is a function; ST_CHECK records a failure and lets the test go on. A test that
 * raises an unexpected CPU exception fails with the exception's description instead of
 * crashing the run.
 *
 * The tests themselves (tests/guest/) are linked only into build/tracekern-test.elf; this
 * runner is in every kernel, and on one without tests it says so and exits with 35.
 */
#ifndef KERNEL_SELFTEST_H
#define KERNEL_SELFTEST_H

#include <stdbool.h>

struct selftest {
    const char *name;
    void (*run)(void);
    bool crashes;    /* ends the kernel on purpose: run only when named */
    bool named_only; /* needs a particular machine setup (e.g. -icount): run only when named */
};

#define SELFTEST_DEFINE(tname, crash, named)                                   \
    static void selftest_##tname(void);                                        \
    static const struct selftest selftest_entry_##tname                        \
        __attribute__((used, section(".selftests"), aligned(4))) = {           \
            #tname, selftest_##tname, crash, named };                          \
    static void selftest_##tname(void)

#define SELFTEST(tname) SELFTEST_DEFINE(tname, false, false)
#define CRASHTEST(tname) SELFTEST_DEFINE(tname, true, true)
#define NAMEDTEST(tname) SELFTEST_DEFINE(tname, false, true)

#define ST_CHECK(cond) selftest_check((cond), #cond, __FILE__, __LINE__)

void selftest_check(bool ok, const char *what, const char *file, int line);

/* Runs the tests the `selftest` option's value names ("" = all ordinary ones), then leaves
 * QEMU with the verdict. */
void selftest_run(const char *which) __attribute__((noreturn));

#endif
