/*
 * smp_boot.c - starts the application processors (APs) and carries kernel/smp.c's IPIs.
 *
 * The firmware leaves every CPU but the boot CPU (BSP) waiting for INIT; the MADT lists
 * them by local APIC id (acpi_madt.c). For each enabled one, in turn (Intel SDM vol. 3A,
 * 8.4.4.1, and the MP spec's appendix B.4, which Linux's arch/x86/kernel/smpboot.c
 * follows): copy the real-mode trampoline (ap_trampoline.asm) below 1 MiB, send INIT,
 * wait 10 ms, send a startup IPI (SIPI) naming the trampoline's page, wait 200 us, send
 * the second SIPI, wait 200 us, then wait for the AP to say it is up. The AP builds its
 * own GDT (the CPU number in it: arch_cpu_id), loads the IDT, the kernel's directory, its
 * double-fault task and its local APIC, takes part in the TSC check and enters its idle
 * loop (smp_ap_main in kernel/smp.c). CPU numbers are given in the order the CPUs come up,
 * 0 .. arch_cpu_count()-1, and never change. An AP that does not come up within a second
 * is sent INIT again (parked) before its number goes to the next one; if even that fails,
 * no further AP is started. At most MAX_CPUS CPUs are started.
 *
 * The trampoline turns paging on before it can jump to the kernel, so its directory must
 * map the trampoline page at its own (low) address. Low addresses are user space in
 * every real directory, so the AP uses one of its own for those few instructions: the
 * kernel's half of the kernel directory plus one page table with the trampoline page.
 */
#include "arch/x86/acpi_madt.h"
#include "arch/x86/cpu.h"
#include "arch/x86/cpuinfo.h"
#include "arch/x86/double_fault.h"
#include "arch/x86/gdt.h"
#include "arch/x86/lapic.h"
#include "arch/x86/lapic_timer.h"
#include "arch/x86/paging.h"
#include "arch/x86/trap.h"
#include "kernel/arch.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/log/printk.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/smp.h"

#define TRAMPOLINE_PHYS 0x8000u /* ap_trampoline.asm's; SIPI vector 0x08 */
#define AP_STACK_PAGES 4
#define AP_START_TIMEOUT_US 1000000
#define TSC_CHECK_ROUNDS 1000

/* The block at the end of the trampoline, filled before each start. */
struct trampoline_params {
    uint32_t cr0, cr3, cr4, stack, entry, cpu;
};

extern const char ap_trampoline_start[], ap_trampoline_end[], ap_trampoline_params[];

volatile unsigned cpus_online = 1;
static uint8_t apic_ids[MAX_CPUS];        /* CPU number -> local APIC id */
static uint8_t boot_states[MAX_CPUS];     /* what each AP reached (enum below) */
enum { AP_NOT_STARTED, AP_ENTERED, AP_READY };

/* Busy-waits us microseconds on the cycle counter (calibrated against the PIT at boot). */
static void delay_us(uint32_t us)
{
    uint64_t cycles = (uint64_t)arch_cycles_khz() * us / 1000;
    uint64_t start = rdtsc();
    while (rdtsc() - start < cycles)
        __asm__ volatile("pause");
}

/*
 * The TSC check (the idea of Linux's arch/x86/kernel/tsc_sync.c): CPU 0 and the new CPU
 * take strict turns, each reading its TSC and comparing it with the value the other one
 * read just before handing over. The handover orders the reads in time, so a value
 * smaller than the one before it is a timestamp that went backwards from one CPU to the
 * other: trace events merged by timestamp would be out of order. The smallest forward
 * step in each direction bounds the skew: the new CPU's TSC is at most min_up cycles
 * ahead of CPU 0's (a read on CPU 0, then one on it) and at most min_down behind.
 */
static volatile unsigned tsc_turn;     /* whose read is next: 0 CPU 0, 1 the new CPU */
static uint64_t tsc_last;
static uint64_t tsc_max_warp, tsc_min_step[2];
static unsigned tsc_handoffs, tsc_warps;
static volatile unsigned tsc_checkers_done;

static void tsc_check_run(unsigned side)
{
    for (int i = 0; i < TSC_CHECK_ROUNDS; i++) {
        while (__atomic_load_n(&tsc_turn, __ATOMIC_ACQUIRE) != side)
            __asm__ volatile("pause");
        uint64_t now = rdtsc();
        if (i > 0 || side == 1) {
            tsc_handoffs++;
            if (now < tsc_last) {
                tsc_warps++;
                if (tsc_last - now > tsc_max_warp)
                    tsc_max_warp = tsc_last - now;
            } else if (now - tsc_last < tsc_min_step[side]) {
                tsc_min_step[side] = now - tsc_last;
            }
        }
        tsc_last = now;
        __atomic_store_n(&tsc_turn, !side, __ATOMIC_RELEASE);
    }
    __atomic_add_fetch(&tsc_checkers_done, 1, __ATOMIC_ACQ_REL);
}

/* The call-function IPI: run what other CPUs asked of this one (kernel/smp.c). */
static bool call_ipi(struct trap_frame *tf)
{
    (void)tf;
    unsigned cpu = arch_cpu_id();
    irq_stat_count(IRQ_STAT_CALL_FUNCTION);
    hardirq_depth[cpu]++;
    smp_call_interrupt();
    hardirq_depth[cpu]--;
    lapic_eoi();
    return true;
}

/* The reschedule IPI: the sender set this CPU's need_resched already; the interrupt only
 * makes the CPU notice, on its way back to ring 3 or out of its idle hlt. */
static bool resched_ipi(struct trap_frame *tf)
{
    (void)tf;
    irq_stat_count(IRQ_STAT_RESCHEDULE);
    lapic_eoi();
    return true;
}

/* An NMI: the stop request of smp_stop_others halts this CPU for good (NMIs stay blocked:
 * no iret ever comes), except on the CPU that asked for the stop, which is writing the
 * crash report: there the NMI is counted, named and ignored. Any NMI before a stop is
 * reported as the exception it is. */
static bool nmi(struct trap_frame *tf)
{
    (void)tf;
    irq_stat_count(IRQ_STAT_NMI);
    if (!smp_stop_requested())
        return false;
    if (smp_stop_is_mine()) {
        printk("smp: NMI on CPU %u, the CPU stopping the others: ignored\n", arch_cpu_id());
        return true;
    }
    smp_stopped_here();
    arch_halt_forever();
}

/* The AP's first C code, on its own stack, interrupts off, paging on with the AP boot
 * directory and the trampoline's GDT: until gdt_init_cpu it must not ask arch_cpu_id. */
static void __attribute__((noreturn, used)) ap_entry(unsigned cpu)
{
    boot_states[cpu] = AP_ENTERED;
    write_cr3((uint32_t)virt_to_phys((void *)paging_kernel_directory()));
    gdt_init_cpu(cpu);
    idt_load();
    double_fault_init();
    lapic_init_ap();
    lapic_timer_start();
    cpuinfo_capture_this_cpu();
    __asm__ volatile("fninit"); /* the x87 state as after reset, as CPU 0's at boot */
    __atomic_store_n(&boot_states[cpu], AP_READY, __ATOMIC_RELEASE);
    tsc_check_run(1);
    smp_ap_main();
}

/* The directory the trampoline turns paging on with: the kernel's half of the kernel
 * directory, and the trampoline page mapped at its physical address. */
static uint32_t make_ap_boot_directory(void)
{
    uint32_t *dir = (uint32_t *)page_alloc(1);
    uint32_t *table = (uint32_t *)page_alloc(1);
    if (!dir || !table)
        return 0;
    memset(dir, 0, PAGE_SIZE);
    memset(table, 0, PAGE_SIZE);
    const uint32_t *kernel = paging_kernel_directory();
    for (unsigned i = KERNEL_BASE >> 22; i < 1024; i++)
        dir[i] = kernel[i];
    table[TRAMPOLINE_PHYS >> 12] = TRAMPOLINE_PHYS | PTE_PRESENT | PTE_WRITE;
    dir[0] = (uint32_t)virt_to_phys(table) | PTE_PRESENT | PTE_WRITE;
    return (uint32_t)virt_to_phys(dir);
}

/* What start_ap achieved: up; not up but held in INIT (its number may go to the next AP);
 * or not up and maybe still running (nothing may be started after it). */
enum ap_start { AP_UP, AP_PARKED, AP_LOOSE };

/* An AP that did not come up in time may still be on its way (slow, or stuck in the
 * trampoline): INIT again puts it back in wait-for-SIPI, where the next AP's startup IPIs
 * (addressed to another APIC id) cannot wake it. Only then may its CPU number, and with it
 * that number's GDT and boot state, go to the next AP; its stack is never freed. */
static enum ap_start park_ap(unsigned cpu, uint8_t apic_id)
{
    if (lapic_send_init(apic_id)) {
        __atomic_store_n(&boot_states[cpu], AP_NOT_STARTED, __ATOMIC_RELEASE);
        printk("smp: APIC id %u parked with INIT; CPU number %u goes to the next AP\n",
               apic_id, cpu);
        return AP_PARKED;
    }
    printk("smp: APIC id %u could not be parked (INIT not sent): it may still come up as "
           "CPU %u, so no further CPUs are started\n", apic_id, cpu);
    return AP_LOOSE;
}

/* INIT-SIPI-SIPI to one AP, which becomes CPU cpu; AP_UP once it runs its idle loop. */
static enum ap_start start_ap(unsigned cpu, uint8_t apic_id, uint32_t boot_cr3)
{
    void *stack = (void *)page_alloc(AP_STACK_PAGES);
    if (!stack) {
        printk("smp: no memory for CPU %u's stack\n", cpu);
        return AP_PARKED; /* nothing was sent to it */
    }
    /* A number a parked AP had: its state starts over (set before INIT, which the AP
     * needs before it can write it). */
    __atomic_store_n(&boot_states[cpu], AP_NOT_STARTED, __ATOMIC_RELEASE);
    struct trampoline_params *p = (struct trampoline_params *)phys_to_virt(
        TRAMPOLINE_PHYS + (uint32_t)(ap_trampoline_params - ap_trampoline_start));
    p->cr0 = (read_cr0() | CR0_PG | CR0_PE) & ~CR0_TS;
    p->cr3 = boot_cr3;
    p->cr4 = read_cr4();
    p->stack = (uint32_t)(uintptr_t)stack + AP_STACK_PAGES * PAGE_SIZE;
    p->entry = (uint32_t)(uintptr_t)ap_entry;
    p->cpu = cpu;
    apic_ids[cpu] = apic_id;
    tsc_checkers_done = 0;
    tsc_turn = 0;
    tsc_max_warp = 0;
    tsc_min_step[0] = tsc_min_step[1] = UINT64_MAX;
    tsc_handoffs = tsc_warps = 0;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);

    bool sent = lapic_send_init(apic_id);
    delay_us(10000);
    sent = sent && lapic_send_startup(apic_id, TRAMPOLINE_PHYS >> 12);
    delay_us(200);
    sent = sent && lapic_send_startup(apic_id, TRAMPOLINE_PHYS >> 12);
    delay_us(200);
    if (!sent) {
        printk("smp: APIC id %u: the local APIC did not send INIT/SIPI\n", apic_id);
        return park_ap(cpu, apic_id);
    }
    uint64_t limit = (uint64_t)arch_cycles_khz() * (AP_START_TIMEOUT_US / 1000);
    uint64_t start = rdtsc();
    while (__atomic_load_n(&boot_states[cpu], __ATOMIC_ACQUIRE) != AP_READY) {
        if (rdtsc() - start > limit) {
            printk("smp: APIC id %u did not come up (%s)\n", apic_id,
                   boot_states[cpu] == AP_ENTERED ? "stuck after the trampoline"
                                                  : "never reached the kernel");
            return park_ap(cpu, apic_id);
        }
        __asm__ volatile("pause");
    }
    tsc_check_run(0);
    while (__atomic_load_n(&tsc_checkers_done, __ATOMIC_ACQUIRE) < 2)
        __asm__ volatile("pause");
    if (tsc_warps)
        printk("smp: WARNING: TSC check failed for CPU %u: %u of %u handoffs went back, by "
               "up to %u cycles; timestamps across CPUs may be out of order\n", cpu,
               tsc_warps, tsc_handoffs, (unsigned)tsc_max_warp);
    else
        printk("smp: CPU %u (APIC id %u) up; TSC check: %u handoffs, none went back; skew "
               "within -%u..+%u cycles\n", cpu, apic_id, tsc_handoffs,
               (unsigned)tsc_min_step[0], (unsigned)tsc_min_step[1]);
    return AP_UP;
}

unsigned arch_start_cpus(void)
{
    trap_set_handler(VEC_NMI, nmi);
    trap_set_handler(VEC_IPI_CALL, call_ipi);
    trap_set_handler(VEC_IPI_RESCHEDULE, resched_ipi);
    cpuinfo_capture_this_cpu();
    unsigned present = arch_cpus_present();
    if (!lapic_present() || !madt.found) {
        if (present > 1)
            printk("smp: %u CPUs present but no local APIC/MADT: running on one\n", present);
        return cpus_online;
    }
    uint8_t boot_apic = lapic_id();
    apic_ids[0] = boot_apic;
    size_t size = (size_t)(ap_trampoline_end - ap_trampoline_start);
    memcpy(phys_to_virt(TRAMPOLINE_PHYS), ap_trampoline_start, size);
    uint32_t boot_cr3 = make_ap_boot_directory();
    if (!boot_cr3) {
        printk("smp: no memory for the AP boot directory: running on one CPU\n");
        return cpus_online;
    }
    for (unsigned i = 0; i < madt.cpu_count; i++) {
        const struct madt_cpu *c = &madt.cpus[i];
        if (!c->enabled || c->apic_id == boot_apic)
            continue;
        if (cpus_online == MAX_CPUS) { /* the boot CPU was not among the MADT's first ones */
            printk("smp: MAX_CPUS (%d) online: APIC id %u and later ones are not started\n",
                   MAX_CPUS, c->apic_id);
            break;
        }
        unsigned cpu = cpus_online;
        enum ap_start result = start_ap(cpu, c->apic_id, boot_cr3);
        if (result == AP_UP)
            __atomic_store_n(&cpus_online, cpu + 1, __ATOMIC_RELEASE);
        else if (result == AP_LOOSE)
            break;
    }
    char ids[4 * MAX_CPUS + 1];
    size_t at = 0;
    for (unsigned cpu = 0; cpu < cpus_online; cpu++)
        at += (size_t)ksnprintf(ids + at, sizeof ids - at, "%s%u", cpu ? " " : "", apic_ids[cpu]);
    printk("smp: %u CPU%s online (APIC ids %s)\n", cpus_online, cpus_online == 1 ? "" : "s",
           ids);
    if (present != cpus_online)
        printk("smp: WARNING: the machine has %u CPUs (fw_cfg), %u are online\n", present,
               cpus_online);
    return cpus_online;
}

bool arch_send_call_ipi(unsigned cpu) { return lapic_send_ipi(apic_ids[cpu], VEC_IPI_CALL); }

void arch_send_resched_ipi(unsigned cpu) { lapic_send_ipi(apic_ids[cpu], VEC_IPI_RESCHEDULE); }

void arch_send_stop_nmi(unsigned cpu) { lapic_send_nmi(apic_ids[cpu]); }
