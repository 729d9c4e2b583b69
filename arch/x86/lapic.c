/*
 * lapic.c - maps, enables and drives the local APIC (arch/x86/lapic.h).
 */
#include "arch/x86/lapic.h"

#include "arch/x86/acpi_madt.h"
#include "arch/x86/cpu.h"
#include "arch/x86/paging.h"
#include "arch/x86/trap.h"
#include "kernel/arch.h"
#include "kernel/log/printk.h"
#include "kernel/mm/ioremap.h"

#define MSR_APIC_BASE 0x1b
#define APIC_BASE_ENABLE (1u << 11) /* the APIC's global enable */
#define APIC_BASE_ADDRESS 0xfffff000u
#define CPUID_1_EDX_APIC (1u << 9)
#define ICR_TIMEOUT_US 100000

static volatile uint32_t *lapic_regs;

static inline uint64_t rdmsr(uint32_t msr)
{
    uint32_t lo, hi;
    __asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
    return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
    __asm__ volatile("wrmsr" ::"c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}

bool lapic_present(void) { return lapic_regs != 0; }

uint32_t lapic_read(uint32_t reg) { return lapic_regs[reg / 4]; }

void lapic_write(uint32_t reg, uint32_t value) { lapic_regs[reg / 4] = value; }

uint8_t lapic_id(void) { return (uint8_t)(lapic_read(LAPIC_ID) >> 24); }

void lapic_eoi(void) { lapic_write(LAPIC_EOI, 0); }

/* A spurious interrupt (SDM 10.9): the APIC withdrew the interrupt it was about to deliver.
 * It is not in service, so it takes no EOI; nothing to do. */
static bool spurious_interrupt(struct trap_frame *tf)
{
    (void)tf;
    return true;
}

/* Sets the global enable in the APIC base MSR (firmware normally has), then the software
 * enable with the spurious vector, and accepts every priority. Error interrupts stay off:
 * the ESR is read where it matters (after an IPI). */
static void enable_this_cpu(void)
{
    uint64_t base = rdmsr(MSR_APIC_BASE);
    if (!(base & APIC_BASE_ENABLE))
        wrmsr(MSR_APIC_BASE, base | APIC_BASE_ENABLE);
    lapic_write(LAPIC_SVR, LAPIC_SVR_ENABLE | VEC_LAPIC_SPURIOUS);
    lapic_write(LAPIC_TPR, 0);
    lapic_write(LAPIC_LVT_ERROR, LAPIC_LVT_MASKED);
    lapic_write(LAPIC_ESR, 0); /* the ESR is updated by a write (SDM 10.5.3) */
}

bool lapic_init(void)
{
    uint32_t eax = 1, ebx, ecx, edx;
    __asm__ volatile("cpuid" : "+a"(eax), "=b"(ebx), "=c"(ecx), "=d"(edx));
    if (!(edx & CPUID_1_EDX_APIC)) {
        printk("lapic: the CPU has no local APIC: one CPU, PIC only\n");
        return false;
    }
    uint32_t pa = madt.found ? madt.lapic_address
                             : (uint32_t)rdmsr(MSR_APIC_BASE) & APIC_BASE_ADDRESS;
    uintptr_t va = ioremap_reserve_window(1);
    if (!va) {
        printk("lapic: no room in the ioremap window: one CPU, PIC only\n");
        return false;
    }
    paging_set_pte(va, pa, PTE_IO_FLAGS);
    lapic_regs = (volatile uint32_t *)va;
    trap_set_handler(VEC_LAPIC_SPURIOUS, spurious_interrupt);
    enable_this_cpu();
    /* Virtual wire mode (MP spec 3.6.2.2): the 8259's output reaches this CPU as an
     * ExtINT through LINT0, level-triggered (the 8259 holds INTR until acknowledged), and
     * NMIs through LINT1: what SeaBIOS leaves (0x8700, 0x8400). An edge-triggered LINT0
     * changes when QEMU delivers the PIC's interrupts. */
    lapic_write(LAPIC_LVT_LINT0, LAPIC_DM_EXTINT | LAPIC_LVT_LEVEL);
    lapic_write(LAPIC_LVT_LINT1, LAPIC_DM_NMI | LAPIC_LVT_LEVEL);
    uint32_t version = lapic_read(LAPIC_VERSION);
    printk("lapic: id %u, version %#x, %u LVT entries, registers at %#x\n", lapic_id(),
           version & 0xff, ((version >> 16) & 0xff) + 1, pa);
    return true;
}

void lapic_init_ap(void)
{
    enable_this_cpu();
    lapic_write(LAPIC_LVT_LINT0, LAPIC_LVT_MASKED | LAPIC_LVT_LEVEL | LAPIC_DM_EXTINT);
    lapic_write(LAPIC_LVT_LINT1, LAPIC_LVT_MASKED | LAPIC_DM_NMI);
    lapic_write(LAPIC_LVT_TIMER, LAPIC_LVT_MASKED);
}

/* Waits for the ICR's delivery status to say "idle" (SDM 10.6.1), at most ICR_TIMEOUT_US. */
static bool wait_icr_idle(void)
{
    uint64_t limit = (uint64_t)arch_cycles_khz() * ICR_TIMEOUT_US / 1000;
    uint64_t start = rdtsc();
    while (lapic_read(LAPIC_ICR_LOW) & LAPIC_ICR_BUSY) {
        if (rdtsc() - start > limit)
            return false;
        __asm__ volatile("pause");
    }
    return true;
}

/* Writes one command: destination first, then the low word, which sends it. Interrupts
 * are off meanwhile, so that a handler sending its own IPI cannot change the destination
 * between the two writes. */
static bool send_command(uint8_t apic_id, uint32_t low)
{
    if (!lapic_regs)
        return false;
    unsigned long flags = arch_irq_save();
    bool ok = wait_icr_idle();
    if (ok) {
        lapic_write(LAPIC_ICR_HIGH, (uint32_t)apic_id << 24);
        lapic_write(LAPIC_ICR_LOW, low);
        ok = wait_icr_idle();
    }
    arch_irq_restore(flags);
    return ok;
}

bool lapic_send_ipi(uint8_t apic_id, uint8_t vector)
{
    return send_command(apic_id, LAPIC_DM_FIXED | LAPIC_ICR_ASSERT | vector);
}

bool lapic_send_nmi(uint8_t apic_id)
{
    return send_command(apic_id, LAPIC_DM_NMI | LAPIC_ICR_ASSERT);
}

bool lapic_send_init(uint8_t apic_id)
{
    return send_command(apic_id, LAPIC_DM_INIT | LAPIC_ICR_LEVEL | LAPIC_ICR_ASSERT) &&
           send_command(apic_id, LAPIC_DM_INIT | LAPIC_ICR_LEVEL);
}

bool lapic_send_startup(uint8_t apic_id, uint8_t page)
{
    return send_command(apic_id, LAPIC_DM_STARTUP | page);
}
