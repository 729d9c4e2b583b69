/*
 * mmio.h - reading and writing device registers through an ioremap()ed pointer.
 *
 * Each accessor is exactly one mov of the given width, so that a device sees the access a
 * driver asked for (and mmiotrace, which traps that mov, records exactly that access).
 * volatile keeps the compiler from merging, splitting, reordering or dropping them.
 */
#ifndef ARCH_X86_MMIO_H
#define ARCH_X86_MMIO_H

#include <stdint.h>

static inline uint8_t mmio_read8(const volatile void *addr)
{
    uint8_t v;
    __asm__ volatile("movb %1, %0" : "=q"(v) : "m"(*(const volatile uint8_t *)addr) : "memory");
    return v;
}

static inline uint16_t mmio_read16(const volatile void *addr)
{
    uint16_t v;
    __asm__ volatile("movw %1, %0" : "=r"(v) : "m"(*(const volatile uint16_t *)addr) : "memory");
    return v;
}

static inline uint32_t mmio_read32(const volatile void *addr)
{
    uint32_t v;
    __asm__ volatile("movl %1, %0" : "=r"(v) : "m"(*(const volatile uint32_t *)addr) : "memory");
    return v;
}

static inline void mmio_write8(volatile void *addr, uint8_t v)
{
    __asm__ volatile("movb %1, %0" : "=m"(*(volatile uint8_t *)addr) : "q"(v) : "memory");
}

static inline void mmio_write16(volatile void *addr, uint16_t v)
{
    __asm__ volatile("movw %1, %0" : "=m"(*(volatile uint16_t *)addr) : "r"(v) : "memory");
}

static inline void mmio_write32(volatile void *addr, uint32_t v)
{
    __asm__ volatile("movl %1, %0" : "=m"(*(volatile uint32_t *)addr) : "r"(v) : "memory");
}

/* One access of width bytes (1, 2 or 4; the low width bytes of value for a write), for
 * code whose width is known only at run time: mmiotrace's fault paths, which make on the
 * device exactly the access the traced instruction made. */
static inline uint32_t mmio_read_sized(const volatile void *addr, unsigned width)
{
    return width == 1 ? mmio_read8(addr) : width == 2 ? mmio_read16(addr) : mmio_read32(addr);
}

static inline void mmio_write_sized(volatile void *addr, unsigned width, uint32_t v)
{
    if (width == 1)
        mmio_write8(addr, (uint8_t)v);
    else if (width == 2)
        mmio_write16(addr, (uint16_t)v);
    else
        mmio_write32(addr, v);
}

#endif
