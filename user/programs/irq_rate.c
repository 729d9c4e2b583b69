/*
 * irq_rate.c - how often the timer interrupt really fires, measured from ring 3 the way a
 * user would check it on Linux: the timer's count in /proc/interrupts against the clock
 * (CLOCK_MONOTONIC, the kernel's own time), over intervals of guest time. Run it in the
 * background while something loads the kernel to see whether the load starves the tick.
 *
 * Usage: irq_rate [MS [COUNT]]   (defaults 500 ms, 4 intervals)
 * Prints, for each interval:  irq_rate: timer +T in U us: R.R/s
 * then                        irq_rate: done
 * and exits 0; 1 (with a message) if /proc/interrupts or the clock cannot be read.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The count on the timer's line (IRQ 0) of /proc/interrupts, or -1: as on Linux, the line
 * "  0:" has a count per CPU column, and the timer's count is their sum. */
static long timer_count(void)
{
    char text[1024];
    int fd = open("/proc/interrupts", O_RDONLY);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0)
        return -1;
    text[n] = '\0';
    for (char *line = text; line; line = strchr(line, '\n')) {
        while (*line == '\n' || *line == ' ')
            line++;
        if (line[0] != '0' || line[1] != ':')
            continue;
        long sum = 0;
        char *p = line + 2, *end;
        for (long count = strtol(p, &end, 10); end != p; count = strtol(p, &end, 10)) {
            sum += count;
            p = end;
        }
        return sum;
    }
    return -1;
}

/* CLOCK_MONOTONIC in microseconds, or -1. */
static int64_t now_us(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_MONOTONIC, &t) < 0)
        return -1;
    return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
    int ms = argc > 1 ? atoi(argv[1]) : 500;
    int count = argc > 2 ? atoi(argv[2]) : 4;
    long ticks = timer_count();
    int64_t us = now_us();
    if (ticks < 0 || us < 0 || ms <= 0) {
        printf("irq_rate: cannot read /proc/interrupts or the clock\n");
        return 1;
    }
    for (int i = 0; i < count; i++) {
        struct timespec pause = { ms / 1000, (ms % 1000) * 1000000L };
        nanosleep(&pause, 0);
        long ticks_now = timer_count();
        int64_t us_now = now_us();
        long delta = ticks_now - ticks;
        long elapsed = (long)(us_now - us);
        if (ticks_now < 0 || us_now < 0 || elapsed <= 0) {
            printf("irq_rate: cannot read /proc/interrupts or the clock\n");
            return 1;
        }
        long tenths = (long)((int64_t)delta * 10000000 / elapsed); /* per second, x10 */
        printf("irq_rate: timer +%ld in %ld us: %ld.%ld/s\n", delta, elapsed, tenths / 10,
               tenths % 10);
        ticks = ticks_now;
        us = us_now;
    }
    printf("irq_rate: done\n");
    return 0;
}
