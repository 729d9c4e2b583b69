/*
 * mmio_decode.h - what does the instruction that faulted on an MMIO page do to memory?
 *
 * mmiotrace makes every page of a traced device mapping not-present, so each access a driver
 * makes page-faults. The fault handler decodes the faulting instruction with mmio_decode(),
 * performs the device accesses itself (reads before, writes after) and single-steps the
 * instruction against a RAM shadow page, so the CPU computes results and flags. The decoder
 * therefore never needs register values or results: it says exactly how long the instruction
 * is, which memory operands it touches, how to form their addresses, how wide they are and
 * whether each is read, written or both. Whatever it does not fully understand it reports as
 * unsupported; the tracer then logs UNKNOWN and runs the instruction natively.
 *
 * 32-bit protected mode with flat segments is assumed. The supported instructions are listed
 * at the top of arch/x86/mmio_decode.c. Portable: tests/unit/test_mmio_decode.c and
 * tests/fuzz/fuzz_mmio_decode.c.
 */
#ifndef ARCH_X86_MMIO_DECODE_H
#define ARCH_X86_MMIO_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MMIO_INSN_MAX 15    /* the CPU's limit on an instruction's length, prefixes included */

/* The general registers in ModRM/SIB encoding order, which is also the index into regs[]. */
enum mmio_reg {
    MMIO_EAX, MMIO_ECX, MMIO_EDX, MMIO_EBX, MMIO_ESP, MMIO_EBP, MMIO_ESI, MMIO_EDI,
    MMIO_NOREG = -1
};

struct mmio_operand {
    /* address = base + index*scale + disp (32-bit wraparound). String operands are plain
     * [ESI] or [EDI]: base ESI/EDI, no index, disp 0. */
    int8_t base, index;     /* enum mmio_reg or MMIO_NOREG */
    uint8_t scale;          /* 1, 2, 4 or 8; 1 when there is no index */
    int32_t disp;
    uint8_t width;          /* bytes accessed: 1, 2 or 4 */
    bool read, write;       /* read-modify-write: both */
    /* bt/bts/btr/btc with a register bit offset address memory beyond the operand: the
     * address moves by floor(offset / (width*8)) * width, where offset is that register's
     * value read as a signed number of the operand's width. MMIO_NOREG if not such a form. */
    int8_t bitoffset_reg;
};

struct mmio_insn {
    uint8_t length;         /* bytes, prefixes included (1..15) */
    uint8_t noperands;      /* 1, or 2 for movs/cmps: source [ESI] first, then [EDI] */
    struct mmio_operand op[2];
    bool string;            /* movs/stos/lods/cmps/scas: operands step by DF after each item */
    uint8_t rep;            /* string forms only: 0, 0xF3 (rep/repe) or 0xF2 (repne) */
    uint8_t opcode[3];      /* the first bytes after the prefixes (zero where not available) */
};

/* Decodes the instruction in code[0..avail), never reading past avail. Returns 0, or -1 if
 * it is not an instruction we support. On -1, opcode holds what bytes there were, and length
 * is the instruction's length if the decoder could tell it from bytes within avail (an
 * operand in a register, say), else 0. */
int mmio_decode(const uint8_t *code, size_t avail, struct mmio_insn *insn);

/* Operand i's linear address (i < insn->noperands) from the eight general registers as they
 * were before the instruction, indexed by enum mmio_reg; applies the bt bit-offset move. */
uint32_t mmio_operand_address(const struct mmio_insn *insn, int i, const uint32_t regs[8]);

#endif
