/*
 * hostile_flood.c - a program that tries to make the kernel run out: of memory, of trace
 * buffer, of user_events. Each attack asserts the exact refusal (Linux's errno) and prints
 * one TAP-like line; tests/shell/hostile_flood.script runs the modes in one boot and shows
 * the kernel still up and the trace written before the attacks still there afterwards.
 *
 * Usage: hostile_flood memory        mmap until ENOMEM; holding it all, the kernel answers
 *        hostile_flood buffer        buffer_size_kb / trace_entries writes past the reserve
 *        hostile_flood events        user_events on one fd until EMFILE; exits holding them
 *        hostile_flood persist       the same with USER_EVENT_REG_PERSIST
 *        hostile_flood persisted     the persistent flood's events outlived it, the limit holds
 *        hostile_flood enablers      enable bits on one event until ENOMEM
 *        hostile_flood markers N     N trace_marker writes: each recorded or counted as lost
 *        hostile_flood active N      user_events_status says Active: N
 *        hostile_flood trace-has T.. each text T is in exactly one line of `trace`
 *        hostile_flood resize-ticks  grow and shrink the buffer by ~100 MB: no tick lost
 *        hostile_flood hold|wait-held|kick event|group   an event dies while the shell writes
 *                                                         its file
 * Prints one line per check ("ok N - WHAT -> WANT" or "not ok N - WHAT -> WANT (got X)",
 * tracekern/check.h), other lines starting with "# ", and "hostile_flood MODE: P passed,
 * F failed". Exit status 0 when nothing failed, 1 otherwise, 2 for a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/user_events.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <tracekern/check.h>
#include <tracekern/ipc.h>
#include <time.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing/"
#define DATA_FILE TRACEFS "user_events_data"
#define RESERVE_KB 4096 /* the kernel's page reserve (kernel/mm/page_alloc.h) */
#define MAX_EVENTS 40000 /* more than any limit: stops a kernel that has none */

/* Calls fn on each line of path (without its newline; long lines are cut at 255 bytes).
 * Returns false if the file could not be read. */
static bool for_each_line(const char *path, void (*fn)(const char *line, void *ctx), void *ctx)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    char chunk[4096], line[256];
    size_t len = 0;
    ssize_t n;
    while ((n = read(fd, chunk, sizeof(chunk))) > 0) {
        for (ssize_t i = 0; i < n; i++) {
            if (chunk[i] != '\n') {
                if (len + 1 < sizeof(line))
                    line[len++] = chunk[i];
                continue;
            }
            line[len] = '\0';
            fn(line, ctx);
            len = 0;
        }
    }
    close(fd);
    return n == 0;
}

struct field { const char *name; unsigned long long value; bool found; };

static void find_field(const char *line, void *ctx)
{
    struct field *f = ctx;
    size_t len = strlen(f->name);
    if (!f->found && strncmp(line, f->name, len) == 0) {
        f->value = strtoul(line + len, 0, 10);
        f->found = true;
    }
}

/* The number after "NAME" at the start of a line of path, or -1. */
static long long file_number(const char *path, const char *name)
{
    struct field f = { name, 0, false };
    if (!for_each_line(path, find_field, &f) || !f.found)
        return -1;
    return (long long)f.value;
}

static long long active_events(void) { return file_number(TRACEFS "user_events_status", "Active:"); }
static long long mem_free_kb(void) { return file_number("/proc/meminfo", "MemFree:"); }

/* The CPUs online: the trace buffer has a ring of buffer_size_kb for each (as on Linux,
 * buffer_size_kb is per CPU), so a resize takes that many times the size. */
static long cpus_online(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 1;
}

/* ---- user_events ---- */

/* Registers command on fd with user_events' pre-6.4 status-page ABI: 0 or -1 with errno. */
static long register_seed(int fd, const char *command)
{
    struct user_reg_status reg = { 0 };
    reg.size = sizeof(reg);
    reg.name_args = (uintptr_t)command;
    return ioctl(fd, DIAG_IOCSREG, &reg);
}

/* Registers command on fd with Linux 6.4's ABI, bit `bit` of the words at `words`. */
static long register_bit(int fd, const char *command, volatile uint32_t *words, unsigned bit,
                         uint16_t flags)
{
    struct user_reg reg = { 0 };
    reg.size = sizeof(reg);
    reg.enable_bit = (uint8_t)(bit % 32);
    reg.enable_size = 4;
    reg.flags = flags;
    reg.enable_addr = (uintptr_t)&words[bit / 32];
    reg.name_args = (uintptr_t)command;
    return ioctl(fd, DIAG_IOCSREG, &reg);
}

/* ---- the modes ---- */

/*
 * Maps anonymous memory, a MiB, 64 KiB and then 4 KiB at a time, until the kernel says
 * ENOMEM, and gives one page back (for the files it reads); the
 * kernel keeps its 4 MiB reserve, so with all of it held the kernel still reads files,
 * records markers and registers events, and a trace buffer resize cannot grow into it.
 */
static void flood_memory(void)
{
    unsigned long kb = 0;
    int err = 0;
    void *last = MAP_FAILED;
    for (size_t chunk = 1024 * 1024; chunk >= 4096; chunk /= 16) {
        void *p;
        while ((p = mmap(0, chunk, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) !=
               MAP_FAILED) {
            kb += chunk / 1024;
            last = p;
        }
        err = errno;
    }
    /* Every user page is taken now. Reading a file needs one for its text, so give exactly
     * one back: what follows no longer depends on how much the last chunk left over. */
    if (last != MAP_FAILED && munmap(last, 4096) == 0)
        kb -= 4;
    printf("# mapped %lu KiB\n", kb);
    check_errno("mmap anonymous memory until it fails", err, ENOMEM);
    long long free_kb = mem_free_kb();
    printf("# MemFree: %lld kB\n", free_kb);
    /* The page given back may hold the text of that read, or the read may find room in a
     * heap page it already has (that depends on the heap's layout, which every new kernel
     * table shifts): what is free is the reserve, or the reserve and that one page. */
    check_true("holding all but a page, /proc/meminfo reads and MemFree is the reserve, 4096 kB",
               free_kb == RESERVE_KB || free_kb == RESERVE_KB + 4);
    check_call("write trace_marker",
               write_file(TRACEFS "trace_marker", "hf-while-memory-full\n"), 0);
    long long size_kb = file_number(TRACEFS "buffer_size_kb", "");
    char bigger[32];
    snprintf(bigger, sizeof(bigger), "%lld\n", size_kb + 64);
    check_call("grow buffer_size_kb by 64 KiB",
               write_file(TRACEFS "buffer_size_kb", bigger), ENOMEM);
    check_number("buffer_size_kb unchanged", file_number(TRACEFS "buffer_size_kb", ""), size_kb);
    static volatile uint32_t word;
    int fd = open(DATA_FILE, O_RDWR);
    check_call("register a user event", register_bit(fd, "hf_while_full u32 a", &word, 0, 0), 0);
    close(fd); /* the event goes with this process's exit (its enable bit) */
}

/*
 * buffer_size_kb (and trace_entries) writes that would leave less than the reserve are
 * refused with ENOMEM before anything is allocated, and the buffer keeps its size and its
 * events; one that leaves the reserve works, and the buffer can shrink back to its size from
 * there (the events written before are checked later, by trace-has). Sizes are per CPU:
 * the free memory is shared out between the CPUs' rings.
 */
static void flood_buffer(void)
{
    long long orig = file_number(TRACEFS "buffer_size_kb", "");
    check_call("buffer_size_kb 1048576 (1 GiB, more than the machine has)",
               write_file(TRACEFS "buffer_size_kb", "1048576\n"), ENOMEM);
    check_call("buffer_size_kb 1048577 (past the largest size)",
               write_file(TRACEFS "buffer_size_kb", "1048577\n"), EINVAL);
    check_call("trace_entries 16777216", write_file(TRACEFS "trace_entries", "16777216\n"), ENOMEM);
    long long free_kb = mem_free_kb(); /* the text page of that read is free again after it */
    long cpus = cpus_online();
    char text[32];
    /* 32 KiB more per CPU than the memory above the reserve holds */
    snprintf(text, sizeof(text), "%lld\n", (free_kb + 4 - RESERVE_KB) / cpus + 32);
    check_call("buffer_size_kb = MemFree - reserve + 32 KiB",
               write_file(TRACEFS "buffer_size_kb", text), ENOMEM);
    check_number("buffer_size_kb unchanged", file_number(TRACEFS "buffer_size_kb", ""), orig);
    long long near = (free_kb - RESERVE_KB - 512) / cpus / 4 * 4;
    snprintf(text, sizeof(text), "%lld\n", near);
    check_call("buffer_size_kb = MemFree - reserve - 512 KiB",
               write_file(TRACEFS "buffer_size_kb", text), 0);
    check_number("buffer_size_kb reads the new size",
                 file_number(TRACEFS "buffer_size_kb", ""), near);
    snprintf(text, sizeof(text), "%lld\n", orig);
    check_call("shrink it back", write_file(TRACEFS "buffer_size_kb", text), 0);
    check_number("buffer_size_kb is the original size again",
                 file_number(TRACEFS "buffer_size_kb", ""), orig);
}

/* Registers "PREFIX_i u32 a" for i = 0, 1, ... on one fd, each with an enable bit of its
 * own, until a registration fails; returns how many worked, the errno in *err. Without
 * PERSIST the events go with this process (Linux 6.4's struct user_reg without the flag). */
static int register_until_refused(const char *prefix, bool persist, int *err)
{
    static volatile uint32_t words[MAX_EVENTS / 32 + 1];
    int fd = open(DATA_FILE, O_RDWR);
    char command[48];
    int made = 0;
    *err = 0;
    while (made < MAX_EVENTS) {
        snprintf(command, sizeof(command), "%s_%d u32 a", prefix, made);
        long ret = register_bit(fd, command, words, (unsigned)made,
                                persist ? USER_EVENT_REG_PERSIST : 0);
        if (ret < 0) {
            *err = errno;
            break;
        }
        made++;
    }
    return made; /* fd stays open: the process's exit closes it */
}

/* Registers events until the limit; the events are deleted when this process exits. */
static void flood_events(bool persist)
{
    long long before = active_events();
    int err;
    int made = register_until_refused(persist ? "hf_p" : "hf_e", persist, &err);
    printf("# registered %d events%s\n", made, persist ? " with USER_EVENT_REG_PERSIST" : "");
    check_errno("register events until one fails", err, EMFILE);
    check_true("at least 1000 fit before the limit", made >= 1000);
    check_number("Active: counts them", active_events(), before + made);
    check_call("at the limit, dynamic_events cannot add one either",
               write_file(TRACEFS "dynamic_events", "u:hf_dyn u32 a\n"), EMFILE);
    printf("# exiting with the events registered\n");
}

/* The persistent flood's events outlived it: hf_p_0 .. hf_p_(N-1) all exist (the script's
 * .check compares N with what the flood registered), the limit is still reached, and
 * deleting one makes room for one. */
static void check_persisted(void)
{
    int survived = 0;
    for (;; survived++) {
        char path[96];
        snprintf(path, sizeof(path), TRACEFS "events/user_events/hf_p_%d/id", survived);
        int fd = open(path, O_RDONLY);
        if (fd < 0)
            break;
        close(fd);
    }
    printf("# %d persistent events survived\n", survived);
    check_true("at least 1000 persistent events outlived their program", survived >= 1000);
    int data_fd = open(DATA_FILE, O_RDWR);
    check_call("one more is still refused", register_seed(data_fd, "hf_one_more u32 a"), EMFILE);
    check_call("a persistent event no one holds can be deleted",
               ioctl(data_fd, DIAG_IOCSDEL, "hf_p_0"), 0);
    check_call("then one more fits", register_seed(data_fd, "hf_one_more u32 a"), 0);
}

/* Enable bits on one event until the kernel refuses one; unregistering one makes room. */
static void flood_enablers(void)
{
    static volatile uint32_t words[2048]; /* 65536 bits, more than the budget allows */
    long long before = active_events();
    int fd = open(DATA_FILE, O_RDWR);
    unsigned made = 0;
    int err = 0;
    while (made < 32 * 2048) {
        if (register_bit(fd, "hf_bits u32 a", words, made, 0) < 0) {
            err = errno;
            break;
        }
        made++;
    }
    printf("# registered %u enable bits\n", made);
    check_errno("register enable bits on one event until one fails", err, ENOMEM);
    struct user_unreg unreg = { 0 };
    unreg.size = sizeof(unreg);
    unreg.disable_bit = 0;
    unreg.disable_addr = (uintptr_t)&words[0];
    check_call("DIAG_IOCSUNREG one", ioctl(fd, DIAG_IOCSUNREG, &unreg), 0);
    check_call("then one more fits", register_bit(fd, "hf_bits u32 a", words, made, 0), 0);
    check_number("all of them on one event: Active grew by one", active_events(), before + 1);
}

struct rb_counts { unsigned long long entries, overrun, dropped, read; };

/* Every CPU's per_cpu/cpuN/stats summed (the markers land on whichever CPU the program runs
 * on, and it may move); with print, each CPU's line "# cpuN: entries E overrun O dropped D". */
static void read_counts(struct rb_counts *c, bool print)
{
    *c = (struct rb_counts){ 0 };
    for (long cpu = 0; cpu < cpus_online(); cpu++) {
        char stats[64];
        snprintf(stats, sizeof(stats), TRACEFS "per_cpu/cpu%ld/stats", cpu);
        struct rb_counts one = {
            (unsigned long long)file_number(stats, "entries:"),
            (unsigned long long)file_number(stats, "overrun:"),
            (unsigned long long)file_number(stats, "dropped events:"),
            (unsigned long long)file_number(stats, "read events:"),
        };
        if (print)
            printf("# cpu%ld: entries %llu overrun %llu dropped %llu\n", cpu, one.entries,
                   one.overrun, one.dropped);
        c->entries += one.entries;
        c->overrun += one.overrun;
        c->dropped += one.dropped;
        c->read += one.read;
    }
}

/* At least n markers as fast as the program can write them, and more (up to n for each
 * CPU) until one is lost: each is in the buffer, or was overwritten or dropped, and counted
 * so (the sum of the counts grows by exactly the number written). Markers spread over
 * several CPUs fill each CPU's ring more slowly than n on one would. */
static void flood_markers(unsigned n)
{
    struct rb_counts before, after;
    read_counts(&before, false);
    int fd = open(TRACEFS "trace_marker", O_WRONLY);
    char line[64];
    unsigned ok = 0, written = 0, most = n * (unsigned)cpus_online();
    while (written < most) {
        int len = snprintf(line, sizeof(line), "hf-flood %u of %u\n", written, n);
        ok += write(fd, line, (size_t)len) == len;
        written++;
        if (written >= n && written % 1000 == 0) {
            read_counts(&after, false);
            if (after.overrun + after.dropped > before.overrun + before.dropped)
                break;
        }
    }
    close(fd);
    read_counts(&after, true);
    printf("# %u markers written\n", written);
    check_number("every trace_marker write returned its length", ok, written);
    unsigned long long sum_before = before.entries + before.overrun + before.dropped + before.read;
    unsigned long long sum_after = after.entries + after.overrun + after.dropped + after.read;
    unsigned long long lost = after.overrun + after.dropped - before.overrun - before.dropped;
    printf("# %llu recorded, %llu lost (%llu overwritten, %llu dropped)\n",
           after.entries - before.entries, lost, after.overrun - before.overrun,
           after.dropped - before.dropped);
    check_number("stats account for every marker: entries + overrun + dropped grew by the markers written",
                 sum_after - sum_before, written);
    check_true("the flood overflowed the buffer and the losses are counted", lost > 0);
}

/* For trace-has: how many lines contain each text. */
struct search { char **texts; int count; int found[16]; };

static void count_texts(const char *line, void *ctx)
{
    struct search *s = ctx;
    for (int i = 0; i < s->count; i++)
        s->found[i] += strstr(line, s->texts[i]) != NULL;
}

static void trace_has(char **texts, int count)
{
    struct search s = { texts, count < 16 ? count : 16, { 0 } };
    check_true("read trace", for_each_line(TRACEFS "trace", count_texts, &s));
    for (int i = 0; i < s.count; i++) {
        char what[96];
        snprintf(what, sizeof(what), "trace holds '%s' once", texts[i]);
        check_number(what, s.found[i], 1);
    }
}

/* ---- the timer keeps its rate while the trace buffer is resized ---- */

static void find_timer_count(const char *line, void *ctx)
{
    long long *count = ctx;
    char *p, *end;
    if (!strstr(line, "timer (PIT)") || strtoul(line, &p, 10) != 0 || *p != ':')
        return;
    /* a count per CPU column, as Linux prints them: the line's count is their sum */
    *count = 0;
    for (unsigned long c = strtoul(++p, &end, 10); end != p; c = strtoul(p, &end, 10)) {
        *count += (long long)c;
        p = end;
    }
}

/* The timer's count in /proc/interrupts, or -1. */
static long long timer_ticks(void)
{
    long long count = -1;
    for_each_line("/proc/interrupts", find_timer_count, &count);
    return count;
}

static long long monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Writes text to buffer_size_kb and checks that the PIT's 100 interrupts a second all
 * arrived meanwhile (guest time from the TSC, which lost ticks would not slow): at most
 * two short, for the partial ticks at both ends. */
static void resize_keeping_ticks(const char *what, const char *text)
{
    long long ticks = timer_ticks(), start = monotonic_ms();
    check_call(what, write_file(TRACEFS "buffer_size_kb", text), 0);
    long long ms = monotonic_ms() - start, got = timer_ticks() - ticks;
    printf("# %s: %lld ms, %lld timer interrupts\n", what, ms, got);
    char claim[128];
    snprintf(claim, sizeof(claim), "%s: the timer kept 100/s (%lld of %lld ticks)", what, got,
             ms / 10);
    check_true(claim, ticks >= 0 && got >= ms / 10 - 2);
}

static void resize_ticks(void)
{
    long long orig = file_number(TRACEFS "buffer_size_kb", "");
    long cpus = cpus_online(); /* buffer_size_kb is per CPU: ~100 MB in all */
    long long big = (mem_free_kb() - RESERVE_KB - 8192) / cpus / 4 * 4;
    if (big > 100000 / cpus)
        big = 100000 / cpus / 4 * 4;
    char text[32];
    snprintf(text, sizeof(text), "%lld\n", big);
    resize_keeping_ticks("grow buffer_size_kb to about 100 MB", text);
    snprintf(text, sizeof(text), "%lld\n", orig);
    resize_keeping_ticks("shrink it back", text);
}

/* ---- a user event that dies while the shell writes one of its files ----
 *
 * The shell looks up a redirection's file, runs the command, then writes: the three modes
 * below make the event behind that file die while the command runs, in a fixed order and
 * without timing. `hold` (in the background) registers the non-persistent "hf_rv" with an
 * enable bit and exits once the bit is set; `wait-held` returns once hf_rv exists; `kick`,
 * the redirected command, enables hf_rv (so `hold` exits), waits until `hold` is gone (its
 * IPC endpoint leaves /proc/ipc), and disables hf_rv again: that drops its last reference,
 * and it is deleted while the shell's redirection (the file it opened, which is kick's
 * standard output) is still open. That file left the tree but stays valid memory: a write
 * to it answers as Linux's tracefs does (`kick event`: hf_rv's own file, whose event has
 * gone: ENODEV; `kick group`: the group's, which names no live event now: EINVAL). Its
 * check lines go to standard error (the console). */
#define HOLDER_ENDPOINT "hf_rv_holder"
#define RV_DIR TRACEFS "events/user_events/hf_rv"

static bool path_exists(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd >= 0)
        close(fd);
    return fd >= 0;
}

struct find_text { const char *text; bool found; };

static void find_text_line(const char *line, void *ctx)
{
    struct find_text *f = ctx;
    f->found |= strstr(line, f->text) != NULL;
}

static bool holder_alive(void)
{
    struct find_text f = { HOLDER_ENDPOINT, false };
    return for_each_line("/proc/ipc", find_text_line, &f) && f.found;
}

static void hold_event(void)
{
    static volatile uint32_t word;
    int fd = open(DATA_FILE, O_RDWR);
    check_true("create the endpoint that shows this process is alive",
               ipc_create(HOLDER_ENDPOINT) >= 0);
    check_call("register hf_rv (not persistent) with an enable bit",
               register_bit(fd, "hf_rv u32 a", &word, 0, 0), 0);
    while (!(word & 1))
        usleep(1000);
    printf("# hf_rv enabled: exiting, holding it\n");
}

static void wait_held(void)
{
    while (!path_exists(RV_DIR "/id") || !holder_alive())
        usleep(1000);
    check_true("hf_rv exists and its holder runs", true);
}

static void kick_holder(bool group)
{
    check_output(STDERR_FILENO); /* standard output is the enable file */
    check_true("enable hf_rv: its holder exits", write_file(RV_DIR "/enable", "1\n") == 0);
    while (holder_alive())
        usleep(1000);
    check_true("disable hf_rv: its last reference goes, the shell's redirection still open",
               write_file(RV_DIR "/enable", "0\n") == 0);
    if (group) /* the group names no live event now: Linux's EINVAL */
        check_call("write 0 to stdout, the group's enable file, no event left in it",
                   write(STDOUT_FILENO, "0\n", 2), EINVAL);
    else
        check_call("write 0 to stdout, hf_rv's enable file, deleted while open (Linux: ENODEV)",
                   write(STDOUT_FILENO, "0\n", 2), ENODEV);
}

static void usage(void)
{
    printf("usage: hostile_flood memory|buffer|events|persist|persisted|enablers|"
           "markers N|active N|trace-has TEXT...|resize-ticks|hold|wait-held|kick event|group\n");
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        usage();
    const char *mode = argv[1];
    if (strcmp(mode, "memory") == 0)
        flood_memory();
    else if (strcmp(mode, "buffer") == 0)
        flood_buffer();
    else if (strcmp(mode, "events") == 0)
        flood_events(false);
    else if (strcmp(mode, "persist") == 0)
        flood_events(true);
    else if (strcmp(mode, "persisted") == 0)
        check_persisted();
    else if (strcmp(mode, "enablers") == 0)
        flood_enablers();
    else if (strcmp(mode, "markers") == 0 && argc == 3)
        flood_markers((unsigned)strtoul(argv[2], 0, 10));
    else if (strcmp(mode, "active") == 0 && argc == 3)
        check_number("user_events_status Active:", active_events(), strtoul(argv[2], 0, 10));
    else if (strcmp(mode, "resize-ticks") == 0)
        resize_ticks();
    else if (strcmp(mode, "hold") == 0)
        hold_event();
    else if (strcmp(mode, "wait-held") == 0)
        wait_held();
    else if (strcmp(mode, "kick") == 0 && argc == 3 &&
             (strcmp(argv[2], "event") == 0 || strcmp(argv[2], "group") == 0))
        kick_holder(strcmp(argv[2], "group") == 0);
    else if (strcmp(mode, "trace-has") == 0 && argc >= 3)
        trace_has(argv + 2, argc - 2);
    else
        usage();
    char name[48];
    snprintf(name, sizeof(name), "hostile_flood %s", mode);
    return check_summary(name);
}
