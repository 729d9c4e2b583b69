/* ftrace_testmod.h - the function tracers' test module (tests/guest/ftrace_testmod.c). */
#ifndef TESTS_GUEST_FTRACE_TESTMOD_H
#define TESTS_GUEST_FTRACE_TESTMOD_H

int ftrace_test_top(int x);
int ftrace_test_middle(int x);
int ftrace_test_leaf(int x);
int ftrace_test_leaf2(int x);
void ftrace_test_small(void);

#endif
