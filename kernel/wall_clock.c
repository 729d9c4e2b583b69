/*
 * wall_clock.c - CLOCK_REALTIME (wall_clock.h): the RTC's reading at first use, minus the
 * time since boot then, is the epoch offset of boot; the clock is that plus time_ns().
 */
#include "kernel/wall_clock.h"

#include <stdbool.h>

#include "kernel/arch.h"
#include "kernel/lib/civil_time.h"
#include "kernel/log/printk.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"

static struct spinlock wall_lock = SPINLOCK_INIT("wall_clock");
static uint64_t boot_epoch_ns; /* the wall clock at time_ns() == 0 */
static bool known;

/* Reads the RTC (lock held). The RTC counts whole seconds: the offset is good to a second,
 * as Linux's is when it reads the RTC without waiting for its next tick. */
static void read_rtc(void)
{
    struct civil_time t;
    uint64_t since_boot = time_ns();
    int64_t seconds = arch_rtc_read(&t) ? civil_time_to_unix(&t) : -1;
    if (seconds < 0) {
        printk("wall clock: no valid date in the RTC; counting from 1970-01-01 at boot\n");
        seconds = 0;
    }
    uint64_t now = (uint64_t)seconds * 1000000000u;
    boot_epoch_ns = now > since_boot ? now - since_boot : 0;
    known = true;
}

uint64_t wall_clock_ns(void)
{
    unsigned long flags = spin_lock_irqsave(&wall_lock);
    if (!known)
        read_rtc();
    uint64_t epoch = boot_epoch_ns;
    spin_unlock_irqrestore(&wall_lock, flags);
    return epoch + time_ns();
}
