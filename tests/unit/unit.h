/*
 * unit.h - the smallest test runner that does the job.
 *
 * Why our own and not cmocka/Check/Criterion: the portable kernel modules are plain C with
 * no dependencies, and so are their tests. A runner of ~60 lines keeps a test binary a single
 * file built with the host compiler and sanitizers, prints one TAP line per test (which the
 * top-level harness counts), and needs nothing from apt.
 *
 * Write tests as:
 *     TEST(parses_empty_line) { CHECK_EQ_INT(parse(""), 0); }
 * Every TEST registers itself before main() runs; unit_main.c runs them in order.
 */
#ifndef TESTS_UNIT_UNIT_H
#define TESTS_UNIT_UNIT_H

#include <stdio.h>
#include <string.h>

typedef void (*unit_fn)(void);
void unit_register(const char *name, unit_fn fn);
void unit_fail(const char *file, int line, const char *what);

#define TEST(name)                                                             \
    static void name(void);                                                    \
    __attribute__((constructor)) static void unit_register_##name(void)        \
    {                                                                          \
        unit_register(#name, name);                                            \
    }                                                                          \
    static void name(void)

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond))                                                           \
            unit_fail(__FILE__, __LINE__, "CHECK(" #cond ")");                 \
    } while (0)

#define CHECK_EQ_INT(actual, expected)                                         \
    do {                                                                       \
        long long unit_a_ = (long long)(actual), unit_e_ = (long long)(expected); \
        if (unit_a_ != unit_e_) {                                              \
            char unit_msg_[256];                                               \
            snprintf(unit_msg_, sizeof unit_msg_, "%s == %lld, expected %lld", \
                     #actual, unit_a_, unit_e_);                               \
            unit_fail(__FILE__, __LINE__, unit_msg_);                          \
        }                                                                      \
    } while (0)

#define CHECK_EQ_STR(actual, expected)                                         \
    do {                                                                       \
        const char *unit_a_ = (actual), *unit_e_ = (expected);                 \
        if (unit_a_ == NULL || strcmp(unit_a_, unit_e_) != 0) {                \
            char unit_msg_[512];                                               \
            snprintf(unit_msg_, sizeof unit_msg_, "%s == \"%.200s\", expected \"%.200s\"", \
                     #actual, unit_a_ ? unit_a_ : "(null)", unit_e_);          \
            unit_fail(__FILE__, __LINE__, unit_msg_);                          \
        }                                                                      \
    } while (0)

#endif
