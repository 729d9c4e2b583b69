/*
 * idt.c - the interrupt descriptor table: which code runs for each of the 256 vectors.
 */
#include "arch/x86/gdt.h"
#include "arch/x86/trap.h"

#include <stdint.h>

#define GATE_PRESENT 0x80
#define GATE_TASK 0x05
#define GATE_INTERRUPT32 0x0e
#define GATE_DPL(n) ((n) << 5)

struct idt_gate {
    uint16_t offset_low;
    uint16_t selector;
    uint8_t zero;
    uint8_t type_attr;
    uint16_t offset_high;
} __attribute__((packed));

static struct idt_gate idt[256];
extern const uint32_t trap_stub_table[256];

/* An interrupt gate clears IF on entry, so handlers start with interrupts off. */
static void set_interrupt_gate(int vector, uint32_t handler, int dpl)
{
    idt[vector].offset_low = handler & 0xffff;
    idt[vector].offset_high = handler >> 16;
    idt[vector].selector = SEL_KERNEL_CODE;
    idt[vector].zero = 0;
    idt[vector].type_attr = GATE_PRESENT | GATE_DPL(dpl) | GATE_INTERRUPT32;
}

/* A task gate makes the CPU switch to the task whose TSS the selector names: all registers
 * of the interrupted context are saved into its TSS, and the new task starts on its own
 * stack. The offset fields are unused. */
static void set_task_gate(int vector, uint16_t tss_selector, int dpl)
{
    idt[vector].offset_low = 0;
    idt[vector].offset_high = 0;
    idt[vector].selector = tss_selector;
    idt[vector].zero = 0;
    idt[vector].type_attr = GATE_PRESENT | GATE_DPL(dpl) | GATE_TASK;
}

void idt_route_to_task(int vector, uint16_t tss_selector, int dpl)
{
    set_task_gate(vector, tss_selector, dpl);
}

void idt_route_to_handler(int vector, int dpl)
{
    set_interrupt_gate(vector, trap_stub_table[vector], dpl);
}

void idt_init(void)
{
    for (int v = 0; v < 256; v++)
        set_interrupt_gate(v, trap_stub_table[v], 0);
    set_task_gate(VEC_DOUBLE_FAULT, SEL_TSS_DOUBLE_FAULT, 0);
    idt_load();
}

/* Every CPU loads the same table: its task gates name selectors, which each CPU resolves
 * in its own GDT (gdt.c), so the gates reach that CPU's own tasks. */
void idt_load(void)
{
    struct {
        uint16_t limit;
        uint32_t base;
    } __attribute__((packed)) idtr = { sizeof idt - 1, (uint32_t)(uintptr_t)idt };
    __asm__ volatile("lidt %0" ::"m"(idtr));
}
