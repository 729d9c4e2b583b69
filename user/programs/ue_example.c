/*
 * ue_example.c - a user_events producer with the pre-6.4 status-page ABI (Linux's
 * Documentation/trace/user_events.rst before 6.4), in the manner of Linux's
 * samples/user_events/example.c of that time.
 *
 * Registers the event "test u32 count" on user_events_data (DIAG_IOCSREG with struct
 * user_reg_status), maps user_events_status read-only and then, ITERATIONS times, checks the
 * event's bit in that page: only when a tracer has enabled the event does it pay for a
 * writev() of [write_index, count]. count goes up every iteration, so the counts that reach
 * the trace show which iterations had the event enabled.
 *
 * The event must outlive the program, so that its records in the trace still print after it
 * exits: since Linux 6.6 an event is deleted with its last reference unless it is
 * persistent, and the pre-6.4 struct (our struct user_reg_status) has no flags. So the
 * program first creates the event through dynamic_events, which makes it persistent (as
 * Linux 6.6 does); the registration then finds that event.
 *
 * Usage: ue_example [ITERATIONS [MS]]   (defaults 100 iterations, 10 ms apart)
 * Prints:
 *   ue_example: registered test (status_bit B, write_index W)
 *   ue_example: wrote count=N               (each iteration the event was enabled)
 *   ue_example: done, W writes
 * On an error: perror's "ue_example: WHAT: TEXT" on fd 2 and exit status 1.
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
#define DYNAMIC_FILE "/sys/kernel/tracing/dynamic_events"
#define COMMAND "test u32 count"

static void fail(const char *what)
{
    perror(what);
    exit(1);
}

int main(int argc, char **argv)
{
    int iterations = argc > 1 ? atoi(argv[1]) : 100;
    int sleep_ms = argc > 2 ? atoi(argv[2]) : 10;

    int status_fd = open(STATUS_FILE, O_RDONLY);
    if (status_fd < 0)
        fail("ue_example: open " STATUS_FILE);
    const volatile uint8_t *status_page =
        mmap(0, USER_PAGE_SIZE, PROT_READ, MAP_SHARED, status_fd, 0);
    if (status_page == MAP_FAILED)
        fail("ue_example: mmap user_events_status");

    int dyn_fd = open(DYNAMIC_FILE, O_WRONLY | O_APPEND);
    if (dyn_fd < 0)
        fail("ue_example: open " DYNAMIC_FILE);
    static const char create[] = "u:" COMMAND "\n";
    if (write(dyn_fd, create, sizeof(create) - 1) < 0)
        fail("ue_example: create the event in " DYNAMIC_FILE);
    close(dyn_fd);

    int data_fd = open(DATA_FILE, O_RDWR);
    if (data_fd < 0)
        fail("ue_example: open " DATA_FILE);
    struct user_reg_status reg = { 0 };
    reg.size = sizeof(reg);
    reg.name_args = (uintptr_t)COMMAND;
    if (ioctl(data_fd, DIAG_IOCSREG, &reg) < 0)
        fail("ue_example: DIAG_IOCSREG");
    printf("ue_example: registered test (status_bit %u, write_index %u)\n", reg.status_bit,
           reg.write_index);

    uint32_t index = reg.status_bit / 8;
    uint8_t mask = (uint8_t)(1u << (reg.status_bit % 8));
    uint32_t write_index = reg.write_index;
    uint32_t count = 0;
    struct iovec io[2] = {
        { &write_index, sizeof(write_index) },
        { &count, sizeof(count) },
    };
    int writes = 0;
    for (int i = 0; i < iterations; i++) {
        if (status_page[index] & mask) {
            if (writev(data_fd, io, 2) < 0)
                fail("ue_example: writev");
            printf("ue_example: wrote count=%u\n", count);
            writes++;
        }
        count++;
        usleep((useconds_t)sleep_ms * 1000);
    }
    printf("ue_example: done, %d writes\n", writes);
    return 0;
}
