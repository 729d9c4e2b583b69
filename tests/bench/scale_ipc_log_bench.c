/*
 * scale_ipc_log_bench.c - the curve ipc_log_context_create (issue 24, `make bench
 * BENCH=scale`): creating one more IPC log context (one page) while C contexts exist, for C
 * from 1 to 1000. The create looks the name up among the existing contexts first (two
 * creates of a name give one context), then allocates and makes the context's files in
 * /sys/kernel/debug/ipc_logging: both may grow with C.
 *
 * Each point is the mean of ROUNDS creates of a fresh name, each destroyed again before the
 * next; printed as `SCALE CURVE SIZE VALUE` (guest instructions under -icount).
 */
#include "kernel/arch.h"
#include "kernel/bench.h"
#include "kernel/lib/format.h"
#include "kernel/log/printk.h"
#include "trace/ipc_logging/ipc_logging.h"

#define MAX_CONTEXTS 1000
#define ROUNDS 8

static struct ipc_log_context *contexts[MAX_CONTEXTS];

/* Creates the context "scale_<n>" of one page. */
static struct ipc_log_context *create_numbered(uint32_t n)
{
    char name[IPC_LOG_NAME_SIZE];
    ksnprintf(name, sizeof name, "scale_%u", n);
    return ipc_log_context_create(1, name, 0);
}

BENCHMARK(scale_ipc_log)
{
    static const uint32_t sizes[] = { 1, 10, 100, 1000 };
    uint32_t made = 0;
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        while (made < sizes[s] && (contexts[made] = create_numbered(made)))
            made++;
        if (made < sizes[s]) {
            printk("bench: scale_ipc_log: no memory for context %u\n", made);
            break;
        }
        uint64_t total = 0;
        bool failed = false;
        for (uint32_t r = 0; r < ROUNDS && !failed; r++) {
            uint64_t start = arch_cycles();
            struct ipc_log_context *one = create_numbered(MAX_CONTEXTS + r);
            total += arch_cycles() - start;
            failed = !one;
            ipc_log_context_destroy(one);
        }
        if (failed) {
            printk("bench: scale_ipc_log: no memory for one more context at %u\n", made);
            break;
        }
        printk("SCALE ipc_log_context_create %u %llu\n", sizes[s],
               (unsigned long long)(total / ROUNDS));
    }
    while (made > 0)
        ipc_log_context_destroy(contexts[--made]);
}
