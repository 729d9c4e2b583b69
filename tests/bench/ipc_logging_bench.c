/*
 * ipc_logging_bench.c - what one IPC log event costs, in guest instructions (`make bench`):
 *
 *   message event      what the IPC layer logs for every message (kernel/ipc/ipc.c): a
 *                      64-byte text and 7 numbers written in decimal by ipc_log_numbers'
 *                      own formatter, one string event
 *   formatted event    IPC_LOG with a format and three numbers (ipc_log_string)
 *
 * Both write into a context of their own that has long filled up, so each event also pays
 * for dropping the oldest, as a busy log does.
 */
#include "kernel/bench.h"
#include "kernel/log/printk.h"
#include "trace/ipc_logging/ipc_logging.h"

#define ITERATIONS 5000

static const char reply_text[] = "[ipc_reply] call: ep caller server label len, reply: label len =";

static void message_event(void *arg)
{
    static const int32_t numbers[] = { 2, 4, 3, 1, 16, 1, 16 };
    ipc_log_numbers(arg, reply_text, sizeof reply_text - 1, numbers, 7);
}

static void formatted_event(void *arg)
{
    IPC_LOG((struct ipc_log_context *)arg, "ep %d from %d len %d", 2, 4, 16);
}

BENCHMARK(ipc_logging)
{
    struct ipc_log_context *ctx = ipc_log_context_create(4, "bench", 0);
    if (!ctx) {
        printk("bench: no memory for the IPC logging benchmark\n");
        return;
    }
    bench_report("ipc_log: message event (64-byte text, 7 numbers in decimal)",
                 bench_cost(message_event, ctx, ITERATIONS), "instructions");
    bench_report("ipc_log: formatted event (IPC_LOG, 3 numbers)",
                 bench_cost(formatted_event, ctx, ITERATIONS), "instructions");
    ipc_log_context_destroy(ctx);
}
