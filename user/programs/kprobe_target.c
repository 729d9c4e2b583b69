/*
 * kprobe_target.c - calls getresuid(2) a known number of times with known answers, for the
 * kprobes tests (tests/shell/kprobes_offsets.script): whatever probes sit in
 * sys_getresuid, the call must still give the right ids, and fail with EFAULT on a bad
 * pointer (its error path).
 *
 *   kprobe_target N     sets the ids to 1000 1001 1002, then N good calls and one bad one
 *
 * Prints "getresuid: N calls, ids 1000 1001 1002: ok" and "getresuid bad pointer: EFAULT"
 * (or what went wrong instead), and exits 0 only if every call answered right.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1;
    if (setresuid(1000, 1001, 1002) != 0) {
        printf("setresuid failed: errno %d\n", errno);
        return 1;
    }
    int good = 0;
    for (int i = 0; i < n; i++) {
        uid_t r = 0, e = 0, s = 0;
        if (getresuid(&r, &e, &s) == 0 && r == 1000 && e == 1001 && s == 1002)
            good++;
        else
            printf("getresuid call %d: %d %d %d\n", i, (int)r, (int)e, (int)s);
    }
    printf("getresuid: %d calls, ids 1000 1001 1002: %s\n", n, good == n ? "ok" : "WRONG");
    uid_t r;
    int rc = getresuid(&r, (uid_t *)4, &r);
    printf("getresuid bad pointer: %s\n", rc == -1 && errno == EFAULT ? "EFAULT" : "WRONG");
    return good == n && rc == -1 && errno == EFAULT ? 0 : 1;
}
