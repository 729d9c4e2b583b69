/*
 * sys/io.h - port I/O from ring 3, as glibc's: ioperm() and iopl() (issue 23), and the
 * inb/outb family, whose argument order (value first for out*) is glibc's.
 */
#ifndef _SYS_IO_H
#define _SYS_IO_H

#include <stdint.h>

/* Allows (turn_on != 0) or denies ports [from, from + num); 0, or -1 with errno set. */
int ioperm(unsigned long from, unsigned long num, int turn_on);
/* Sets the I/O privilege level: 3 allows every port; 0, or -1 with errno set. */
int iopl(int level);

static inline uint8_t inb(uint16_t port)
{
    uint8_t v;
    __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}
static inline uint16_t inw(uint16_t port)
{
    uint16_t v;
    __asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}
static inline uint32_t inl(uint16_t port)
{
    uint32_t v;
    __asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}
static inline void outb(uint8_t value, uint16_t port)
{
    __asm__ volatile("outb %0, %1" : : "a"(value), "Nd"(port));
}
static inline void outw(uint16_t value, uint16_t port)
{
    __asm__ volatile("outw %0, %1" : : "a"(value), "Nd"(port));
}
static inline void outl(uint32_t value, uint16_t port)
{
    __asm__ volatile("outl %0, %1" : : "a"(value), "Nd"(port));
}

#endif
