/*
 * ue_bench.c - what user_events costs the program that emits them, counted with the TSC
 * (user mode may execute rdtsc). Under QEMU's -icount shift=0,sleep=off the TSC advances
 * one per guest instruction, so the numbers are guest instructions, the same on every run.
 *
 * (a) The check a program makes before each write while nobody traces the event, on the
 *     event "ue_bench_idle u32 value", which nothing enables:
 *       ue_disabled_check_enable_addr  Linux 6.4's ABI: `if (enabled)`, one read of the
 *                                      variable the kernel keeps up to date;
 *       ue_disabled_check_status_page  the pre-6.4 ABI: `if (status_page[byte] & mask)`.
 *     Each is a loop of CHECK_LOOPS iterations with the check, minus the same loop without
 *     it, divided by CHECK_LOOPS: the check alone (load, test, branch not taken).
 * (b) ue_writev_4byte: one writev() of [write_index, u32] to the enabled event
 *     "ue_bench u32 value": system call entry and exit, the kernel's checks, and the record
 *     it writes into the trace buffer. The caller enables that event before running this
 *     (echo 1 > events/user_events/ue_bench/enable; the event exists once registered, e.g.
 *     by an earlier run); the program waits up to 5 s for it.
 * Every measurement is repeated REPEATS times and the smallest taken: a timer interrupt
 * that lands inside one only makes it larger. Prints:
 *   BENCH ue_disabled_check_enable_addr N.NN
 *   BENCH ue_disabled_check_status_page N.NN
 *   ue_bench: waiting for enable            (only if ue_bench is not enabled yet)
 *   BENCH ue_writev_4byte N.NN
 *   BENCH syscall_getpid N.NN           (for scale: the cheapest system call)
 * Exit status 0; 1 (with a message) on an error or when the event is not enabled in time.
 */
#include <fcntl.h>
#include <linux/user_events.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#define DATA_FILE "/sys/kernel/tracing/user_events_data"
#define STATUS_FILE "/sys/kernel/tracing/user_events_status"
#define CHECK_LOOPS 10000
#define WRITE_LOOPS 100
#define REPEATS 9
#define ENABLE_WAIT_MS 5000

/* The two registrations of one event: the 6.4 ABI's variable and the pre-6.4 ABI's bit. */
struct bench_event {
    volatile uint32_t enabled;
    const volatile uint8_t *status_byte;
    uint8_t status_mask;
    uint32_t write_index;
};

static struct bench_event idle, traced;
static int data_fd;
static const volatile uint8_t *status_page;

static void fail(const char *what)
{
    perror(what);
    exit(1);
}

/* Registers command with both ABIs on data_fd (both give the same write_index). */
static void register_event(struct bench_event *e, const char *command)
{
    struct user_reg reg = { 0 };
    reg.size = sizeof(reg);
    reg.enable_size = sizeof(e->enabled);
    reg.enable_addr = (uintptr_t)&e->enabled;
    reg.name_args = (uintptr_t)command;
    if (ioctl(data_fd, DIAG_IOCSREG, &reg) < 0)
        fail("ue_bench: DIAG_IOCSREG (struct user_reg)");
    struct user_reg_status sreg = { 0 };
    sreg.size = sizeof(sreg);
    sreg.name_args = (uintptr_t)command;
    if (ioctl(data_fd, DIAG_IOCSREG, &sreg) < 0)
        fail("ue_bench: DIAG_IOCSREG (struct user_reg_status)");
    e->status_byte = status_page + sreg.status_bit / 8;
    e->status_mask = (uint8_t)(1u << (sreg.status_bit % 8));
    e->write_index = reg.write_index;
}

static inline uint64_t rdtsc(void)
{
    uint64_t t;
    asm volatile("rdtsc" : "=A"(t) : : "memory");
    return t;
}

/* What the program does when a check finds its event enabled; never reached for idle. */
static void __attribute__((noinline)) emit_value(struct bench_event *e, uint32_t value)
{
    struct iovec io[2] = { { &e->write_index, 4 }, { &value, 4 } };
    if (writev(data_fd, io, 2) < 0)
        fail("ue_bench: writev");
}

/*
 * The three loops of (a). They differ only in the check: the empty asm with a "memory"
 * clobber in each iteration keeps gcc from merging or deleting iterations, and the volatile
 * reads keep the check inside the loop. noinline keeps each loop's code as written.
 */
static uint64_t __attribute__((noinline)) loop_without_check(uint32_t n)
{
    uint64_t start = rdtsc();
    for (uint32_t i = 0; i < n; i++)
        asm volatile("" : : : "memory");
    return rdtsc() - start;
}

static uint64_t __attribute__((noinline)) loop_enable_addr_check(uint32_t n)
{
    uint64_t start = rdtsc();
    for (uint32_t i = 0; i < n; i++) {
        if (idle.enabled)
            emit_value(&idle, i);
        asm volatile("" : : : "memory");
    }
    return rdtsc() - start;
}

static uint64_t __attribute__((noinline)) loop_status_page_check(uint32_t n)
{
    const volatile uint8_t *byte = idle.status_byte;
    uint8_t mask = idle.status_mask;
    uint64_t start = rdtsc();
    for (uint32_t i = 0; i < n; i++) {
        if (*byte & mask)
            emit_value(&idle, i);
        asm volatile("" : : : "memory");
    }
    return rdtsc() - start;
}

/* (b): WRITE_LOOPS writes of the enabled event, each checked as a program would. */
static uint64_t __attribute__((noinline)) loop_writev(uint32_t n)
{
    uint64_t start = rdtsc();
    for (uint32_t i = 0; i < n; i++) {
        if (traced.enabled)
            emit_value(&traced, i);
        asm volatile("" : : : "memory");
    }
    return rdtsc() - start;
}

/* For scale: the cheapest system call's round trip (int $0x80 in, iret out). */
static uint64_t __attribute__((noinline)) loop_getpid(uint32_t n)
{
    uint64_t start = rdtsc();
    for (uint32_t i = 0; i < n; i++) {
        getpid();
        asm volatile("" : : : "memory");
    }
    return rdtsc() - start;
}

/* The smallest of REPEATS runs of loop(n). */
static uint64_t min_cycles(uint64_t (*loop)(uint32_t), uint32_t n)
{
    uint64_t best = UINT64_MAX;
    for (int r = 0; r < REPEATS; r++) {
        uint64_t c = loop(n);
        if (c < best)
            best = c;
    }
    return best;
}

/* Prints (with - without) / n with two decimals, in integers: no floating point here. */
static void report(const char *row, uint64_t with, uint64_t without, uint32_t n)
{
    uint64_t diff = with > without ? with - without : 0;
    uint64_t hundredths = (diff * 100 + n / 2) / n;
    printf("BENCH %s %llu.%02llu\n", row, hundredths / 100, hundredths % 100);
}

int main(void)
{
    int status_fd = open(STATUS_FILE, O_RDONLY);
    if (status_fd < 0)
        fail("ue_bench: open " STATUS_FILE);
    status_page = mmap(0, USER_PAGE_SIZE, PROT_READ, MAP_SHARED, status_fd, 0);
    if (status_page == MAP_FAILED)
        fail("ue_bench: mmap user_events_status");
    data_fd = open(DATA_FILE, O_RDWR);
    if (data_fd < 0)
        fail("ue_bench: open " DATA_FILE);
    register_event(&idle, "ue_bench_idle u32 value");
    register_event(&traced, "ue_bench u32 value");

    if (idle.enabled || (*idle.status_byte & idle.status_mask)) {
        printf("ue_bench: ue_bench_idle is enabled; disable it to measure the disabled check\n");
        return 1;
    }
    uint64_t without = min_cycles(loop_without_check, CHECK_LOOPS);
    report("ue_disabled_check_enable_addr", min_cycles(loop_enable_addr_check, CHECK_LOOPS),
           without, CHECK_LOOPS);
    report("ue_disabled_check_status_page", min_cycles(loop_status_page_check, CHECK_LOOPS),
           without, CHECK_LOOPS);

    if (!traced.enabled) {
        printf("ue_bench: waiting for enable\n");
        for (int waited = 0; !traced.enabled && waited < ENABLE_WAIT_MS; waited += 10)
            usleep(10000);
        if (!traced.enabled) {
            printf("ue_bench: ue_bench not enabled after %d ms\n", ENABLE_WAIT_MS);
            return 1;
        }
    }
    uint64_t writes = min_cycles(loop_writev, WRITE_LOOPS);
    if (!traced.enabled) {
        printf("ue_bench: ue_bench was disabled during the measurement\n");
        return 1;
    }
    report("ue_writev_4byte", writes, min_cycles(loop_without_check, WRITE_LOOPS), WRITE_LOOPS);
    report("syscall_getpid", min_cycles(loop_getpid, WRITE_LOOPS),
           min_cycles(loop_without_check, WRITE_LOOPS), WRITE_LOOPS);
    return 0;
}
