/*
 * wall_clock.h - the time of day (CLOCK_REALTIME): nanoseconds since the Unix epoch, UTC.
 *
 * Read from the machine's battery-backed clock once (arch_rtc_read), at first use, then
 * carried forward by the cycle counter (kernel/time.h), as Linux reads the RTC at boot and
 * keeps time with its clocksource. Nobody can set it (no settimeofday/clock_settime: they
 * stay ENOSYS). When the clock chip has no valid date, the wall clock starts at the epoch
 * at boot and says so once in the kernel log.
 */
#ifndef KERNEL_WALL_CLOCK_H
#define KERNEL_WALL_CLOCK_H

#include <stdint.h>

uint64_t wall_clock_ns(void);

#endif
