/*
 * st_ipc_logging.c - self-tests of IPC logging in the real kernel: contexts made and
 * destroyed, events read through ipc_logging/NAME/log as a user would, log_cont following
 * new events until the reader stops it, an oversize event refused and counted, a two-page
 * context wrapped, and logging from an interrupt handler.
 */
#include "kernel/fs/fs_layout.h"
#include "tests/guest/guest_helpers.h"
#include "arch/x86/trap.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/selftest.h"
#include "kernel/smp.h"
#include "kernel/lib/string.h"
#include "trace/ipc_logging/ipc_logging.h"
#include "kernel/fs/fs_tree.h"

#define LOGGING_VECTOR 0x82

/* How many lines s holds. */
static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* True when s holds needle. */
static bool contains(const char *s, const char *needle)
{
    return strstr(s, needle) != 0;
}

/* Whether line has the `log` layout: [ssssss.nnnnnnnnn/    0x...] then text. */
static bool line_shaped(const char *line)
{
    const char *hex = strstr(line, "0x");
    return line[0] == '[' && line[7] == '.' && line[17] == '/' && line[36] == ']' &&
           line[37] == ' ' && hex && hex > line + 18 && hex < line + 36;
}

SELFTEST(ipc_logging_log_file)
{
    struct ipc_log_context *ctx = ipc_log_context_create(1, "st_basic", 3);
    ST_CHECK(ctx != 0);
    ST_CHECK(ipc_log_context_create(1, "st_basic", 3) == ctx); /* same name, same context */
    ST_CHECK(*(const uint32_t *)ctx == IPC_LOG_CONTEXT_MAGIC);  /* its header comes first */
    for (int i = 0; i < 3; i++)
        ST_CHECK(IPC_LOG(ctx, "hello %d", i) == 0);

    const char *log = guest_read_file("/sys/kernel/debug/ipc_logging/st_basic/log");
    ST_CHECK(count_lines(log) == 3);
    ST_CHECK(line_shaped(log));
    ST_CHECK(contains(log, "] [selftest_ipc_logging_log_file] hello 0\n"));
    ST_CHECK(contains(log, "] [selftest_ipc_logging_log_file] hello 2\n"));

    /* The read mark moved: a second read shows only what came since. */
    ST_CHECK(count_lines(guest_read_file("/sys/kernel/debug/ipc_logging/st_basic/log")) == 0);
    IPC_LOG(ctx, "later");
    ST_CHECK(contains(guest_read_file("/sys/kernel/debug/ipc_logging/st_basic/log_cont"),
                      "] [selftest_ipc_logging_log_file] later\n"));

    /* Too long for one event: refused whole and counted, never cut. */
    char big[300];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ST_CHECK(ipc_log_string(ctx, "%s", big) == -EMSGSIZE);
    ST_CHECK(count_lines(guest_read_file("/sys/kernel/debug/ipc_logging/st_basic/log")) == 0);
    ST_CHECK(strcmp(guest_read_file("/sys/kernel/debug/ipc_logging/st_basic/stats"),
                    "pages: 1\nwritten: 4\ndropped: 0\noversize: 1\n") == 0);

    /* An event of the caller's own items. */
    struct ipc_log_encoder e;
    ipc_log_encode_start(&e, TSV_TYPE_SKB);
    ipc_log_encode_int32(&e, 42);
    ipc_log_encode_pointer(&e, 0x1234);
    ST_CHECK(ipc_log_write(ctx, &e) == 0);
    ST_CHECK(strcmp(guest_read_file("/sys/kernel/debug/ipc_logging/st_basic/log"), "[     0.000000000] 42 0x1234\n") == 0);

    ST_CHECK(ipc_log_context_destroy(ctx) == 0);
    ST_CHECK(tracefs_lookup("/sys/kernel/debug/ipc_logging/st_basic", &(int){ 0 }) == 0);
    ST_CHECK(tracefs_lookup("/sys/kernel/debug/ipc_logging", &(int){ 0 }) != 0);
    ST_CHECK(ipc_log_context_create(0, "st_bad", 0) == 0);
    ST_CHECK(ipc_log_context_create(1, "a_name_of_20_chars__", 0) == 0);
    ST_CHECK(ipc_log_context_create(1, "a/b", 0) == 0);
}

SELFTEST(ipc_logging_wrap)
{
    struct ipc_log_context *ctx = ipc_log_context_create(2, "st_wrap", 0);
    ST_CHECK(ctx != 0);
    const int total = 1000;
    for (int i = 0; i < total; i++)
        IPC_LOG(ctx, "n %d", i);

    const char *log = guest_read_file("/sys/kernel/debug/ipc_logging/st_wrap/log");
    int lines = count_lines(log);
    ST_CHECK(lines > 50 && lines < total); /* two pages hold a few hundred, not all */
    /* The survivors are the newest, in order, with nothing missing between them. */
    int expect = total - lines;
    bool in_order = true;
    for (const char *p = log; *p; p = strchr(p, '\n') + 1) {
        char want[64];
        int n = ksnprintf(want, sizeof want, "] [selftest_ipc_logging_wrap] n %d\n", expect++);
        const char *at = strstr(p, "] [");
        in_order &= at && strncmp(at, want, (size_t)n) == 0;
    }
    ST_CHECK(in_order);
    ST_CHECK(expect == total);

    char stats[128];
    ksnprintf(stats, sizeof stats, "pages: 2\nwritten: %d\ndropped: %d\noversize: 0\n", total,
              total - lines);
    ST_CHECK(strcmp(guest_read_file("/sys/kernel/debug/ipc_logging/st_wrap/stats"), stats) == 0);
    ST_CHECK(ipc_log_context_destroy(ctx) == 0);
}

/* A reader at a terminal, for log and log_cont: it collects what they print, and once it
 * has seen `quiet_after` lines, the next time it is asked whether to stop it logs one more
 * event into the context (a writer arriving while the reader waits). It asks to stop once
 * it has seen `stop_after` lines, or after 100 polls (so a broken follow cannot hang). */
struct follow_reader {
    struct fs_writer w;
    struct ipc_log_context *ctx;
    char text[512];
    int lines, polls, quiet_after, stop_after;
    bool wrote;
};

static void follow_emit(struct fs_writer *w, const char *s, size_t n)
{
    struct follow_reader *r = w->ctx;
    size_t used = strlen(r->text);
    for (size_t i = 0; i < n && used + 1 < sizeof r->text; i++) {
        r->text[used++] = s[i];
        r->lines += s[i] == '\n';
    }
    r->text[used] = '\0';
}

static bool follow_interrupted(struct fs_writer *w)
{
    struct follow_reader *r = w->ctx;
    if (r->lines >= r->quiet_after && !r->wrote) {
        IPC_LOG(r->ctx, "arrived while the reader waited");
        r->wrote = true;
    }
    return r->lines >= r->stop_after || ++r->polls > 100;
}

/* Reads path through a follow_reader; returns its line count. */
static int read_following(const char *path, struct follow_reader *r)
{
    r->w = (struct fs_writer){ .emit = follow_emit, .interrupted = follow_interrupted,
                               .ctx = r, .follow = true };
    struct fs_node *f = tracefs_lookup(path, &(int){ 0 });
    return f && f->ops->read(f, &r->w) == 0 ? r->lines : -1;
}

SELFTEST(ipc_logging_log_cont_follows)
{
    struct ipc_log_context *ctx = ipc_log_context_create(1, "st_follow", 0);
    ST_CHECK(ctx != 0);
    IPC_LOG(ctx, "one");
    IPC_LOG(ctx, "two");

    /* log prints what is there and returns: an event logged meanwhile waits for the next
     * read. */
    struct follow_reader r = { .ctx = ctx, .quiet_after = 2, .stop_after = 100 };
    ST_CHECK(read_following("/sys/kernel/debug/ipc_logging/st_follow/log", &r) == 2);
    ST_CHECK(r.wrote && r.polls < 100);
    ST_CHECK(contains(guest_read_file("/sys/kernel/debug/ipc_logging/st_follow/log"), "arrived while"));

    /* log_cont prints the backlog, then waits, and prints what arrives until ^C. */
    IPC_LOG(ctx, "three");
    IPC_LOG(ctx, "four");
    r = (struct follow_reader){ .ctx = ctx, .quiet_after = 2, .stop_after = 3 };
    ST_CHECK(read_following("/sys/kernel/debug/ipc_logging/st_follow/log_cont", &r) == 3);
    ST_CHECK(r.wrote && r.polls < 100);
    ST_CHECK(contains(r.text, "] three\n") && contains(r.text, "] four\n") &&
             contains(r.text, "] [follow_interrupted] arrived while the reader waited\n"));
    ST_CHECK(count_lines(guest_read_file("/sys/kernel/debug/ipc_logging/st_follow/log")) == 0);
    ST_CHECK(ipc_log_context_destroy(ctx) == 0);
}

static struct ipc_log_context *irq_ctx;

/* A software interrupt's handler that logs: IPC_LOG in interrupt context. */
static bool logging_handler(struct trap_frame *tf)
{
    (void)tf;
    IPC_LOG(irq_ctx, "from a handler");
    return true;
}

SELFTEST(ipc_logging_in_interrupt)
{
    irq_ctx = ipc_log_context_create(1, "st_irq", 0);
    ST_CHECK(irq_ctx != 0);
    trap_set_handler(LOGGING_VECTOR, logging_handler);
    __asm__ volatile("int %0" ::"i"(LOGGING_VECTOR));
    trap_set_handler(LOGGING_VECTOR, 0);
    ST_CHECK(contains(guest_read_file("/sys/kernel/debug/ipc_logging/st_irq/log"), "] [logging_handler] from a handler\n"));
    ST_CHECK(ipc_log_context_destroy(irq_ctx) == 0);
}

/* --- issue 19: every CPU logging into one context ---------------------------------------- */

#define SMP_LINES 300 /* per CPU: several times what two pages hold */

static struct ipc_log_context *smp_ctx;

static void smp_logger(void *arg)
{
    (void)arg;
    unsigned cpu = arch_cpu_id();
    for (unsigned i = 0; i < SMP_LINES; i++)
        IPC_LOG(smp_ctx, "cpu %u line %u", cpu, i);
}

/* The number after "word " in s, and where it ends; false if there is none. */
static bool number_after(const char *s, const char *word, unsigned *n, const char **end)
{
    const char *p = strstr(s, word);
    if (!p)
        return false;
    p += strlen(word);
    *n = 0;
    const char *start = p;
    while (*p >= '0' && *p <= '9')
        *n = *n * 10 + (unsigned)(*p++ - '0');
    *end = p;
    return p != start;
}

/* Every online CPU logs into one two-page context at once (Qualcomm's module is
 * "multi-core safe"): the log wraps, every line that survives is whole, each CPU's lines
 * come in its order, and stats counts every line written. */
SELFTEST(ipc_logging_every_cpu_one_context)
{
    unsigned ncpus = arch_cpu_count(), self = arch_cpu_id();
    smp_ctx = ipc_log_context_create(2, "st_smp", 0);
    ST_CHECK(smp_ctx != 0);
    if (!smp_ctx)
        return;
    for (unsigned cpu = 0; cpu < ncpus; cpu++)
        if (cpu != self)
            ST_CHECK(smp_run_on(cpu, smp_logger, 0));
    smp_logger(0);
    for (unsigned cpu = 0; cpu < ncpus; cpu++)
        if (cpu != self)
            smp_wait(cpu);

    const char *log = guest_read_file("/sys/kernel/debug/ipc_logging/st_smp/log");
    int last[MAX_CPUS];
    for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++)
        last[cpu] = -1;
    bool whole = true, ordered = true;
    int lines = 0;
    for (const char *line = log; *line; lines++) {
        unsigned cpu, n;
        const char *end;
        whole &= line_shaped(line) && number_after(line, "] cpu ", &cpu, &end) &&
                 cpu < ncpus && number_after(end, " line ", &n, &end) && *end == '\n';
        if (whole) {
            ordered &= (int)n > last[cpu];
            last[cpu] = (int)n;
        }
        const char *next = strchr(line, '\n');
        if (!next)
            break;
        line = next + 1;
    }
    ST_CHECK(whole);
    ST_CHECK(ordered);
    ST_CHECK(lines > 0 && lines < (int)(ncpus * SMP_LINES)); /* it wrapped */
    char expect[48];
    ksnprintf(expect, sizeof expect, "written: %u\n", ncpus * SMP_LINES);
    ST_CHECK(contains(guest_read_file("/sys/kernel/debug/ipc_logging/st_smp/stats"), expect));
    ST_CHECK(ipc_log_context_destroy(smp_ctx) == 0);
}
