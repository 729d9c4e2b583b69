/*
 * ue_enable.c - a user_events producer with Linux 6.4's ABI: the kernel itself keeps a bit
 * of a variable in this process equal to "a tracer has the event enabled", so the check
 * before each write is one memory read (`if (enabled)`), with no status page to map.
 *
 * Registers "ue_enable u32 count;__data_loc char[] msg" with struct user_reg (enable_addr =
 * &enabled, enable_bit 31, enable_size 4). Each record carries count and the string
 * "iteration N". A __data_loc field is the u32 (length << 16) | offset, where offset counts
 * from the start of the whole trace record, that is after the kernel's 8-byte common header
 * (struct trace_entry): here the string follows count (4) and the __data_loc word (4), so
 * its offset is 8 + 8 = 16, and its length includes the NUL. At the end DIAG_IOCSUNREG stops
 * the updates, and the kernel clears the bit. The event is registered with Linux 6.6's
 * USER_EVENT_REG_PERSIST, so that it outlives the program and its records in the trace
 * still print afterwards (without the flag it would be deleted when the program exits).
 *
 * Usage: ue_enable [ITERATIONS [MS]]   (defaults 100 iterations, 10 ms apart)
 *        ue_enable spin                 (issue 19: reads the bit in a loop without a system
 *                                        call until a tracer enables the event, writes one
 *                                        record, and says on which CPU it saw the bit: on SMP
 *                                        the kernel sets it from another CPU while this one
 *                                        runs, and the plain memory read must see it)
 * Prints:
 *   ue_enable: registered ue_enable (enable_bit 31, write_index W)
 *   ue_enable: wrote count=N                (each iteration the event was enabled)
 *   ue_enable: spun until the enable bit was set, saw it on CPU C   (spin)
 *   ue_enable: done, W writes
 * On an error: "ue_enable: WHAT: TEXT" on fd 2 and exit status 1.
 */
#include <fcntl.h>
#include <string.h>
#include <linux/user_events.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#define DATA_FILE "/sys/kernel/tracing/user_events_data"
#define ENABLE_BIT 31
#define COMMON_HEADER_SIZE 8 /* Linux's struct trace_entry on i386: type, flags, preempt, pid */

/* Written by the kernel whenever the event's enabled state changes. */
static volatile uint32_t enabled;

/* The CPU this runs on (getcpu; no sched_getcpu in this libc). */
static unsigned this_cpu(void)
{
    unsigned cpu = 0;
    syscall(SYS_getcpu, &cpu, 0, 0);
    return cpu;
}

static void fail(const char *what)
{
    perror(what);
    exit(1);
}

int main(int argc, char **argv)
{
    bool spin = argc > 1 && strcmp(argv[1], "spin") == 0;
    int iterations = spin ? 1 : argc > 1 ? atoi(argv[1]) : 100;
    int sleep_ms = argc > 2 ? atoi(argv[2]) : 10;

    int data_fd = open(DATA_FILE, O_RDWR);
    if (data_fd < 0)
        fail("ue_enable: open " DATA_FILE);
    struct user_reg reg = { 0 };
    reg.size = sizeof(reg);
    reg.enable_bit = ENABLE_BIT;
    reg.enable_size = sizeof(enabled);
    reg.flags = USER_EVENT_REG_PERSIST;
    reg.enable_addr = (uintptr_t)&enabled;
    reg.name_args = (uintptr_t)"ue_enable u32 count;__data_loc char[] msg";
    if (ioctl(data_fd, DIAG_IOCSREG, &reg) < 0)
        fail("ue_enable: DIAG_IOCSREG");
    printf("ue_enable: registered ue_enable (enable_bit %d, write_index %u)\n", ENABLE_BIT,
           reg.write_index);

    uint32_t write_index = reg.write_index;
    uint32_t count = 0;
    uint32_t msg_loc;
    char msg[24];
    struct iovec io[4] = {
        { &write_index, sizeof(write_index) },
        { &count, sizeof(count) },
        { &msg_loc, sizeof(msg_loc) },
        { msg, 0 },
    };
    int writes = 0;
    if (spin) {
        unsigned long reads = 1;
        while (!enabled)
            reads++;
        if (reads > 1)
            printf("ue_enable: spun until the enable bit was set, saw it on CPU %u\n",
                   this_cpu());
        else
            printf("ue_enable: the enable bit was set before the first read\n");
    }
    for (int i = 0; i < iterations; i++) {
        if (enabled) {
            uint32_t len = (uint32_t)snprintf(msg, sizeof(msg), "iteration %d", i) + 1;
            msg_loc = DYN_LOC(COMMON_HEADER_SIZE + sizeof(count) + sizeof(msg_loc), len);
            io[3].iov_len = len;
            if (writev(data_fd, io, 4) < 0)
                fail("ue_enable: writev");
            printf("ue_enable: wrote count=%u\n", count);
            writes++;
        }
        count++;
        if (!spin)
            usleep((useconds_t)sleep_ms * 1000);
    }

    struct user_unreg unreg = { 0 };
    unreg.size = sizeof(unreg);
    unreg.disable_bit = ENABLE_BIT;
    unreg.disable_addr = (uintptr_t)&enabled;
    if (ioctl(data_fd, DIAG_IOCSUNREG, &unreg) < 0)
        fail("ue_enable: DIAG_IOCSUNREG");
    if (enabled) {
        printf("ue_enable: enable bit still set after DIAG_IOCSUNREG\n");
        return 1;
    }
    printf("ue_enable: done, %d writes\n", writes);
    return 0;
}
