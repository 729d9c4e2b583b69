/*
 * gdt.c - builds each CPU's global descriptor table and main task-state segment.
 *
 * Every CPU has a GDT of its own with the same layout (gdt.h): the same selectors name
 * that CPU's main TSS, double-fault TSS and debug TSS, so the one IDT's task gates work on
 * every CPU, and a task switch marks busy only this CPU's descriptors. The functions below
 * that read or write a descriptor act on the GDT of the CPU that calls them.
 */
#include "arch/x86/gdt.h"

#include "arch/x86/cpu.h"
#include "kernel/arch.h"
#include "kernel/lib/string.h"

/* Access byte bits. */
#define DESC_PRESENT 0x80
#define DESC_DPL3 0x60
#define DESC_CODE_DATA 0x10 /* S bit: code or data, not a system descriptor */
#define DESC_CODE_READ 0x0a
#define DESC_DATA_WRITE 0x02
#define DESC_TSS_AVAILABLE 0x09
#define DESC_TSS_BUSY_BIT 0x02
/* Flags nibble: 4 KiB granularity, 32-bit. */
#define DESC_FLAT_FLAGS 0xc

static uint64_t gdts[MAX_CPUS][GDT_ENTRIES] __attribute__((aligned(8)));
/* The selector arch_cpu_id's LSL reads from memory (one instruction fewer than loading it
 * into a register first). */
const uint16_t sel_cpu_number = SEL_CPU_NUMBER;
struct cpu_tss cpu_main_tss[MAX_CPUS];
#define TSS_OF(n) &cpu_main_tss[n].tss
struct tss *const cpu_tss[MAX_CPUS] = { TSS_OF(0), TSS_OF(1), TSS_OF(2), TSS_OF(3),
                                        TSS_OF(4), TSS_OF(5), TSS_OF(6), TSS_OF(7) };
_Static_assert(MAX_CPUS == 8, "cpu_tss names every CPU's TSS");

/* The GDT of the CPU running this code. */
static inline uint64_t *this_gdt(void) { return gdts[arch_cpu_id()]; }

/* Encodes one descriptor from its base, 20-bit limit, access byte and flags nibble. */
static uint64_t make_descriptor(uint32_t base, uint32_t limit, uint8_t access, uint8_t flags)
{
    uint64_t d = 0;
    d |= limit & 0xffff;
    d |= (uint64_t)(base & 0xffffff) << 16;
    d |= (uint64_t)access << 40;
    d |= (uint64_t)((limit >> 16) & 0xf) << 48;
    d |= (uint64_t)(flags & 0xf) << 52;
    d |= (uint64_t)(base >> 24) << 56;
    return d;
}

/* A TSS descriptor is a system descriptor whose limit covers the 104-byte TSS. */
void gdt_set_tss(int index, struct tss *tss)
{
    this_gdt()[index] = make_descriptor((uint32_t)(uintptr_t)tss, sizeof(struct tss) - 1,
                                 DESC_PRESENT | DESC_TSS_AVAILABLE, 0);
}

/* Reads back a descriptor's base; checks the type so a stray selector gives 0. */
struct tss *gdt_tss_of(uint16_t selector)
{
    int index = selector >> 3;
    if (index <= 0 || index >= GDT_ENTRIES)
        return 0;
    uint64_t d = this_gdt()[index];
    uint8_t type = (d >> 40) & 0x1f;
    if ((type & ~DESC_TSS_BUSY_BIT) != DESC_TSS_AVAILABLE)
        return 0;
    uint32_t base = (uint32_t)((d >> 16) & 0xffffff) | (uint32_t)((d >> 56) << 24);
    return (struct tss *)(uintptr_t)base;
}

bool gdt_data_selector_ok(uint16_t selector)
{
    int index = selector >> 3;
    /* An LDT selector: the LDTR is null from boot (gdt_init) and every TSS names the null
     * LDT, so loading one faults. No process is given an LDT (there is no modify_ldt). */
    if (selector & SEL_TI_LDT)
        return false;
    if (index <= 0 || index >= GDT_ENTRIES)
        return false;
    uint64_t d = this_gdt()[index];
    uint8_t access = (uint8_t)(d >> 40);
    unsigned dpl = (access >> 5) & 3, rpl = selector & 3;
    /* Present, code-or-data (S bit), and data or readable code; a data segment's DPL must
     * not be below the selector's RPL (the rule the CPU checks when loading DS..GS). */
    bool present = access & DESC_PRESENT, code_data = access & DESC_CODE_DATA;
    bool readable = !(access & 0x08) || (access & 0x02);
    return present && code_data && readable && dpl >= rpl;
}

void gdt_set_data_segment(int index, bool present)
{
    this_gdt()[index] = make_descriptor(0, 0xfffff, (present ? DESC_PRESENT : 0) | DESC_CODE_DATA |
                                 DESC_DATA_WRITE, DESC_FLAT_FLAGS);
}

bool gdt_tls_present(unsigned index)
{
    return index - GDT_TLS_FIRST < GDT_TLS_ENTRIES && ((this_gdt()[index] >> 47) & 1);
}

void gdt_load_tls(const uint64_t tls[GDT_TLS_ENTRIES])
{
    for (int i = 0; i < GDT_TLS_ENTRIES; i++)
        this_gdt()[GDT_TLS_FIRST + i] = tls[i];
}

/* Fills a TSS so that switching to it starts entry in ring 0 with its own stack. */
void tss_prepare_kernel_task(struct tss *tss, void (*entry)(void), void *stack_top)
{
    memset(tss, 0, sizeof *tss);
    tss->cr3 = read_cr3();
    tss->eip = (uint32_t)(uintptr_t)entry;
    tss->eflags = 0x2; /* reserved bit 1 set, interrupts off */
    tss->esp = (uint32_t)(uintptr_t)stack_top;
    tss->cs = SEL_KERNEL_CODE;
    tss->ss = tss->ds = tss->es = tss->fs = tss->gs = SEL_KERNEL_DATA;
    tss->ss0 = SEL_KERNEL_DATA;
    tss->esp0 = (uint32_t)(uintptr_t)stack_top;
    tss->ldt = 0; /* a switch to this task loads the null LDT */
    tss->iomap_base = sizeof(struct tss); /* no I/O permission bitmap */
}

/* Builds CPU cpu's GDT (ring 0 and ring 3 flat segments and TSS descriptors only: no call
 * gate, no 16-bit segment, nothing else ring 3 could load, and the CPU-number descriptor)
 * and loads it, its main TSS and the null LDT. The CPU and the boot loader leave the LDTR
 * as they like (QEMU's reset value is base 0, limit 0xffff: LDT selectors would name bytes
 * of low memory); from here on every TI=1 selector faults. Runs on cpu itself. */
void gdt_init_cpu(unsigned cpu)
{
    uint64_t *gdt = gdts[cpu];
    gdt[0] = 0;
    gdt[SEL_KERNEL_CODE >> 3] = make_descriptor(0, 0xfffff, DESC_PRESENT | DESC_CODE_DATA | DESC_CODE_READ | 0x08, DESC_FLAT_FLAGS);
    gdt[SEL_KERNEL_DATA >> 3] = make_descriptor(0, 0xfffff, DESC_PRESENT | DESC_CODE_DATA | DESC_DATA_WRITE, DESC_FLAT_FLAGS);
    gdt[SEL_USER_CODE >> 3] = make_descriptor(0, 0xfffff, DESC_PRESENT | DESC_DPL3 | DESC_CODE_DATA | DESC_CODE_READ | 0x08, DESC_FLAT_FLAGS);
    gdt[SEL_USER_DATA >> 3] = make_descriptor(0, 0xfffff, DESC_PRESENT | DESC_DPL3 | DESC_CODE_DATA | DESC_DATA_WRITE, DESC_FLAT_FLAGS);
    /* arch_cpu_id() reads this descriptor's limit with LSL (arch/x86/arch_inline.h): a
     * ring-0 data segment of cpu + 1 bytes that nothing ever loads. */
    gdt[SEL_CPU_NUMBER >> 3] = make_descriptor(0, cpu, DESC_PRESENT | DESC_CODE_DATA | DESC_DATA_WRITE, 0);

    /* The main TSS: the context the kernel runs in. Its ring-0 stack fields are set when
     * user mode exists; its register fields are written by the CPU on a task switch away;
     * its CR3 is loaded on a switch back to it (the int3 snapshot's iret), so it starts as
     * the directory this CPU runs on now. */
    struct tss *tss = &cpu_main_tss[cpu].tss;
    memset(tss, 0, sizeof *tss);
    tss->ss0 = SEL_KERNEL_DATA;
    tss->cr3 = read_cr3();
    tss->ldt = 0; /* a task switch back to the kernel loads the null LDT */
    /* The I/O bitmaps (ioport.c): no port for ring 3 until a task with ioperm or iopl(3)
     * runs here. The segment's limit covers them both. */
    tss->iomap_base = TSS_IO_NONE;
    memset(cpu_main_tss[cpu].io_bitmap, 0xff, sizeof cpu_main_tss[cpu].io_bitmap);
    memset(cpu_main_tss[cpu].io_all, 0, IO_BITMAP_BYTES);
    cpu_main_tss[cpu].io_all[IO_BITMAP_BYTES] = 0xff;
    gdt[SEL_TSS_MAIN >> 3] = make_descriptor((uint32_t)(uintptr_t)tss, TSS_IO_LIMIT,
                                             DESC_PRESENT | DESC_TSS_AVAILABLE, 0);

    struct {
        uint16_t limit;
        uint32_t base;
    } __attribute__((packed)) gdtr = { sizeof gdts[cpu] - 1, (uint32_t)(uintptr_t)gdt };

    __asm__ volatile("lgdt %0\n\t"
                     "ljmp %1, $1f\n"
                     "1:\n\t"
                     "mov %2, %%ax\n\t"
                     "mov %%ax, %%ds\n\t"
                     "mov %%ax, %%es\n\t"
                     "mov %%ax, %%fs\n\t"
                     "mov %%ax, %%gs\n\t"
                     "mov %%ax, %%ss\n\t"
                     "ltr %w3\n\t"
                     "lldt %w4"
                     :
                     : "m"(gdtr), "i"(SEL_KERNEL_CODE), "i"(SEL_KERNEL_DATA), "r"(SEL_TSS_MAIN),
                       "r"(0)
                     : "eax", "memory");
}

void gdt_init(void) { gdt_init_cpu(0); }
