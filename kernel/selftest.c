/*
 * selftest.c - the in-kernel test runner (see selftest.h).
 */
#include "kernel/selftest.h"

#include "kernel/arch.h"
#include "kernel/lib/format.h"
#include "kernel/log/printk.h"
#include "kernel/lib/string.h"

extern const struct selftest selftests_start[], selftests_end[];

static int failed_checks;
static char first_failure[160];

void selftest_check(bool ok, const char *what, const char *file, int line)
{
    if (ok)
        return;
    if (failed_checks++ == 0)
        ksnprintf(first_failure, sizeof first_failure, "%s:%d: %s", file, line, what);
    printk("#   %s:%d: check failed: %s\n", file, line, what);
}

/* True when name appears in the comma-separated list. */
static bool listed(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        const char *comma = strchr(p, ',');
        size_t item = comma ? (size_t)(comma - p) : strlen(p);
        if (item == len && strncmp(p, name, len) == 0)
            return true;
        if (!comma)
            break;
        p = comma + 1;
    }
    return false;
}

static void call_test(void *arg) { ((const struct selftest *)arg)->run(); }

/* Runs one test and prints its TAP line; returns true if it passed. */
static bool run_one(const struct selftest *t, int number)
{
    struct caught_fault fault;
    failed_checks = 0;
    printk("# %s\n", t->name);
    if (t->crashes) {
        t->run(); /* its end is the crash report, which the host checks */
        printk("not ok %d - %s: returned instead of crashing\n", number, t->name);
        return false;
    }
    if (arch_call_catching_faults(call_test, (void *)t, &fault)) {
        printk("not ok %d - %s: unexpected exception %u (error %#x) at eip %#x, cr2 %#x\n",
               number, t->name, fault.vector, fault.error_code, fault.eip, fault.cr2);
        return false;
    }
    if (failed_checks) {
        printk("not ok %d - %s: %s (%d failed checks)\n", number, t->name, first_failure,
               failed_checks);
        return false;
    }
    printk("ok %d - %s\n", number, t->name);
    return true;
}

void selftest_run(const char *which)
{
    if ((const struct selftest *)selftests_start == selftests_end) {
        printk("selftest: this kernel has no self-tests: they are linked into "
               "build/tracekern-test.elf (make test builds it)\n");
        arch_exit_emulator(EXIT_FAIL);
    }
    bool all = which[0] == '\0';
    int planned = 0;
    for (const struct selftest *t = selftests_start; t < selftests_end; t++)
        if (all ? !t->named_only : listed(which, t->name))
            planned++;
    if (planned == 0) {
        printk("selftest: no test matches '%s'\n", which);
        arch_exit_emulator(EXIT_FAIL);
    }
    printk("selftest: 1..%d\n", planned);
    int number = 0, passed = 0;
    for (const struct selftest *t = selftests_start; t < selftests_end; t++)
        if (all ? !t->named_only : listed(which, t->name))
            passed += run_one(t, ++number);
    printk("selftest: %d passed, %d failed\n", passed, planned - passed);
    arch_exit_emulator(passed == planned ? EXIT_PASS : EXIT_FAIL);
}
