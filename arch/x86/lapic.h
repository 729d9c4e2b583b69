/*
 * lapic.h - this CPU's local APIC: the interrupt controller inside each CPU that receives
 * interrupts for it, sends inter-processor interrupts (IPIs) to the others, and has its own
 * timer (Intel SDM vol. 3A, chapter 10 "Advanced Programmable Interrupt Controller").
 *
 * Every CPU sees its own local APIC at the same physical address (0xFEE00000 unless the
 * MADT says otherwise); lapic.c maps that page once, uncached, at a fixed kernel address
 * in the ioremap window (never an ioremap mapping: no tracer ever arms it). Registers are
 * 32 bits wide, 16 bytes apart.
 */
#ifndef ARCH_X86_LAPIC_H
#define ARCH_X86_LAPIC_H

#include <stdbool.h>
#include <stdint.h>

/* Register offsets (SDM vol. 3A, table 10-1). */
#define LAPIC_ID 0x020          /* bits 24-31: this CPU's APIC id */
#define LAPIC_VERSION 0x030     /* bits 0-7 version, 16-23 highest LVT entry */
#define LAPIC_TPR 0x080         /* task priority: 0 accepts every vector */
#define LAPIC_EOI 0x0b0         /* write 0: end of the interrupt in service */
#define LAPIC_SVR 0x0f0         /* spurious vector (0-7), APIC software enable (bit 8) */
#define LAPIC_ESR 0x280         /* error status */
#define LAPIC_ICR_LOW 0x300     /* interrupt command: writing it sends the IPI */
#define LAPIC_ICR_HIGH 0x310    /* bits 24-31: the destination APIC id */
#define LAPIC_LVT_TIMER 0x320
#define LAPIC_LVT_LINT0 0x350
#define LAPIC_LVT_LINT1 0x360
#define LAPIC_LVT_ERROR 0x370
#define LAPIC_TIMER_INITIAL 0x380
#define LAPIC_TIMER_CURRENT 0x390
#define LAPIC_TIMER_DIVIDE 0x3e0

#define LAPIC_SVR_ENABLE (1u << 8)
#define LAPIC_LVT_MASKED (1u << 16)
#define LAPIC_LVT_LEVEL (1u << 15)     /* trigger mode of an LVT entry: level */
#define LAPIC_DM_FIXED 0x000u
#define LAPIC_DM_NMI 0x400u
#define LAPIC_DM_INIT 0x500u
#define LAPIC_DM_STARTUP 0x600u
#define LAPIC_DM_EXTINT 0x700u
#define LAPIC_ICR_BUSY (1u << 12)      /* delivery status: the IPI is not sent yet */
#define LAPIC_ICR_ASSERT (1u << 14)
#define LAPIC_ICR_LEVEL (1u << 15)
#define LAPIC_TIMER_PERIODIC (1u << 17) /* LVT timer mode bits 17-18: 01 periodic, 00 one-shot */
#define LAPIC_TIMER_DIVIDE_16 0x3u      /* divide configuration bits 0, 1, 3: 0011 = by 16 */

/* Vectors the local APIC delivers (the PIC keeps 32-47). 0xff: spurious interrupts, which
 * need no EOI; 0xf0: each CPU's own timer (lapic_timer.c); 0xf1: the call-function IPI of
 * kernel/smp.c; 0xf2: the reschedule IPI. They make up the top priority class, 0xf0-0xff:
 * while one of them is in service, the APIC holds back every other one of the class until
 * its EOI. */
#define VEC_LAPIC_CLASS_FIRST 0xf0
#define VEC_LAPIC_SPURIOUS 0xff
#define VEC_LAPIC_TIMER 0xf0
#define VEC_IPI_CALL 0xf1
#define VEC_IPI_RESCHEDULE 0xf2 /* another CPU queued a task here (kernel/proc/sched.c) */

/* Maps the local APIC (address from the MADT, else the APIC base MSR) and enables the boot
 * CPU's, keeping the PIC's interrupts coming in through LINT0 (virtual wire mode). False,
 * with a line saying why, when the CPU has no local APIC. */
bool lapic_init(void);
/* Enables an application processor's local APIC (LINT0/LINT1 masked: devices stay with
 * CPU 0). Its first code after the trampoline calls it. */
void lapic_init_ap(void);
bool lapic_present(void);

uint32_t lapic_read(uint32_t reg);
void lapic_write(uint32_t reg, uint32_t value);

/* This CPU's APIC id (not its CPU number: see arch_cpu_id). */
uint8_t lapic_id(void);
/* Ends the interrupt in service (every vector but the spurious one needs it). */
void lapic_eoi(void);

/* The IPIs. Each waits until the previous command left the ICR and returns false when the
 * local APIC still says "send pending" after 100 ms. */
bool lapic_send_ipi(uint8_t apic_id, uint8_t vector);
bool lapic_send_nmi(uint8_t apic_id);
/* INIT, asserted then deasserted: the target CPU resets and waits for a startup IPI. */
bool lapic_send_init(uint8_t apic_id);
/* STARTUP (SIPI): the target starts in real mode at page << 12 (CS = page << 8, IP = 0). */
bool lapic_send_startup(uint8_t apic_id, uint8_t page);

#endif
