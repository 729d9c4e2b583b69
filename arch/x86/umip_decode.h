/*
 * umip_decode.h - decoding sgdt, sidt, smsw, sldt and str (0F 01 /0 /1 /4, 0F 00 /0 /1)
 * with their prefixes and 32-bit memory operand, for arch/x86/umip.c. Portable.
 */
#ifndef ARCH_X86_UMIP_DECODE_H
#define ARCH_X86_UMIP_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#define UMIP_INSN_MAX 15 /* the longest x86 instruction */

struct umip_insn {
    int length;
    bool operand16;       /* 0x66 prefix */
    int segment;          /* override prefix's register (0..5: ES CS SS DS FS GS) or -1 */
    uint8_t opcode2;      /* 0x01 or 0x00, after 0x0f */
    uint8_t mod, reg, rm;
    uint32_t address;     /* memory operand's offset (mod != 3) */
    bool stack_default;   /* the default segment is SS (EBP or ESP as base) */
};

/* Decodes the first instruction of code (n bytes readable) when it is 0F 00 /r or 0F 01 /r
 * after prefixes 66, F2, F3, 26 2E 36 3E 64 65. regs are the interrupted code's registers
 * in ModRM order (EAX ECX EDX EBX ESP EBP ESI EDI), for the memory operand's address.
 * False for any other instruction, a 67 or F0 prefix, or one that does not fit in n or 15
 * bytes. On true, in->length <= n and <= 15. */
bool umip_decode(const uint8_t *code, int n, const uint32_t regs[8], struct umip_insn *in);

#endif
