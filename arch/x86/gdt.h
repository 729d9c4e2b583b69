/*
 * gdt.h - segment descriptors and task-state segments.
 *
 * The GDT holds flat 4 GiB code and data segments for ring 0 and ring 3, and one descriptor
 * per task-state segment (TSS). The LDT is null from boot, and every TSS names the null LDT,
 * so a task switch never loads another: no selector with TI=1 can be loaded by anyone. x86 needs a TSS even without hardware task switching: it
 * tells the CPU which stack to use when an interrupt arrives in ring 3. We also use hardware
 * task switching for real: a task gate in the IDT makes the CPU save every register of the
 * interrupted code into its TSS and load a fresh context from another TSS, which is how the
 * double-fault handler gets a good stack when the kernel stack is gone (and how the int3
 * snapshotter of a later chapter captures CPU state).
 */
#ifndef ARCH_X86_GDT_H
#define ARCH_X86_GDT_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/x86/arch_inline.h" /* arch_cpu_id, SEL_CPU_NUMBER */

/* Selectors (index << 3 | table indicator | requested privilege level). */
#define SEL_KERNEL_CODE 0x08
#define SEL_KERNEL_DATA 0x10
#define SEL_USER_CODE (0x18 | 3)
#define SEL_USER_DATA (0x20 | 3)
#define SEL_TSS_MAIN 0x28
/* Slots 6..8: each process's three TLS descriptors (set_thread_area), as Linux i386's
 * GDT_ENTRY_TLS_MIN..MAX, so that ring 3 loads them as 0x33, 0x3b and 0x43. */
#define GDT_TLS_FIRST 6
#define GDT_TLS_ENTRIES 3
#define SEL_TSS_DOUBLE_FAULT 0x48
#define SEL_TSS_DEBUG 0x50 /* the int3 snapshot task (each CPU's own, in its own GDT) */
/* SEL_CPU_NUMBER (0x78, slot 15): a descriptor whose limit is the CPU's number, defined
 * with arch_cpu_id in arch/x86/arch_inline.h. */
#define SEL_TI_LDT 0x4 /* table indicator: the selector names an LDT entry */
#define GDT_ENTRIES 32

/* The 104-byte 32-bit TSS, field for field as the CPU reads and writes it. */
struct tss {
    uint16_t back_link, reserved0; /* selector of the task we interrupted (with EFLAGS.NT) */
    uint32_t esp0;
    uint16_t ss0, reserved1;
    uint32_t esp1;
    uint16_t ss1, reserved2;
    uint32_t esp2;
    uint16_t ss2, reserved3;
    uint32_t cr3, eip, eflags;
    uint32_t eax, ecx, edx, ebx, esp, ebp, esi, edi;
    uint16_t es, reserved4, cs, reserved5, ss, reserved6;
    uint16_t ds, reserved7, fs, reserved8, gs, reserved9;
    uint16_t ldt, reserved10;
    uint16_t trap_on_switch, iomap_base;
} __attribute__((packed));

_Static_assert(sizeof(struct tss) == 104, "the CPU's TSS is 104 bytes");

/* Each CPU's main TSS and, inside its segment limit, the two I/O permission bitmaps ring 3
 * may be given (arch/x86/ioport.c, issue 23): a clear bit lets ring 3 use its port. The
 * TSS's iomap_base names one of them, or points past the limit (TSS_IO_NONE) so that every
 * port faults. Each ends with a byte of ones, which the CPU reads for an access that
 * reaches past port 0xffff. main_tss is the running CPU's TSS. */
#define IO_BITMAP_BYTES (0x10000 / 8)
struct cpu_tss {
    struct tss tss;
    uint8_t io_bitmap[IO_BITMAP_BYTES + 1]; /* a copy of the running task's ioperm ports */
    uint8_t io_all[IO_BITMAP_BYTES + 1];    /* all zero: every port (iopl(3)) */
} __attribute__((aligned(128))); /* the 104 bytes never cross a page */
#define TSS_IO_BITMAP ((uint16_t)__builtin_offsetof(struct cpu_tss, io_bitmap))
#define TSS_IO_ALL ((uint16_t)__builtin_offsetof(struct cpu_tss, io_all))
#define TSS_IO_LIMIT (TSS_IO_ALL + IO_BITMAP_BYTES) /* the last byte inside the segment */
#define TSS_IO_NONE ((uint16_t)(TSS_IO_LIMIT + 1))  /* past the limit: no port allowed */
_Static_assert(TSS_IO_BITMAP == sizeof(struct tss), "the bitmap follows the TSS");
_Static_assert(TSS_IO_NONE > TSS_IO_LIMIT && TSS_IO_LIMIT < 0xfffff, "iomap_base past the limit");
extern struct cpu_tss cpu_main_tss[];
/* Each CPU's main TSS by its number, through a table of their addresses: the switch's
 * stores of esp0 and cr3 then cost one load for the address, where indexing 16,512-byte
 * elements would take a shift, an add and a shift. */
extern struct tss *const cpu_tss[];
#define main_tss (*cpu_tss[arch_cpu_id()])

/* Builds the GDT, reloads every segment register and loads the task register with the
 * main TSS. gdt_init: CPU 0, first thing at boot; gdt_init_cpu: an application processor,
 * first thing after its trampoline. */
void gdt_init(void);
void gdt_init_cpu(unsigned cpu);

/* Puts an available 32-bit TSS descriptor for tss at GDT slot index. */
void gdt_set_tss(int index, struct tss *tss);

/* The TSS a selector's GDT descriptor points at, or 0 if it is not a TSS descriptor. */
struct tss *gdt_tss_of(uint16_t selector);

/* True when selector could be loaded into DS, ES, FS or GS now (null aside). Never for an
 * LDT selector: the LDT is null on every CPU path. */
bool gdt_data_selector_ok(uint16_t selector);

/* True when TLS slot index (GDT_TLS_FIRST ..) holds a present descriptor now: the running
 * process's own, loaded at the switch to it (arch/x86/tls.c). */
bool gdt_tls_present(unsigned index);

/* True when selector may be restored into DS, ES, FS or GS on a return to ring 3: null
 * (whatever its RPL), the user code or data segment of the GDT (whatever its RPL: both
 * are DPL 3, so the CPU lets ring 3 load 0x20 as well as 0x23), or one of the running
 * process's TLS slots while it holds a descriptor (set_thread_area only makes ring-3 data
 * segments). Anything else, an LDT selector included, is refused (check_user_segments in
 * arch/x86/trap.c makes it null). Inline and branch-light: it runs on every return to
 * ring 3 whose selectors are not all the user data segment. */
static inline bool gdt_user_data_selector_ok(uint16_t selector)
{
    /* selector >> 2 is the index with the TI bit: 0 (null), 6 (0x18), 8 (0x20); the TLS
     * slots are 12, 14 and 16. */
    unsigned slot = selector >> 2u;
    if (slot <= 8u)
        return (1u << slot) & ((1u << 0) | (1u << (SEL_USER_CODE >> 2)) | (1u << (SEL_USER_DATA >> 2)));
    return !(slot & 1u) && slot >= 2u * GDT_TLS_FIRST && slot < 2u * (GDT_TLS_FIRST + GDT_TLS_ENTRIES) &&
           gdt_tls_present(slot >> 1);
}

/* Loads the three TLS descriptors of the task about to run into slots 6..8 of this CPU's
 * GDT (the CPU that will run it). */
void gdt_load_tls(const uint64_t tls[GDT_TLS_ENTRIES]);

/* Puts a flat writable data segment at GDT slot index, present or not (for tests of what a
 * task switch does with a segment register that has become invalid). */
void gdt_set_data_segment(int index, bool present);

/* Prepares tss to start a kernel task at entry on the given stack, with paging as now and
 * interrupts off. */
void tss_prepare_kernel_task(struct tss *tss, void (*entry)(void), void *stack_top);

#endif
