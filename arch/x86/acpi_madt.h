/*
 * acpi_madt.h - what the firmware's ACPI tables say about the interrupt hardware: the
 * CPUs (their local APIC ids), the I/O APICs and how ISA interrupts are wired to them.
 *
 * The firmware (SeaBIOS under QEMU) leaves a Root System Description Pointer (RSDP) in the
 * BIOS area; it points at the RSDT, a list of tables, one of which is the MADT ("APIC"),
 * the Multiple APIC Description Table (ACPI spec, section 5.2.12). acpi_madt_init reads it
 * once at boot and keeps the parts the kernel uses; docs/smp.md walks through the format.
 */
#ifndef ARCH_X86_ACPI_MADT_H
#define ARCH_X86_ACPI_MADT_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/smp.h"

#define MADT_MAX_IOAPICS 4
#define MADT_MAX_OVERRIDES 16

/* One processor's local APIC entry (MADT type 0). */
struct madt_cpu {
    uint8_t acpi_id;  /* the processor's ACPI UID */
    uint8_t apic_id;  /* its local APIC id: the destination of IPIs to it */
    bool enabled;     /* usable now (flags bit 0); a disabled CPU is never started */
};

/* One I/O APIC (MADT type 1): its registers at address, its inputs numbered from gsi_base. */
struct madt_ioapic {
    uint8_t id;
    uint32_t address;
    uint32_t gsi_base;
};

/* An interrupt source override (MADT type 2): ISA irq arrives at global system interrupt
 * gsi; flags are the MPS INTI flags (bits 0-1 polarity, 2-3 trigger mode; 0 = bus default). */
struct madt_override {
    uint8_t isa_irq;
    uint32_t gsi;
    uint16_t flags;
};

struct madt_info {
    bool found;                  /* false: no RSDP or no MADT, one CPU assumed */
    uint32_t lapic_address;      /* physical address of every CPU's local APIC registers */
    bool has_8259;               /* PCAT_COMPAT: the legacy PICs are present too */
    unsigned cpu_count;          /* entries in cpus, at most MAX_CPUS (more are counted in */
    unsigned cpus_ignored;       /* cpus_ignored and never started) */
    struct madt_cpu cpus[MAX_CPUS];
    unsigned ioapic_count;
    struct madt_ioapic ioapics[MADT_MAX_IOAPICS];
    unsigned override_count;
    struct madt_override overrides[MADT_MAX_OVERRIDES];
};

/* What acpi_madt_init found (all zero before it ran). */
extern struct madt_info madt;

/* Finds the RSDP, the RSDT and the MADT and fills madt, printing one line per entry. Needs
 * the heap (the tables are copied into it while read) and paging (the ioremap window). */
void acpi_madt_init(void);

/* Reads one MADT (table: its ACPI header first, the whole table in memory) into m, printing
 * one line per entry; entries shorter than their type's fields are skipped with a line.
 * False (m untouched) for a table shorter than its 44-byte header. acpi_madt_init uses it;
 * the self-tests feed it malformed tables. */
bool acpi_madt_parse(const void *table, struct madt_info *m);

/* The GSI an ISA irq arrives at (its override, else the same number), and the override's
 * flags (0 where there is none). */
uint32_t madt_isa_irq_gsi(unsigned isa_irq, uint16_t *flags);

#endif
