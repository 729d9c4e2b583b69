/*
 * ftrace_testmod.c - a demo for the function tracers: functions that call each other in a
 * fixed pattern, and the `ftracetest` command that runs them, so that a user (docs/ftrace.md)
 * has something known to trace. It is a sample, as Linux's samples/ftrace, linked into every
 * kernel and built with the tracing hook; the self-tests and the benchmark of the test kernel
 * (tests/guest/st_ftrace.c, tests/bench/ftrace_bench.c) call it too:
 *
 *   ftrace_test_top(n)
 *     ftrace_test_middle(n)      twice
 *       ftrace_test_leaf(n)      once each
 *       ftrace_test_leaf2(n)     once each
 *
 * noinline and the empty asm keep gcc from merging or removing any call.
 */
#include "samples/ftrace/ftrace_testmod.h"

#include "kernel/shell/shell.h"

#define KEEP() __asm__ volatile("" ::: "memory")

int __attribute__((noinline)) ftrace_test_leaf(int x)
{
    KEEP();
    return x + 1;
}

int __attribute__((noinline)) ftrace_test_leaf2(int x)
{
    KEEP();
    return x * 2;
}

int __attribute__((noinline)) ftrace_test_middle(int x)
{
    KEEP();
    return ftrace_test_leaf(x) + ftrace_test_leaf2(x);
}

int __attribute__((noinline)) ftrace_test_top(int x)
{
    KEEP();
    return ftrace_test_middle(x) + ftrace_test_middle(x + 1);
}

/* The smallest traceable function, for the benchmark. */
void __attribute__((noinline)) ftrace_test_small(void) { KEEP(); }

/* ftracetest: runs the call chain once, so a session can trace something known. */
static int cmd_ftracetest(int argc, char **argv, struct fs_writer *out)
{
    (void)argc;
    (void)argv;
    fs_printf(out, "ftrace_test_top(1) = %d\n", ftrace_test_top(1));
    return 0;
}
SHELL_COMMAND("ftracetest", "ftracetest", "run the function tracers' test call chain once",
              cmd_ftracetest);
