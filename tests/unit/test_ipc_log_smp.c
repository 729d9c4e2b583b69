/*
 * test_ipc_log_smp.c - one IPC logging context written by several CPUs at once (issue 19;
 * Qualcomm's module is "multi-core safe").
 *
 * POSIX threads act as CPUs (tests/unit/host_smp_arch.c). As trace/ipc_logging/ipc_logging.c
 * does, each writer encodes its event outside the context's lock (kernel/spinlock.h, the
 * real one) and appends it under the lock, by both kinds of writer (the encoder, and
 * ipc_log_numbers' formatter); a reader follows the log under the same lock, one event at
 * a time, as the `log` file does. The four pages wrap hundreds of times. What must hold:
 * every event read whole and well-formed, each CPU's events in its writing order, the
 * counts adding up (written - dropped is what the log holds at the end), and the dump
 * extractor (tools/ipc_log_dump.c) reading exactly the lines a live read of the same pages
 * prints.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/spinlock.h"
#include "tests/unit/host_smp_arch.h"
#include "tests/unit/unit.h"
#include "tools/ipc_log_dump.h"
#include "trace/ipc_logging/ipc_log_page.h"

#define CPUS 4
#define LOG_PAGES 4
#define DUMP_SIZE ((1 + LOG_PAGES) * IPC_LOG_PAGE_SIZE) /* page 0 holds the context */
#define EVENTS_PER_CPU 20000

static uint8_t dump[DUMP_SIZE] __attribute__((aligned(IPC_LOG_PAGE_SIZE)));
static struct ipc_log *log_;
static struct spinlock lock = SPINLOCK_INIT("ipc_log_smp");
static atomic_int writers_left;
static atomic_int failures;
static char failure[256];
static uint64_t live_read;

static void fail_run(const char *what, unsigned a, unsigned b)
{
    if (atomic_fetch_add(&failures, 1) == 0)
        snprintf(failure, sizeof failure, "%s (%u, %u)", what, a, b);
}

static uint64_t clock_ns(void) { return arch_cycles(); }

static const char what[] = "[smp] cpu/seq";

/* Logs "[smp] cpu/seq CPU SEQ" as ipc_logging.c's ipc_log_string or ipc_log_numbers does. */
static void log_one(unsigned cpu, unsigned seq)
{
    uint64_t now = arch_cycles();
    int r;
    if (seq % 2) {
        struct ipc_log_encoder e;
        size_t room;
        ipc_log_encode_start(&e, TSV_TYPE_STRING);
        ipc_log_encode_timestamp(&e, now);
        ipc_log_encode_qtimer(&e, now);
        char *text = ipc_log_encode_bytes_start(&e, &room);
        ipc_log_encode_bytes_done(&e, (size_t)snprintf(text, room + 1, "%s %u %u", what, cpu, seq));
        unsigned long flags = spin_lock_irqsave(&lock);
        r = ipc_log_append_encoded(log_, &e);
        spin_unlock_irqrestore(&lock, flags);
    } else {
        int32_t numbers[] = { (int32_t)cpu, (int32_t)seq };
        struct ipc_log_numbers ev = { now, now, what, sizeof what - 1, numbers, 2 };
        unsigned long flags = spin_lock_irqsave(&lock);
        r = ipc_log_append_numbers(log_, &ev);
        spin_unlock_irqrestore(&lock, flags);
    }
    if (r < 0)
        fail_run("append refused", cpu, seq);
}

static void *writer(void *arg)
{
    unsigned cpu = (unsigned)(uintptr_t)arg;
    host_smp_become_cpu(cpu);
    for (unsigned seq = 0; seq < EVENTS_PER_CPU; seq++)
        log_one(cpu, seq);
    atomic_fetch_sub(&writers_left, 1);
    return NULL;
}

/* The CPU and number of a formatted line, or false if it is not one of ours. */
static bool parse_line(const char *line, unsigned *cpu, unsigned *seq)
{
    const char *p = strstr(line, what);
    return p && sscanf(p + sizeof what - 1, " %u %u", cpu, seq) == 2 && *cpu < CPUS;
}

/* Follows the log as the `log` file does, while the writers write. */
static void *reader(void *arg)
{
    (void)arg;
    host_smp_become_cpu(CPUS); /* a CPU that only reads */
    long long last[CPUS];
    for (unsigned c = 0; c < CPUS; c++)
        last[c] = -1;
    uint8_t ev[IPC_LOG_EVENT_MAX];
    char line[IPC_LOG_LINE_MAX];
    for (;;) {
        bool done = atomic_load(&writers_left) == 0; /* read once more after they finish */
        unsigned long flags = spin_lock_irqsave(&lock);
        int n = ipc_log_read_event(log_, &log_->reader, ev);
        spin_unlock_irqrestore(&lock, flags);
        if (n < 0)
            fail_run("reader met a corrupt stream", (unsigned)-n, 0);
        if (n <= 0) {
            if (done || n < 0)
                break;
            continue;
        }
        unsigned cpu, seq;
        if (ipc_log_event_check(ev, (size_t)n) != n) {
            fail_run("reader got a malformed event", (unsigned)n, 0);
            break;
        }
        ipc_log_format_line(ev, (size_t)n, line, sizeof line);
        if (!parse_line(line, &cpu, &seq))
            fail_run("reader got a line not written", (unsigned)n, 0);
        else if ((long long)seq <= last[cpu])
            fail_run("a CPU's events out of order", cpu, seq);
        else
            last[cpu] = seq;
        live_read++;
    }
    return NULL;
}

/* Every event the log holds, as lines, read live from the oldest on. */
static size_t read_all(char *out, size_t size, unsigned *events)
{
    struct ipc_log_cursor c = ipc_log_oldest(log_);
    uint8_t ev[IPC_LOG_EVENT_MAX];
    char line[IPC_LOG_LINE_MAX];
    size_t used = 0;
    int n;
    *events = 0;
    while ((n = ipc_log_read_event(log_, &c, ev)) > 0) {
        size_t len = ipc_log_format_line(ev, (size_t)n, line, sizeof line);
        if (used + len < size) { /* the line ends in its newline */
            memcpy(out + used, line, len);
            used += len;
        }
        (*events)++;
    }
    out[used] = 0;
    return used;
}

TEST(cpus_logging_into_one_context_wrap_and_agree_with_the_extractor)
{
    memset(dump, 0, sizeof dump);
    log_ = (struct ipc_log *)(dump + 0x100);
    static struct ipc_log_page *pages[LOG_PAGES];
    for (uint32_t i = 0; i < LOG_PAGES; i++)
        pages[i] = (struct ipc_log_page *)(dump + (i + 1) * IPC_LOG_PAGE_SIZE);
    ipc_log_init(log_, pages, LOG_PAGES, "smp", 0, clock_ns);
    host_smp_set_cpus(CPUS + 1);
    atomic_store(&writers_left, CPUS);
    pthread_t w[CPUS], r;
    pthread_create(&r, NULL, reader, NULL);
    for (unsigned c = 0; c < CPUS; c++)
        pthread_create(&w[c], NULL, writer, (void *)(uintptr_t)c);
    for (unsigned c = 0; c < CPUS; c++)
        pthread_join(w[c], NULL);
    pthread_join(r, NULL);
    if (atomic_load(&failures))
        unit_fail(__FILE__, __LINE__, failure);
    CHECK_EQ_INT(log_->written, CPUS * EVENTS_PER_CPU);
    CHECK(log_->dropped > 0); /* it wrapped */
    CHECK_EQ_INT(log_->oversize, 0);
    CHECK(live_read > 0);

    static char live[64 << 10], extracted[64 << 10], err[4096];
    unsigned held;
    read_all(live, sizeof live, &held);
    CHECK_EQ_INT(held, log_->written - log_->dropped);

    FILE *out = fmemopen(extracted, sizeof extracted, "w"), *errf = fmemopen(err, sizeof err, "w");
    struct dump_image img;
    struct extract_result result;
    CHECK(out && errf);
    CHECK_EQ_INT(dump_image_open(dump, sizeof dump, &img, errf), 0);
    CHECK_EQ_INT(ipc_log_extract(&img, NULL, out, errf, &result), 0);
    dump_image_close(&img);
    fclose(out);
    fclose(errf);
    CHECK_EQ_INT(result.contexts, 1);
    CHECK_EQ_INT(result.problems, 0);
    CHECK_EQ_INT(result.events, held);
    const char *body = strchr(extracted, '\n'); /* after the "=== smp: ..." header line */
    CHECK(body != NULL && strncmp(extracted, "=== smp:", 8) == 0);
    CHECK_EQ_STR(body ? body + 1 : NULL, live);
}
