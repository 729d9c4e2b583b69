/* unit_main.c - runs every TEST() linked into this binary and prints one TAP line each. */
#include "unit.h"

#include <stdlib.h>

#define UNIT_MAX_TESTS 512

static struct {
    const char *name;
    unit_fn fn;
} tests[UNIT_MAX_TESTS];
static int test_count;
static int current_failed;

/* Called by the TEST() constructors; keeps registration order (file order). */
void unit_register(const char *name, unit_fn fn)
{
    if (test_count == UNIT_MAX_TESTS) {
        fprintf(stderr, "unit: more than %d tests in one binary\n", UNIT_MAX_TESTS);
        exit(2);
    }
    tests[test_count].name = name;
    tests[test_count].fn = fn;
    test_count++;
}

/* Records a failed check; the test goes on so that one run shows every broken check. */
void unit_fail(const char *file, int line, const char *what)
{
    printf("#   %s:%d: %s\n", file, line, what);
    current_failed = 1;
}

int main(int argc, char **argv)
{
    const char *suite = argc > 1 ? argv[1] : argv[0];
    int failed = 0;

    printf("1..%d\n", test_count);
    for (int i = 0; i < test_count; i++) {
        current_failed = 0;
        tests[i].fn();
        printf("%s %d - %s: %s\n", current_failed ? "not ok" : "ok", i + 1, suite,
               tests[i].name);
        failed += current_failed;
    }
    return failed ? 1 : 0;
}
