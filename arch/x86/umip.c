/*
 * umip.c - answering sgdt, sidt and smsw from ring 3 when UMIP is on, as Linux's
 * arch/x86/kernel/umip.c does for 32-bit processes.
 *
 * With CR4.UMIP the five instructions that reveal the kernel's tables and CR0 fault in
 * ring 3. Old programs (Wine, DOSEMU) execute sgdt, sidt and smsw, so Linux emulates those
 * three with fixed dummy results: the GDT at 0xfffe0000 and the IDT at 0xffff0000, both with
 * limit 0, and CR0 as set at boot (PE MP ET NE WP AM PG). str and sldt are not emulated: they
 * stay a #GP, hence SIGSEGV. The instruction is read from user memory with copy_from_user
 * (as much of 15 bytes as is mapped), decoded here (prefixes, 0F 01 /r, ModRM, SIB, 32-bit
 * addressing), and its memory operand written with copy_to_user: a bad operand address is
 * SIGSEGV/SEGV_MAPERR at that address, as in Linux.
 *
 * Departure: a 16-bit address size (prefix 0x67) is not decoded; such an sgdt stays a #GP.
 */
#include "arch/x86/umip.h"

#include "arch/x86/cpu.h"
#include "arch/x86/gdt.h"
#include "arch/x86/signal_frame.h"
#include "kernel/printk.h"
#include "kernel/string.h"
#include "kernel/uaccess.h"

#define CR4_UMIP (1u << 11)
#define INSN_MAX 15
#define DUMMY_GDT_BASE 0xfffe0000u
#define DUMMY_IDT_BASE 0xffff0000u
/* CR0 as a 32-bit kernel sets it at boot: PE MP ET NE WP AM PG. */
#define DUMMY_CR0 0x80050033u

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
    printk("umip: %s\n", umip_on ? "enabled (sgdt, sidt and smsw from ring 3 are emulated)"
                                 : "not supported by this CPU");
}

/* A decoded instruction: what it is and where its operand is. */
struct umip_insn {
    int length;
    bool operand16;       /* 0x66 prefix */
    int segment;          /* override prefix's register (0..5: ES CS SS DS FS GS) or -1 */
    uint8_t opcode2;      /* 0x01 or 0x00, after 0x0f */
    uint8_t mod, reg, rm;
    uint32_t address;     /* memory operand's offset (mod != 3) */
    bool stack_default;   /* the default segment is SS (EBP or ESP as base) */
};

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

/* Decodes the bytes at code (n of them readable) as one instruction of interest; false for
 * anything this file does not emulate or cannot fully read. */
static bool decode(struct trap_frame *tf, const uint8_t *code, int n, struct umip_insn *in)
{
    static const int8_t seg_of_prefix[6][2] = { { 0x26, 0 }, { 0x2e, 1 }, { 0x36, 2 },
                                                { 0x3e, 3 }, { 0x64, 4 }, { 0x65, 5 } };
    int i = 0;
    memset(in, 0, sizeof *in);
    in->segment = -1;
    for (;; i++) {
        if (i >= n)
            return false;
        uint8_t b = code[i];
        bool prefix = true;
        if (b == 0x66)
            in->operand16 = true;
        else if (b == 0xf2 || b == 0xf3)
            ; /* repeat prefixes do not change these instructions */
        else if (b == 0x67 || b == 0xf0)
            return false; /* 16-bit addressing is not decoded; lock is #UD anyway */
        else {
            prefix = false;
            for (int s = 0; s < 6; s++)
                if (b == (uint8_t)seg_of_prefix[s][0])
                    in->segment = seg_of_prefix[s][1], prefix = true;
        }
        if (!prefix)
            break;
    }
    if (i + 3 > n || code[i] != 0x0f || (code[i + 1] != 0x01 && code[i + 1] != 0x00))
        return false;
    in->opcode2 = code[i + 1];
    uint8_t modrm = code[i + 2];
    i += 3;
    in->mod = modrm >> 6, in->reg = (modrm >> 3) & 7, in->rm = modrm & 7;
    if (in->mod != 3) {
        uint32_t addr = 0;
        int base = in->rm;
        if (in->rm == 4) { /* SIB */
            if (i >= n)
                return false;
            uint8_t sib = code[i++];
            int scale = sib >> 6, index = (sib >> 3) & 7;
            base = sib & 7;
            if (index != 4)
                addr += *user_reg(tf, index) << scale;
            if (base == 5 && in->mod == 0)
                base = -1; /* disp32, no base */
        } else if (in->rm == 5 && in->mod == 0) {
            base = -1; /* disp32 alone */
        }
        if (base >= 0) {
            addr += *user_reg(tf, base);
            in->stack_default = base == 4 || base == 5;
        }
        int disp_len = in->mod == 1 ? 1 : (in->mod == 2 || base < 0) ? 4 : 0;
        if (i + disp_len > n)
            return false;
        if (disp_len == 1)
            addr += (uint32_t)(int32_t)(int8_t)code[i];
        else if (disp_len == 4) {
            uint32_t d;
            memcpy(&d, code + i, 4);
            addr += d;
        }
        i += disp_len;
        in->address = addr;
    }
    in->length = i;
    return true;
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
    uint8_t code[INSN_MAX];
    int n = 0;
    while (n < INSN_MAX && copy_from_user(code + n, tf->eip + (uint32_t)n, 1) == 0)
        n++;
    struct umip_insn in;
    if (!decode(tf, code, n, &in) || in.opcode2 != 0x01)
        return false; /* sldt and str (0f 00) are not emulated, as in Linux */
    uint8_t result[6];
    uint32_t size;
    if (in.reg == 0 || in.reg == 1) { /* sgdt, sidt: memory only */
        if (in.mod == 3)
            return false;
        uint32_t base = in.reg == 0 ? DUMMY_GDT_BASE : DUMMY_IDT_BASE;
        memset(result, 0, 2); /* limit 0 */
        memcpy(result + 2, &base, 4);
        size = 6;
    } else if (in.reg == 4) { /* smsw */
        uint32_t cr0 = DUMMY_CR0;
        if (in.mod == 3) { /* a register: as many bytes as the operand size */
            uint32_t *r = user_reg(tf, in.rm);
            *r = in.operand16 ? (*r & 0xffff0000u) | (cr0 & 0xffff) : cr0;
            tf->eip += (uint32_t)in.length;
            return true;
        }
        memcpy(result, &cr0, 2);
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
