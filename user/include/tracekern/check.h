/*
 * tracekern/check.h - the checks of the guest test programs, one TAP-like line each.
 *
 * Every check prints one numbered line and is counted:
 *   ok N - WHAT -> WANT                 a call's errno (check_call, check_errno) or a number
 *   not ok N - WHAT -> WANT (got GOT)   (check_number); WANT and GOT are errno names
 *                                       ("success" for 0) or decimal numbers
 *   ok N - WHAT / not ok N - WHAT       a condition (check_true)
 * and check_summary() ends the output with "NAME: P passed, F failed". A program that
 * wants to say more about a failure prints "#   ..." lines after it (tests/run_all.sh
 * shows those). Boot scripts' .expect files match these lines, so keep the format.
 *
 * The counts are plain statics: a test program is one thread.
 */
#ifndef USER_TRACEKERN_CHECK_H
#define USER_TRACEKERN_CHECK_H

#include <stdbool.h>

bool check_call(const char *what, long ret, int want_errno);
bool check_errno(const char *what, int got_errno, int want_errno);
bool check_number(const char *what, long long got, long long want);
bool check_true(const char *what, bool ok);
int check_summary(const char *name);
/* Sends the check lines and the summary to fd instead of standard output (1): for a
 * program whose standard output a test redirects elsewhere on purpose. */
void check_output(int fd);

long write_file(const char *path, const char *text);
/* The CPUs online as /proc/cpuinfo lists them (its "processor" blocks), or -1: a witness
 * independent of the calls under test for checks whose answer depends on the CPU count. */
long cpus_in_cpuinfo(void);

#endif
