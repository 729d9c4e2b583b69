/*
 * rtc_cmos.c - the PC's CMOS real-time clock (MC146818, as QEMU models it), read for the
 * wall clock (kernel/arch.h: arch_rtc_read). Registers: 0x00 seconds, 0x02 minutes, 0x04
 * hours, 0x07 day, 0x08 month, 0x09 year, 0x32 century (QEMU and most BIOSes keep it
 * there); status A bit 7 is set while the chip updates; status B says binary or BCD
 * (bit 2) and 24-hour or 12-hour with bit 7 of the hour meaning PM (bit 1).
 */
#include "arch/x86/cpu.h"
#include "kernel/arch.h"
#include "kernel/lib/civil_time.h"

#define CMOS_INDEX 0x70
#define CMOS_DATA 0x71
#define RTC_STATUS_A 0x0a
#define RTC_STATUS_B 0x0b
#define RTC_UPDATING 0x80
#define RTC_BINARY 0x04
#define RTC_24H 0x02
#define RTC_CENTURY 0x32

static uint8_t cmos_read(uint8_t reg)
{
    outb(CMOS_INDEX, reg);
    return inb(CMOS_DATA);
}

static int from_bcd(uint8_t v) { return (v >> 4) * 10 + (v & 0x0f); }

/* The six time registers and the century, read when no update runs. */
static void read_registers(uint8_t r[7])
{
    static const uint8_t regs[7] = { 0x00, 0x02, 0x04, 0x07, 0x08, 0x09, RTC_CENTURY };
    for (int tries = 0; tries < 100000 && (cmos_read(RTC_STATUS_A) & RTC_UPDATING); tries++)
        ;
    for (int i = 0; i < 7; i++)
        r[i] = cmos_read(regs[i]);
}

/* Reads until two readings agree, so that no register was caught mid-update. Only the
 * wall clock calls this, once, under its lock (the index port is not shared). */
bool arch_rtc_read(struct civil_time *t)
{
    uint8_t a[7], b[7];
    read_registers(a);
    for (int tries = 0; tries < 5; tries++) {
        read_registers(b);
        bool same = true;
        for (int i = 0; i < 7; i++)
            same = same && a[i] == b[i];
        if (same)
            break;
        for (int i = 0; i < 7; i++)
            a[i] = b[i];
    }
    uint8_t status_b = cmos_read(RTC_STATUS_B);
    bool pm = !(status_b & RTC_24H) && (a[2] & 0x80);
    uint8_t hour = a[2] & 0x7f;
    int v[7];
    for (int i = 0; i < 7; i++)
        v[i] = status_b & RTC_BINARY ? (i == 2 ? hour : a[i]) : from_bcd(i == 2 ? hour : a[i]);
    if (!(status_b & RTC_24H))
        v[2] = v[2] % 12 + (pm ? 12 : 0);
    int century = v[6] >= 19 && v[6] <= 99 ? v[6] : 20;
    t->year = century * 100 + v[5];
    t->month = v[4];
    t->day = v[3];
    t->hour = v[2];
    t->minute = v[1];
    t->second = v[0];
    return civil_time_valid(t);
}
