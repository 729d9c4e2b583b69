/*
 * umip.c - answering sgdt, sidt, smsw, str and sldt from ring 3 when UMIP is on, as Linux's
 * arch/x86/kernel/umip.c does for 32-bit processes (str and sldt since Linux 5.10).
 *
 * With CR4.UMIP the five instructions that reveal the kernel's tables and CR0 fault in
 * ring 3. Old programs (Wine, DOSEMU) execute them, so Linux emulates all five with fixed
 * dummy results: the GDT at 0xfffe0000 and the IDT at 0xffff0000, both with limit 0; CR0
 * as set at boot (PE MP ET NE WP AM PG); TR = i386 Linux's TSS selector (GDT entry 16,
 * 0x80); LDTR = 0 (a process has no LDT). The instruction is read from user memory with
 * copy_from_user (as much of 15 bytes as is mapped), decoded by umip_decode.c (prefixes,
 * 0F 00 /r and 0F 01 /r, ModRM, SIB, 32-bit addressing), and its memory operand written
 * with copy_to_user: a bad operand address is SIGSEGV/SEGV_MAPERR at that address, as in
 * Linux.
 *
 * Departure: a 16-bit address size (prefix 0x67) is not decoded; such an sgdt stays a #GP.
 */
#include "arch/x86/umip.h"

#include "arch/x86/umip_decode.h"

#include "arch/x86/cpu.h"
#include "arch/x86/gdt.h"
#include "arch/x86/signal_frame.h"
#include "kernel/log/printk.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"

#define CR4_UMIP (1u << 11)
#define DUMMY_GDT_BASE 0xfffe0000u
#define DUMMY_IDT_BASE 0xffff0000u
/* CR0 as a 32-bit kernel sets it at boot: PE MP ET NE WP AM PG. */
#define DUMMY_CR0 0x80050033u
/* i386 Linux's TR: its GDT_ENTRY_TSS (16) times 8. */
#define DUMMY_TR (16u * 8u)
/* LDTR: a process never has an LDT here (no modify_ldt), so the null selector. */
#define DUMMY_LDTR 0u

static bool umip_on; /* set once at boot, before any process runs */

bool umip_enabled(void) { return umip_on; }

static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    __asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}

void umip_init(void)
{
    uint32_t r[4];
    cpuid(0, 0, r);
    if (r[0] >= 7) {
        cpuid(7, 0, r);
        umip_on = r[2] & (1u << 2);
    }
    if (umip_on)
        write_cr4(read_cr4() | CR4_UMIP);
    printk("umip: %s\n", umip_on ? "enabled (sgdt, sidt, smsw, str and sldt from ring 3 are emulated)"
                                 : "not supported by this CPU");
}

/* Register n (ModRM numbering: EAX ECX EDX EBX ESP EBP ESI EDI) of the interrupted code. */
static uint32_t *user_reg(struct trap_frame *tf, int n)
{
    switch (n) {
    case 0: return &tf->eax;
    case 1: return &tf->ecx;
    case 2: return &tf->edx;
    case 3: return &tf->ebx;
    case 4: return &tf->user_esp;
    case 5: return &tf->ebp;
    case 6: return &tf->esi;
    default: return &tf->edi;
    }
}

/* The base of the segment the operand is addressed through: 0 for the user segments, -1
 * (not emulated: the CPU would fault) for a null or any other selector. */
static bool segment_usable(const struct trap_frame *tf, const struct umip_insn *in)
{
    uint32_t sel;
    switch (in->segment) {
    case 0: sel = tf->es; break;
    case 1: sel = tf->cs; break;
    case 2: sel = tf->user_ss; break;
    case 3: sel = tf->ds; break;
    case 4: sel = tf->fs; break;
    case 5: sel = tf->gs; break;
    default: sel = in->stack_default ? tf->user_ss : tf->ds; break;
    }
    uint16_t s = (uint16_t)(sel | 3);
    return s == SEL_USER_DATA || s == SEL_USER_CODE;
}

bool umip_emulate(struct trap_frame *tf)
{
    if (!umip_on || !trap_from_user(tf))
        return false;
    uint8_t code[UMIP_INSN_MAX];
    int n = 0;
    while (n < UMIP_INSN_MAX && copy_from_user(code + n, tf->eip + (uint32_t)n, 1) == 0)
        n++;
    uint32_t regs[8];
    for (int r = 0; r < 8; r++)
        regs[r] = *user_reg(tf, r);
    struct umip_insn in;
    if (!umip_decode(code, n, regs, &in))
        return false;
    uint8_t result[6];
    uint32_t size;
    if (in.opcode2 == 0x01 && (in.reg == 0 || in.reg == 1)) { /* sgdt, sidt: memory only */
        if (in.mod == 3)
            return false;
        uint32_t base = in.reg == 0 ? DUMMY_GDT_BASE : DUMMY_IDT_BASE;
        memset(result, 0, 2); /* limit 0 */
        memcpy(result + 2, &base, 4);
        size = 6;
    } else if ((in.opcode2 == 0x01 && in.reg == 4) || (in.opcode2 == 0x00 && in.reg <= 1)) {
        /* smsw, sldt (0f 00 /0), str (0f 00 /1): one value; a register gets as many bytes
         * as the operand size (4 zero-extends it, 2 keeps the high half), memory 2 bytes */
        uint32_t value = in.opcode2 == 0x01 ? DUMMY_CR0 : in.reg == 0 ? DUMMY_LDTR : DUMMY_TR;
        if (in.mod == 3) {
            uint32_t *r = user_reg(tf, in.rm);
            *r = in.operand16 ? (*r & 0xffff0000u) | (value & 0xffff) : value;
            tf->eip += (uint32_t)in.length;
            return true;
        }
        memcpy(result, &value, 2);
        size = 2;
    } else {
        return false;
    }
    if (!segment_usable(tf, &in))
        return false;
    if (copy_to_user(in.address, result, size)) {
        struct fault_info fi = { .signo = SIGSEGV, .code = SEGV_MAPERR, .addr = in.address,
                                 .trapno = 14, .err = 0x6 /* user, write */, .cr2 = in.address };
        signal_force_or_die(tf, &fi, "umip result not writable");
        return true;
    }
    tf->eip += (uint32_t)in.length;
    return true;
}
