/* ftrace_testmod.h - the function tracers' test module (samples/ftrace/ftrace_testmod.c). */
#ifndef SAMPLES_FTRACE_FTRACE_TESTMOD_H
#define SAMPLES_FTRACE_FTRACE_TESTMOD_H

int ftrace_test_top(int x);
int ftrace_test_middle(int x);
int ftrace_test_leaf(int x);
int ftrace_test_leaf2(int x);
void ftrace_test_small(void);

#endif
