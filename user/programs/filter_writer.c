/*
 * filter_writer.c - known events for the event filter test (tests/shell/event_filter.script).
 *
 * Writes "w1\n" to fd 1 ONES times and "w2\n" to fd 2 TWOS times (sys_enter_write with
 * fd 1 and fd 2), then, if the user event "filtertest u32 n;char[16] name" is enabled
 * (created persistent through dynamic_events, so its records outlive the program), writes
 * one record for each name given, n counting from 0.
 *
 * Usage: filter_writer ONES TWOS [NAME...]
 * Prints "filter_writer: N user events written" last; errors: perror and exit status 1.
 */
#include <fcntl.h>
#include <linux/user_events.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#define COMMAND "filtertest u32 n;char[16] name"

static void fail(const char *what)
{
    perror(what);
    exit(1);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: filter_writer ONES TWOS [NAME...]\n");
        return 2;
    }
    int ones = atoi(argv[1]), twos = atoi(argv[2]);
    for (int i = 0; i < ones; i++)
        if (write(1, "w1\n", 3) != 3)
            fail("filter_writer: write fd 1");
    for (int i = 0; i < twos; i++)
        if (write(2, "w2\n", 3) != 3)
            fail("filter_writer: write fd 2");

    int dyn = open("/sys/kernel/tracing/dynamic_events", O_WRONLY | O_APPEND);
    if (dyn < 0 || write(dyn, "u:" COMMAND "\n", strlen("u:" COMMAND "\n")) < 0)
        fail("filter_writer: create the event");
    close(dyn);
    int status_fd = open("/sys/kernel/tracing/user_events_status", O_RDONLY);
    if (status_fd < 0)
        fail("filter_writer: open user_events_status");
    const volatile uint8_t *status =
        mmap(0, USER_PAGE_SIZE, PROT_READ, MAP_SHARED, status_fd, 0);
    if (status == MAP_FAILED)
        fail("filter_writer: mmap user_events_status");
    int data = open("/sys/kernel/tracing/user_events_data", O_RDWR);
    if (data < 0)
        fail("filter_writer: open user_events_data");
    struct user_reg_status reg = { 0 };
    reg.size = sizeof reg;
    reg.name_args = (uintptr_t)COMMAND;
    if (ioctl(data, DIAG_IOCSREG, &reg) < 0)
        fail("filter_writer: DIAG_IOCSREG");
    int written = 0;
    if (status[reg.status_bit / 8] & (1u << (reg.status_bit % 8))) {
        for (int i = 3; i < argc; i++) {
            struct {
                uint32_t index, n;
                char name[16];
            } rec;
            memset(&rec, 0, sizeof rec);
            rec.index = reg.write_index;
            rec.n = (uint32_t)(i - 3);
            size_t len = strlen(argv[i]);
            memcpy(rec.name, argv[i], len < sizeof rec.name - 1 ? len : sizeof rec.name - 1);
            if (write(data, &rec, sizeof rec) != (ssize_t)sizeof rec)
                fail("filter_writer: write the event");
            written++;
        }
    }
    printf("filter_writer: %d user events written\n", written);
    return 0;
}
